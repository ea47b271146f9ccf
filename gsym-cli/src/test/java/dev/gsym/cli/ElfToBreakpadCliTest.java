package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.demangle.Demangler;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.Hex;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.ReadelfFacts;
import dev.gsym.testing.Breakpad;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --to-breakpad} of ELF files (dump_syms' conversion) and of GSYM files (guessed MODULE
 * fields), through GsymUtil.run. The .sym files in {@code src-test-data/breakpad/elf} ({@code
 * regenerate-breakpad-elf.sh}) are what the CLI writes ({@link #writesTheGoldenSym}); they are
 * checked against independent tools: their answers against llvm-symbolizer-22's and their records
 * against Breakpad's dump_syms by {@link ElfToBreakpadOracleTest}, their MODULE lines against
 * llvm-readelf's facts by gsym-breakpad's ElfModuleTest, their functions here against
 * llvm-gsymutil-22's lookups.
 */
@NeedsLlvm
class ElfToBreakpadCliTest {
  @TempDir
  Path dir;

  static Stream<String> goldens() throws IOException {
    try (Stream<Path> s = Files.list(TestData.path("breakpad", "elf"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sym"))
          .map(n -> n.substring(0, n.length() - ".sym".length())).sorted().toList().stream();
    }
  }

  static Path input(String name) {
    Path bin = TestData.path("bin", name);
    return Files.exists(bin) ? bin : TestData.path("breakpad", "elf", name);
  }

  static ReadelfFacts facts(String name) throws IOException {
    return ReadelfFacts.parse(Files.readString(TestData.path("breakpad", "elf", name + ".readelf.txt")));
  }

  private List<String> listDir() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void writesTheGoldenSym(String name) throws IOException {
    Path in = input(name);
    Path out = dir.resolve(name + ".sym");
    CliRun r = CliRun.run("--to-breakpad", in.toString(), "-o", out.toString());
    assertThat(r.err()).isEmpty(); // nothing guessed
    assertThat(r.status()).isZero();
    assertThat(r.out()).startsWith("Input file: " + in + "\nOutput file: " + out + "\nLoaded ")
        .contains(" functions from DWARF.\n").containsPattern("\nWrote \\d+ FUNC, \\d+ PUBLIC, \\d+ FILE(, \\d+ INLINE_ORIGIN and \\d+ STACK| and \\d+"
            + " INLINE_ORIGIN) records.\n");
    assertThat(Files.readString(out)).isEqualTo(Files.readString(TestData.path("breakpad", "elf", name + ".sym")));
    assertThat(listDir()).containsExactly(name + ".sym"); // the temporary GSYM is gone
  }

  /** The golden files and llvm-gsymutil-22's GSYM, lookup addresses and lookups of the same ELF. */
  record LlvmRun(String name, Path gsym, Path addrs, Path lookups) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<LlvmRun> llvmRuns() throws IOException {
    List<LlvmRun> runs = new ArrayList<>();
    for (String name : goldens().toList()) {
      Path own = TestData.path("breakpad", "elf", name + ".gsym");
      if (Files.exists(own)) {
        runs.add(new LlvmRun(name, own, TestData.path("breakpad", "elf", name + ".gsym.addrs"),
            TestData.path("breakpad", "elf", name + ".gsym.lookup.txt")));
      } else {
        runs.add(new LlvmRun(name, TestData.path("gsym", name + ".gsym"),
            TestData.path("expected", "gsym", name + ".gsym.addrs"),
            TestData.path("expected", "gsym", name + ".gsym.lookup.txt")));
      }
    }
    return runs.stream();
  }

  /** llvm's lookup output split into one chunk per address (inline frames are continuation lines). */
  static List<String> chunks(String lookupText) {
    List<String> out = new ArrayList<>();
    for (String line : lookupText.split("\n")) {
      if (line.startsWith("Looking up addresses in")) continue;
      if (line.startsWith("0x")) out.add(line + "\n");
      else out.set(out.size() - 1, out.getLast() + line + "\n");
    }
    return out;
  }

  static String lookup(GsymReader r, long addr) {
    try {
      return r.lookup(addr).withoutCallSites().toString();
    } catch (LookupException e) {
      return Hex.append(new StringBuilder(), addr, 16).append(": error: ").append(e.getMessage()).append('\n')
          .toString();
    }
  }

  /**
   * The .sym converted back to GSYM (with the ELF's load address, the first PT_LOAD's address
   * according to llvm-readelf) answers llvm-gsymutil-22's own lookups of the ELF on llvm's address
   * lists (function starts, middles, ends, one-past-ends, line rows, inline bounds, below and
   * above all) with the names demangled (our reader gives llvm's lookups on llvm's GSYM, checked
   * first; the .sym holds the names as {@link Demangler#llvm()} prints them). The one deliberate
   * difference: functions known only from the symbol table are PUBLIC records, and a PUBLIC extends
   * to the next symbol, so an address after such a function's end that llvm does not resolve
   * answers as {@code <symbol> + <offset>}.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("llvmRuns")
  void roundTripAnswersLlvmLookups(LlvmRun run) throws IOException, InterruptedException {
    roundTrip(run, null);
  }

  /** llvm-gsymutil-22, live, prints our answers for the round-tripped file. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("llvmRuns")
  void llvmReadsTheRoundTripAsWeDo(LlvmRun run) throws IOException, InterruptedException {
    roundTrip(run, Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL));
  }

  /** {@link #roundTripAnswersLlvmLookups}, then {@code gsymutil}'s lookups in the round-tripped file if not null. */
  private void roundTrip(LlvmRun run, Path gsymutil) throws IOException, InterruptedException {
    Long load = facts(run.name()).firstLoad();
    Path back = dir.resolve(run.name() + ".gsym");
    CliRun c = CliRun.run("--breakpad", TestData.path("breakpad", "elf", run.name() + ".sym").toString(),
        "--load-address", "0x" + Long.toHexString(load == null ? 0 : load), "-o", back.toString(), "--quiet");
    assertThat(c.status()).as(c.err()).isZero();
    List<String> addrs = Files.readAllLines(run.addrs());
    List<String> llvm = chunks(Files.readString(run.lookups()));
    assertThat(llvm).hasSameSizeAs(addrs);
    int publicExtents = 0;
    int demangled = 0;
    StringBuilder ours = new StringBuilder();
    try (GsymReader orig = GsymReader.open(run.gsym()); GsymReader r = GsymReader.open(back)) {
      for (int i = 0; i < addrs.size(); i++) {
        long a = Long.decode(addrs.get(i));
        assertThat(lookup(orig, a)).as("our reader on llvm's GSYM at %s", addrs.get(i)).isEqualTo(llvm.get(i));
        String want = demangledLookup(orig, a);
        if (!want.equals(llvm.get(i))) demangled++;
        String got = lookup(r, a);
        ours.append(got);
        FunctionInfo below = symbolOnlyBelow(orig, a);
        if (want.endsWith(": error: address 0x" + Long.toHexString(a) + " is not in GSYM\n") && below != null) {
          long off = a - below.range().start();
          want = Hex.append(new StringBuilder(), a, 16).append(": ")
              .append(Demangler.llvm().demangle(orig.string(below.name()))).append(off == 0 ? "" : " + " + off)
              .append('\n').toString();
          publicExtents++;
        }
        assertThat(got).as("%s at %s", run.name(), addrs.get(i)).isEqualTo(want);
      }
    }
    if (run.name().startsWith("c-clang-O2")) assertThat(publicExtents).isPositive(); // _start, _fini
    if (run.name().startsWith("cpp-")) assertThat(demangled).isPositive();
    if (gsymutil == null) return;
    List<String> cmd = new ArrayList<>(List.of(gsymutil.toString()));
    for (String a : addrs) cmd.add("--address=" + a);
    cmd.add(back.getFileName().toString());
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(out).isEqualTo("Looking up addresses in \"" + back.getFileName() + "\":\n" + ours);
  }

  /** {@link #lookup} with every function name as {@link Demangler#llvm()} prints it. */
  static String demangledLookup(GsymReader r, long addr) {
    LookupResult res;
    try {
      res = r.lookup(addr).withoutCallSites();
    } catch (LookupException e) {
      return lookup(r, addr);
    }
    Demangler d = Demangler.llvm();
    List<SourceLocation> locs = new ArrayList<>();
    for (SourceLocation l : res.locations()) {
      locs.add(new SourceLocation(d.demangle(l.name()), l.dir(), l.base(), l.line(), l.offset()));
    }
    return new LookupResult(res.lookupAddress(), res.functionRange(), d.demangle(res.functionName()), locs, List.of())
        .toString();
  }

  /**
   * The function of {@code r} with the greatest start at or below {@code a} if it has neither
   * line table nor inline info (a symbol-table entry: written as PUBLIC), else null.
   */
  static FunctionInfo symbolOnlyBelow(GsymReader r, long a) {
    FunctionInfo best = null;
    for (int i = 0; i < r.numFunctions(); i++) {
      FunctionInfo fi = r.functionInfoAtIndex(i);
      if (Long.compareUnsigned(fi.range().start(), a) <= 0) best = fi;
    }
    return best != null && best.lineTable() == null && best.inlineInfo() == null ? best : null;
  }

  @Test
  void gsymInputWarnsAboutGuessedFields() throws IOException {
    Path gsym = dir.resolve("prog.gsym");
    Files.copy(TestData.path("gsym", "c-clang-O2.gsym"), gsym);
    Path out = dir.resolve("prog.sym");
    CliRun all = CliRun.run("--to-breakpad", gsym.toString(), "-o", out.toString());
    assertThat(all.status()).isZero();
    assertThat(all.err()).isEqualTo("warning: " + gsym + ": guessed the MODULE fields GSYM does not record:"
        + " OS Linux (--module-os), architecture x86_64 (--module-arch), name prog (--module-name)\n");
    assertThat(Files.readString(out)).startsWith("MODULE Linux x86_64 526D291D93C4D4524988045E45E7A2C60 prog\n");
    CliRun some = CliRun.run("--to-breakpad", gsym.toString(), "-o", out.toString(), "--module-os", "Linux",
        "--module-name", "n");
    assertThat(some.err()).isEqualTo("warning: " + gsym + ": guessed the MODULE fields GSYM does not record:"
        + " architecture x86_64 (--module-arch)\n");
    CliRun none = CliRun.run("--to-breakpad", gsym.toString(), "-o", out.toString(), "--module-os", "Android",
        "--module-arch", "arm64", "--module-name", "libx.so");
    assertThat(none.err()).isEmpty();
    assertThat(Files.readString(out)).startsWith("MODULE Android arm64 526D291D93C4D4524988045E45E7A2C60 libx.so\n");
    CliRun quiet = CliRun.run("convert", "--to-breakpad", gsym.toString(), "-o", out.toString(), "--quiet");
    assertThat(quiet.status()).isZero();
    assertThat(quiet.err()).isEmpty();
  }

  @Test
  void neitherElfNorGsymIsOneError() throws IOException {
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "hello\n");
    Path sym = dir.resolve("basic.sym");
    Files.copy(TestData.path("breakpad", "basic.sym"), sym);
    Path empty = dir.resolve("empty");
    Files.createFile(empty);
    List<String> before = listDir();
    for (Path p : List.of(text, sym, empty)) {
      CliRun r = CliRun.run("--to-breakpad", p.toString(), "-o", dir.resolve("out.sym").toString());
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).isEqualTo(p + ": not a GSYM file or an ELF file"
          + (p == sym ? " (a Breakpad symbol file? --breakpad converts those to GSYM)" : "") + "\n");
    }
    assertThat(listDir()).isEqualTo(before);
    CliRun missing = CliRun.run("--to-breakpad", dir.resolve("nope").toString());
    assertThat(missing.err()).isEqualTo(dir.resolve("nope") + ": No such file or directory\n");
  }

  @Test
  void unknownMachineNeedsModuleArch() throws IOException {
    byte[] b = Files.readAllBytes(TestData.path("bin", "c-clang-O2"));
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(18, (short) 0x1234); // e_machine
    Path elf = dir.resolve("odd");
    Files.write(elf, b);
    Path out = dir.resolve("odd.sym");
    CliRun r = CliRun.run("--to-breakpad", elf.toString(), "-o", out.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(elf + ": unrecognized ELF machine architecture 4660 (name it with --module-arch)\n");
    assertThat(out).doesNotExist();
    CliRun named = CliRun.run("--to-breakpad", elf.toString(), "-o", out.toString(), "--module-arch", "odd64");
    assertThat(named.err()).isEmpty();
    // no STACK CFI: an architecture without register names, as dump_syms writes none for it
    String golden = Files.readString(TestData.path("breakpad", "elf", "c-clang-O2.sym")).replaceAll("(?m)^STACK .*\n", "");
    assertThat(Files.readString(out)).isEqualTo(golden.replace("MODULE Linux x86_64 ", "MODULE Linux odd64 ")
        .replace(" c-clang-O2\n", " odd\n"));
  }

  /**
   * --module-* and --load-address override what the ELF says; the debug id stays the ELF's. A
   * load address above a function is an error naming the input, with no output left behind.
   */
  @Test
  void overridesAndLoadAddress() throws IOException {
    String name = "fs-aarch64-O2-d5";
    Path out = dir.resolve("x.sym");
    CliRun r = CliRun.run("--to-breakpad", input(name).toString(), "-o", out.toString(), "--module-os", "Android",
        "--module-name", "libx.so", "--load-address", "0");
    assertThat(r.err()).isEmpty();
    List<String> golden = Files.readAllLines(TestData.path("breakpad", "elf", name + ".sym"));
    List<String> got = Files.readAllLines(out);
    assertThat(got.getFirst()).isEqualTo(golden.getFirst().replace("MODULE Linux ", "MODULE Android ")
        .replace(" " + name, " libx.so"));
    long load = facts(name).firstLoad();
    assertThat(load).isEqualTo(0x200000L);
    List<String> shifted = new ArrayList<>();
    int inlines = 0;
    for (String line : golden.subList(1, golden.size())) {
      String[] f = line.split(" ");
      // the address fields: FUNC/PUBLIC 1, INLINE 5, 7, ... (addr size pairs), STACK CFI INIT 3,
      // STACK CFI 2, line records 0
      int first = switch (f[0]) {
        case "FUNC", "PUBLIC" -> 1;
        case "INLINE" -> 5;
        case "STACK" -> f[2].equals("INIT") ? 3 : 2;
        case "INFO", "FILE", "INLINE_ORIGIN" -> f.length;
        default -> 0;
      };
      for (int i = first; i < f.length; i += f[0].equals("INLINE") ? 2 : f.length) {
        f[i] = Long.toHexString(Long.parseLong(f[i], 16) + load);
      }
      if (f[0].equals("INLINE")) inlines++;
      shifted.add(String.join(" ", f));
    }
    assertThat(inlines).isPositive();
    assertThat(got.subList(1, got.size())).isEqualTo(shifted);
    Path bad = dir.resolve("bad.sym");
    CliRun below = CliRun.run("--to-breakpad", input(name).toString(), "-o", bad.toString(), "--load-address",
        "0x300000");
    assertThat(below.status()).isEqualTo(1);
    assertThat(below.err()).startsWith(input(name) + ": address 0x").endsWith(" is below the load address 0x300000\n");
    assertThat(listDir()).containsExactly("x.sym");
  }

  @Test
  void defaultOutputNameAndElfDetectedByContent() throws IOException {
    Path elf = dir.resolve("prog.gsym"); // an ELF, whatever its name says
    Files.copy(TestData.path("bin", "c-clang-O2"), elf);
    CliRun r = CliRun.run("convert", "--to-breakpad", elf.toString());
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    String golden = Files.readString(TestData.path("breakpad", "elf", "c-clang-O2.sym"));
    assertThat(Files.readString(dir.resolve("prog.sym"))).isEqualTo(golden.replace(" c-clang-O2\n", " prog.gsym\n"));
  }

  /**
   * A stripped binary with its debug file in a directory, as dump_syms takes them: found by its
   * .gnu_debuglink name (CRC-checked), the DWARF and symbols from the debug file and the CFI from
   * the binary's .eh_frame: the records the unstripped binary gives, STACK records included (in
   * dump_syms' order for a pair: live check below). Without the debug file: one clear error.
   */
  @Test
  void strippedBinaryWithItsDebugFile() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin")).resolve("both-gcc-O2");
    Files.copy(TestData.path("cfi", "bin", "both-gcc-O2.stripped"), bin);
    Path dbg = Files.createDirectories(dir.resolve("dbg"));
    Files.copy(TestData.path("cfi", "bin", "both-gcc-O2.debug"), dbg.resolve("both-gcc-O2.debug"));
    Path paired = dir.resolve("paired.sym");
    CliRun r = CliRun.run("--to-breakpad", bin.toString(), "--debug-file-directory", dbg.toString(), "-o", paired.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("Using the debug file " + dbg.resolve("both-gcc-O2.debug") + ".\n");
    Path whole = dir.resolve("whole.sym");
    assertThat(CliRun.run("--to-breakpad", TestData.path("cfi", "bin", "both-gcc-O2").toString(), "-o", whole.toString())
        .status()).isZero();
    // the same records; the STACK records in dump_syms' order for a pair (the binary's .eh_frame
    // before the debug file's .debug_frame, checked live below), the rest in the same order
    assertThat(Files.readAllLines(paired)).containsExactlyInAnyOrderElementsOf(Files.readAllLines(whole));
    assertThat(Files.readAllLines(paired).stream().filter(l -> !l.startsWith("STACK ")).toList())
        .containsExactlyElementsOf(Files.readAllLines(whole).stream().filter(l -> !l.startsWith("STACK ")).toList());
    assertThat(Files.readString(paired)).contains("\nSTACK CFI INIT ");

    // a debug file whose CRC is not the link's is not taken
    Files.write(dbg.resolve("both-gcc-O2.debug"), new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
    CliRun bad = CliRun.run("--to-breakpad", bin.toString(), "--debug-file-directory", dbg.toString(), "-o",
        dir.resolve("bad.sym").toString());
    assertThat(bad.status()).isEqualTo(1);
    assertThat(bad.err()).startsWith(bin + ": no DWARF and no debug file found; tried ").contains("(CRC-32 mismatch)");
    assertThat(dir.resolve("bad.sym")).doesNotExist();
  }

  /** The same pair through Breakpad's dump_syms: the same STACK records (live). */
  @Test
  void strippedBinaryWithItsDebugFileAsDumpSyms() throws IOException, InterruptedException {
    Path tool = Breakpad.dumpSyms();
    Path bin = Files.createDirectories(dir.resolve("bin")).resolve("both-gcc-O2");
    Files.copy(TestData.path("cfi", "bin", "both-gcc-O2.stripped"), bin);
    Path dbg = Files.createDirectories(dir.resolve("dbg"));
    Files.copy(TestData.path("cfi", "bin", "both-gcc-O2.debug"), dbg.resolve("both-gcc-O2.debug"));
    Path theirs = dir.resolve("theirs.sym");
    Process p = new ProcessBuilder(tool.toString(), bin.toString(), dbg.toString()).redirectOutput(theirs.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    assertThat(p.waitFor()).isZero();
    Path ours = dir.resolve("ours.sym");
    assertThat(CliRun.run("--to-breakpad", bin.toString(), "--debug-file-directory", dbg.toString(), "-o", ours.toString())
        .status()).isZero();
    List<String> want = Files.readAllLines(theirs).stream().filter(l -> l.startsWith("STACK ")).toList();
    assertThat(want).isNotEmpty();
    assertThat(Files.readAllLines(ours).stream().filter(l -> l.startsWith("STACK ")).toList()).containsExactlyElementsOf(want);
    assertThat(Files.readAllLines(ours).getFirst()).isEqualTo(Files.readAllLines(theirs).getFirst());
  }
}
