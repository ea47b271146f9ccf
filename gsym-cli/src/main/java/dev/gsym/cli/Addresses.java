package dev.gsym.cli;

/**
 * Parses addresses the way llvm-gsymutil does ({@code StringRef::getAsInteger(0, uint64_t)}): C-style
 * auto radix ({@code 0x}/{@code 0X} hex, {@code 0b}/{@code 0B} binary, {@code 0o} or a leading
 * {@code 0} followed by a digit octal, otherwise decimal), the whole string must be consumed, no
 * sign, no whitespace, and the value must fit in 64 unsigned bits.
 */
public final class Addresses {
  private Addresses() {}

  /** The address, or null if {@code s} is not a valid unsigned 64-bit integer. */
  public static Long parse(String s) {
    int radix = 10;
    int i = 0;
    int n = s.length();
    if (n == 0) return null;
    if (n >= 2 && s.charAt(0) == '0') {
      char c = s.charAt(1);
      if (c == 'x' || c == 'X') {
        radix = 16;
        i = 2;
      } else if (c == 'b' || c == 'B') {
        radix = 2;
        i = 2;
      } else if (c == 'o') {
        radix = 8;
        i = 2;
      } else if (c >= '0' && c <= '9') {
        radix = 8;
        i = 1;
      }
    }
    if (i >= n) return null;
    long value = 0;
    for (; i < n; i++) {
      int d = Character.digit(s.charAt(i), radix);
      if (d < 0 || s.charAt(i) > 0x7f) return null;
      long hi = Math.unsignedMultiplyHigh(value, radix);
      long lo = value * radix;
      if (hi != 0) return null;
      long next = lo + d;
      if (Long.compareUnsigned(next, lo) < 0) return null;
      value = next;
    }
    return value;
  }

  /**
   * Parses the ASCII bytes {@code s[from, to)} like {@link #parse(String)} into {@code out[0]};
   * false if they are not a valid address (bytes above 0x7f never are).
   */
  public static boolean parse(byte[] s, int from, int to, long[] out) {
    int radix = 10;
    int i = from;
    if (to <= from) return false;
    if (to - from >= 2 && s[from] == '0') {
      byte c = s[from + 1];
      if (c == 'x' || c == 'X') {
        radix = 16;
        i = from + 2;
      } else if (c == 'b' || c == 'B') {
        radix = 2;
        i = from + 2;
      } else if (c == 'o') {
        radix = 8;
        i = from + 2;
      } else if (c >= '0' && c <= '9') {
        radix = 8;
        i = from + 1;
      }
    }
    if (i >= to) return false;
    long value = 0;
    for (; i < to; i++) {
      int d = digit(s[i]);
      if (d >= radix) return false;
      long hi = Math.unsignedMultiplyHigh(value, radix);
      long lo = value * radix;
      if (hi != 0) return false;
      long next = lo + d;
      if (Long.compareUnsigned(next, lo) < 0) return false;
      value = next;
    }
    out[0] = value;
    return true;
  }

  /** The value of an ASCII digit or letter (a/A = 10 ... z/Z = 35), or 99. */
  private static int digit(byte b) {
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'z') return b - 'a' + 10;
    if (b >= 'A' && b <= 'Z') return b - 'A' + 10;
    return 99;
  }
}
