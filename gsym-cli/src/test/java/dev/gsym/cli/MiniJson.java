package dev.gsym.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of the JSON llvm-symbolizer and gsymutil symbolize print, for tests: objects
 * (members kept in order, so tests can check llvm's key order), arrays, strings, integers. Any
 * other text fails, so malformed output cannot pass.
 */
final class MiniJson {
  private final String s;
  private int i;

  private MiniJson(String s) {
    this.s = s;
  }

  /** The one value in {@code text} (surrounding whitespace allowed). */
  static Object parse(String text) {
    MiniJson p = new MiniJson(text);
    p.ws();
    Object v = p.value();
    p.ws();
    if (p.i != text.length()) throw new IllegalArgumentException("trailing text at " + p.i + ": " + text);
    return v;
  }

  private Object value() {
    char c = peek();
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      default -> number();
    };
  }

  private Map<String, Object> object() {
    expect('{');
    Map<String, Object> m = new LinkedHashMap<>();
    ws();
    if (peek() == '}') {
      i++;
      return m;
    }
    while (true) {
      ws();
      String k = string();
      ws();
      expect(':');
      ws();
      if (m.put(k, value()) != null) throw new IllegalArgumentException("duplicate key " + k);
      ws();
      if (peek() == ',') {
        i++;
        continue;
      }
      expect('}');
      return m;
    }
  }

  private List<Object> array() {
    expect('[');
    List<Object> l = new ArrayList<>();
    ws();
    if (peek() == ']') {
      i++;
      return l;
    }
    while (true) {
      ws();
      l.add(value());
      ws();
      if (peek() == ',') {
        i++;
        continue;
      }
      expect(']');
      return l;
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = s.charAt(i++);
      if (c == '"') return b.toString();
      if (c < 0x20) throw new IllegalArgumentException("raw control character in a string at " + i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(i++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> {
          b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
        }
        default -> throw new IllegalArgumentException("bad escape at " + i);
      }
    }
  }

  private Long number() {
    int start = i;
    while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '-')) i++;
    if (start == i) throw new IllegalArgumentException("unexpected '" + peek() + "' at " + i);
    return Long.parseLong(s.substring(start, i));
  }

  private void ws() {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\n' || s.charAt(i) == '\t' || s.charAt(i) == '\r')) i++;
  }

  private char peek() {
    if (i >= s.length()) throw new IllegalArgumentException("unexpected end");
    return s.charAt(i);
  }

  private void expect(char c) {
    if (peek() != c) throw new IllegalArgumentException("expected '" + c + "' at " + i + ", found '" + peek() + "'");
    i++;
  }
}
