package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Breakpad conversion modes through GsymUtil.run. */
class BreakpadCliTest {
  @TempDir
  Path dir;

  private Path copy(String name) throws IOException {
    Path p = dir.resolve(name);
    Files.copy(TestData.path("breakpad", name), p);
    return p;
  }

  /** The addresses Breakpad's resolver answered for NAME.sym (src-test-data/breakpad/NAME.resolver.txt). */
  private static String expectedLookups(String name) throws IOException {
    java.util.LinkedHashSet<String> addrs = new java.util.LinkedHashSet<>();
    for (String line : Files.readAllLines(TestData.path("breakpad", name + ".resolver.txt"), java.nio.charset.StandardCharsets.ISO_8859_1)) {
      addrs.add(line.substring(0, 18));
    }
    return String.join(" ", addrs);
  }

  /**
   * What the library answers for those addresses on its own conversion of NAME.sym (checked
   * against Breakpad's resolver by gsym-breakpad's BreakpadResolverTest): the CLI must print it.
   */
  private static String libraryLookups(String name) throws IOException {
    dev.gsym.write.GsymCreator c = new dev.gsym.write.GsymCreator();
    dev.gsym.breakpad.BreakpadTransformer.convert(TestData.path("breakpad", name + ".sym"), c, false,
        dev.gsym.write.Diagnostics.silent());
    c.finish(dev.gsym.write.Diagnostics.silent());
    StringBuilder sb = new StringBuilder();
    try (dev.gsym.read.GsymReader r = dev.gsym.read.GsymReader.of(c.encode(), name + ".gsym")) {
      for (String a : expectedLookups(name).split(" ")) {
        long addr = Long.parseUnsignedLong(a.substring(2), 16);
        try {
          sb.append(r.lookup(addr).withoutCallSites());
        } catch (dev.gsym.read.LookupException | dev.gsym.GsymFormatException e) {
          sb.append(a).append(": error: ").append(dev.gsym.testing.LookupErrors.llvm(e)).append('\n');
        }
      }
    }
    return sb.toString();
  }

  private CliRun lookupAll(Path gsym) throws IOException {
    return lookupAll(gsym, "basic");
  }

  private CliRun lookupAll(Path gsym, String name) throws IOException {
    String[] addrs = expectedLookups(name).split(" ");
    String[] args = new String[addrs.length * 2 + 1];
    for (int i = 0; i < addrs.length; i++) {
      args[2 * i] = "--address";
      args[2 * i + 1] = addrs[i];
    }
    args[args.length - 1] = gsym.toString();
    return CliRun.run(args);
  }

  @Test
  void breakpadToGsymWithDefaultOutputName() throws IOException {
    Path sym = copy("basic.sym");
    CliRun r = CliRun.run("--breakpad", sym.toString());
    Path gsym = dir.resolve("basic.gsym");
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("Input file: " + sym + "\nOutput file: " + gsym + "\n"
        + "Loaded 3 functions from Breakpad.\n"
        + "Loaded 2 public symbols from Breakpad (2 more are covered by FUNC records;"
        + " 1 of them also the bytes after the FUNC).\n"
        + "Skipped 3 STACK records (--unwind keeps them).\n"
        + "Pruned 0 functions, ended with 6 total\n");
    CliRun l = lookupAll(gsym);
    assertThat(l.out()).isEqualTo("Looking up addresses in \"" + gsym + "\":\n"
        + libraryLookups("basic"));
  }

  @Test
  void convertSubcommandAndBackToBreakpad() throws IOException {
    Path sym = copy("basic.sym");
    Path out = dir.resolve("out.gsym");
    CliRun r = CliRun.run("convert", "--breakpad", sym.toString(), "-o", out.toString(), "--quiet");
    assertThat(r.status()).isZero();
    assertThat(r.out()).endsWith("Pruned 0 functions, ended with 6 total\n");
    Path back = dir.resolve("back.sym");
    CliRun w = CliRun.run("--to-breakpad", out.toString(), "-o", back.toString(), "--module-name", "test");
    assertThat(w.err()).isEqualTo("warning: " + out + ": guessed the MODULE fields GSYM does not record:"
        + " OS Linux (--module-os), architecture x86_64 (--module-arch)\n");
    assertThat(w.out()).isEqualTo("Input file: " + out + "\nOutput file: " + back + "\n"
        + "Wrote 3 FUNC, 3 PUBLIC, 3 FILE and 2 INLINE_ORIGIN records.\n");
    assertThat(Files.readString(back)).isEqualTo(Files.readString(TestData.path("breakpad", "basic.roundtrip.sym")));
    // default output name of --to-breakpad
    CliRun d = CliRun.run("convert", "--to-breakpad", out.toString());
    assertThat(d.status()).isZero();
    assertThat(Files.readString(dir.resolve("out.sym"))).startsWith("MODULE Linux x86_64 D3096ED481217FD4C16B29CD9BC208BA0 out\n");
    // and back again: the same lookups
    Path again = dir.resolve("again.gsym");
    assertThat(CliRun.run("--breakpad", back.toString(), "-o", again.toString()).status()).isZero();
    assertThat(lookupAll(again).out()).isEqualTo(lookupAll(out).out().replace(out.toString(), again.toString()));
  }

  @Test
  void badRecordFailsWithFileAndLineAndNoOutput() throws IOException {
    Path sym = copy("bad.sym");
    CliRun r = CliRun.run("--breakpad", sym.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(sym + ":5: invalid line record size 'zz'\n");
    assertThat(r.out()).isEmpty();
    assertThat(dir.resolve("bad.gsym")).doesNotExist();
    try (var s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("bad.sym");
    }
  }

  @Test
  void lenientCountsBadRecords() throws IOException {
    Path sym = copy("bad.sym");
    CliRun r = CliRun.run("--breakpad", sym.toString(), "--lenient");
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    assertThat(r.out()).contains("Skipped 3 bad records.\n")
        .contains("warning: " + sym + ":5: invalid line record size 'zz'\n")
        .contains("warning: " + sym + ":7: line record refers to FILE 9, which no FILE record defines\n")
        .contains("Ignored 1 records as Breakpad's processor does") // line 9 overlaps line 7
        .contains("warning: " + sym + ":8: unknown record type 'BOGUS'\n")
        .endsWith("Skipped bad Breakpad records occurred 3 time(s)\n");
    CliRun q = CliRun.run("--breakpad", sym.toString(), "--lenient", "--quiet", "-o", dir.resolve("q.gsym").toString());
    assertThat(q.out()).contains("Skipped 3 bad records.\n").doesNotContain("warning:");
    Path gsym = dir.resolve("bad.gsym");
    CliRun l = CliRun.run("--address", "0x1015", "--address", "0x1022", "--address", "0x2004", gsym.toString());
    assertThat(l.out()).isEqualTo("Looking up addresses in \"" + gsym + "\":\n"
        + "0x0000000000001015: good + 21\n" // the skipped line record left [0x1010, 0x1020) without a line
        + "0x0000000000001022: also good + 2\n" // line 7's FILE 9 is not defined (Breakpad: line 7, no file)
        + "0x0000000000002004: pub + 4\n");
  }

  @Test
  void loadAddress() throws IOException {
    Path sym = copy("basic.sym");
    Path gsym = dir.resolve("la.gsym");
    assertThat(CliRun.run("--breakpad", sym.toString(), "--load-address", "0x400000", "-o", gsym.toString())
        .status()).isZero();
    CliRun l = CliRun.run("--address", "0x401012", "--address", "0x1012", gsym.toString());
    assertThat(l.out()).isEqualTo("Looking up addresses in \"" + gsym + "\":\n"
        + "0x0000000000401012: leaf + 2 @ /src/with space/util.h:31 [inlined]\n"
        + "                    middle(int, char const*) + 10 @ /src/with space/util.h:30 [inlined]\n"
        + "                    main + 18 @ /src/main.c:20\n"
        + "0x0000000000001012: error: address 0x1012 is not in GSYM\n");
    try (var r = dev.gsym.read.GsymReader.open(gsym)) {
      assertThat(r.header().baseAddress()).isEqualTo(0x400000L);
    }
    Path back = dir.resolve("la.sym");
    assertThat(CliRun.run("--to-breakpad", gsym.toString(), "--load-address", "0x400000", "--module-name", "test",
        "-o", back.toString()).status()).isZero();
    assertThat(Files.readString(back)).isEqualTo(Files.readString(TestData.path("breakpad", "basic.roundtrip.sym")));
    Path bad = dir.resolve("below.sym");
    CliRun below = CliRun.run("--to-breakpad", gsym.toString(), "--load-address", "0x500000", "-o", bad.toString());
    assertThat(below.status()).isEqualTo(1);
    assertThat(below.err()).isEqualTo(gsym + ": address 0x401000 is below the load address 0x500000\n");
    assertThat(bad).doesNotExist();
  }

  @Test
  void breakpadFromStdin() throws IOException {
    Path out = dir.resolve("stdin.gsym");
    CliRun r = CliRun.stdin("FILE 1 a.c\nFUNC 10 10 0 f\n10 10 3 1\nbad\n", "--breakpad", "-", "-o", out.toString(),
        "--lenient", "--quiet");
    assertThat(r.status()).isZero();
    assertThat(r.out()).contains("Skipped 1 bad records.\n");
    assertThat(CliRun.run("--address", "0x12", out.toString()).out()).endsWith("f + 2 @ a.c:3\n");
    CliRun noOut = CliRun.stdin("", "--breakpad", "-");
    assertThat(noOut.err()).isEqualTo("gsymutil: --breakpad - (stdin) needs -o OUT\n");
    CliRun err = CliRun.stdin("FUNC 10 10 0 f\nxyz 1 2 3\n", "--breakpad", "-", "-o", out.toString());
    assertThat(err.err()).isEqualTo("-:2: invalid line record address 'xyz'\n");
  }

  @Test
  void segments() throws IOException {
    Path sym = copy("basic.sym");
    Path out = dir.resolve("seg.gsym");
    CliRun r = CliRun.run("--breakpad", sym.toString(), "-o", out.toString(), "--segment-size", "200");
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).contains("Wrote segment " + out + "-0x1000\n");
    assertThat(out).doesNotExist();
  }

  @Test
  void errors() throws IOException {
    CliRun missing = CliRun.run("--breakpad", dir.resolve("nope.sym").toString());
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).isEqualTo(dir.resolve("nope.sym") + ": No such file or directory\n");
    CliRun both = CliRun.run("--breakpad", "a.sym", "--to-breakpad", "b.gsym");
    assertThat(both.err()).isEqualTo("gsymutil: only one of --dwarf/--convert, --breakpad and --to-breakpad can be used at a time\n");
    CliRun mixed = CliRun.run("--breakpad", "a.sym", "x.gsym");
    assertThat(mixed.err()).isEqualTo("gsymutil: conversion options cannot be combined with dump or lookup arguments\n");
    CliRun notGsym = CliRun.run("--to-breakpad", TestData.path("breakpad", "basic.sym").toString(), "-o",
        dir.resolve("x.sym").toString());
    assertThat(notGsym.status()).isEqualTo(1);
    assertThat(notGsym.err()).endsWith("basic.sym: not a GSYM file or an ELF file"
        + " (a Breakpad symbol file? --breakpad converts those to GSYM)\n");
    assertThat(dir.resolve("x.sym")).doesNotExist();
    Path empty = dir.resolve("empty.sym");
    Files.writeString(empty, "MODULE Linux x86_64 0 e\n");
    CliRun none = CliRun.run("--breakpad", empty.toString());
    assertThat(none.err()).isEqualTo(empty + ": no FUNC or PUBLIC records: nothing to convert\n");
    assertThat(none.out()).isEmpty();
  }

  /** The other shapes through the CLI: conversion, then llvm-style lookups as the library answers. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"inline-merged", "line-gaps", "public-tail", "file-after-use", "inline-old-form",
      "inline-outside-parent", "overlapping-records", "root-paths"})
  void goldens(String name) throws IOException {
    Path sym = copy(name + ".sym");
    Path gsym = dir.resolve(name + ".gsym");
    CliRun r = CliRun.run("--breakpad", sym.toString());
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    assertThat(lookupAll(gsym, name).out()).isEqualTo("Looking up addresses in \"" + gsym + "\":\n"
        + libraryLookups(name));
  }

  /** STACK records only: one error line, nothing on stdout (also without --quiet), no output file. */
  @Test
  void noFuncOrPublicRecords() throws IOException {
    Path sym = copy("stack-only.sym");
    for (String[] extra : new String[][] {{}, {"--quiet"}, {"--lenient"}}) {
      String[] args = new String[extra.length + 2];
      args[0] = "--breakpad";
      args[1] = sym.toString();
      System.arraycopy(extra, 0, args, 2, extra.length);
      CliRun r = CliRun.run(args);
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.err()).isEqualTo(sym + ": no FUNC or PUBLIC records: nothing to convert\n");
      assertThat(r.out()).isEmpty();
    }
    try (var s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("stack-only.sym");
    }
  }

  /** --breakpad on something else: says so, naming the file, in lenient mode too; no output. */
  @Test
  void notASymbolFile() throws IOException {
    Path elf = dir.resolve("c-clang-O2");
    Files.copy(TestData.path("bin", "c-clang-O2"), elf);
    Path out = dir.resolve("x.gsym");
    for (String mode : new String[] {"--quiet", "--lenient"}) {
      CliRun r = CliRun.run("--breakpad", elf.toString(), "-o", out.toString(), mode);
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.err()).isEqualTo(elf + ": not a Breakpad symbol file: line 1 is not a MODULE record\n");
      assertThat(r.out()).isEmpty();
      assertThat(out).doesNotExist();
    }
    CliRun text = CliRun.stdin("\nThis is a README.\n", "--breakpad", "-", "-o", out.toString());
    assertThat(text.err()).isEqualTo("-: not a Breakpad symbol file: line 2 is not a MODULE record\n");
    assertThat(out).doesNotExist();
  }

  /** --lenient skips an INLINE range no parent covers, keeps the rest and counts it. */
  @Test
  void inlineRangeOutsideItsFuncIsNeverLookedUp() throws IOException {
    // as Breakpad's processor: the range [0x30, 0x32) is stored, but only addresses of f are looked up
    String sym = "FILE 1 a.c\nINLINE_ORIGIN 0 g\nFUNC 10 10 0 f\nINLINE 0 5 1 0 12 4 30 2\n10 10 1 1\n";
    for (String mode : new String[] {"--lenient", "--quiet"}) {
      Path out = dir.resolve("inl" + mode + ".gsym");
      CliRun r = CliRun.stdin(sym, "--breakpad", "-", "-o", out.toString(), mode);
      assertThat(r.status()).isZero();
      assertThat(r.err()).isEmpty();
      assertThat(r.out()).doesNotContain("warning");
      assertThat(CliRun.run("--address", "0x13", "--address", "0x30", out.toString()).out()).endsWith(
          "0x0000000000000013: g + 1 @ a.c:1 [inlined]\n                    f + 3 @ a.c:5\n"
          + "0x0000000000000030: error: address 0x30 is not in GSYM\n");
    }
  }

  /**
   * --breakpad --unwind keeps the STACK records and --to-breakpad writes them back line for line:
   * the STACK CFI records Breakpad's own dump_syms wrote for four binaries (x86-64 GCC and clang,
   * AArch64, i386), and STACK WIN records of both kinds.
   */
  @ParameterizedTest
  @ValueSource(strings = {"c-gcc-O2", "cpp-clang-O2", "fs-aarch64-O2-d5", "fs-i386-O2-d5", "stack-win"})
  void stackRecordsRoundTrip(String name) throws IOException {
    Path sym = name.equals("stack-win") ? stackWin() : TestData.path("breakpad", "dump_syms", name + ".sym");
    Path gsym = dir.resolve(name + ".gsym");
    CliRun in = CliRun.run("--breakpad", sym.toString(), "--unwind", "-o", gsym.toString());
    assertThat(in.status()).as(in.err()).isZero();
    long stack = Files.readAllLines(sym).stream().filter(l -> l.startsWith("STACK ")).count();
    assertThat(in.out()).containsPattern("Loaded \\d+ unwind tables from " + stack + " STACK records.\n");
    String arch = Files.readAllLines(sym).getFirst().split(" ")[2];
    Path back = dir.resolve(name + ".sym");
    CliRun out = CliRun.run("--to-breakpad", gsym.toString(), "-o", back.toString(), "--module-arch", arch, "--quiet");
    assertThat(out.status()).as(out.err()).isZero();
    assertThat(Files.readAllLines(back).stream().filter(l -> l.startsWith("STACK ")).toList())
        .containsExactlyElementsOf(Files.readAllLines(sym).stream().filter(l -> l.startsWith("STACK ")).toList());
    CliRun none = CliRun.run("--to-breakpad", gsym.toString(), "-o", back.toString(), "--module-arch", arch, "--quiet",
        "--no-cfi");
    assertThat(none.status()).isZero();
    assertThat(Files.readAllLines(back)).noneMatch(l -> l.startsWith("STACK "));
  }

  /** A 32-bit Windows module's STACK WIN records (FrameData with program strings, FPO) and one STACK CFI table. */
  private Path stackWin() throws IOException {
    return Files.writeString(dir.resolve("win.sym"), """
        MODULE windows x86 0123456789ABCDEF0123456789ABCDEF1 win.pdb
        FILE 0 c:\\src\\win.c
        FUNC 1000 40 4 frame_data
        1000 40 10 0
        FUNC 1040 20 0 fpo
        1040 20 20 0
        STACK WIN 4 1000 40 3 0 4 0 8 0 1 $T0 $ebp = $eip $T0 4 + ^ = $ebp $T0 ^ = $esp $T0 8 + =
        STACK WIN 0 1040 20 1 1 0 4 10 0 0 1
        STACK CFI INIT 1060 10 .cfa: $esp 4 + .ra: .cfa -4 + ^
        STACK CFI 1061 $ebp: .cfa -8 + ^ .cfa: $esp 8 +
        """);
  }
}
