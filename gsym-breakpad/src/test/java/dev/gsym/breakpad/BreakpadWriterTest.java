package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** GSYM shapes llvm's DWARF conversion of the golden binaries does not produce; the spill. */
class BreakpadWriterTest {
  @Test
  void edgeShapes() throws IOException {
    GsymCreator c = new GsymCreator();
    int a = c.insertFile("/s/a.c");
    int f = c.insertString("f");
    int mid = c.insertString("mid");
    int deep = c.insertString("deep");
    // f: rows with a duplicate address (the last wins), a row with file 0 at 0x118;
    // inline: mid has no call file (never a frame), deep inside it has one
    InlineInfo deepNode = new InlineInfo(List.of(new AddressRange(0x104, 0x108)), deep, a, 7, List.of());
    InlineInfo midNode = new InlineInfo(List.of(new AddressRange(0x102, 0x110)), mid, 0, 0, List.of(deepNode));
    InlineInfo top = new InlineInfo(List.of(new AddressRange(0x100, 0x120)), f, 0, 0, List.of(midNode));
    LineTable lt = new LineTable(List.of(new LineEntry(0x100, a, 1), new LineEntry(0x100, a, 2),
        new LineEntry(0x110, a, 3), new LineEntry(0x118, 0, 4)));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x100, 0x120), f, lt, top, null, null));
    // g: merged functions -> FUNC m; h: sized, no line table -> FUNC without lines; z: size 0 -> PUBLIC
    int g = c.insertString("g");
    FunctionInfo g2 = new FunctionInfo(new AddressRange(0x200, 0x210), c.insertString("g2"));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x200, 0x210), g,
        new LineTable(List.of(new LineEntry(0x200, a, 20))), null, new MergedFunctionsInfo(List.of(g2)), null));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x300, 0x310), c.insertString("h")));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x400, 0x400), c.insertString("z\nwith newline")));
    c.finish(Diagnostics.silent());
    try (GsymReader orig = GsymReader.of(c.encode(), "edge.gsym")) {
      String sym = Conv.symFromGsym(orig);
      assertThat(sym).isEqualTo("""
          MODULE Linux x86_64 000000000000000000000000000000000 test
          FILE 0 /s/a.c
          INLINE_ORIGIN 0 deep
          FUNC 100 20 0 f
          INLINE 0 7 0 0 104 4
          100 10 2 0
          110 8 3 0
          FUNC m 200 10 0 g
          200 10 20 0
          FUNC 300 10 0 h
          PUBLIC 400 0 z with newline
          """);
      try (GsymReader back = Conv.gsymFromSym(sym)) {
        for (long addr = 0xff; addr < 0x420; addr++) {
          String want = Conv.lookup(orig, addr);
          if (addr >= 0x118 && addr < 0x120) {
            // documented difference: llvm fails rows with file 0; in the .sym the line record before
            // ends there, so read back those bytes have no line: the function alone answers
            assertThat(want).contains("is not in the line table");
            assertThat(Conv.lookup(back, addr)).isEqualTo(want.replaceAll(": error: .*", ": f + " + (addr - 0x100)));
            continue;
          }
          if (addr >= 0x400) want = want.replace("z\nwith newline", "z with newline");
          assertThat(Conv.lookup(back, addr)).as("0x%x", addr).isEqualTo(want);
        }
        assertThat(back.lookupAll(0x204)).hasSize(1); // merged functions are not kept
      }
    }
  }

  /**
   * ELF mode ({@link BreakpadWriter.Options#of(ElfModule)}): the given MODULE id and CODE_ID
   * replace the UUID's, and a sized function with neither line table nor inline info is written
   * as PUBLIC, as dump_syms writes symbol-table entries; functions with lines or inline info stay
   * FUNC.
   */
  @Test
  void givenIdsAndSymbolsAsPublic() throws IOException {
    GsymCreator c = new GsymCreator();
    int a = c.insertFile("/s/a.c");
    int f = c.insertString("f");
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1100, 0x1120), f,
        new LineTable(List.of(new LineEntry(0x1100, a, 1))), null, null, null));
    InlineInfo inl = new InlineInfo(List.of(new AddressRange(0x1204, 0x1208)), c.insertString("in"), a, 3, List.of());
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1200, 0x1210), c.insertString("only_inline"), null,
        new InlineInfo(List.of(new AddressRange(0x1200, 0x1210)), c.insertString("only_inline"), 0, 0, List.of(inl)),
        null, null));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1300, 0x1310), c.insertString("sym")));
    c.setUUID(new byte[] {1, 2, 3, 4});
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "elf.gsym")) {
      String elf = write(r, new BreakpadWriter.Options("Linux", "arm64", "lib.so", 0x1000, "ABC0", "C0DE", true, true, true));
      assertThat(elf).isEqualTo("""
          MODULE Linux arm64 ABC0 lib.so
          INFO CODE_ID C0DE
          FILE 0 /s/a.c
          INLINE_ORIGIN 0 in
          FUNC 100 20 0 f
          100 20 1 0
          FUNC 200 10 0 only_inline
          INLINE 0 3 0 0 204 4
          PUBLIC 300 0 sym
          """);
      // no CODE_ID given: no INFO record; without symbolsAsPublic the bare function stays a FUNC
      String gsym = write(r, new BreakpadWriter.Options("Linux", "arm64", "lib.so", 0x1000, "ABC0", null, false, true, true));
      assertThat(gsym).startsWith("MODULE Linux arm64 ABC0 lib.so\nFILE 0 /s/a.c\n").contains("FUNC 300 10 0 sym\n");
      assertThat(write(r, BreakpadWriter.Options.defaults("x")))
          .startsWith("MODULE Linux x86_64 04030201000000000000000000000000" + "0 x\nINFO CODE_ID 01020304\n");
    }
  }

  /**
   * Names as dump_syms writes them: FUNC, PUBLIC and INLINE_ORIGIN names demangled (Itanium, Rust),
   * others as they are (C names, qualified DWARF names); one INLINE_ORIGIN per written name (a
   * complete and a base constructor print alike), numbered from 0 in byte order of the names; FILE
   * records only for the files line and INLINE records cite, numbered from 0 in byte order of their
   * paths (one number for equal paths); PUBLIC records after the FUNCs. {@code withDemangle(false)}
   * keeps the names.
   */
  @Test
  void namesAndNumbersAsDumpSymsWritesThem() throws IOException {
    GsymCreator c = new GsymCreator();
    int z = c.insertFile("/src/z.c");
    c.insertFile("/src/unused.h"); // cited by nothing: no FILE record
    int a = c.insertFile("/src/a.c");
    int a2 = c.insertFile("/src/a.c"); // the same path again (another entry): one FILE number
    int eAcute = c.insertFile("/src/\u00e9.c"); // UTF-8 bytes sort after ASCII
    int entry = c.insertString("_ZN5unit05entryEm");
    int complete = c.insertString("_ZN6shapes6SquareC1Ei");
    int base = c.insertString("_ZN6shapes6SquareC2Ei");
    int sq = c.insertString("shapes::sq"); // a qualified DWARF name (no linkage name)
    int vec = c.insertString("_ZNSt6vectorImSaImEE9push_backERKm");
    InlineInfo i1 = new InlineInfo(List.of(new AddressRange(0x104, 0x108)), complete, z, 7, List.of());
    InlineInfo i2 = new InlineInfo(List.of(new AddressRange(0x108, 0x10c)), base, eAcute, 8,
        List.of(new InlineInfo(List.of(new AddressRange(0x108, 0x10a)), sq, a2, 9, List.of())));
    InlineInfo i3 = new InlineInfo(List.of(new AddressRange(0x10c, 0x110)), vec, a, 10, List.of());
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x100, 0x120), entry,
        new LineTable(List.of(new LineEntry(0x100, z, 1), new LineEntry(0x110, a, 2))),
        new InlineInfo(List.of(new AddressRange(0x100, 0x120)), entry, 0, 0, List.of(i1, i2, i3)), null, null));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x10, 0x10), c.insertString("_ZL8add_fastii")));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x200, 0x210), c.insertString("plain_c"),
        new LineTable(List.of(new LineEntry(0x200, a2, 3))), null, null, null));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x300, 0x310), c.insertString("_RNvCs123_4demo3run")));
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "names.gsym")) {
      assertThat(write(r, BreakpadWriter.Options.defaults("m"))).isEqualTo("""
          MODULE Linux x86_64 000000000000000000000000000000000 m
          FILE 0 /src/a.c
          FILE 1 /src/z.c
          FILE 2 /src/\u00e9.c
          INLINE_ORIGIN 0 shapes::Square::Square(int)
          INLINE_ORIGIN 1 shapes::sq
          INLINE_ORIGIN 2 std::vector<unsigned long, std::allocator<unsigned long>>::push_back(unsigned long const&)
          FUNC 100 20 0 unit0::entry(unsigned long)
          INLINE 0 7 1 0 104 4
          INLINE 0 8 2 0 108 4
          INLINE 1 9 0 1 108 2
          INLINE 0 10 0 2 10c 4
          100 10 1 1
          110 10 2 0
          FUNC 200 10 0 plain_c
          200 10 3 0
          FUNC 300 10 0 demo::run
          PUBLIC 10 0 add_fast(int, int)
          """);
      String raw = write(r, BreakpadWriter.Options.defaults("m").withDemangle(false));
      assertThat(raw).contains("INLINE_ORIGIN 0 _ZN6shapes6SquareC1Ei\nINLINE_ORIGIN 1 _ZN6shapes6SquareC2Ei\n")
          .contains("FUNC 100 20 0 _ZN5unit05entryEm\n").contains("PUBLIC 10 0 _ZL8add_fastii\n");
    }
  }

  private static String write(GsymReader r, BreakpadWriter.Options o) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new BreakpadWriter(r, o).write(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * The function records spilled to a temporary file (here beyond 100 bytes) give the same text
   * as in memory, through both entry points, and no temporary file is left behind.
   */
  @ParameterizedTest
  @MethodSource("dev.gsym.breakpad.CrossFormatTest#llvm22Files")
  void spillToFileGivesTheSameText(Path gsym, @TempDir Path dir) throws IOException {
    try (GsymReader r = GsymReader.open(gsym)) {
      String inMemory = Conv.symFromGsym(r, BreakpadWriter.Options.defaults("test"));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new BreakpadWriter(r, BreakpadWriter.Options.defaults("test")).spill(dir, 100).write(out);
      assertThat(ByteStrings.decode(out.toByteArray())).isEqualTo(inMemory); // exact: not all names are UTF-8
      Path sym = dir.resolve("out.sym");
      BreakpadWriter.write(r, BreakpadWriter.Options.defaults("test"), sym);
      assertThat(TestData.text(sym)).isEqualTo(inMemory);
      try (Stream<Path> left = Files.list(dir)) {
        assertThat(left).containsExactly(sym);
      }
    }
  }

  @Test
  void numbersAndNamesAsText() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BreakpadWriter.Text t = new BreakpadWriter.Text(out);
    for (long v : new long[] {0, 1, 0xf, 0x10, 0xabcdef, -1L, Long.MIN_VALUE}) t.hex(v).put(' ');
    for (long v : new long[] {0, 9, 10, 4294967295L, Long.MAX_VALUE}) t.dec(v).put(' ');
    t.text("a\nb\rc").put(' ').text("\u00e4\n\u4e2d").put(' ').name("").put(' ').text("x".repeat(70_000)).flush();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
        "0 1 f 10 abcdef ffffffffffffffff 8000000000000000 0 9 10 4294967295 9223372036854775807 "
        + "a b c \u00e4 \u4e2d <unnamed> " + "x".repeat(70_000));
  }

  @Test
  void intIntMapAgreesWithAHashMap() {
    BreakpadWriter.IntIntMap m = new BreakpadWriter.IntIntMap();
    java.util.HashMap<Integer, Integer> ref = new java.util.HashMap<>();
    java.util.Random rnd = new java.util.Random(5);
    for (int i = 0; i < 200_000; i++) {
      int k = i % 3 == 0 ? rnd.nextInt() : rnd.nextInt(5000) * 4096; // spread and clustered keys
      if (rnd.nextBoolean()) {
        int v = rnd.nextInt(Integer.MAX_VALUE - 1);
        m.put(k, v);
        ref.put(k, v);
      }
      assertThat(m.get(k)).isEqualTo(ref.getOrDefault(k, -1));
    }
    assertThat(m.size()).isEqualTo(ref.size());
    ref.forEach((k, v) -> assertThat(m.get(k)).isEqualTo(v));
  }
}
