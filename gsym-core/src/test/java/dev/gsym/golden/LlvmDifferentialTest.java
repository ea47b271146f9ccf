package dev.gsym.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import dev.gsym.write.PathStyle;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files written by OUR GsymCreator (every golden file rebuilt, plus API-built files with unusual
 * shapes) are dumped and looked up by the live llvm-gsymutil-22 and by our reader; the texts must
 * be identical. Skipped when llvm-gsymutil-22 is not on PATH, failed then under -Dgsym.requireTools=true
 * (-Dgsym.llvm.gsymutil=PATH|none overrides, see dev.gsym.testing.Llvm).
 * -Dgsym.diff.keep=DIR keeps a copy of every file written.
 */
@NeedsLlvm
class LlvmDifferentialTest {
  static final String TOOL = Llvm.GSYMUTIL;

  @TempDir static Path tmp;

  /** llvm-gsymutil-22; the calling test is skipped without it (failed under -Dgsym.requireTools=true). */
  static Path tool() {
    return Tools.require(Llvm.gsymutil(), TOOL);
  }

  // ------------------------------------------------------------------ inputs

  static Stream<Arguments> files() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (Golden.Entry e : Golden.gsymFiles()) {
      String name = "rt-" + e.dir() + "-" + e.file();
      out.add(Arguments.of(name, (Writer) p -> Files.write(p, Rebuild.rebuild(e.gsym()))));
    }
    out.add(Arguments.of("api-big-endian-uuid-off8.gsym", (Writer) LlvmDifferentialTest::bigEndianUuidOff8));
    out.add(Arguments.of("api-windows-paths.gsym", (Writer) LlvmDifferentialTest::windowsPaths));
    out.add(Arguments.of("api-size0-overlap.gsym", (Writer) LlvmDifferentialTest::sizeZeroAndOverlap));
    out.add(Arguments.of("api-inline-trees.gsym", (Writer) LlvmDifferentialTest::inlineTrees));
    out.add(Arguments.of("api-merged-callsites.gsym", (Writer) LlvmDifferentialTest::mergedCallSites));
    out.add(Arguments.of("api-merged-callsites-be.gsym", (Writer) p -> mergedCallSites(p, ByteOrder.BIG_ENDIAN)));
    out.add(Arguments.of("api-line-deltas-off4.gsym", (Writer) LlvmDifferentialTest::lineDeltas));
    out.add(Arguments.of("api-odd-rows.gsym", (Writer) LlvmDifferentialTest::oddRows));
    out.add(Arguments.of("api-no-file-rows.gsym", (Writer) LlvmDifferentialTest::noFileRows));
    out.add(Arguments.of("api-kernel-addresses.gsym", (Writer) LlvmDifferentialTest::kernelAddresses));
    out.add(Arguments.of("api-merged-odd.gsym", (Writer) LlvmDifferentialTest::mergedOdd));
    out.add(Arguments.of("api-bad-file-index.gsym", (Writer) LlvmDifferentialTest::badFileIndex));
    out.add(Arguments.of("api-not-utf8.gsym", (Writer) LlvmDifferentialTest::notUtf8));
    for (int seed = 1; seed <= 24; seed++) {
      int sd = seed;
      out.add(Arguments.of("api-random-" + seed + ".gsym", (Writer) p -> random(p, sd)));
    }
    return out.stream();
  }

  interface Writer {
    void write(Path p) throws IOException;
  }

  static void save(GsymCreator c, Path p, ByteOrder order) throws IOException {
    c.finish(Diagnostics.silent());
    c.save(p, order);
  }

  static LineTable rows(long... triples) {
    List<LineEntry> l = new ArrayList<>();
    for (int i = 0; i < triples.length; i += 3) {
      l.add(new LineEntry(triples[i], (int) triples[i + 1], (int) triples[i + 2]));
    }
    return new LineTable(l);
  }

  static AddressRange r(long s, long e) {
    return new AddressRange(s, e);
  }

  static FunctionInfo fi(long s, long e, int name, LineTable lt, InlineInfo ii) {
    return new FunctionInfo(r(s, e), name, lt, ii, null, null);
  }

  /** Big endian, 20-byte UUID, functions 8 GiB apart (8-byte address offsets). */
  static void bigEndianUuidOff8(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f1 = c.insertFile("/src/big/endian.c");
    byte[] uuid = new byte[20];
    for (int i = 0; i < uuid.length; i++) uuid[i] = (byte) (0xf0 - 7 * i);
    c.setUUID(uuid);
    c.addFunctionInfo(fi(0x400000, 0x400040, c.insertString("low"),
        rows(0x400000, f1, 10, 0x400010, f1, 11, 0x400020, f1, 9), null));
    c.addFunctionInfo(new FunctionInfo(r(0x2_0040_0000L, 0x2_0040_0100L), c.insertString("high")));
    c.addFunctionInfo(fi(0x7fff_0000_0000L, 0x7fff_0000_0010L, c.insertString("higher"),
        rows(0x7fff_0000_0000L, f1, 70000), null));
    save(c, p, ByteOrder.BIG_ENDIAN);
  }

  /** Windows-style paths (drive, UNC, forward slashes), a POSIX root file and a dir-less file. */
  static void windowsPaths(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int w1 = c.insertFile("C:\\work\\proj\\main.cpp", PathStyle.WINDOWS);
    int w2 = c.insertFile("D:/mixed\\sep/file.h", PathStyle.WINDOWS);
    int w3 = c.insertFile("C:drive-relative.c", PathStyle.WINDOWS);
    int w4 = c.insertFile("/root.c");
    int w5 = c.insertFile("plain.c");
    c.setBaseAddress(0x140000000L);
    c.setUUID(new byte[] {1, 2, 3, 4});
    c.addFunctionInfo(fi(0x140001000L, 0x140001080L, c.insertString("?main@@YAHXZ"),
        rows(0x140001000L, w1, 1, 0x140001010L, w2, 2, 0x140001020L, w3, 3, 0x140001030L, w4, 4,
            0x140001040L, w5, 5), null));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  /** Size-0 functions, identical duplicates, overlapping and contained ranges, same starts. */
  static void sizeZeroAndOverlap(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/o/overlap.c");
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x100), c.insertString("zero_first")));
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x140), c.insertString("covers_zero")));
    c.addFunctionInfo(new FunctionInfo(r(0x120, 0x180), c.insertString("overlaps")));
    c.addFunctionInfo(fi(0x130, 0x138, c.insertString("contained"), rows(0x130, f, 7), null));
    c.addFunctionInfo(new FunctionInfo(r(0x150, 0x150), c.insertString("zero_inside")));
    c.addFunctionInfo(fi(0x200, 0x210, c.insertString("dup"), rows(0x200, f, 1), null));
    c.addFunctionInfo(fi(0x200, 0x210, c.insertString("dup"), rows(0x200, f, 1), null));
    c.addFunctionInfo(new FunctionInfo(r(0x300, 0x310), c.insertString("same_start_short")));
    c.addFunctionInfo(new FunctionInfo(r(0x300, 0x330), c.insertString("same_start_long")));
    c.addFunctionInfo(new FunctionInfo(r(0x400, 0x400), c.insertString("zero_last")));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  /** Three-level inline trees with multi-range nodes, a CallFile-0 node and sibling nodes. */
  static void inlineTrees(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f1 = c.insertFile("/inl/a.c");
    int f2 = c.insertFile("/inl/b.h");
    int top = c.insertString("top");
    int mid = c.insertString("mid");
    int leaf = c.insertString("leaf");
    int nofile = c.insertString("nofile");
    InlineInfo leaf1 = new InlineInfo(List.of(r(0x1010, 0x1014), r(0x1030, 0x1034)), leaf, f2, 3, List.of());
    InlineInfo mid1 = new InlineInfo(List.of(r(0x1008, 0x1020), r(0x1028, 0x1040)), mid, f1, 20,
        List.of(leaf1));
    InlineInfo nf = new InlineInfo(List.of(r(0x1044, 0x1048)), nofile, 0, 0, List.of());
    InlineInfo mid2 = new InlineInfo(List.of(r(0x1050, 0x1060)), mid, f1, 30,
        List.of(new InlineInfo(List.of(r(0x1052, 0x1054), r(0x1058, 0x105c)), leaf, f2, 0, List.of())));
    InlineInfo root = new InlineInfo(List.of(r(0x1000, 0x1070)), top, 0, 0, List.of(mid1, nf, mid2));
    c.addFunctionInfo(fi(0x1000, 0x1070, top,
        rows(0x1000, f1, 18, 0x1008, f2, 10, 0x1010, f2, 3, 0x1014, f2, 11, 0x1030, f2, 3,
            0x1040, f1, 25, 0x1050, f2, 40, 0x1052, f2, 1, 0x1060, f1, 31), root));
    // A second function whose inline tree has a node with three disjoint ranges.
    int g = c.insertString("g");
    InlineInfo three = new InlineInfo(List.of(r(0x2004, 0x2006), r(0x2010, 0x2012), r(0x2020, 0x2030)),
        leaf, f2, 99, List.of());
    c.addFunctionInfo(fi(0x2000, 0x2040, g, rows(0x2000, f1, 100, 0x2004, f2, 5),
        new InlineInfo(List.of(r(0x2000, 0x2040)), g, 0, 0, List.of(three))));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Names and paths that are not UTF-8, given as Strings with escaped bytes (U+DC80 + byte): a
   * Latin-1 path, in POSIX and Windows style, an inlined name, a truncated sequence, an encoded
   * surrogate; a name spelled with the escapes of well-formed UTF-8 is the same bytes as the
   * character and must be stored once, and an unpaired surrogate that is no escape becomes '?'.
   */
  static void notUtf8(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f1 = c.insertFile("/src/caf\uDCE9/caf\uDCE9.c");
    int f2 = c.insertFile("C:\\d\uDCE9j\uDCE0\\inl\uDCE9.h", PathStyle.WINDOWS);
    int latin1 = c.insertString("h\uDCE9lper");
    int trunc = c.insertString("trunc\uDCE2\uDC82");
    int surrogate = c.insertString("surrogate\uDCED\uDCA0\uDC80");
    int utf8 = c.insertString("caf\u00e9");
    assertThat(c.insertString("caf\uDCC3\uDCA9")).isEqualTo(utf8);
    int question = c.insertString("lone\uD800");
    assertThat(c.insertString("lone?")).isEqualTo(question);
    InlineInfo inl = new InlineInfo(List.of(r(0x1008, 0x1010)), trunc, f2, 7, List.of());
    c.addFunctionInfo(fi(0x1000, 0x1020, latin1, rows(0x1000, f1, 1, 0x1008, f2, 2, 0x1010, f1, 3),
        new InlineInfo(List.of(r(0x1000, 0x1020)), latin1, 0, 0, List.of(inl))));
    c.addFunctionInfo(fi(0x1020, 0x1030, surrogate, rows(0x1020, f2, 4), null));
    c.addFunctionInfo(fi(0x1030, 0x1040, utf8, rows(0x1030, f1, 5), null));
    c.addFunctionInfo(new FunctionInfo(r(0x1040, 0x1050), question));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  static void mergedCallSites(Path p) throws IOException {
    mergedCallSites(p, ByteOrder.LITTLE_ENDIAN);
  }

  /** A primary with merged children (one with inline info) and call sites with regexes. */
  static void mergedCallSites(Path p, ByteOrder order) throws IOException {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/m/merged.c");
    int a = c.insertString("fold_a");
    int b = c.insertString("fold_b");
    int d = c.insertString("fold_c");
    int caller = c.insertString("caller");
    FunctionInfo childB = fi(0x500, 0x520, b, rows(0x500, f, 50, 0x508, f, 51), null);
    FunctionInfo childC = fi(0x500, 0x520, d, rows(0x500, f, 60),
        new InlineInfo(List.of(r(0x500, 0x520)), d, 0, 0,
            List.of(new InlineInfo(List.of(r(0x504, 0x50c)), b, f, 61, List.of()))));
    c.addFunctionInfo(new FunctionInfo(r(0x500, 0x520), a, rows(0x500, f, 40, 0x508, f, 41), null,
        new MergedFunctionsInfo(List.of(childB, childC)), null));
    CallSiteInfoCollection cs = new CallSiteInfoCollection(List.of(
        new CallSiteInfo(0x8, CallSiteInfo.INTERNAL_CALL, List.of(c.insertString("^fold_a$"), c.insertString("fold_.*"))),
        new CallSiteInfo(0x10, CallSiteInfo.EXTERNAL_CALL, List.of()),
        new CallSiteInfo(0x14, CallSiteInfo.INTERNAL_CALL | CallSiteInfo.EXTERNAL_CALL, List.of(c.insertString("ext")))));
    c.addFunctionInfo(new FunctionInfo(r(0x540, 0x560), caller, rows(0x540, f, 70, 0x548, f, 71, 0x554, f, 72),
        null, null, cs));
    save(c, p, order);
  }

  /** Line tables needing the fallback opcodes: big address gaps and large/negative line deltas. */
  static void lineDeltas(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f1 = c.insertFile("/l/one.c");
    int f2 = c.insertFile("/l/two.c");
    c.addFunctionInfo(fi(0x10000, 0x30000, c.insertString("deltas"),
        rows(0x10000, f1, 1, 0x10001, f1, 1, 0x10002, f1, 14, 0x10003, f1, 0, 0x10100, f1, 100000,
            0x10101, f2, 99990, 0x20000, f2, 5, 0x20000, f2, 6, 0x2fff0, f1, 7), null));
    c.addFunctionInfo(fi(0x1001_0000L, 0x1001_0010L, c.insertString("far"),
        rows(0x1001_0008L, f2, 3), null));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  /** The API-built files really have the shapes they are meant to exercise. */
  @org.junit.jupiter.api.Test
  void apiFilesHaveIntendedShapes() throws Exception {
    Path be = tmp.resolve("shape-be.gsym");
    bigEndianUuidOff8(be);
    try (GsymReader r = GsymReader.open(be)) {
      assertThat(r.byteOrder()).isEqualTo(ByteOrder.BIG_ENDIAN);
      assertThat(r.header().addrOffSize()).isEqualTo(8);
      assertThat(r.uuid().length).isEqualTo(20);
    }
    Path ov = tmp.resolve("shape-ov.gsym");
    sizeZeroAndOverlap(ov);
    try (GsymReader r = GsymReader.open(ov)) {
      String d = Golden.dump(r);
      // size-0 zero_first is replaced by covers_zero; overlapping/contained/same-start ranges are kept
      assertThat(d).contains(") \"overlaps\"", ") \"contained\"", ") \"zero_inside\"", ") \"zero_last\"",
          ") \"same_start_short\"", ") \"same_start_long\"").doesNotContain(") \"zero_first\"");
    }
    Path ld = tmp.resolve("shape-ld.gsym");
    lineDeltas(ld);
    try (GsymReader r = GsymReader.open(ld)) {
      assertThat(r.header().addrOffSize()).isEqualTo(4);
    }
    Path mc = tmp.resolve("shape-mc.gsym");
    mergedCallSites(mc);
    try (GsymReader r = GsymReader.open(mc)) {
      assertThat(Golden.dump(r)).contains("++ Merged FunctionInfos[1]:", "CallSites (by relative return offset):",
          "MatchRegex[^fold_a$;fold_.*]");
    }
  }

  /**
   * Line rows with file 0, a first row after the function start, duplicate
   * row addresses, an inline node whose call file is 0, a 1-byte UUID.
   */
  static void oddRows(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/odd/x.c");
    c.setUUID(new byte[] {(byte) 0xab});
    // (name 0 is refused by the encoder, as LLVM's FunctionInfo::isValid)
    c.addFunctionInfo(fi(0x10, 0x20, c.insertString("first"), rows(0x10, f, 1), null));
    c.addFunctionInfo(fi(0x20, 0x30, c.insertString("file0"), rows(0x20, 0, 5, 0x24, f, 6), null));
    c.addFunctionInfo(fi(0x30, 0x40, c.insertString("late_first_row"), rows(0x38, f, 8), null));
    c.addFunctionInfo(fi(0x40, 0x50, c.insertString("dup_rows"),
        rows(0x40, f, 1, 0x44, f, 2, 0x44, f, 3, 0x44, f, 2, 0x48, f, 9), null));
    int outer = c.insertString("outer0");
    c.addFunctionInfo(fi(0x50, 0x60, outer, rows(0x50, f, 20, 0x54, f, 21),
        new InlineInfo(List.of(r(0x50, 0x60)), outer, 0, 0, List.of(
            new InlineInfo(List.of(r(0x52, 0x58)), c.insertString("callfile0"), 0, 7, List.of(
                new InlineInfo(List.of(r(0x54, 0x56)), c.insertString("deep"), f, 9, List.of())))))));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Rows in the {0, 0} file entry at a non-zero index ({@link GsymCreator#insertNoFile()}), as the
   * Breakpad converter writes for bytes no line record covers: before the first row, between rows,
   * after the last, under an inlined call and as a function's only row. llvm must answer there with
   * the function (or the inlined frames) and no file, not fail as for file 0.
   */
  static void noFileRows(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/gap/g.c");
    int none = c.insertNoFile();
    c.addFunctionInfo(fi(0x100, 0x140, c.insertString("gappy"),
        rows(0x100, none, 0, 0x104, f, 10, 0x108, none, 0, 0x10c, f, 11, 0x130, none, 0), null));
    int outer = c.insertString("outer");
    c.addFunctionInfo(fi(0x200, 0x220, outer, rows(0x200, f, 1, 0x208, none, 0, 0x210, f, 3),
        new InlineInfo(List.of(r(0x200, 0x220)), outer, 0, 0, List.of(
            new InlineInfo(List.of(r(0x204, 0x20c)), c.insertString("inl"), f, 2, List.of())))));
    c.addFunctionInfo(fi(0x300, 0x310, c.insertString("only_gap"), rows(0x300, none, 0), null));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  /** Addresses at the top of the 64-bit space (unsigned arithmetic), 4-byte offsets, big endian. */
  static void kernelAddresses(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/k/sched.c");
    long b = 0xffff_ffff_8100_0000L;
    int k1 = c.insertString("kfunc");
    c.addFunctionInfo(fi(b, b + 0x100, k1, rows(b, f, 10, b + 0x80, f, 12),
        new InlineInfo(List.of(r(b, b + 0x100)), k1, 0, 0, List.of(
            new InlineInfo(List.of(r(b + 0x10, b + 0x20), r(b + 0x90, b + 0xa0)), c.insertString("kinl"), f, 11,
                List.of())))));
    c.addFunctionInfo(new FunctionInfo(r(0xffff_ffff_ff00_0000L, 0xffff_ffff_ff00_0000L), c.insertString("top_zero")));
    c.addFunctionInfo(fi(0xffff_ffff_fff0_0000L, 0xffff_ffff_fff0_0010L, c.insertString("last"),
        rows(0xffff_ffff_fff0_0000L, f, 99), null));
    save(c, p, ByteOrder.BIG_ENDIAN);
  }

  /**
   * Merged functions where a child has no line table, a child with a late first row (so the
   * merged lookup fails for low addresses) and call sites on the primary.
   */
  static void mergedOdd(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/mo/m.c");
    int a = c.insertString("prim");
    FunctionInfo noLines = new FunctionInfo(r(0x100, 0x120), c.insertString("child_nolines"));
    FunctionInfo late = fi(0x100, 0x120, c.insertString("child_late"), rows(0x110, f, 5), null);
    CallSiteInfoCollection cs = new CallSiteInfoCollection(List.of(
        new CallSiteInfo(0x4, CallSiteInfo.EXTERNAL_CALL, List.of(c.insertString("callee.*")))));
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x120), a, rows(0x100, f, 1, 0x104, f, 2), null,
        new MergedFunctionsInfo(List.of(noLines, late)), cs));
    c.addFunctionInfo(new FunctionInfo(r(0x120, 0x130), c.insertString("after"), null, null,
        new MergedFunctionsInfo(List.of(new FunctionInfo(r(0x120, 0x130), c.insertString("after2")))), null));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Seeded random shapes: byte order, base, UUID length, size-0 and overlapping functions, line
   * tables with big/negative deltas and file 0 rows, inline trees with multi-range nodes and
   * CallFile 0, merged functions and call sites.
   */
  static void random(Path p, int seed) throws IOException {
    java.util.Random rnd = new java.util.Random(seed * 7919L);
    GsymCreator c = new GsymCreator();
    int nFiles = 1 + rnd.nextInt(6);
    int[] files = new int[nFiles + 1];
    for (int i = 1; i <= nFiles; i++) {
      files[i] = rnd.nextInt(8) == 0 ? c.insertFile("C:\\r\\w" + i + ".c", PathStyle.WINDOWS)
          : c.insertFile((rnd.nextBoolean() ? "/r/d" + rnd.nextInt(3) + "/" : "") + "f" + i + ".c");
    }
    String[] pool = {"alpha", "beta", "gamma", "delta", "_ZN2ns3fooEv", "main", "x", "lambda$1"};
    if (rnd.nextInt(3) == 0) {
      byte[] uuid = new byte[1 + rnd.nextInt(20)];
      rnd.nextBytes(uuid);
      c.setUUID(uuid);
    }
    long addr = switch (rnd.nextInt(4)) {
      case 0 -> 0x1000L;
      case 1 -> 0x400000L + rnd.nextInt(0x1000);
      case 2 -> 0x7f00_0000_0000L;
      default -> rnd.nextInt(0x100);
    };
    if (rnd.nextInt(3) == 0) c.setBaseAddress(Math.max(0, addr - rnd.nextInt(0x100)) & ~0xfL);
    int nFuncs = 1 + rnd.nextInt(40);
    for (int i = 0; i < nFuncs; i++) {
      long start = addr;
      long size = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 0x3000 : 0x80);
      FunctionInfo f = randomFunction(rnd, c, files, pool, start, size, true);
      c.addFunctionInfo(f);
      if (rnd.nextInt(10) == 0 && size > 2) {
        long s2 = start + 1 + rnd.nextInt((int) size - 1);
        c.addFunctionInfo(randomFunction(rnd, c, files, pool, s2, 1 + rnd.nextInt(0x40), false));
      }
      addr = start + (rnd.nextInt(5) == 0 ? size + rnd.nextInt(0x100) : size);
      if (rnd.nextInt(20) == 0) addr += 0x1_0000L * (1 + rnd.nextInt(0x100));
    }
    save(c, p, rnd.nextBoolean() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
  }

  static FunctionInfo randomFunction(java.util.Random rnd, GsymCreator c, int[] files, String[] pool,
      long start, long size, boolean extras) {
    int name = c.insertString(pool[rnd.nextInt(pool.length)] + (rnd.nextBoolean() ? "" : "_" + rnd.nextInt(50)));
    LineTable lt = size > 0 && rnd.nextInt(4) != 0 ? randomLines(rnd, files, start, size) : null;
    InlineInfo ii = null;
    if (size > 1 && rnd.nextInt(3) == 0) {
      ii = new InlineInfo(List.of(r(start, start + size)), name, 0, 0,
          randomInlineChildren(rnd, c, files, pool, List.of(r(start, start + size)), 0));
    }
    MergedFunctionsInfo merged = null;
    CallSiteInfoCollection cs = null;
    if (extras && size > 0 && rnd.nextInt(8) == 0) {
      List<FunctionInfo> kids = new ArrayList<>();
      int n = 1 + rnd.nextInt(3);
      for (int k = 0; k < n; k++) kids.add(randomFunction(rnd, c, files, pool, start, size, false));
      merged = new MergedFunctionsInfo(kids);
    }
    if (extras && size > 0 && rnd.nextInt(6) == 0) {
      List<CallSiteInfo> sites = new ArrayList<>();
      TreeSet<Long> offs = new TreeSet<>();
      int n = 1 + rnd.nextInt(4);
      for (int k = 0; k < n; k++) offs.add((long) rnd.nextInt((int) size + 1));
      for (long o : offs) {
        List<Integer> rx = new ArrayList<>();
        for (int k = rnd.nextInt(3); k > 0; k--) rx.add(c.insertString(pool[rnd.nextInt(pool.length)] + ".*"));
        sites.add(new CallSiteInfo(o, rnd.nextInt(4), rx));
      }
      cs = new CallSiteInfoCollection(sites);
    }
    return new FunctionInfo(r(start, start + size), name, lt, ii, merged, cs);
  }

  static LineTable randomLines(java.util.Random rnd, int[] files, long start, long size) {
    List<LineEntry> rows = new ArrayList<>();
    long a = start + (rnd.nextInt(6) == 0 ? rnd.nextInt((int) size) : 0);
    int line = 1 + rnd.nextInt(200);
    int n = 1 + rnd.nextInt(12);
    for (int k = 0; k < n && a < start + size; k++) {
      int file = rnd.nextInt(15) == 0 ? 0 : files[1 + rnd.nextInt(files.length - 1)];
      rows.add(new LineEntry(a, file, line));
      a += rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(rnd.nextInt(5) == 0 ? 300 : 12);
      line += switch (rnd.nextInt(6)) {
        case 0 -> -rnd.nextInt(Math.min(line, 40));
        case 1 -> rnd.nextInt(100000);
        default -> rnd.nextInt(8);
      };
      if (line < 0) line = 0;
    }
    return new LineTable(rows);
  }

  static List<InlineInfo> randomInlineChildren(java.util.Random rnd, GsymCreator c, int[] files,
      String[] pool, List<AddressRange> parent, int depth) {
    List<InlineInfo> kids = new ArrayList<>();
    if (depth >= 4) return kids;
    int n = rnd.nextInt(depth == 0 ? 4 : 3);
    for (int k = 0; k < n; k++) {
      List<AddressRange> ranges = new ArrayList<>();
      for (AddressRange pr : parent) {
        if (pr.size() < 2 || rnd.nextInt(3) == 0) continue;
        long s = pr.start() + rnd.nextInt((int) Math.min(pr.size() - 1, 1 << 20));
        long e = s + 1 + rnd.nextInt((int) Math.min(pr.end() - s, 1 << 20));
        ranges.add(r(s, Math.min(e, pr.end())));
      }
      if (ranges.isEmpty()) continue;
      int callFile = rnd.nextInt(8) == 0 ? 0 : files[1 + rnd.nextInt(files.length - 1)];
      InlineInfo probe = new InlineInfo(ranges, 0, 0, 0, List.of());
      kids.add(new InlineInfo(ranges, c.insertString(pool[rnd.nextInt(pool.length)]), callFile,
          rnd.nextInt(500), randomInlineChildren(rnd, c, files, pool, probe.ranges(), depth + 1)));
    }
    return kids;
  }

  /** Line rows and an inline call file pointing past the end of the file table. */
  static void badFileIndex(Path p) throws IOException {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/bad/y.c");
    c.addFunctionInfo(fi(0x100, 0x110, c.insertString("bad_row"), rows(0x100, f, 1, 0x108, 7, 2), null));
    int n = c.insertString("bad_inline");
    c.addFunctionInfo(fi(0x110, 0x120, n, rows(0x110, f, 3),
        new InlineInfo(List.of(r(0x110, 0x120)), n, 0, 0, List.of(
            new InlineInfo(List.of(r(0x112, 0x118)), c.insertString("x"), 9, 4, List.of())))));
    save(c, p, ByteOrder.LITTLE_ENDIAN);
  }

  // ------------------------------------------------------------------ running llvm

  record Run(int exit, String out) {}

  static Run llvm(Path dir, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(tool().toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Path out = Files.createTempFile(tmp, "out", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
    Process pr = pb.start();
    if (!pr.waitFor(120, TimeUnit.SECONDS)) {
      pr.destroyForcibly();
      throw new AssertionError("timeout: " + cmd);
    }
    return new Run(pr.exitValue(), TestData.text(out)); // compared exactly: names need not be UTF-8
  }

  static final Pattern FUNC = Pattern.compile(
      "^(?:FunctionInfo @ 0x[0-9a-f]{8}: | +)\\[0x([0-9a-f]{16}) - 0x([0-9a-f]{16})\\) \"");
  static final Pattern ROW = Pattern.compile("^ +0x([0-9a-f]{16}) ");
  static final Pattern RANGE = Pattern.compile("\\[0x([0-9a-f]{16}) - 0x([0-9a-f]{16})\\)");

  /** The addresses regenerate.sh would pick, derived from llvm's dump (derive-addresses.py). */
  static List<Long> addresses(String llvmDump) {
    TreeSet<Long> set = new TreeSet<>(Long::compareUnsigned);
    long lo = -1;
    long hi = 0;
    boolean any = false;
    for (String line : llvmDump.split("\n")) {
      Matcher m = FUNC.matcher(line);
      if (m.find()) {
        long s = Long.parseUnsignedLong(m.group(1), 16);
        long e = Long.parseUnsignedLong(m.group(2), 16);
        any = true;
        if (Long.compareUnsigned(s, lo) < 0) lo = s;
        if (Long.compareUnsigned(e, hi) > 0) hi = e;
        if (Long.compareUnsigned(s, hi) > 0) hi = s;
        set.add(s);
        if (Long.compareUnsigned(e, s) > 0) {
          set.add(s + (e - s) / 2);
          set.add(e - 1);
        }
        set.add(e);
        continue;
      }
      m = ROW.matcher(line);
      if (m.find()) {
        set.add(Long.parseUnsignedLong(m.group(1), 16));
        continue;
      }
      if (line.stripLeading().startsWith("[0x")) {
        m = RANGE.matcher(line);
        while (m.find()) {
          set.add(Long.parseUnsignedLong(m.group(1), 16));
          set.add(Long.parseUnsignedLong(m.group(2), 16));
        }
      }
    }
    if (any) {
      if (lo != 0) set.add(lo - 1);
      set.add(Long.compareUnsigned(hi, -1L - 0x100000) > 0 ? -1L : hi + 0x100000);
    }
    return new ArrayList<>(set);
  }

  static List<String> addressArgs(List<Long> addrs, String... extra) {
    List<String> a = new ArrayList<>(List.of(extra));
    for (long x : addrs) {
      a.add("--address");
      a.add("0x" + Long.toHexString(x));
    }
    return a;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void llvmAndWeAgree(String name, Writer writer) throws Exception {
    tool();
    Path dir = Files.createDirectories(tmp.resolve("d-" + name));
    Path file = dir.resolve(name);
    writer.write(file);
    String keep = System.getProperty("gsym.diff.keep"); // debugging: keep the files we wrote
    if (keep != null && !keep.isEmpty()) {
      Files.createDirectories(Path.of(keep));
      Files.copy(file, Path.of(keep, name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    Run dump = llvm(dir, List.of(name));
    assertThat(dump.exit()).as("llvm-gsymutil-22 exit for dump of %s", name).isZero();
    List<Long> addrs = addresses(dump.out());
    try (GsymReader r = GsymReader.open(file)) {
      assertThat(Golden.dump(r)).as("%s: dump", name).isEqualTo(dump.out());

      List<String> args = addressArgs(addrs);
      args.add(name);
      assertThat(Golden.lookupText(r, name, addrs)).as("%s: --address", name)
          .isEqualTo(llvm(dir, args).out());

      args = addressArgs(addrs, "--verbose");
      args.add(name);
      assertThat(Golden.verboseText(r, name, addrs)).as("%s: --verbose --address", name)
          .isEqualTo(llvm(dir, args).out());

      if (dump.out().contains("Merged FunctionInfos")) {
        args = addressArgs(addrs, "--merged-functions");
        args.add(name);
        assertThat(Golden.mergedText(r, name, addrs)).as("%s: --merged-functions --address", name)
            .isEqualTo(llvm(dir, args).out());
      }
    }
  }

  /**
   * In rows of the no-file entry llvm-gsymutil-22 answers with the function (or the inlined frames,
   * the deepest without a file) and no {@code @ file:line}, not with an error as for file 0.
   */
  @Test
  void noFileRowsAnswerWithTheFunctionAlone() throws Exception {
    tool();
    Path dir = Files.createDirectories(tmp.resolve("no-file"));
    noFileRows(dir.resolve("n.gsym"));
    List<Long> addrs = List.of(0x102L, 0x105L, 0x109L, 0x135L, 0x206L, 0x20aL, 0x212L, 0x305L);
    List<String> args = addressArgs(addrs);
    args.add("n.gsym");
    String expected = "Looking up addresses in \"n.gsym\":\n"
        + "0x0000000000000102: gappy + 2\n"
        + "0x0000000000000105: gappy + 5 @ /gap/g.c:10\n"
        + "0x0000000000000109: gappy + 9\n"
        + "0x0000000000000135: gappy + 53\n"
        + "0x0000000000000206: inl + 2 @ /gap/g.c:1 [inlined]\n"
        + "                    outer + 6 @ /gap/g.c:2\n"
        + "0x000000000000020a: inl + 6 [inlined]\n"
        + "                    outer + 10 @ /gap/g.c:2\n"
        + "0x0000000000000212: outer + 18 @ /gap/g.c:3\n"
        + "0x0000000000000305: only_gap + 5\n";
    assertThat(llvm(dir, args).out()).isEqualTo(expected);
    try (GsymReader r = GsymReader.open(dir.resolve("n.gsym"))) {
      assertThat(Golden.lookupText(r, "n.gsym", addrs)).isEqualTo(expected);
    }
  }
}
