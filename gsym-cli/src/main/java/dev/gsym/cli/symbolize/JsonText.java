package dev.gsym.cli.symbolize;

import dev.gsym.ByteStrings;
import dev.gsym.TextBuffer;

/**
 * JSON text as llvm's {@code json::OStream} writes it, into a {@link TextBuffer}: compact, or with
 * {@code indent} spaces per level and each member and element on its own line; strings quoted as
 * llvm's {@code quote} does ({@code "} and backslash escaped, TAB, LF and CR as backslash t, n, r,
 * other bytes below 0x20 as backslash u00XX, everything else as it is), after llvm's {@code
 * fixUTF8} (each ill-formed UTF-8 subsequence of a name or path becomes U+FFFD). Members are
 * written in the order given: callers give them sorted by key, as llvm prints a {@code
 * json::Object}.
 */
final class JsonText {
  private final TextBuffer out;
  private final int indentSize;
  private int indent;
  /** Per open container: whether it has a value yet (index 0: the top level). */
  private final boolean[] hasValue = new boolean[16];
  private final boolean[] isArray = new boolean[16];
  private int depth;

  /**
   * @param indentSize 0 for compact text
   * @param baseIndent the indentation of the first value (an element of a list the caller frames)
   */
  JsonText(TextBuffer out, int indentSize, int baseIndent) {
    this.out = out;
    this.indentSize = indentSize;
    this.indent = baseIndent;
  }

  JsonText objectBegin() {
    valueBegin();
    push(false);
    out.append('{');
    return this;
  }

  JsonText objectEnd() {
    return close('}');
  }

  JsonText arrayBegin() {
    valueBegin();
    push(true);
    out.append('[');
    return this;
  }

  JsonText arrayEnd() {
    return close(']');
  }

  /** Starts a member; its value follows. */
  JsonText key(String key) {
    if (hasValue[depth]) out.append(',');
    newline();
    hasValue[depth] = true;
    quote(out, key);
    out.append(':');
    if (indentSize > 0) out.append(' ');
    afterKey = true;
    return this;
  }

  JsonText value(String s) {
    valueBegin();
    quote(out, s);
    return this;
  }

  JsonText value(long unsigned) {
    valueBegin();
    out.appendUnsigned(unsigned);
    return this;
  }

  /** A member with a string value. */
  JsonText member(String key, String s) {
    return key(key).value(s);
  }

  /** A member whose value is ready-made JSON text (a string quoted by {@link #quote}). */
  JsonText rawMember(String key, byte[] json) {
    key(key);
    valueBegin();
    out.append(json);
    return this;
  }

  /** A value that is ready-made JSON text (a string quoted by {@link #quote}). */
  JsonText rawValue(byte[] json) {
    valueBegin();
    out.append(json);
    return this;
  }

  /** A member with an unsigned number. */
  JsonText member(String key, long unsigned) {
    return key(key).value(unsigned);
  }

  /** A member whose value is llvm's {@code toHex}: "0x" and lower-case hex digits. */
  JsonText hexMember(String key, long v) {
    key(key);
    valueBegin();
    out.append('"').appendHex(v, 1).append('"');
    return this;
  }

  private boolean afterKey;

  private void valueBegin() {
    if (afterKey) {
      afterKey = false;
      return;
    }
    if (hasValue[depth]) out.append(',');
    if (isArray[depth]) newline();
    hasValue[depth] = true;
  }

  private void push(boolean array) {
    if (depth + 1 >= hasValue.length) throw new IllegalStateException("JSON nested too deep");
    depth++;
    hasValue[depth] = false;
    isArray[depth] = array;
    indent += indentSize;
  }

  private JsonText close(char c) {
    indent -= indentSize;
    if (hasValue[depth]) newline();
    out.append(c);
    depth--;
    return this;
  }

  private void newline() {
    if (indentSize > 0) out.append('\n').repeat(' ', indent);
  }

  /** Appends {@code s} as a JSON string as llvm quotes it (after fixing ill-formed UTF-8). */
  static void quote(TextBuffer out, String s) {
    out.append('"');
    int n = s.length();
    int plain = 0;
    while (plain < n) {
      char c = s.charAt(plain);
      if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
      plain++;
    }
    if (plain == n) {
      out.append(s);
    } else {
      String text = s;
      if (hasSurrogate(s)) {
        // the name's bytes (ByteStrings), decoded as llvm's fixUTF8: U+FFFD per ill-formed subsequence
        text = ByteStrings.wellFormed(s);
      }
      int from = 0;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        if (i > from) out.append(text.subSequence(from, i));
        from = i + 1;
        switch (c) {
          case '"' -> out.append('\\').append('"');
          case '\\' -> out.append('\\').append('\\');
          case '\t' -> out.append('\\').append('t');
          case '\n' -> out.append('\\').append('n');
          case '\r' -> out.append('\\').append('r');
          default -> {
            out.append('\\').append('u').append('0').append('0');
            out.append(HEX[c >> 4]).append(HEX[c & 0xf]);
          }
        }
      }
      if (from < text.length()) out.append(text.subSequence(from, text.length()));
    }
    out.append('"');
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static boolean hasSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) if (Character.isSurrogate(s.charAt(i))) return true;
    return false;
  }
}
