package dev.gsym.symbolize;

/** Small text helpers for messages about untrusted values. */
final class Texts {
  /** Characters of an untrusted value quoted in a message. */
  static final int QUOTE_LIMIT = 64;

  private Texts() {}

  /**
   * {@code s} in double quotes for an error message: at most {@link #QUOTE_LIMIT} characters
   * (then "…" and the full length), control characters as {@code \xNN}.
   */
  static String quote(String s) {
    if (s == null) return "null";
    int n = Math.min(s.length(), QUOTE_LIMIT);
    StringBuilder sb = new StringBuilder(n + 24).append('"');
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) sb.append(String.format("\\x%02x", (int) c));
      else sb.append(c);
    }
    sb.append('"');
    if (s.length() > n) sb.append("… (").append(s.length()).append(" characters)");
    return sb.toString();
  }

  static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) return false;
    }
    return true;
  }

  /** A message for a failure: the exception's message, else its class name. */
  static String message(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isEmpty() ? t.getClass().getSimpleName() : m;
  }
}
