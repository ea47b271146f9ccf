package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BreakpadTransformerTest {
  static final String BASIC = read("basic.sym");

  /** The file's bytes, exactly (names need not be UTF-8: latin1.sym). */
  static String read(String name) {
    return TestData.text(TestData.path("breakpad", name));
  }

  /**
   * A record whose ranges lie under different parents becomes one node under each, holding only
   * the ranges under that parent (so an inlined frame's offset counts from the start of its range
   * there, as in Breakpad, where the frame's base is the start of the range holding the address).
   */
  @Test
  void mergedInlineRecordIsSplitAcrossItsParents() throws IOException {
    try (GsymReader r = Conv.gsymFromSym(read("inline-merged.sym"))) {
      dev.gsym.format.InlineInfo top = r.functionInfo(0x11e4).inlineInfo();
      assertThat(top.children()).extracting(c -> r.string(c.name()) + " " + c.ranges()).containsExactly(
          "inline_4(int) [[0x000000000000120e - 0x000000000000122e)]",
          "inline_4(int) [[0x0000000000001265 - 0x0000000000001285)]",
          "inline_2(int) [[0x0000000000001292 - 0x00000000000012b0)]");
      for (int i = 0; i < 2; i++) {
        dev.gsym.format.InlineInfo n = top.children().get(i);
        for (int depth = 1; depth <= 3; depth++) {
          assertThat(n.children()).hasSize(1);
          n = n.children().getFirst();
          assertThat(n.ranges()).hasSize(1);
          assertThat(n.ranges().getFirst().start()).isEqualTo(i == 0 ? 0x120e : 0x1265);
        }
      }
    }
  }

  /** Parents out of address order, a child record spread over three of them, in an order of its own. */
  @Test
  void inlineParentsOutOfAddressOrder() throws IOException {
    String sym = "FILE 1 a.c\nINLINE_ORIGIN 0 g\nINLINE_ORIGIN 1 h\nFUNC 0 100 0 f\n"
        + "INLINE 1 9 1 1 92 2 12 2 52 2\n" // before its parents
        + "INLINE 0 1 1 0 50 10\nINLINE 0 2 1 0 10 10\nINLINE 0 3 1 0 90 10\n0 100 7 1\n";
    try (GsymReader r = Conv.gsymFromSym(sym)) {
      for (long[] c : new long[][] {{0x13, 2, 0x10}, {0x53, 1, 0x50}, {0x93, 3, 0x90}}) {
        long a = c[0];
        assertThat(Conv.lookup(r, a)).isEqualTo(String.format("0x%016x: h + 1 @ a.c:7 [inlined]%n"
            + "                    g + %d @ a.c:9 [inlined]%n"
            + "                    f + %d @ a.c:%d%n", a, a - c[2], a, c[1]));
      }
      assertThat(Conv.lookup(r, 0x14)).isEqualTo("0x0000000000000014: g + 4 @ a.c:7 [inlined]\n"
          + "                    f + 20 @ a.c:2\n");
    }
  }

  /**
   * As Breakpad's ContainedRangeMap: a level-1 range that no level-0 range contains nests by
   * address (here directly under the function), one that partly overlaps another is ignored.
   */
  @Test
  void inlineRangesNestByAddressNotByLevel() throws IOException {
    // level 1: [0x14, 0x18) lies in the level-0 record, [0x1a, 0x1c) in none, [0x19, 0x1b) overlaps it
    String sym = "FILE 1 a.c\nINLINE_ORIGIN 0 g\nINLINE_ORIGIN 1 h\nFUNC 10 10 0 f\n"
        + "INLINE 0 5 1 0 12 8\nINLINE 1 6 1 1 14 4 1a 2\nINLINE 1 7 1 1 19 2\n10 10 1 1\n";
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, false, Diagnostics.silent())
        .convert(new BreakpadParser(new StringReader(sym), "l.sym"));
    assertThat(res.ignoredRecords()).isEqualTo(1);
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "l.gsym")) {
      assertThat(Conv.lookup(r, 0x15)).isEqualTo("0x0000000000000015: h + 1 @ a.c:1 [inlined]\n"
          + "                    g + 3 @ a.c:6 [inlined]\n"
          + "                    f + 5 @ a.c:5\n");
      assertThat(Conv.lookup(r, 0x1b)).isEqualTo("0x000000000000001b: h + 1 @ a.c:1 [inlined]\n"
          + "                    f + 11 @ a.c:6\n");
    }
  }

  /** The first line decides whether the input is a symbol file at all (also in lenient mode). */
  @Test
  void notASymbolFile() {
    String[][] cases = {
      {"\u007fELF\u0002\u0001\u0001\u0000 binary", "1"},
      {"hello world", "1"},
      {"\n  \nGSYM", "3"}, // blank lines are skipped: the first record's line is named
      {"1000 10 1 1", "1"}, // a line record cannot come first
    };
    for (String[] c : cases) {
      String in = c[0] + "\nFUNC 10 10 0 f\n";
      for (boolean lenient : new boolean[] {false, true}) {
        assertThatThrownBy(() -> Conv.gsymFromSym(in, lenient)).as("%s lenient=%s", c[0], lenient)
            .isInstanceOf(GsymFormatException.class)
            .hasMessage("test.sym: not a Breakpad symbol file: line " + c[1] + " is not a MODULE record");
      }
    }
  }

  /** MODULE is optional; a broken record of a known type keeps its own message. */
  @Test
  void firstLineOfAKnownTypeIsNotRejectedAsForeign() throws IOException {
    try (GsymReader r = Conv.gsymFromSym("FILE 1 a.c\nFUNC 10 10 0 f\n10 10 1 1\n")) {
      assertThat(Conv.lookup(r, 0x12)).isEqualTo("0x0000000000000012: f + 2 @ a.c:1\n");
    }
    try (GsymReader r = Conv.gsymFromSym("PUBLIC 10 0 p\n")) {
      assertThat(Conv.lookup(r, 0x12)).isEqualTo("0x0000000000000012: p + 2\n");
    }
    assertThatThrownBy(() -> Conv.gsymFromSym("MODULE Linux\nFUNC 10 10 0 f\n"))
        .hasMessage("test.sym:1: MODULE record needs 'MODULE os arch id name'");
    try (GsymReader r = Conv.gsymFromSym("MODULE Linux\nPUBLIC 10 0 p\n", true)) {
      assertThat(Conv.lookup(r, 0x10)).isEqualTo("0x0000000000000010: p\n");
    }
  }

  /** CRLF and CR line ends give the resolver's answers for basic.sym (see BreakpadResolverTest). */
  @Test
  void crlfAndCrGiveTheSameLookups() throws IOException {
    var answers = ResolverOracle.committed("basic");
    for (String end : new String[] {"\r\n", "\r"}) {
      try (GsymReader r = Conv.gsymFromSym(BASIC.replace("\n", end))) {
        java.util.List<String> mismatches = new java.util.ArrayList<>();
        assertThat(ResolverOracle.compare(r, answers, mismatches))
            .isEqualTo(java.util.Map.of(ResolverOracle.Difference.PUBLIC_TAIL_BASE, 1,
                ResolverOracle.Difference.INLINE_OFFSET_FROM_FIRST_RANGE, 2));
        assertThat(ResolverOracle.report(mismatches)).isEmpty();
      }
    }
  }

  @Test
  void checkedInCrlfFile() throws IOException {
    String text = read("crlf.sym");
    assertThat(text).contains("\r\n").contains("1\r2008"); // CRLF and a lone CR survive git
    try (GsymReader r = Conv.gsymFromSym(text)) {
      assertThat(r.uuid()).isEmpty(); // all-zero MODULE id
    }
  }

  @Test
  void uuidFromCodeIdElseModuleId() throws IOException {
    try (GsymReader r = Conv.gsymFromSym(BASIC)) {
      assertThat(HexFormat.of().withUpperCase().formatHex(r.uuid()))
          .isEqualTo("D46E09D32181D47FC16B29CD9BC208BA11223344");
    }
    try (GsymReader r = Conv.gsymFromSym(BASIC.replaceAll("INFO CODE_ID [^\n]*\n", ""))) {
      // MODULE id D3096ED4-8121-7FD4-C16B-29CD9BC208BA age 0: GUID fields swapped back
      assertThat(HexFormat.of().withUpperCase().formatHex(r.uuid()))
          .isEqualTo("D46E09D32181D47FC16B29CD9BC208BA");
    }
    try (GsymReader r = Conv.gsymFromSym(
        "MODULE mac x86_64 D3096ED481217FD4C16B29CD9BC208BA0 lib\nPUBLIC 10 0 f\n")) {
      assertThat(HexFormat.of().withUpperCase().formatHex(r.uuid()))
          .isEqualTo("D3096ED481217FD4C16B29CD9BC208BA");
    }
    try (GsymReader r = Conv.gsymFromSym(
        "MODULE Linux x86_64 000000000000000000000000000000000 lib\nPUBLIC 10 0 f\n")) {
      assertThat(r.uuid()).isEmpty();
    }
  }

  @Test
  void counts() throws IOException {
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, false, Diagnostics.silent())
        .convert(new BreakpadParser(new StringReader(BASIC), "basic.sym"));
    assertThat(res.functions()).isEqualTo(3);
    assertThat(res.publics()).isEqualTo(2);
    assertThat(res.publicsInsideFunctions()).isEqualTo(2);
    assertThat(res.lineRecords()).isEqualTo(7);
    assertThat(res.inlineRecords()).isEqualTo(2);
    assertThat(res.stackRecords()).isEqualTo(3);
    assertThat(res.badRecords()).isZero();
    assertThat(res.publicTails()).isEqualTo(1); // inside_func, after "folded function"
    assertThat(res.ignoredRecords()).isZero();
  }

  /** As Breakpad's function map: of overlapping FUNCs the first counts; an empty FUNC answers nothing. */
  @Test
  void overlappingFuncsFirstWins() throws IOException {
    String sym = """
        FILE 0 a.c
        FUNC 100 40 0 outer
        100 40 1 0
        FUNC 110 10 0 contained
        110 10 2 0
        FUNC 100 20 0 same_start
        100 20 3 0
        FUNC 200 0 0 zero size
        FUNC 210 10 0 no lines
        """;
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, false, Diagnostics.silent())
        .convert(new BreakpadParser(new StringReader(sym), "o.sym"));
    assertThat(res.functions()).isEqualTo(2);
    assertThat(res.ignoredRecords()).isEqualTo(5); // three FUNCs, two line records
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "o.gsym")) {
      assertThat(r.numFunctions()).isEqualTo(2);
      assertThat(Conv.lookup(r, 0x100)).isEqualTo("0x0000000000000100: outer @ a.c:1\n");
      assertThat(Conv.lookup(r, 0x125)).isEqualTo("0x0000000000000125: outer + 37 @ a.c:1\n");
      assertThat(Conv.lookup(r, 0x112)).isEqualTo("0x0000000000000112: outer + 18 @ a.c:1\n");
      assertThat(Conv.lookup(r, 0x200)).isEqualTo("0x0000000000000200: error: address 0x200 is not in GSYM\n");
      assertThat(Conv.lookup(r, 0x215)).isEqualTo("0x0000000000000215: no lines + 5\n");
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      FUNC 10 10 0                      | 1 | FUNC record needs 'FUNC [m] address size parameter_size name'
      FUNC 0x10 10 0 f                  | 1 | invalid FUNC address '0x10'
      FUNC 10 100000000 0 f             | 1 | FUNC size 0x100000000 does not fit GSYM's 32-bit function size
      FUNC ffffffffffffffff 2 0 f       | 1 | FUNC range 0xffffffffffffffff + 0x2 wraps past the end of the 64-bit address space
      FUNC 10 10000000000000000 0 f     | 1 | invalid FUNC size '10000000000000000'
      10 4 1 1                          | 1 | line record does not follow a FUNC record
      INLINE 0 1 1 0 10 4               | 1 | INLINE record does not follow a FUNC record
      FUNC 10 10 0 f\\nPUBLIC 30 0 p\\n10 4 1 1 | 3 | line record does not follow a FUNC record
      FUNC 10 10 0 f\\n10 4 1 7          | 2 | line record refers to FILE 7, which no FILE record defines
      FUNC 10 10 0 f\\n10 4 x 1          | 2 | invalid line number 'x'
      FUNC 10 10 0 f\\n10 4 1            | 2 | invalid line record (expected 'address size line filenum')
      FUNC 10 10 0 f\\n10 4 99999999999 1 | 2 | line number 99999999999 does not fit in 32 bits
      FUNC 10 10 0 f\\nINLINE 5000 1 1 0 10 4 | 2 | INLINE nest level 5000 is deeper than 1023
      FUNC 10 10 0 f\\nINLINE 0 1 1 0       | 2 | INLINE record needs 'INLINE nest_level call_line [call_file] origin [address size]+'
      FUNC 10 10 0 f\\nINLINE 0 1 -2 0 10 4 | 2 | invalid INLINE call file '-2'
      FUNC 10 10 0 f\\nINLINE 0 1 1 9 10 4  | 2 | INLINE record refers to INLINE_ORIGIN 9, which no INLINE_ORIGIN record defines
      FUNC 10 10 0 f\\nINLINE 0 1 99999999999999 0 10 4 | 2 | INLINE record refers to FILE 99999999999999, which no FILE record defines
      INLINE_ORIGIN 5 123               | 1 | INLINE_ORIGIN 5 has a file number but no name ('INLINE_ORIGIN number [file] name')
      FILE 99999999999999999999 a.c     | 1 | invalid FILE number '99999999999999999999'
      FILE 1                            | 1 | FILE record needs 'FILE number name'
      FILE 1\\u0020                      | 1 | FILE 1 has an empty name
      PUBLIC 10 0                       | 1 | PUBLIC record needs 'PUBLIC [m] address parameter_size name'
      PUBLIC m zz 0 f                   | 1 | invalid PUBLIC address 'zz'
      MODULE Linux x86                  | 1 | MODULE record needs 'MODULE os arch id name'
      BOGUS 1 2 3                       | 1 | unknown record type 'BOGUS'
      xyz 1 2 3                         | 1 | invalid line record address 'xyz'
      """)
  void badRecords(String text, int line, String message) {
    String sym = "INLINE_ORIGIN 0 g\nFILE 1 a.c\n" + text.replace("\\n", "\n").replace("\\u0020", " ") + "\n";
    int lineNo = line + 2;
    assertThatThrownBy(() -> Conv.gsymFromSym(sym))
        .isInstanceOf(GsymFormatException.class)
        .hasMessage("test.sym:" + lineNo + ": " + message);
    assertThatThrownBy(() -> Conv.gsymFromSym(sym.replace("\n", "\r\n")))
        .hasMessage("test.sym:" + lineNo + ": " + message);
  }

  @Test
  void lenientSkipsAndCounts() throws IOException {
    String sym = "FILE 1 a.c\nFUNC 10 10 0 f\n10 4 1 1\n14 zz 2 1\nBOGUS\n14 4 3 1\nFUNC 10 10 0\n";
    GsymCreator c = new GsymCreator();
    Diagnostics d = Diagnostics.silent();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, true, d)
        .convert(new BreakpadParser(new StringReader(sym), "l.sym"));
    assertThat(res.badRecords()).isEqualTo(3);
    assertThat(d.categories()).containsEntry("Skipped bad Breakpad records", 3L);
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "l.gsym")) {
      assertThat(Conv.lookup(r, 0x15)).isEqualTo("0x0000000000000015: f + 5 @ a.c:3\n");
    }
  }

  @Test
  void lenientDropsTheRecordsOfABadFunc() throws IOException {
    String sym = "FILE 1 a.c\nFUNC 10 10 0 f\n10 10 1 1\nFUNC 20 zz 0 bad\n20 4 2 1\nINLINE 0 1 1 0 20 4\n"
        + "FUNC 30 10 0 g\n30 10 3 1\n";
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, true, Diagnostics.silent())
        .convert(new BreakpadParser(new StringReader(sym), "o.sym"));
    assertThat(res.badRecords()).isEqualTo(1);
    assertThat(res.orphanRecords()).isEqualTo(2);
    assertThat(res.functions()).isEqualTo(2);
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "o.gsym")) {
      assertThat(Conv.lookup(r, 0x1f)).isEqualTo("0x000000000000001f: f + 15 @ a.c:1\n");
      assertThat(Conv.lookup(r, 0x20)).isEqualTo("0x0000000000000020: error: address 0x20 is not in GSYM\n");
      assertThat(Conv.lookup(r, 0x31)).isEqualTo("0x0000000000000031: g + 1 @ a.c:3\n");
    }
  }

  @Test
  void lineRecordsOutsideTheirFuncAreDroppedWithAWarning() throws IOException {
    String sym = "FILE 1 a.c\nFUNC 10 10 0 f\n8 4 9 1\n10 10 1 1\n30 4 2 1\n";
    GsymCreator c = new GsymCreator();
    StringBuilder out = new StringBuilder();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, false, new Diagnostics(out))
        .convert(new BreakpadParser(new StringReader(sym), "o.sym"));
    assertThat(res.linesOutsideFunctions()).isEqualTo(2);
    assertThat(res.lineRecords()).isEqualTo(1);
    assertThat(out.toString()).isEqualTo(
        "warning: o.sym:3: line record address 0x8 is outside FUNC f [0x10, 0x20); dropped\n"
        + "warning: o.sym:5: line record address 0x30 is outside FUNC f [0x10, 0x20); dropped\n");
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "o.gsym")) {
      assertThat(Conv.lookup(r, 0x10)).isEqualTo("0x0000000000000010: f @ a.c:1\n");
    }
  }

  @Test
  void hugeLineIsRejectedWithoutLoadingIt() {
    String big = "FUNC 10 10 0 " + "x".repeat(BreakpadParser.MAX_LINE + 10) + "\n";
    assertThatThrownBy(() -> Conv.gsymFromSym(big))
        .isInstanceOf(GsymFormatException.class)
        .hasMessage("test.sym:1: line longer than 16777216 bytes");
  }

  @Test
  void deepestAllowedNestingIsReadable() throws IOException {
    StringBuilder sb = new StringBuilder("FILE 1 a.c\nINLINE_ORIGIN 0 g\nFUNC 0 10000 0 f\n");
    for (int i = 0; i <= 1023; i++) {
      sb.append("INLINE ").append(i).append(" 1 1 0 ").append(Long.toHexString(i)).append(' ')
          .append(Long.toHexString(0x10000 - 2 * i)).append('\n');
    }
    sb.append("0 10000 7 1\n");
    try (GsymReader r = Conv.gsymFromSym(sb.toString())) {
      assertThat(r.lookup(0x800).locations()).hasSize(1025);
      assertThat(Conv.gsymFromSym(Conv.symFromGsym(r)).lookup(0x800).locations()).hasSize(1025);
    }
  }

  @Test
  void manyInlineRangesAndDeepNesting() throws IOException {
    StringBuilder sb = new StringBuilder("FILE 1 a.c\nINLINE_ORIGIN 0 g\nFUNC 0 1000 0 f\n");
    for (int i = 0; i < 100; i++) {
      sb.append("INLINE ").append(i).append(' ').append(i + 1).append(" 1 0 ")
          .append(Long.toHexString(i)).append(' ').append(Long.toHexString(0x1000 - 2 * i)).append('\n');
    }
    sb.append("0 1000 7 1\n");
    try (GsymReader r = Conv.gsymFromSym(sb.toString())) {
      List<?> locs = r.lookup(0x800).locations();
      assertThat(locs).hasSize(101);
      assertThat(Conv.lookup(r, 0x800)).startsWith("0x0000000000000800: g + 1949 @ a.c:7 [inlined]\n"
          + "                    g + 1950 @ a.c:100 [inlined]\n");
    }
  }

  /** Records are relocated before anything else: a wrap is a bad record even after a bad FUNC. */
  @Test
  void relocationErrorsComeBeforeTheOrphanRule() throws IOException {
    String sym = "FILE 1 a.c\nINLINE_ORIGIN 0 o\nFUNC 10 10 0 f\n10 10 1 1\nFUNC 20 zz 0 bad\n"
        + "fffffffffffffff0 4 2 1\nINLINE 0 1 1 0 fffffffffffffff0 4\n20 4 2 1\nINLINE 0 1 1 0 20 4\n"
        + "FUNC 30 10 0 g\n30 10 3 1\n";
    GsymCreator c = new GsymCreator();
    StringBuilder warnings = new StringBuilder();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, true, new Diagnostics(warnings)).loadAddress(0x100)
        .convert(new BreakpadParser(new StringReader(sym), "r.sym"));
    assertThat(res.badRecords()).isEqualTo(3);
    assertThat(res.orphanRecords()).isEqualTo(2);
    assertThat(warnings.toString()).contains("warning: r.sym:6: address 0xfffffffffffffff4 plus the load address"
        + " 0x100 wraps past the end of the 64-bit address space\n");
    assertThat(warnings.toString()).contains("warning: r.sym:7: address 0xfffffffffffffff0 plus the load address");
  }

  /**
   * Hostile sizes (issue 31): a 1,000,000-character FUNC name quoted by a warning for each of 1,000
   * line records outside it used to make 1 GB of messages (OutOfMemoryError under -Xmx256m); names
   * in messages are now cut, so the messages stay in proportion to the input. Also a 1 MB FILE
   * name and numbers near 2^32 convert. (The inputs are also seeds of BreakpadFuzzTest.)
   */
  @Test
  void hugeNamesKeepMessagesSmall() throws IOException {
    String name = "x".repeat(1_000_000);
    StringBuilder sym = new StringBuilder("FILE 1 /").append("y".repeat(1_000_000)).append("\nFUNC 1000 10 0 ")
        .append(name).append('\n');
    for (int i = 0; i < 1000; i++) sym.append(Long.toHexString(0x2000 + i)).append(" 1 1 1\n");
    sym.append("1000 10 7 1\n");
    GsymCreator c = new GsymCreator();
    StringBuilder warnings = new StringBuilder();
    BreakpadTransformer.Result res = new BreakpadTransformer(c, false, new Diagnostics(warnings))
        .convert(new BreakpadParser(new StringReader(sym.toString()), "big.sym"));
    assertThat(res.linesOutsideFunctions()).isEqualTo(1000);
    assertThat(warnings.length()).isLessThan(1000 * (BreakpadTransformer.MAX_QUOTED_NAME + 200));
    assertThat(warnings.toString()).contains("is outside FUNC " + "x".repeat(BreakpadTransformer.MAX_QUOTED_NAME) + "... [0x1000");
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "big.gsym")) {
      assertThat(r.lookup(0x1004).locations().getFirst().name()).isEqualTo(name);
      assertThat(r.lookup(0x1004).locations().getFirst().base()).hasSize(1_000_001); // "/y...": the whole path
    }
  }

  @Test
  void numbersNearTwoToThe32() throws IOException {
    String sym = "FILE 4294967295 a.c\nINLINE_ORIGIN 4294967296 o\nFUNC 1000 ffffffff 0 f\n"
        + "INLINE 0 4294967295 4294967295 4294967296 1000 8\n1000 10 4294967295 4294967295\n";
    try (GsymReader r = Conv.gsymFromSym(sym)) {
      assertThat(Conv.lookup(r, 0x1004)).isEqualTo("0x0000000000001004: o + 4 @ a.c:4294967295 [inlined]\n"
          + "                    f + 4 @ a.c:4294967295\n");
    }
  }
}
