package dev.gsym.cli;

/**
 * Parses addresses the way llvm-gsymutil does ({@code StringRef::getAsInteger(0, uint64_t)}): C-style
 * auto radix ({@code 0x}/{@code 0X} hex, {@code 0b}/{@code 0B} binary, {@code 0o} or a leading
 * {@code 0} followed by a digit octal, otherwise decimal), the whole string must be consumed, no
 * sign, no whitespace, and the value must fit in 64 unsigned bits.
 */
final class Addresses {
  private Addresses() {}

  /** The address, or null if {@code s} is not a valid unsigned 64-bit integer. */
  static Long parse(String s) {
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
}
