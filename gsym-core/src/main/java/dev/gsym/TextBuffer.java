package dev.gsym;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer for building UTF-8 text without intermediate Strings: hex and decimal
 * numbers are written digit by digit, byte strings are copied, and Strings are encoded as {@link
 * ByteStrings} does (names and paths come out as their original bytes). Reused by clearing it;
 * not thread-safe.
 */
public final class TextBuffer {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private byte[] buf;
  private int len;

  /** An empty buffer of at least {@code capacity} bytes (it grows as needed). */
  public TextBuffer(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  /** Number of bytes held. */
  public int length() {
    return len;
  }

  /** Drops everything after the first {@code length} bytes. */
  public void setLength(int length) {
    if (length < 0 || length > len) throw new IndexOutOfBoundsException(length);
    len = length;
  }

  /** Empties the buffer (keeping its capacity). */
  public void clear() {
    len = 0;
  }

  /** The backing array; bytes {@code [0, length())} are the content. */
  public byte[] array() {
    return buf;
  }

  private void ensure(int more) {
    if (more > buf.length - len) {
      long want = Math.max((long) buf.length * 2, (long) len + more);
      if (want > Integer.MAX_VALUE - 16) throw new OutOfMemoryError("TextBuffer too large");
      buf = Arrays.copyOf(buf, (int) want);
    }
  }

  /** Appends one byte. */
  public TextBuffer append(byte b) {
    ensure(1);
    buf[len++] = b;
    return this;
  }

  /** Appends an ASCII character. */
  public TextBuffer append(char c) {
    return append((byte) c);
  }

  /** Appends the bytes of {@code b}. */
  public TextBuffer append(byte[] b) {
    return append(b, 0, b.length);
  }

  /** Appends {@code n} bytes of {@code b} starting at {@code off}. */
  public TextBuffer append(byte[] b, int off, int n) {
    ensure(n);
    System.arraycopy(b, off, buf, len, n);
    len += n;
    return this;
  }

  /** Appends {@code n} bytes of {@code seg} starting at {@code at}. */
  public TextBuffer append(MemorySegment seg, long at, int n) {
    ensure(n);
    MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, at, buf, len, n);
    len += n;
    return this;
  }

  /** Appends the content of {@code other}. */
  public TextBuffer append(TextBuffer other) {
    return append(other.buf, 0, other.len);
  }

  /** Appends {@code n} copies of the ASCII character {@code c}. */
  public TextBuffer repeat(char c, int n) {
    ensure(n);
    Arrays.fill(buf, len, len + n, (byte) c);
    len += n;
    return this;
  }

  /**
   * Appends {@code s} encoded as {@link ByteStrings} does: UTF-8, with escaped bytes (unpaired
   * U+DC80..U+DCFF) written as the original bytes and other unpaired surrogates as '?'.
   */
  public TextBuffer append(CharSequence s) {
    int n = s.length();
    ensure(n);
    if (n <= 64) {
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (c >= 0x80) return encode(s, i, n);
        buf[len++] = (byte) c;
      }
      return this;
    }
    return encode(s, 0, n); // long texts (dumps): the JDK's array loop is several times faster
  }

  /** Reused by {@link #encode}: chars of the text being encoded, and the encoder. */
  private char[] chars;
  private CharsetEncoder encoder;

  private TextBuffer encode(CharSequence s, int from, int to) {
    int n = to - from;
    if (chars == null || chars.length < n) chars = new char[Math.max(n, 256)];
    if (s instanceof String str) str.getChars(from, to, chars, 0);
    else if (s instanceof StringBuilder sb) sb.getChars(from, to, chars, 0);
    else for (int i = 0; i < n; i++) chars[i] = s.charAt(from + i);
    if (encoder == null) {
      encoder = ByteStrings.CHARSET.newEncoder().onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
    }
    encoder.reset();
    CharBuffer in = CharBuffer.wrap(chars, 0, n);
    ensure(n);
    while (true) {
      ByteBuffer out = ByteBuffer.wrap(buf, len, buf.length - len);
      CoderResult r = encoder.encode(in, out, true);
      if (r.isUnderflow()) r = encoder.flush(out);
      len = out.position();
      if (r.isUnderflow()) return this;
      ensure(Math.max(16, 3 * in.remaining())); // overflow: at most 3 bytes per char remain
    }
  }
  /** Appends "0x" and {@code v} (unsigned) in lower-case hex with at least {@code minDigits} digits. */
  public TextBuffer appendHex(long v, int minDigits) {
    int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 3) >>> 2);
    int width = Math.max(digits, minDigits);
    ensure(width + 2);
    byte[] b = buf;
    int p = len;
    b[p++] = '0';
    b[p++] = 'x';
    for (int i = digits; i < minDigits; i++) b[p++] = '0';
    for (int i = digits - 1; i >= 0; i--) b[p++] = HEX[(int) (v >>> (i << 2)) & 0xf];
    len = p;
    return this;
  }

  /** Appends {@code v} as an unsigned decimal number. */
  public TextBuffer appendUnsigned(long v) {
    if (v < 0) return append(Long.toUnsignedString(v));
    if (v > Integer.MAX_VALUE) return append(Long.toString(v));
    int x = (int) v;
    int digits = x < 10 ? 1 : x < 100 ? 2 : x < 1000 ? 3 : x < 10000 ? 4 : x < 100000 ? 5
        : x < 1000000 ? 6 : x < 10000000 ? 7 : x < 100000000 ? 8 : x < 1000000000 ? 9 : 10;
    ensure(digits);
    int p = len + digits;
    len = p;
    byte[] b = buf;
    do {
      int q = x / 10;
      b[--p] = (byte) ('0' + (x - q * 10));
      x = q;
    } while (x != 0);
    return this;
  }

  /** Writes the content to {@code out} and clears the buffer. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(buf, 0, len);
    len = 0;
  }

  @Override
  public String toString() {
    return ByteStrings.decode(buf, 0, len);
  }
}
