package dev.gsym.demangle;

/**
 * C's {@code printf("%a")} as glibc writes it, for the floating-point literals in Itanium names
 * (llvm prints them with snprintf): {@code 0x1.8p+0}, {@code 0x0.0000000000001p-1022} for
 * subnormals, {@code 0x0p+0}, {@code inf}, {@code -nan}; x87 long doubles with their explicit
 * leading bit as the first hex digit ({@code 0x8p-3} is 1.0). Trailing zero digits are dropped.
 */
final class HexFloat {
  private HexFloat() {}

  /** A float, promoted to double as C's varargs do. */
  static String formatFloat(int bits) {
    int exp = (bits >>> 23) & 0xff;
    if (exp == 0xff) return special(bits < 0, (bits & 0x7fffff) == 0);
    return formatDouble(Double.doubleToRawLongBits(Float.intBitsToFloat(bits)));
  }

  static String formatDouble(long bits) {
    boolean neg = bits < 0;
    int exp = (int) ((bits >>> 52) & 0x7ff);
    long mant = bits & ((1L << 52) - 1);
    if (exp == 0x7ff) return special(neg, mant == 0);
    StringBuilder sb = new StringBuilder(24);
    if (neg) sb.append('-');
    if (exp == 0 && mant == 0) return sb.append("0x0p+0").toString();
    sb.append(exp == 0 ? "0x0" : "0x1");
    appendFraction(sb, mant, 13);
    return appendExponent(sb, exp == 0 ? -1022 : exp - 1023);
  }

  /** An x87 80-bit long double: sign and 15-bit exponent, then the 64-bit significand. */
  static String formatX87(int signExp, long significand) {
    boolean neg = (signExp & 0x8000) != 0;
    int exp = signExp & 0x7fff;
    if (exp == 0x7fff) return special(neg, (significand & Long.MAX_VALUE) == 0);
    StringBuilder sb = new StringBuilder(32);
    if (neg) sb.append('-');
    sb.append("0x").append(Character.forDigit((int) (significand >>> 60), 16));
    appendFraction(sb, significand & 0x0fffffffffffffffL, 15);
    int e;
    if (exp == 0) e = significand == 0 ? 0 : -(16382 + 3);
    else e = exp - (16383 + 3);
    return appendExponent(sb, e);
  }

  private static String special(boolean neg, boolean inf) {
    return (neg ? "-" : "") + (inf ? "inf" : "nan");
  }

  private static void appendFraction(StringBuilder sb, long frac, int digits) {
    if (frac == 0) return;
    while ((frac & 0xf) == 0) {
      frac >>>= 4;
      digits--;
    }
    String hex = Long.toHexString(frac);
    sb.append('.');
    for (int i = hex.length(); i < digits; i++) sb.append('0');
    sb.append(hex);
  }

  private static String appendExponent(StringBuilder sb, int e) {
    return sb.append('p').append(e < 0 ? '-' : '+').append(Math.abs(e)).toString();
  }
}
