package dev.gsym.demangle;

import java.nio.charset.StandardCharsets;

/**
 * A view of bytes (C++'s {@code std::string_view}): the demanglers work on the bytes of a name, as
 * llvm does, so a source name's length counts bytes and any byte is copied through unchanged.
 */
record Sv(byte[] bytes, int off, int len) {
  static final Sv EMPTY = new Sv(new byte[0], 0, 0);

  /** A view of an ASCII literal. */
  static Sv of(String ascii) {
    return new Sv(ascii.getBytes(StandardCharsets.ISO_8859_1), 0, ascii.length());
  }

  boolean isEmpty() {
    return len == 0;
  }

  int at(int i) {
    return bytes[off + i] & 0xff;
  }

  boolean startsWith(String ascii) {
    if (ascii.length() > len) return false;
    for (int i = 0; i < ascii.length(); i++) {
      if (at(i) != ascii.charAt(i)) return false;
    }
    return true;
  }

  boolean contentEquals(String ascii) {
    return len == ascii.length() && startsWith(ascii);
  }

  Sv from(int start) {
    return new Sv(bytes, off + start, len - start);
  }

  @Override
  public String toString() {
    return new String(bytes, off, len, StandardCharsets.ISO_8859_1);
  }
}
