package dev.gsym;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The one conversion between the bytes of names and paths (GSYM string tables, DWARF and ELF
 * strings, Breakpad text) and Java Strings.
 *
 * <p>These strings are bytes: LLVM stores and prints whatever the compiler or file wrote, which
 * need not be UTF-8 (a source tree under {@code caf\xE9/}, Latin-1 symbol names). So that every
 * byte survives a trip through a String, decoding is UTF-8 with Python's "surrogateescape":
 * well-formed UTF-8 (Unicode 16, table 3-7: no overlong forms, no encoded surrogates, nothing above
 * U+10FFFF) decodes as usual, and each byte that is not part of a well-formed sequence becomes the
 * unpaired surrogate {@code U+DC00 + byte} (U+DC80..U+DCFF). Encoding is the inverse: unpaired
 * U+DC80..U+DCFF become their byte again, everything else is UTF-8. Other unpaired surrogates, which
 * decoding never produces, become {@code '?'} as with Java's own UTF-8 encoder.
 *
 * <p>{@code encode(decode(b))} equals {@code b} for every byte array, and {@code decode(encode(s))}
 * equals {@code s} for every String that {@code decode} returns, so Strings compare, hash and
 * de-duplicate exactly as their bytes do. ASCII and valid UTF-8 take the JDK's own (intrinsic)
 * paths; only strings with escaped bytes are converted here char by char.
 */
public final class ByteStrings {
  /** {@code decode} of byte {@code b} (0x80..0xFF) that is not part of well-formed UTF-8. */
  private static final int ESCAPE = 0xDC00;

  /**
   * A charset with this class's mapping, for streams ({@code PrintStream}, {@code Writer},
   * {@code Reader}). Its decoder differs from {@link #decode} in one case only: the start of a
   * well-formed sequence cut off by the very end of the input is malformed input (U+FFFD from an
   * {@code InputStreamReader}), as CharsetDecoder does not tell a decoder where the input ends.
   */
  public static final Charset CHARSET = new EscapedUtf8();

  private ByteStrings() {}

  /** The String for {@code bytes}. */
  public static String decode(byte[] bytes) {
    return decode(bytes, 0, bytes.length);
  }

  /** The String for {@code len} bytes of {@code bytes} from {@code off}. */
  public static String decode(byte[] bytes, int off, int len) {
    Objects.checkFromIndexSize(off, len, bytes.length);
    String s = new String(bytes, off, len, StandardCharsets.UTF_8);
    // The JDK replaces malformed input by U+FFFD, so a result without one is exact. For ASCII (a
    // Latin-1-coded String) the search returns at once: U+FFFD is not a Latin-1 char.
    if (s.indexOf('\uFFFD') < 0) return s;
    char[] out = new char[len]; // no byte sequence decodes to more chars than it has bytes
    int n = 0;
    int end = off + len;
    for (int i = off; i < end; ) {
      int b0 = bytes[i] & 0xff;
      int k = b0 < 0x80 ? 1 : wellFormedLength(bytes, i, end);
      switch (k) {
        case 1 -> out[n++] = (char) b0;
        case 2 -> out[n++] = (char) (((b0 & 0x1f) << 6) | (bytes[i + 1] & 0x3f));
        case 3 -> out[n++] = (char) (((b0 & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f));
        case 4 -> {
          int cp = ((b0 & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6)
              | (bytes[i + 3] & 0x3f);
          out[n++] = Character.highSurrogate(cp);
          out[n++] = Character.lowSurrogate(cp);
        }
        default -> {
          out[n++] = (char) (ESCAPE | b0);
          k = 1;
        }
      }
      i += k;
    }
    return new String(out, 0, n);
  }

  /** The bytes of {@code s}. */
  public static byte[] encode(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (Character.isSurrogate(s.charAt(i))) return encodeEscaped(s);
    }
    return s.getBytes(StandardCharsets.UTF_8); // exact without unpaired surrogates
  }

  /**
   * The String that {@code s}'s bytes decode to: {@code s} itself (the same instance) unless it
   * has unpaired surrogates that {@link #decode} would not have produced, e.g. escapes of bytes
   * that together are well-formed UTF-8 (U+DCC3 U+DCA9, the escapes of C3 A9, are U+00E9).
   */
  public static String canonical(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        String c = decode(encodeEscaped(s));
        return c.equals(s) ? s : c;
      }
    }
    return s;
  }

  /**
   * The text of {@code s}'s bytes after {@link #fixUtf8}: {@code s} itself when its bytes are
   * well-formed UTF-8, else a String whose every ill-formed subsequence is one U+FFFD, as llvm's
   * JSON output prints it (for outputs that must be valid Unicode, such as JSON and Parquet).
   */
  public static String wellFormed(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return new String(fixUtf8(encode(s)), StandardCharsets.UTF_8);
      }
    }
    return s;
  }

  private static final byte[] REPLACEMENT = {(byte) 0xef, (byte) 0xbf, (byte) 0xbd};

  /**
   * llvm's {@code json::fixUTF8}: well-formed UTF-8 sequences are kept, and each maximal subpart of
   * an ill-formed one (Unicode 6.3 D93b, as llvm's {@code ConvertUTF8toUTF32} in lenient mode finds
   * it) becomes U+FFFD. (The JDK's decoder replaces an encoded surrogate as one unit, llvm byte by
   * byte.) JSON writers use it, as llvm's do: JSON text must be valid Unicode.
   */
  public static byte[] fixUtf8(byte[] b) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(b.length + 8);
    int i = 0;
    while (i < b.length) {
      int c = b[i] & 0xff;
      int n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : c < 0xfc ? 5 : 6;
      if (n <= b.length - i && legal(b, i, n)) {
        out.write(b, i, n);
        i += n;
      } else {
        out.write(REPLACEMENT, 0, 3);
        i += maximalSubpart(b, i);
      }
    }
    return out.toByteArray();
  }

  /** llvm's {@code isLegalUTF8} for the {@code n} bytes at {@code at}. */
  private static boolean legal(byte[] b, int at, int n) {
    if (n > 4) return false;
    int first = b[at] & 0xff;
    if (n >= 2) {
      for (int k = 1; k < n; k++) {
        int x = b[at + k] & 0xff;
        if (x < 0x80 || x > 0xbf) return false;
      }
      int a = b[at + 1] & 0xff;
      switch (first) {
        case 0xe0 -> {
          if (a < 0xa0) return false;
        }
        case 0xed -> {
          if (a > 0x9f) return false;
        }
        case 0xf0 -> {
          if (a < 0x90) return false;
        }
        case 0xf4 -> {
          if (a > 0x8f) return false;
        }
        default -> {
        }
      }
    }
    if (first >= 0x80 && first < 0xc2) return false;
    return first <= 0xf4;
  }

  /** llvm's {@code findMaximalSubpartOfIllFormedUTF8Sequence}. */
  private static int maximalSubpart(byte[] b, int at) {
    int end = b.length;
    int b1 = b[at] & 0xff;
    if (b1 >= 0xc2 && b1 <= 0xdf) return 1;
    if (at + 1 == end) return 1;
    int b2 = b[at + 1] & 0xff;
    if (b1 == 0xe0) return b2 >= 0xa0 && b2 <= 0xbf ? 2 : 1;
    if (b1 >= 0xe1 && b1 <= 0xec) return b2 >= 0x80 && b2 <= 0xbf ? 2 : 1;
    if (b1 == 0xed) return b2 >= 0x80 && b2 <= 0x9f ? 2 : 1;
    if (b1 >= 0xee && b1 <= 0xef) return b2 >= 0x80 && b2 <= 0xbf ? 2 : 1;
    int lo = b1 == 0xf0 ? 0x90 : 0x80;
    int hi = b1 == 0xf4 ? 0x8f : 0xbf;
    if (b1 >= 0xf0 && b1 <= 0xf4) {
      if (b2 < lo || b2 > hi) return 1;
      if (at + 2 == end) return 2;
      int b3 = b[at + 2] & 0xff;
      return b3 >= 0x80 && b3 <= 0xbf ? 3 : 2;
    }
    return 1;
  }

  private static byte[] encodeEscaped(String s) {
    CharsetEncoder enc = CHARSET.newEncoder().onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
    ByteBuffer out = ByteBuffer.allocate(3 * s.length()); // at most 3 bytes per char
    enc.encode(CharBuffer.wrap(s), out, true);
    enc.flush(out);
    return Arrays.copyOf(out.array(), out.position());
  }

  /**
   * The length of the well-formed multi-byte sequence starting at {@code b[i]} (2, 3 or 4), or 0
   * if the bytes from {@code i} (up to {@code end}) do not start one.
   */
  private static int wellFormedLength(byte[] b, int i, int end) {
    int need = sequenceLength(b[i] & 0xff);
    if (need == 0 || end - i < need) return 0;
    for (int k = 1; k < need; k++) {
      if (!validNext(b[i] & 0xff, k, b[i + k] & 0xff)) return 0;
    }
    return need;
  }

  /** The length of the sequence a lead byte starts (2..4), 0 if it cannot start one. */
  private static int sequenceLength(int lead) {
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if (lead >= 0xE0 && lead <= 0xEF) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
  }

  /** Whether {@code b} may be byte {@code k} (1..3) of a sequence led by {@code lead} (table 3-7). */
  private static boolean validNext(int lead, int k, int b) {
    int lo = 0x80;
    int hi = 0xBF;
    if (k == 1) {
      switch (lead) {
        case 0xE0 -> lo = 0xA0;
        case 0xED -> hi = 0x9F;
        case 0xF0 -> lo = 0x90;
        case 0xF4 -> hi = 0x8F;
        default -> { }
      }
    }
    return b >= lo && b <= hi;
  }

  /** The charset of {@link #CHARSET}. */
  private static final class EscapedUtf8 extends Charset {
    EscapedUtf8() {
      super("x-gsym-utf-8-surrogateescape", null);
    }

    @Override
    public boolean contains(Charset cs) {
      return cs == this || StandardCharsets.UTF_8.contains(cs);
    }

    @Override
    public CharsetDecoder newDecoder() {
      return new Decoder(this);
    }

    @Override
    public CharsetEncoder newEncoder() {
      return new Encoder(this);
    }
  }

  /**
   * The JDK's UTF-8 encoder (array loops, ASCII intrinsics) does the work; the unpaired surrogates
   * it reports as malformed are escaped bytes if in U+DC80..U+DCFF and passed on as malformed
   * otherwise.
   */
  private static final class Encoder extends CharsetEncoder {
    private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    Encoder(Charset cs) {
      super(cs, 1.1f, 3f);
    }

    @Override
    protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
      while (true) {
        // endOfInput false: a high surrogate at the end waits for its pair (or becomes malformed
        // when this encoder's caller ends the input)
        CoderResult r = utf8.encode(in, out, false);
        if (!r.isMalformed()) return r;
        char c = in.get(in.position());
        if (c < 0xDC80 || c > 0xDCFF) return r;
        if (!out.hasRemaining()) return CoderResult.OVERFLOW;
        in.position(in.position() + 1);
        out.put((byte) c);
      }
    }

    @Override
    protected void implReset() {
      utf8.reset();
    }
  }

  /**
   * Decodes as {@link #decode}. A well-formed prefix at the end of the buffer is left for the next
   * call, as decoders do; at the end of the input, CharsetDecoder applies its malformed-input action
   * to it (a decoder is not told where the input ends).
   */
  private static final class Decoder extends CharsetDecoder {
    Decoder(Charset cs) {
      super(cs, 1f, 1f);
    }

    @Override
    protected CoderResult decodeLoop(ByteBuffer in, CharBuffer out) {
      while (in.hasRemaining()) {
        int p = in.position();
        int lead = in.get(p) & 0xff;
        int need = lead < 0x80 ? 1 : sequenceLength(lead);
        int k = 1;
        while (k < need && p + k < in.limit() && validNext(lead, k, in.get(p + k) & 0xff)) k++;
        if (k == need) {
          int cp = need == 1 ? lead : lead & (0xff >>> (need + 1));
          for (int i = 1; i < need; i++) cp = (cp << 6) | (in.get(p + i) & 0x3f);
          if (out.remaining() < Character.charCount(cp)) return CoderResult.OVERFLOW;
          if (cp < 0x10000) out.put((char) cp);
          else out.put(Character.highSurrogate(cp)).put(Character.lowSurrogate(cp));
          in.position(p + need);
        } else if (need > 0 && p + k == in.limit()) {
          return CoderResult.UNDERFLOW; // cut by the end of the buffer: more may follow
        } else {
          // not well-formed: the lead is escaped, the continuation bytes after it are next
          if (!out.hasRemaining()) return CoderResult.OVERFLOW;
          out.put((char) (ESCAPE | lead));
          in.position(p + 1);
        }
      }
      return CoderResult.UNDERFLOW;
    }
  }
}
