package dev.gsym;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The byte-string codec: UTF-8 with every byte that is not part of well-formed UTF-8 escaped. */
@StartsProcesses
class ByteStringsTest {
  @TempDir Path tmp;

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) out[i] = (byte) b[i];
    return out;
  }

  private static String chars(int... c) {
    StringBuilder sb = new StringBuilder();
    for (int x : c) sb.appendCodePoint(x);
    return sb.toString();
  }

  /** Decodes, checks that encoding gives the bytes back, and returns the String. */
  private static String roundTrip(byte[] b) {
    String s = ByteStrings.decode(b);
    assertThat(ByteStrings.encode(s)).as("encode(decode(%s))", HexFormat.of().formatHex(b)).isEqualTo(b);
    assertThat(ByteStrings.canonical(s)).isSameAs(s);
    return s;
  }

  @Test
  void everySingleByte() {
    for (int b = 0; b < 256; b++) {
      String s = roundTrip(bytes(b));
      assertThat(s).hasSize(1);
      assertThat((int) s.charAt(0)).as("byte %02x", b).isEqualTo(b < 0x80 ? b : 0xDC00 + b);
    }
  }

  @Test
  void wellFormedSequencesDecodeAsUtf8() {
    assertThat(roundTrip(bytes(0xC2, 0x80))).isEqualTo(chars(0x80));
    assertThat(roundTrip(bytes(0xC3, 0xA9))).isEqualTo("\u00e9");
    assertThat(roundTrip(bytes(0xDF, 0xBF))).isEqualTo(chars(0x7FF));
    assertThat(roundTrip(bytes(0xE0, 0xA0, 0x80))).isEqualTo(chars(0x800));
    assertThat(roundTrip(bytes(0xE2, 0x82, 0xAC))).isEqualTo("\u20ac");
    assertThat(roundTrip(bytes(0xED, 0x9F, 0xBF))).isEqualTo(chars(0xD7FF));
    assertThat(roundTrip(bytes(0xEE, 0x80, 0x80))).isEqualTo(chars(0xE000));
    assertThat(roundTrip(bytes(0xEF, 0xBF, 0xBD))).isEqualTo("\ufffd"); // a real U+FFFD stays one
    assertThat(roundTrip(bytes(0xEF, 0xBF, 0xBF))).isEqualTo(chars(0xFFFF));
    assertThat(roundTrip(bytes(0xF0, 0x90, 0x80, 0x80))).isEqualTo(chars(0x10000));
    assertThat(roundTrip(bytes(0xF0, 0x9F, 0x98, 0x80))).isEqualTo(chars(0x1F600));
    assertThat(roundTrip(bytes(0xF4, 0x8F, 0xBF, 0xBF))).isEqualTo(chars(0x10FFFF));
    // a pair whose low half lies in the escape range is still a pair
    assertThat(roundTrip(bytes(0xF0, 0x90, 0x82, 0x80))).isEqualTo(chars(0x10080));
  }

  @Test
  void malformedSequencesEscapeEachByte() {
    // truncated
    assertThat(roundTrip(bytes(0xC3))).isEqualTo(chars(0xDCC3));
    assertThat(roundTrip(bytes('a', 0xE2, 0x82, 'b'))).isEqualTo(chars('a', 0xDCE2, 0xDC82, 'b'));
    assertThat(roundTrip(bytes(0xF0, 0x9F, 0x98))).isEqualTo(chars(0xDCF0, 0xDC9F, 0xDC98));
    // overlong forms
    assertThat(roundTrip(bytes(0xC0, 0xAF))).isEqualTo(chars(0xDCC0, 0xDCAF));
    assertThat(roundTrip(bytes(0xC1, 0xBF))).isEqualTo(chars(0xDCC1, 0xDCBF));
    assertThat(roundTrip(bytes(0xE0, 0x80, 0xAF))).isEqualTo(chars(0xDCE0, 0xDC80, 0xDCAF));
    assertThat(roundTrip(bytes(0xF0, 0x8F, 0xBF, 0xBF))).isEqualTo(chars(0xDCF0, 0xDC8F, 0xDCBF, 0xDCBF));
    // encoded surrogates (CESU-8 / Java's modified UTF-8), including those of the escapes themselves
    assertThat(roundTrip(bytes(0xED, 0xA0, 0x80))).isEqualTo(chars(0xDCED, 0xDCA0, 0xDC80));
    assertThat(roundTrip(bytes(0xED, 0xB2, 0x80))).isEqualTo(chars(0xDCED, 0xDCB2, 0xDC80));
    // above U+10FFFF, and bytes that never start a sequence
    assertThat(roundTrip(bytes(0xF4, 0x90, 0x80, 0x80))).isEqualTo(chars(0xDCF4, 0xDC90, 0xDC80, 0xDC80));
    assertThat(roundTrip(bytes(0xF5, 0x80, 0x80, 0x80))).isEqualTo(chars(0xDCF5, 0xDC80, 0xDC80, 0xDC80));
    assertThat(roundTrip(bytes(0xFE, 0xFF))).isEqualTo(chars(0xDCFE, 0xDCFF));
    // a stray continuation byte, then a well-formed sequence right after a broken one
    assertThat(roundTrip(bytes(0x80, 0xC3, 0xC3, 0xA9))).isEqualTo(chars(0xDC80, 0xDCC3, 0xE9));
    // Latin-1 text
    assertThat(roundTrip(bytes('c', 'a', 'f', 0xE9))).isEqualTo(chars('c', 'a', 'f', 0xDCE9));
  }

  @Test
  void unicodeExampleOfMaximalSubparts() {
    // The Unicode Standard 16, section 3.9, table 3-8: U+FFFD per maximal subpart would give
    // "a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd"; every byte of those subparts is escaped instead
    byte[] b = bytes(0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64);
    assertThat(roundTrip(b)).isEqualTo(
        chars('a', 0xDCF1, 0xDC80, 0xDC80, 0xDCE1, 0xDC80, 0xDCC2, 'b', 0xDC80, 'c', 0xDC80, 0xDCBF, 'd'));
  }

  @Test
  void offsetAndLength() {
    byte[] b = bytes('x', 0xC3, 0xA9, 0xE9, 'y');
    assertThat(ByteStrings.decode(b, 1, 3)).isEqualTo(chars(0xE9, 0xDCE9));
    assertThat(ByteStrings.decode(b, 1, 1)).isEqualTo(chars(0xDCC3));
    assertThat(ByteStrings.decode(b, 5, 0)).isEmpty();
  }

  /** Random byte arrays, biased towards bytes that make or break UTF-8 sequences. */
  private static byte[] randomBytes(Random r) {
    byte[] b = new byte[r.nextInt(40)];
    int[] interesting = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
        0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (r.nextBoolean() ? interesting[r.nextInt(interesting.length)] : r.nextInt(256));
    }
    return b;
  }

  @Test
  void randomArraysRoundTrip() {
    Random r = new Random(12);
    for (int i = 0; i < 100_000; i++) {
      byte[] b = randomBytes(r);
      String s = roundTrip(b);
      // the escape chars are exactly the bytes outside well-formed UTF-8: what remains is valid
      StringBuilder valid = new StringBuilder();
      for (int k = 0; k < s.length(); k++) {
        char c = s.charAt(k);
        boolean escape = c >= 0xDC80 && c <= 0xDCFF && (k == 0 || !Character.isHighSurrogate(s.charAt(k - 1)));
        if (!escape) valid.append(c);
      }
      byte[] v = valid.toString().getBytes(StandardCharsets.UTF_8);
      assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo(valid.toString());
      // and the TextBuffer and the charset encode it the same way
      assertThat(encodeWithTextBuffer(s)).isEqualTo(b);
      assertThat(encodeWithCharset(s)).isEqualTo(b);
    }
  }

  /** The same mapping as Python's {@code bytes.decode("utf-8", "surrogateescape")}. */
  @Test
  void sameAsPythonSurrogateEscape() throws Exception {
    Path python = Tools.require(Path.of("/usr/bin/python3"), "/usr/bin/python3");
    Random r = new Random(34);
    List<byte[]> inputs = new ArrayList<>();
    StringBuilder hex = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      byte[] b = randomBytes(r);
      inputs.add(b);
      hex.append(HexFormat.of().formatHex(b)).append('\n');
    }
    Path in = Files.writeString(tmp.resolve("in.txt"), hex);
    Path out = tmp.resolve("out.txt");
    Process p = new ProcessBuilder(python.toString(), "-c", """
        import sys
        for line in open(sys.argv[1]):
            s = bytes.fromhex(line.strip()).decode('utf-8', 'surrogateescape')
            print(' '.join('%x' % ord(c) for c in s))
        """, in.toString()).redirectOutput(out.toFile()).redirectErrorStream(false).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    List<String> lines = Files.readAllLines(out);
    assertThat(lines).hasSize(inputs.size());
    for (int i = 0; i < inputs.size(); i++) {
      StringBuilder cps = new StringBuilder();
      ByteStrings.decode(inputs.get(i)).codePoints().forEach(c -> cps.append(cps.isEmpty() ? "" : " ")
          .append(Integer.toHexString(c)));
      assertThat(cps.toString()).as("decode(%s)", HexFormat.of().formatHex(inputs.get(i))).isEqualTo(lines.get(i));
    }
  }

  @Test
  void otherUnpairedSurrogatesEncodeAsQuestionMarks() {
    assertThat(ByteStrings.encode(chars('a') + "\uD800" + "b")).isEqualTo(bytes('a', '?', 'b'));
    assertThat(ByteStrings.encode("\uDC00\uDC7F\uDD00")).isEqualTo(bytes('?', '?', '?'));
    assertThat(ByteStrings.encode("x\uDBFF")).isEqualTo(bytes('x', '?'));
    assertThat(encodeWithTextBuffer("x\uDBFF")).isEqualTo(bytes('x', '?'));
    assertThat(encodeWithCharset("\uDC00\uDCE9")).isEqualTo(bytes('?', 0xE9));
  }

  @Test
  void canonicalFormOfStringsMadeElsewhere() {
    // escapes of bytes that together are well-formed UTF-8 stand for that character
    String made = chars('c', 'a', 'f', 0xDCC3, 0xDCA9);
    assertThat(ByteStrings.encode(made)).isEqualTo(bytes('c', 'a', 'f', 0xC3, 0xA9));
    assertThat(ByteStrings.canonical(made)).isEqualTo("caf\u00e9");
    assertThat(ByteStrings.canonical("\uD800x")).isEqualTo("?x");
    String plain = "caf\u00e9 \u20ac" + chars(0x1F600);
    assertThat(ByteStrings.canonical(plain)).isSameAs(plain);
  }

  private static byte[] encodeWithTextBuffer(String s) {
    TextBuffer t = new TextBuffer(1);
    t.append(s); // short: char loop; long: the charset's encoder
    t.append(s.repeat(70 / Math.max(1, s.length()) + 1));
    byte[] all = java.util.Arrays.copyOf(t.array(), t.length());
    byte[] one = ByteStrings.encode(s);
    byte[] expected = ByteStrings.encode(s + s.repeat(70 / Math.max(1, s.length()) + 1));
    assertThat(all).isEqualTo(expected);
    assertThat(ByteStrings.decode(all)).isEqualTo(t.toString());
    return one;
  }

  private static byte[] encodeWithCharset(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (PrintStream p = new PrintStream(out, false, ByteStrings.CHARSET)) {
      p.print(s);
    }
    return out.toByteArray();
  }

  @Test
  void streamsThroughTheCharsetInSmallPieces() throws Exception {
    Random r = new Random(56);
    for (int i = 0; i < 2_000; i++) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int k = r.nextInt(8); k >= 0; k--) all.write(randomBytes(r));
      all.write('z'); // a sequence cut off by the end of the input is the one difference, below
      byte[] b = all.toByteArray();
      String expected = ByteStrings.decode(b);
      // decoder: bytes arrive 1..5 at a time, so sequences are split between reads
      CharsetDecoder dec = ByteStrings.CHARSET.newDecoder();
      CharBuffer chars = CharBuffer.allocate(b.length + 8);
      ByteBuffer in = ByteBuffer.allocate(b.length);
      int pos = 0;
      while (pos < b.length) {
        int n = Math.min(b.length - pos, 1 + r.nextInt(5));
        in.put(b, pos, n).flip();
        pos += n;
        CoderResult res = dec.decode(in, chars, pos == b.length);
        assertThat(res.isUnderflow()).isTrue();
        in.compact();
      }
      in.flip();
      assertThat(dec.decode(in, chars, true).isUnderflow()).isTrue();
      assertThat(dec.flush(chars).isUnderflow()).isTrue();
      assertThat(chars.flip().toString()).isEqualTo(expected);
      // the JDK's stream classes
      try (Reader reader = new InputStreamReader(new java.io.ByteArrayInputStream(b), ByteStrings.CHARSET)) {
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[1 + r.nextInt(7)];
        for (int n; (n = reader.read(buf)) >= 0; ) sb.append(buf, 0, n);
        assertThat(sb.toString()).isEqualTo(expected);
      }
      ByteArrayOutputStream back = new ByteArrayOutputStream();
      try (Writer w = new OutputStreamWriter(back, ByteStrings.CHARSET)) {
        for (int k = 0; k < expected.length(); ) {
          int n = Math.min(expected.length() - k, 1 + r.nextInt(5)); // may split a surrogate pair
          w.write(expected, k, n);
          k += n;
        }
      }
      assertThat(back.toByteArray()).isEqualTo(b);
    }
  }

  @Test
  void charsetDecoderAtTheEndOfTheInput() throws Exception {
    // a stray byte at the end is escaped; a well-formed prefix there is malformed input to
    // CharsetDecoder (ByteStrings.decode escapes it)
    for (byte[] b : new byte[][] {bytes('a', 0x80), bytes('a', 0xFF), bytes('a', 0xC0)}) {
      try (Reader reader = new InputStreamReader(new java.io.ByteArrayInputStream(b), ByteStrings.CHARSET)) {
        assertThat(reader.read()).isEqualTo('a');
        assertThat(reader.read()).isEqualTo(0xDC00 + (b[1] & 0xff));
        assertThat(reader.read()).isEqualTo(-1);
      }
    }
    for (byte[] b : new byte[][] {bytes('a', 0xE2, 0x82), bytes('a', 0xE9)}) {
      try (Reader reader = new InputStreamReader(new java.io.ByteArrayInputStream(b), ByteStrings.CHARSET)) {
        assertThat(reader.read()).isEqualTo('a');
        assertThat(reader.read()).isEqualTo(0xFFFD);
        assertThat(reader.read()).isEqualTo(-1);
      }
    }
    assertThat(ByteStrings.decode(bytes('a', 0xE2, 0x82))).isEqualTo(chars('a', 0xDCE2, 0xDC82));
  }

  @Test
  void encoderReportsOverflowAndResumes() {
    CharsetEncoder enc = ByteStrings.CHARSET.newEncoder();
    String s = chars(0xDCE9, 'a', 0x1F600, 0xDC80);
    CharBuffer in = CharBuffer.wrap(s);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer out = ByteBuffer.allocate(1);
    while (true) {
      CoderResult res = enc.encode(in, out, true);
      all.write(out.array(), 0, out.position());
      out.clear();
      if (res.isUnderflow()) break;
      assertThat(res.isOverflow()).isTrue();
      if (in.remaining() > 0 && Character.isHighSurrogate(in.get(in.position()))) out = ByteBuffer.allocate(4);
    }
    assertThat(all.toByteArray()).isEqualTo(bytes(0xE9, 'a', 0xF0, 0x9F, 0x98, 0x80, 0x80));
  }
}
