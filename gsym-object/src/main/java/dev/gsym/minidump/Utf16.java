package dev.gsym.minidump;

import dev.gsym.ByteStrings;
import dev.gsym.io.ByteView;
import java.io.ByteArrayOutputStream;

/**
 * UTF-16 text of minidumps turned into Strings as Breakpad's processor turns it into UTF-8
 * ({@code UTF16ToUTF8}, {@code ConvertUTF16BufferToUTF8String}), so that names compare and print as
 * minidump_dump prints them: a high surrogate must be followed by a low one in U+DC00..U+DCFF and a
 * code unit in U+DC00..U+DCFF may not come alone (either fails the whole string); other code units,
 * U+DD00..U+DFFF included, are encoded one by one. The UTF-8 bytes become a String through {@link
 * ByteStrings}, so bytes that are not well-formed UTF-8 survive.
 */
final class Utf16 {
  private Utf16() {}

  /**
   * The string of {@code units} code units at {@code at} of {@code view}, or null when Breakpad's
   * conversion fails.
   */
  static String decode(ByteView view, long at, int units) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(units);
    for (int i = 0; i < units; i++) {
      int w = view.u16(at + 2L * i);
      int cp;
      if (w >= 0xdc00 && w <= 0xdcff) {
        return null;
      } else if (w >= 0xd800 && w <= 0xdbff) {
        if (++i == units) return null;
        int low = view.u16(at + 2L * i);
        if (low < 0xdc00 || low > 0xdcff) return null;
        cp = ((w - 0xd7c0) << 10) | (low & 0x3ff);
      } else {
        cp = w;
      }
      if (cp < 0x80) {
        out.write(cp);
      } else if (cp < 0x800) {
        out.write(0xc0 | cp >> 6);
        out.write(0x80 | cp & 0x3f);
      } else if (cp < 0x10000) {
        out.write(0xe0 | cp >> 12);
        out.write(0x80 | cp >> 6 & 0x3f);
        out.write(0x80 | cp & 0x3f);
      } else {
        out.write(0xf0 | cp >> 18);
        out.write(0x80 | cp >> 12 & 0x3f);
        out.write(0x80 | cp >> 6 & 0x3f);
        out.write(0x80 | cp & 0x3f);
      }
    }
    return ByteStrings.decode(out.toByteArray());
  }

  /**
   * A fixed-size, NUL-terminated UTF-16 field of {@code bytes} bytes at {@code at}: the code units
   * before the first NUL; "" when the conversion fails (as Breakpad leaves the string empty).
   */
  static String field(ByteView view, long at, int bytes) {
    int n = 0;
    while (n < bytes / 2 && view.u16(at + 2L * n) != 0) n++;
    String s = decode(view, at, n);
    return s == null ? "" : s;
  }
}
