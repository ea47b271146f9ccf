package dev.gsym.format;

/** LLVM's HEXn formatting: "0x" plus lower-case hex zero-padded to a minimum number of digits. */
public final class Hex {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private Hex() {}

  /** Appends "0x" and {@code v} (unsigned) with at least {@code minDigits} digits. */
  public static StringBuilder append(StringBuilder sb, long v, int minDigits) {
    int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 3) / 4);
    sb.append('0').append('x');
    for (int i = digits; i < minDigits; i++) sb.append('0');
    for (int i = digits - 1; i >= 0; i--) sb.append(DIGITS[(int) (v >>> (i * 4)) & 0xf]);
    return sb;
  }

  /** {@code v} as "0x" and 2 lower-case hex digits. */
  public static String hex8(long v) {
    return append(new StringBuilder(4), v, 2).toString();
  }

  /** {@code v} as "0x" and 4 lower-case hex digits. */
  public static String hex16(long v) {
    return append(new StringBuilder(6), v, 4).toString();
  }

  /** {@code v} as "0x" and 8 lower-case hex digits. */
  public static String hex32(long v) {
    return append(new StringBuilder(10), v, 8).toString();
  }

  /** {@code v} as "0x" and 16 lower-case hex digits. */
  public static String hex64(long v) {
    return append(new StringBuilder(18), v, 16).toString();
  }

  /** "0x" plus the minimal number of digits (C's {@code 0x%x}). */
  public static String hex(long v) {
    return append(new StringBuilder(18), v, 1).toString();
  }
}
