package dev.gsym.breakpad;

import java.util.HexFormat;
import java.util.Locale;

/**
 * The rule between Breakpad module identifiers and the GSYM header UUID (see docs/breakpad.md).
 *
 * <ul>
 *   <li>{@code INFO CODE_ID <hex>} with an even number of 2..40 hex digits is the UUID as is (on
 *       Linux the full GNU build-id).
 *   <li>Otherwise the {@code MODULE} id: its first 32 hex digits are a GUID in text form; on
 *       {@code mac}/{@code ios} the bytes are taken in text order, elsewhere (Linux, windows, ...)
 *       the first three GUID fields are byte-swapped back to memory order, which for Linux gives
 *       the first 16 bytes of the build-id. The trailing age digits are dropped. An all-zero id
 *       means "no UUID".
 * </ul>
 */
public final class BreakpadIds {
  private BreakpadIds() {}

  /** The UUID bytes of a CODE_ID value, or null if it is not 1..20 bytes of hex. */
  public static byte[] fromCodeId(String codeId) {
    String hex = firstToken(codeId);
    if (hex.isEmpty() || hex.length() % 2 != 0 || hex.length() > 40 || !isHex(hex)) return null;
    return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
  }

  /** The UUID bytes of a MODULE id, or null if it has fewer than 32 hex digits or is all zero. */
  public static byte[] fromModuleId(String os, String id) {
    if (id.length() < 32 || !isHex(id.substring(0, 32))) return null;
    byte[] b = HexFormat.of().parseHex(id.substring(0, 32).toLowerCase(Locale.ROOT));
    boolean zero = true;
    for (byte x : b) zero &= x == 0;
    if (zero) return null;
    if (!isMac(os)) swapGuid(b);
    return b;
  }

  /** The MODULE id for a UUID: 16 bytes (zero-padded) as a GUID in upper case plus age "0". */
  public static String moduleId(String os, byte[] uuid) {
    return moduleId(uuid, !isMac(os));
  }

  /**
   * The MODULE id of an identifier: its first 16 bytes (zero-padded), with the first three GUID
   * fields byte-swapped if {@code swap}, in upper-case hex, plus age "0".
   */
  public static String moduleId(byte[] id, boolean swap) {
    byte[] b = new byte[16];
    System.arraycopy(id, 0, b, 0, Math.min(16, id.length));
    if (swap) swapGuid(b);
    return HexFormat.of().withUpperCase().formatHex(b) + "0";
  }

  /** The CODE_ID text for a UUID (upper-case hex), or null for an empty UUID. */
  public static String codeId(byte[] uuid) {
    return uuid.length == 0 ? null : HexFormat.of().withUpperCase().formatHex(uuid);
  }

  private static boolean isMac(String os) {
    return os.equalsIgnoreCase("mac") || os.equalsIgnoreCase("ios");
  }

  private static void swapGuid(byte[] b) {
    swap(b, 0, 3);
    swap(b, 1, 2);
    swap(b, 4, 5);
    swap(b, 6, 7);
  }

  private static void swap(byte[] b, int i, int j) {
    byte t = b[i];
    b[i] = b[j];
    b[j] = t;
  }

  private static String firstToken(String s) {
    int sp = s.indexOf(' ');
    return sp < 0 ? s : s.substring(0, sp);
  }

  private static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0 || s.charAt(i) > 'f') return false;
    }
    return true;
  }
}
