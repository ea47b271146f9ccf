package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BreakpadParserTest {
  static List<BreakpadRecord> parse(String text) throws IOException {
    List<BreakpadRecord> out = new ArrayList<>();
    try (BreakpadParser p = new BreakpadParser(new StringReader(text), "t.sym")) {
      for (BreakpadRecord r; (r = p.next()) != null; ) out.add(r);
    }
    return out;
  }

  @Test
  void everyRecordType() throws IOException {
    String text = """
        MODULE windows x86 5F3E2A1B000000000000000000000000a my lib.dll
        INFO CODE_ID 5F3E2A1B3000 my lib.dll
        FILE 0 c:\\src\\a b.cpp
        INLINE_ORIGIN 7 ns::f(int, char const*) const
        FUNC m c184 30 8 nsQueryInterfaceWithError::operator()(nsID const&, void**) const
        INLINE 0 10 0 7 c190 2a c1c0 b
        c184 7 59 0
        PUBLIC m 2160 4 Public2_1 with space
        PUBLIC 2170 0 m
        STACK WIN 4 2170 14 1 0 0 0 0 0 1 $eip 4 + ^ =
        STACK CFI INIT 804c4b0 40 .cfa: $esp 4 + $eip: .cfa 4 - ^
        FUNC 10 0 0 m
        """;
    assertThat(parse(text)).containsExactly(
        new BreakpadRecord.Module("windows", "x86", "5F3E2A1B000000000000000000000000a", "my lib.dll"),
        new BreakpadRecord.Info("CODE_ID", "5F3E2A1B3000 my lib.dll"),
        new BreakpadRecord.File(0, "c:\\src\\a b.cpp"),
        new BreakpadRecord.InlineOrigin(7, "ns::f(int, char const*) const"),
        new BreakpadRecord.Func(true, 0xc184, 0x30, 8, "nsQueryInterfaceWithError::operator()(nsID const&, void**) const"),
        new BreakpadRecord.Inline(0, 10, 0, 7, List.of(new AddressRange(0xc190, 0xc1ba), new AddressRange(0xc1c0, 0xc1cb))),
        new BreakpadRecord.Line(0xc184, 7, 59, 0),
        new BreakpadRecord.Public(true, 0x2160, 4, "Public2_1 with space"),
        new BreakpadRecord.Public(false, 0x2170, 0, "m"),
        new BreakpadRecord.Stack("WIN", "4 2170 14 1 0 0 0 0 0 1 $eip 4 + ^ ="),
        new BreakpadRecord.Stack("CFI", "INIT 804c4b0 40 .cfa: $esp 4 + $eip: .cfa 4 - ^"),
        new BreakpadRecord.Func(false, 0x10, 0, 0, "m"));
  }

  /**
   * A keyword the parser does not know is a record of its own, not an error: the transformer
   * decides (it reports "unknown record type", BreakpadTransformerTest); a word that could be a hex
   * address stays a line record.
   */
  @Test
  void unknownKeywordsAreOtherRecords() throws IOException {
    assertThat(parse("BOGUS 1 2 3\nSTACK_X\nX86_64 a  b\nABCDEF 1 2 3\n")).containsExactly(
        new BreakpadRecord.Other("BOGUS", "1 2 3"), new BreakpadRecord.Other("STACK_X", ""),
        new BreakpadRecord.Other("X86_64", "a  b"), new BreakpadRecord.Line(0xabcdef, 1, 2, 3));
    // the Inline record's ranges compare, hash and print as any list of them
    BreakpadRecord.Inline in = (BreakpadRecord.Inline) parse("INLINE 0 1 2 3 10 4 20 8\n").getFirst();
    List<AddressRange> want = List.of(new AddressRange(0x10, 0x14), new AddressRange(0x20, 0x28));
    assertThat(in.ranges()).isEqualTo(want).hasSameHashCodeAs(want).hasToString(want.toString());
    assertThat(in).isEqualTo(new BreakpadRecord.Inline(0, 1, 2, 3, new java.util.ArrayList<>(want)));
  }

  @Test
  void lineEndingsAndBlankLinesAndLineNumbers() throws IOException {
    String text = "FILE 1 a.c\r\n\r\nFILE 2 b.c\rFILE 3 c.c\n\nFILE 4 d.c";
    try (BreakpadParser p = new BreakpadParser(new StringReader(text), "t.sym")) {
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(1, "a.c"));
      assertThat(p.lineNumber()).isEqualTo(1);
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(2, "b.c"));
      assertThat(p.lineNumber()).isEqualTo(3);
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(3, "c.c"));
      assertThat(p.lineNumber()).isEqualTo(4);
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(4, "d.c"));
      assertThat(p.lineNumber()).isEqualTo(6);
      assertThat(p.next()).isNull();
    }
  }

  /** A large generated file streams through in constant memory (no String of the whole input). */
  @Test
  void streamsAGeneratedFile() throws IOException {
    int funcs = 200_000;
    Reader gen = new Reader() {
      int i = -1;
      String cur = "FILE 1 /src/generated.c\n";
      int pos;

      @Override
      public int read(char[] buf, int off, int len) {
        int n = 0;
        while (n < len) {
          if (pos == cur.length()) {
            if (++i >= funcs) break;
            long a = 0x1000L + 0x40L * i;
            cur = "FUNC " + Long.toHexString(a) + " 40 0 f" + i + "\n" + Long.toHexString(a) + " 20 " + (i + 1)
                + " 1\n" + Long.toHexString(a + 0x20) + " 20 " + (i + 2) + " 1\n";
            pos = 0;
          }
          buf[off + n++] = cur.charAt(pos++);
        }
        return n == 0 ? -1 : n;
      }

      @Override
      public void close() {}
    };
    dev.gsym.write.GsymCreator c = new dev.gsym.write.GsymCreator();
    BreakpadTransformer.Result r = new BreakpadTransformer(c, false, dev.gsym.write.Diagnostics.silent())
        .convert(new BreakpadParser(gen, "gen.sym"));
    assertThat(r.functions()).isEqualTo(funcs);
    assertThat(r.lineRecords()).isEqualTo(2L * funcs);
    c.finish(dev.gsym.write.Diagnostics.silent());
    try (var g = dev.gsym.read.GsymReader.of(c.encode(), "gen.gsym")) {
      assertThat(Conv.lookup(g, 0x1000L + 0x40L * 123_456 + 0x21))
          .isEqualTo("0x000000000078a021: f123456 + 33 @ /src/generated.c:123458\n");
    }
  }

  /** Every record (or error) with its line number, as text: the parser's whole observable output. */
  static List<String> trace(BreakpadParser p) throws IOException {
    List<String> out = new ArrayList<>();
    while (true) {
      try {
        BreakpadRecord r = p.next();
        if (r == null) break;
        out.add(p.lineNumber() + " " + r);
      } catch (GsymFormatException e) {
        out.add(p.lineNumber() + " error " + e.getMessage() + " func=" + p.lastLineStartsWith("FUNC "));
      }
    }
    return out;
  }

  static List<String> trace(byte[] text, int bufferSize) throws IOException {
    try (BreakpadParser p = new BreakpadParser(new ByteArrayInputStream(text), "t.sym", bufferSize)) {
      return trace(p);
    }
  }

  /** Well-formed and malformed lines of every kind, with every line end, UTF-8 names, no final LF. */
  static final String MIXED = BreakpadTransformerTest.BASIC.replace("\n", "\r\n")
      + "FUNC 2000 10 0 n\u00e4me \u4e2d\u6587 \ud83d\ude00\r2000 4 1 1\n\n \t \n2004 4 2 1\r\n"
      + "FUNC  2010 4 0 double space\nFUNC 2010 4 0 \nFUNC m\nFUNC 2010\nFUNC 0x10 1 0 f\n"
      + "INLINE 0 1 1 0 2000 4 \nINLINE 0 1 1 0\nINLINE 5000 1 1 0 2000 4\nINLINE 0 1 1 0 2000 4 2004\n"
      + "FILE 7\nFILE 7 \nFILE x a\nINLINE_ORIGIN 3 o p q\nINLINE_ORIGIN 3\nPUBLIC m\nPUBLIC 1 2\n"
      + "PUBLIC 1 2 \nPUBLIC m 1 2 m n\n10 4 1 1 \n10 4 1\n10 4 99999999999 1\nFACE 4 1 1\n"
      + "ffffffffffffffff 2 1 1\n0000000000000000a 1 1 1\nABCG 1 2 3\nBOGUS\nBOGUS 1\nSTACK\nSTACK \n"
      + "STACK CFI 1 2\nMODULE a b c\nINFO\nINFO CODE_ID\n10\t4 1 1\n\u00e4 1 2 3\n1 1 1 1\r";

  @Test
  void everyBufferSizeAndSourceGivesTheSameResult() throws IOException {
    byte[] bytes = MIXED.getBytes(StandardCharsets.UTF_8);
    List<String> want;
    try (BreakpadParser p = new BreakpadParser(new StringReader(MIXED), "t.sym")) {
      want = trace(p);
    }
    assertThat(want).hasSizeGreaterThan(60);
    assertThat(want).contains("34 error t.sym:34: invalid FUNC address '' func=true",
        "29 Func[multiple=false, address=8192, size=16, parameterSize=0, name=n\u00e4me \u4e2d\u6587 \ud83d\ude00]",
        "33 Line[address=8196, size=4, line=2, file=1]", "55 Line[address=64206, size=4, line=1, file=1]",
        "67 error t.sym:67: invalid line record (expected 'address size line filenum') func=false",
        "69 Line[address=1, size=1, line=1, file=1]");
    for (int size = 1; size <= 70; size++) assertThat(trace(bytes, size)).as("buffer %d", size).isEqualTo(want);
    assertThat(trace(bytes, 1 << 16)).isEqualTo(want);
  }

  /** The byte scanner agrees with the reference grammar on every line of MIXED. */
  @Test
  void everyLineParsesAsTheReferenceGrammarSays() throws IOException {
    for (String line : MIXED.split("\r\n|\r|\n")) {
      if (line.isBlank()) continue;
      String want;
      try {
        want = String.valueOf(ReferenceGrammar.parse(line));
      } catch (GsymFormatException e) {
        want = "error " + e.getMessage().replace("t.sym:0", "t.sym:1");
      }
      String got;
      try (BreakpadParser p = new BreakpadParser(new StringReader(line), "t.sym")) {
        got = String.valueOf(p.next());
      } catch (GsymFormatException e) {
        got = "error " + e.getMessage();
      }
      assertThat(got).as(line).isEqualTo(want);
    }
  }

  /**
   * First words that are hex digits (a line record without looking for a keyword) or almost, and
   * INLINE records whose field count (its parity tells the two forms apart) is counted 8 bytes at
   * a time: as the reference grammar says.
   */
  @Test
  void firstWordsAndLongInlineRecordsParseAsTheReferenceGrammarSays() throws IOException {
    String pairs = " 10 4 20 8 30 c 40 10 50 14 60 18 70 1c 80 20 90 24 a0 28 b0 2c c0 30";
    List<String> lines = List.of("0XYZ 1 2 3", "0a1b 10 5 1", "a0B 1 2 3", "abcdefg 1 2 3", "0 1 2 3",
        "f 1 2 3", "F 1 2 3", "fff", "ff ", "0f0f0f0f0f0f0f0f0 1 1 1", "9_ 1 2 3", "0123456789abcdef 1 2 3",
        "INLINE 1 22 3 4" + pairs, "INLINE 1 22 4" + pairs, "INLINE 1 22 3 4" + pairs + " ",
        "INLINE 1 22  4" + pairs, "INLINE 1 22 -1 4" + pairs, "INLINE 1 22 3 4" + pairs.replace(' ', '\t'),
        "INLINE 12345678 2 3 4 5 6", "INLINE        ", "INLINE 0 0 0 0 " + "1 ".repeat(40) + "1");
    for (String line : lines) {
      String want;
      try {
        want = String.valueOf(ReferenceGrammar.parse(line));
      } catch (GsymFormatException e) {
        want = "error " + e.getMessage().replace("t.sym:0", "t.sym:1");
      }
      String got;
      try (BreakpadParser p = new BreakpadParser(new StringReader(line), "t.sym")) {
        got = String.valueOf(p.next());
      } catch (GsymFormatException e) {
        got = "error " + e.getMessage();
      }
      assertThat(got).as(line).isEqualTo(want);
    }
    assertThat(parse("0XYZ 1 2 3\n0a1b 10 5 1\n")).containsExactly(new BreakpadRecord.Other("0XYZ", "1 2 3"),
        new BreakpadRecord.Line(0xa1b, 0x10, 5, 1));
    BreakpadRecord.Inline old = (BreakpadRecord.Inline) parse("INLINE 1 22 4" + pairs + "\n").getFirst();
    assertThat(old.callFile()).isEqualTo(BreakpadRecord.Inline.NO_CALL_FILE);
    assertThat(old.origin()).isEqualTo(4);
    assertThat(old.ranges()).hasSize(12);
  }

  @Test
  void tooLongLinesAreSkippedWithTheirLineEnd(@TempDir Path dir) throws IOException {
    String huge = "FUNC 10 10 0 " + "x".repeat(BreakpadParser.MAX_LINE);
    for (String end : List.of("\n", "\r\n", "\r")) {
      Path f = dir.resolve("huge.sym");
      Files.writeString(f, "FILE 1 a.c\n" + huge + end + "FILE 2 b.c" + end);
      try (BreakpadParser p = BreakpadParser.open(f)) {
        assertThat(trace(p)).as(end.replace("\r", "CR").replace("\n", "LF")).containsExactly(
            "1 File[number=1, name=a.c]",
            "2 error " + f + ":2: line longer than 16777216 bytes func=true",
            "3 File[number=2, name=b.c]");
      }
    }
    // the longest accepted line, its CR at the end of the grown buffer
    String longest = "FILE 1 " + "y".repeat(BreakpadParser.MAX_LINE - 7);
    byte[] bytes = (longest + "\r\nFILE 2 b.c\n").getBytes(StandardCharsets.US_ASCII);
    try (BreakpadParser p = new BreakpadParser(new ByteArrayInputStream(bytes), "t.sym", 1 << 20)) {
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(1, longest.substring(7)));
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(2, "b.c"));
      assertThat(p.lineNumber()).isEqualTo(2);
    }
  }

  /** The reference grammar applied line by line: what the byte scanner must reproduce. */
  static List<String> referenceTrace(String text) throws IOException {
    List<String> out = new ArrayList<>();
    String[] lines = text.split("\r\n|\r|\n", -1);
    int n = lines.length;
    if (n > 0 && lines[n - 1].isEmpty()) n--; // a final line end does not start a line
    for (int i = 0; i < n; i++) {
      String line = lines[i];
      if (line.chars().allMatch(c -> c == ' ' || c == '\t')) continue;
      try {
        out.add((i + 1) + " " + ReferenceGrammar.parse(line));
      } catch (GsymFormatException e) {
        out.add((i + 1) + " error " + e.getMessage().replace("t.sym:0:", "t.sym:" + (i + 1) + ":")
            + " func=" + line.startsWith("FUNC "));
      }
    }
    return out;
  }

  /** Randomly damaged copies of basic.sym: the byte scanner agrees with the reference grammar. */
  @Test
  @dev.gsym.testing.Slow
  void randomlyDamagedFilesParseAsTheReferenceGrammarSays() throws IOException {
    java.util.Random rnd = new java.util.Random(42);
    String[] inserts = {" ", "  ", "x", "G", "\t", "0x", "\u00e4", "99999999999999999999", "ffffffffffffffff",
        "-", "\r", "\n", "m ", "FUNC ", "INLINE "};
    String base = BreakpadTransformerTest.BASIC;
    for (int iter = 0; iter < 300; iter++) {
      StringBuilder sb = new StringBuilder(base);
      for (int k = rnd.nextInt(8); k >= 0; k--) {
        int at = rnd.nextInt(sb.length() + 1);
        switch (rnd.nextInt(3)) {
          case 0 -> sb.insert(at, inserts[rnd.nextInt(inserts.length)]);
          case 1 -> sb.delete(at, Math.min(sb.length(), at + 1 + rnd.nextInt(3)));
          default -> sb.setCharAt(Math.min(at, sb.length() - 1), (char) (' ' + rnd.nextInt(95)));
        }
      }
      String text = sb.toString();
      List<String> want = referenceTrace(text);
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      for (int size : new int[] {1, 3, 17, 1 << 16}) {
        assertThat(trace(bytes, size)).as("iteration %d, buffer %d:%n%s", iter, size, text).isEqualTo(want);
      }
    }
  }
}
