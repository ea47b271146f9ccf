package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.demangle.Demangler;
import dev.gsym.elf.ElfFile;
import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gsymutil symbolize} against the live {@code llvm-symbolizer-22} on every test binary of
 * src-test-data (C, C++ and Rust; gcc and clang; x86-64, i386, AArch64, PowerPC; split DWARF),
 * by path and by build-id (a debug directory with {@code .build-id/xx/yyyy.debug}), at the start,
 * middle and last byte of every function. A reported skip without llvm-symbolizer-22 or llvm-nm-22
 * (a failure under -Dgsym.requireTools=true; {@code -Dgsym.llvm.symbolizer=PATH|none} overrides
 * the PATH).
 *
 * <ul>
 *   <li>{@link #sameOutputAsLlvmOverGsym}: llvm-symbolizer-22 reading llvm-gsymutil-22's GSYM of
 *       each binary (found as llvm-symbolizer-22 finds GSYM files: {@code --gsym-file-directory})
 *       must print byte for byte what we print, stdout and stderr, in every style and with the
 *       options that shape the output, also at addresses outside every function; both when we use
 *       the same GSYM files and when we convert the binaries ourselves (then we name the
 *       outermost frame from the binary's symbol table, as llvm does when it reads DWARF: the
 *       inputs where that name differs from GSYM's are left out of this comparison, and checked
 *       by the next one). Two places where
 *       llvm-symbolizer-22's GSYM reader has a bug are left out or normalised: {@code --no-inlines}
 *       in LLVM and JSON style (llvm prints {@code ??} for every address: its GSYM context refuses
 *       addresses that carry a section index, which {@code symbolizeCode} always sets), and a
 *       location without a file under {@code --basenames} (llvm prints {@code :0:0}, we {@code
 *       ??:0:0}, as for every other unknown file).
 *   <li>{@link #sameFramesAsLlvmOnDwarf}: llvm-symbolizer-22 reading the DWARF must give the same
 *       frames (function, file, line, inline stack) in JSON and LLVM style, demangled or not, with
 *       and without inlines, except for the differences GSYM implies (docs/symbolize.md,
 *       "Differences from llvm-symbolizer"), each recognised by a narrow rule and counted per test
 *       binary: the counts must be {@link #ACCEPTED}'s, so a symbolizer that lost line tables or
 *       names (answers a rule would excuse) fails; the outermost frame's name is always llvm's (the
 *       symbol table's).
 * </ul>
 */
@NeedsLlvm
class SymbolizeLlvmDifferentialTest {
  @TempDir
  static Path work;

  private static Path llvm;
  private static Path nm;
  /** Every binary: absolute path, its build-id (upper-case hex) and its function starts and sizes. */
  private static final List<Binary> BINARIES = new ArrayList<>();

  /** @param byBuildId false for a binary whose build-id an earlier one has (compressed-section variants) */
  private record Binary(String name, Path path, String buildId, boolean byBuildId, List<long[]> functions) {}

  @BeforeAll
  static void setUp() throws IOException {
    llvm = Tools.require(Llvm.symbolizer(), Llvm.SYMBOLIZER);
    nm = Tools.require(Llvm.nm(), "llvm-nm-22");
    Path bin = Files.createDirectories(work.resolve("bin"));
    Path gsym = Files.createDirectories(work.resolve("gsym"));
    Path debug = work.resolve("debug");
    try (Stream<Path> all = Files.list(TestData.path("bin"))) {
      for (Path p : all.toList()) Files.copy(p, bin.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }
    Set<String> ids = new java.util.HashSet<>();
    for (String name : TestData.binaries()) {
      Path g = TestData.path("gsym", name + ".gsym");
      if (!Files.exists(g)) continue;
      Path b = bin.resolve(name);
      String id;
      try (ElfFile elf = ElfFile.open(b)) {
        byte[] raw = elf.buildId();
        if (raw == null) continue;
        id = HexFormat.of().formatHex(raw);
      }
      Files.copy(g, gsym.resolve(name + ".gsym"));
      boolean byBuildId = ids.add(id);
      List<long[]> functions = new ArrayList<>();
      try (GsymReader r = GsymReader.open(g)) {
        for (int i = 0; i < r.numFunctions(); i++) {
          FunctionInfo fi = r.functionInfoAtIndex(i);
          functions.add(new long[] {fi.range().start(), fi.range().size()});
        }
      }
      BINARIES.add(new Binary(name, b, id.toUpperCase(java.util.Locale.ROOT), byBuildId, functions));
      if (!byBuildId) continue;
      // llvm-symbolizer-22 finds a build-id's debug file, then DIR/<its name>.gsym
      Path dbg = TestData.addToDebugDirectory(debug, id, b);
      // split DWARF: the package FILE.dwp and the .dwo files beside the debug file, where they are
      // found for it
      Path dwp = bin.resolve(name + ".dwp");
      if (Files.exists(dwp)) Files.copy(dwp, dbg.resolveSibling(dbg.getFileName() + ".dwp"));
      try (Stream<Path> dwos = Files.list(bin)) {
        for (Path dwo : dwos.filter(d -> d.getFileName().toString().startsWith(name + "-")
            && d.getFileName().toString().endsWith(".dwo")).toList()) {
          Files.copy(dwo, dbg.resolveSibling(dwo.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      Files.copy(g, gsym.resolve(id.substring(2) + ".debug.gsym"));
    }
    assertThat(BINARIES).as("test binaries with GSYM files").hasSizeGreaterThan(20);
  }

  // ------------------------------------------------------------------ inputs

  /** Start, middle and last byte of every function of {@code b}. */
  private static TreeSet<Long> inside(Binary b) {
    TreeSet<Long> s = new TreeSet<>(Long::compareUnsigned);
    for (long[] f : b.functions) {
      s.add(f[0]);
      if (f[1] > 0) {
        s.add(f[0] + f[1] / 2);
        s.add(f[0] + f[1] - 1);
      }
    }
    return s;
  }

  /** {@link #inside} plus one past each function's end, below the first and far above the last. */
  private static TreeSet<Long> interesting(Binary b) {
    TreeSet<Long> s = inside(b);
    for (long[] f : b.functions) s.add(f[0] + Math.max(1, f[1]));
    long first = b.functions.getFirst()[0];
    if (first > 0) s.add(first - 1);
    s.add(b.functions.getLast()[0] + 0x100000);
    return s;
  }

  private static String lines(boolean byBuildId, boolean outside) {
    StringBuilder sb = new StringBuilder();
    for (Binary b : BINARIES) {
      if (byBuildId && !b.byBuildId) continue;
      String module = byBuildId ? "BUILDID:" + b.buildId.toLowerCase(java.util.Locale.ROOT) : b.path.toString();
      for (long a : outside ? interesting(b) : inside(b)) sb.append(module).append(" 0x").append(Long.toHexString(a)).append('\n');
    }
    return sb.toString();
  }

  // ------------------------------------------------------------------ running both

  private record Out(String out, String err) {}

  private static Out llvm(String stdin, List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(llvm.toString());
    cmd.addAll(args);
    Path in = Files.writeString(work.resolve("in.txt"), stdin);
    Path out = work.resolve("llvm.out");
    Path err = work.resolve("llvm.err");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.resolve("bin").toFile())
        .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("DEBUGINFOD_URLS");
    pb.environment().remove("LLVM_SYMBOLIZER_OPTS");
    int status = pb.start().waitFor();
    assertThat(status).as("llvm-symbolizer-22 %s", args).isZero();
    // llvm names itself by its argv[0]
    String e = TestData.text(err).replace(llvm + ": error: ", CliException.TOOL_NAME + ": error: ");
    return new Out(TestData.text(out), e);
  }

  private static Out ours(String stdin, List<String> args) {
    List<String> all = new ArrayList<>();
    all.add("symbolize");
    all.addAll(args);
    CliRun r = CliRun.withEnv(Map.of(), ByteStrings.encode(stdin), all.toArray(String[]::new));
    assertThat(r.status()).as("gsymutil symbolize %s: %s", args, r.err()).isZero();
    return new Out(r.out(), r.err());
  }

  // ------------------------------------------------------------------ llvm over GSYM: byte for byte

  /** The option sets compared byte for byte. */
  private static final List<List<String>> STYLES = List.of(
      List.of(), List.of("--output-style=JSON"), List.of("--output-style=GNU"),
      List.of("--no-demangle"), List.of("--output-style=JSON", "--no-demangle"),
      List.of("-p", "-a"), List.of("--output-style=JSON", "-p"), List.of("--output-style=GNU", "-p", "-a", "-i"),
      List.of("--verbose"), List.of("--output-style=GNU", "--verbose"), List.of("-f=none", "-a"),
      List.of("--functions=short"), List.of("--output-style=GNU", "--no-inlines"),
      List.of("-s"), List.of("--output-style=GNU", "-s"), List.of("--output-style=JSON", "--basenames"),
      List.of("--relativenames"), List.of("--adjust-vma=0x10"), List.of("-Cfip"));

  /** llvm's {@code :0:0} for a location without a file under --basenames (see the class comment). */
  private static final Pattern BASENAME_NO_FILE = Pattern.compile("(?m)^(( \\(inlined by\\) )?.* at |)(:0(:0)?)$");

  @TestFactory
  Stream<DynamicTest> sameOutputAsLlvmOverGsym() {
    List<DynamicTest> tests = new ArrayList<>();
    for (boolean byBuildId : new boolean[] {false, true}) {
      String stdin = lines(byBuildId, true);
      for (List<String> style : STYLES) {
        String what = (byBuildId ? "by build-id " : "by path ") + style;
        tests.add(DynamicTest.dynamicTest(what, () -> {
          List<String> common = new ArrayList<>(style);
          if (byBuildId) common.add("--debug-file-directory=" + work.resolve("debug"));
          List<String> viaGsym = new ArrayList<>(common);
          viaGsym.add("--gsym-file-directory=" + work.resolve("gsym"));
          Out expected = llvm(stdin, viaGsym);
          String expectedOut = expected.out;
          if (style.contains("-s") || style.contains("--basenames")) {
            expectedOut = BASENAME_NO_FILE.matcher(expectedOut).replaceAll("$1??$3");
          }
          // we read the same GSYM files (by path: as llvm finds them; by build-id: from our store)
          List<String> ourArgs = new ArrayList<>(viaGsym);
          if (byBuildId) ourArgs.add("--store=" + work.resolve("store"));
          Out same = ours(stdin, ourArgs);
          assertSameText(same.out, expectedOut, what + ", GSYM files");
          assertThat(same.err).as("stderr, %s", what).isEqualTo(expected.err);
          // we convert the binaries ourselves: the inputs whose outermost frame llvm names alike
          // from the DWARF and the symbol table and from the GSYM file
          String alike = sameOuterFrames(stdin, byBuildId, style.contains("--adjust-vma=0x10"));
          // about 3 in 4 today; the rest are where the symbol table names the frame otherwise
          // (checked_div.cold, aliases, an STT_FILE's crtstuff.c) and addresses outside every GSYM
          // function, which llvm names from the symbol table (_fini's padding, _end)
          assertThat(alike.lines().count()).as("inputs compared, %s", what).isGreaterThan(stdin.lines().count() * 2 / 3);
          Out expectedAlike = llvm(alike, viaGsym);
          String expectedAlikeOut = expectedAlike.out;
          if (style.contains("-s") || style.contains("--basenames")) {
            expectedAlikeOut = BASENAME_NO_FILE.matcher(expectedAlikeOut).replaceAll("$1??$3");
          }
          List<String> converting = new ArrayList<>(common);
          converting.add("--disable-gsym");
          Out converted = ours(alike, converting);
          assertSameText(converted.out, expectedAlikeOut, what + ", converted by gsymutil");
          assertThat(converted.err).as("stderr, %s", what).isEqualTo(expectedAlike.err);
        }));
      }
    }
    return tests.stream();
  }

  /** The option sets of {@link #interleavedModulesAsLlvm}. */
  private static final List<List<String>> INTERLEAVED_STYLES = List.of(
      List.of(), List.of("--output-style=JSON"), List.of("--output-style=GNU"), List.of("--output-style=JSON", "--no-demangle"),
      List.of("--output-style=JSON", "-p"), List.of("-f=none", "-a"), List.of("--output-style=GNU", "--no-inlines"),
      List.of("--output-style=GNU", "--functions=short", "--no-inlines"), List.of("--output-style=JSON", "--basenames"));

  /**
   * The inputs by build-id in a shuffled order (fixed seed): each chunk of answers mixes every
   * module, and a function comes back through its other addresses after other modules' answers,
   * so the names and paths kept per module and string-table offset ({@code SymbolizeBatches}'
   * texts) must stay each module's own. Byte for byte as llvm-symbolizer-22 over the same GSYM files
   * ({@code --no-inlines} in GNU style only: see the class comment).
   */
  @TestFactory
  Stream<DynamicTest> interleavedModulesAsLlvm() {
    List<String> lines = new ArrayList<>(lines(true, true).lines().toList());
    java.util.Collections.shuffle(lines, new java.util.Random(38));
    String stdin = String.join("\n", lines) + "\n";
    List<DynamicTest> tests = new ArrayList<>();
    for (List<String> style : INTERLEAVED_STYLES) {
      tests.add(DynamicTest.dynamicTest("interleaved " + style, () -> {
        List<String> args = new ArrayList<>(style);
        args.add("--debug-file-directory=" + work.resolve("debug"));
        args.add("--gsym-file-directory=" + work.resolve("gsym"));
        Out expected = llvm(stdin, args);
        String expectedOut = expected.out;
        if (style.contains("--basenames")) expectedOut = BASENAME_NO_FILE.matcher(expectedOut).replaceAll("$1??$3");
        List<String> ourArgs = new ArrayList<>(args);
        ourArgs.add("--store=" + work.resolve("store"));
        Out actual = ours(stdin, ourArgs);
        assertSameText(actual.out, expectedOut, "interleaved " + style);
        assertThat(actual.err).as("stderr, interleaved %s", style).isEqualTo(expected.err);
      }));
    }
    return tests.stream();
  }

  /**
   * The lines of {@code stdin} whose outermost frame llvm-symbolizer-22 names alike on the DWARF
   * (from the binary's symbol table) and over the GSYM file: the same function name and start
   * address, and no file from an STT_FILE symbol where GSYM has none. Cached per form.
   */
  private static String sameOuterFrames(String stdin, boolean byBuildId, boolean adjusted) throws Exception {
    String key = byBuildId + " " + adjusted;
    String known = ALIKE.get(key);
    if (known != null) return known;
    List<String> base = new ArrayList<>(List.of("--output-style=JSON", "--no-demangle"));
    if (byBuildId) base.add("--debug-file-directory=" + work.resolve("debug"));
    if (adjusted) base.add("--adjust-vma=0x10");
    List<String> gsymArgs = new ArrayList<>(base);
    gsymArgs.add("--gsym-file-directory=" + work.resolve("gsym"));
    List<String> dwarfArgs = new ArrayList<>(base);
    dwarfArgs.add("--disable-gsym");
    List<List<Frame>> overGsym = json(llvm(stdin, gsymArgs).out);
    List<List<Frame>> onDwarf = json(llvm(stdin, dwarfArgs).out);
    List<String> lines = stdin.lines().toList();
    assertThat(overGsym).hasSameSizeAs(lines);
    assertThat(onDwarf).hasSameSizeAs(lines);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      Frame g = overGsym.get(i).getLast();
      Frame d = onDwarf.get(i).getLast();
      boolean alike = java.util.Objects.equals(g.function, d.function) && java.util.Objects.equals(g.start, d.start)
          && (g.file != null || d.file == null || d.line != 0);
      if (alike) sb.append(lines.get(i)).append('\n');
    }
    System.out.println("SymbolizeLlvmDifferentialTest: " + sb.toString().lines().count() + " of " + lines.size()
        + " inputs named alike on DWARF and over GSYM (" + key + ")");
    ALIKE.put(key, sb.toString());
    return sb.toString();
  }

  private static final Map<String, String> ALIKE = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * llvm's input syntax and its errors, each checked in every style: module names quoted or not,
   * FILE: and BUILDID: prefixes, the CODE and FRAME commands (DATA only for a missing module:
   * llvm-symbolizer answers it from the ELF symbol table, which GSYM does not hold), symbol lookups
   * (llvm finds no location for them in a GSYM file), empty lines, the parse errors, a missing file
   * and a file that is no object file (reported once), a build-id that no directory has (reported
   * each time).
   */
  @TestFactory
  Stream<DynamicTest> inputSyntaxAsLlvm() throws IOException {
    Binary b = BINARIES.stream().filter(x -> x.name.equals("c-gcc-O2")).findFirst().orElseThrow();
    String f = b.path.toString();
    String id = b.buildId.toLowerCase(java.util.Locale.ROOT);
    Path notObject = Files.writeString(work.resolve("not-an-object"), "hello\n");
    String stdin = String.join("\n", f + " 0x1200", "", "\"" + f + "\" 0x1200", "'" + f + "' 0x11f5", "FILE:" + f + " 0x1200",
        "CODE " + f + " 0x1200", "FRAME " + f + " 0x1200", f + " main", f + " outer+4",
        "BUILDID:" + id + " 0x1200", "BUILDID:" + id.toUpperCase(java.util.Locale.ROOT) + " 0x1200", "BUILDID:abcd 0x10",
        "BUILDID:abcd 0x10", "BUILDID: 0x10", "FILE: 0x10", "FILE:BUILDID:ab 0x1", "BUILDID:xyz 0x10", "\"" + f + " 0x10",
        f, f + " 1zz", f + " 0x", "  " + f + "   0x1200   trailing words", f + "\t0x1200", "code " + f + " 0x1200",
        "/nonexistent/file 0x10", "/nonexistent/file 0x20", "DATA /nonexistent/file 0x20", notObject + " 0x10",
        notObject + " 0x10", f + " 0b1001000000000", f + " 011000", f + " 4608", f + " 0x1200\r", f + " 0xffffffffffffffff",
        f + " 0x10000000000000000") + "\n";
    List<DynamicTest> tests = new ArrayList<>();
    for (List<String> style : List.<List<String>>of(List.of(), List.of("--output-style=JSON"), List.of("--output-style=GNU"),
        List.of("-a", "-p"), List.of("--output-style=JSON", "-p"), List.of("--no-inlines", "--output-style=GNU"),
        List.of("--adjust-vma", "0x100"))) {
      tests.add(DynamicTest.dynamicTest("stdin " + style, () -> {
        List<String> args = new ArrayList<>(style);
        args.add("--gsym-file-directory=" + work.resolve("gsym"));
        args.add("--debug-file-directory=" + work.resolve("debug"));
        Out expected = llvm(stdin, args);
        Out actual = ours(stdin, args);
        assertSameText(actual.out, expected.out, "stdin " + style);
        assertThat(actual.err).as("stderr").isEqualTo(expected.err);
      }));
      // addresses as arguments: a JSON list, errors in it
      tests.add(DynamicTest.dynamicTest("arguments " + style, () -> {
        List<String> args = new ArrayList<>(style);
        args.add("--gsym-file-directory=" + work.resolve("gsym"));
        args.addAll(List.of("--obj=" + f, "0x1200", "0x0", "1zz", "main", "", "0x1000", "0x10a0"));
        Out expected = llvm("", args);
        Out actual = ours("", args);
        assertSameText(actual.out, expected.out, "arguments " + style);
        assertThat(actual.err).as("stderr").isEqualTo(expected.err);
        List<String> byId = new ArrayList<>(style);
        byId.addAll(List.of("--build-id=" + id, "--debug-file-directory=" + work.resolve("debug"),
            "--gsym-file-directory=" + work.resolve("gsym"), "0x1200", "0x11f0"));
        expected = llvm("", byId);
        actual = ours("", byId);
        assertSameText(actual.out, expected.out, "arguments by build-id " + style);
        assertThat(actual.err).as("stderr").isEqualTo(expected.err);
      }));
    }
    return tests.stream();
  }

  private static void assertSameText(String actual, String expected, String what) {
    if (actual.equals(expected)) return;
    String[] a = actual.split("\n", -1);
    String[] e = expected.split("\n", -1);
    for (int i = 0; i < Math.min(a.length, e.length); i++) {
      if (!a[i].equals(e[i])) {
        throw new AssertionError(what + ": first difference at line " + (i + 1) + "\n  llvm: " + e[i] + "\n  ours: " + a[i]);
      }
    }
    throw new AssertionError(what + ": " + a.length + " lines, llvm " + e.length);
  }

  // ------------------------------------------------------------------ llvm over DWARF: same frames

  /** One frame as compared: function, file, line; llvm's outermost frame also its start address. */
  private record Frame(String function, String file, long line, String start) {}

  /** "BINARY: why a difference was accepted", and how often. */
  private final Map<String, Integer> accepted = new TreeMap<>();

  /**
   * The differences accepted in {@link #sameFramesAsLlvmOnDwarf}, per test binary and reason,
   * summed over its 16 runs (by path and by build-id, demangled or not, with and without inlines,
   * JSON and LLVM style), as llvm-symbolizer-22 answers on the checked-in binaries. Any other
   * count fails: more means a rule excused answers that lost something (a line table, a name).
   */
  private static final String ACCEPTED = """
      c-clang-O2-gline-tables-only: no line information in GSYM for the function: 144
      cpp-clang-O2-gline-tables-only: no line information in GSYM for the function: 240
      cpp-gcc-O2: qualified DWARF name of an inlined function: 8
      """;

  @Test
  void sameFramesAsLlvmOnDwarf() throws Exception {
    loadSymbols();
    Map<String, String> binaryOf = new HashMap<>();
    for (Binary b : BINARIES) {
      binaryOf.put(b.path.toString(), b.name);
      binaryOf.put("BUILDID:" + b.buildId.toLowerCase(java.util.Locale.ROOT), b.name);
    }
    int compared = 0;
    for (boolean byBuildId : new boolean[] {false, true}) {
      String stdin = lines(byBuildId, false);
      List<String> inputs = stdin.lines().toList();
      for (boolean demangle : new boolean[] {true, false}) {
        for (boolean inlines : new boolean[] {true, false}) {
          List<String> common = new ArrayList<>();
          if (!demangle) common.add("--no-demangle");
          if (!inlines) common.add("--no-inlines");
          if (byBuildId) common.add("--debug-file-directory=" + work.resolve("debug"));
          List<String> llvmArgs = new ArrayList<>(common);
          llvmArgs.add("--disable-gsym");
          List<String> ourArgs = new ArrayList<>(common);
          ourArgs.add("--disable-gsym");
          String what = (byBuildId ? "by build-id" : "by path") + (demangle ? "" : ", --no-demangle")
              + (inlines ? "" : ", --no-inlines");
          // DWARF short names: where GSYM keeps the DWARF name of a function without a linkage name
          List<String> shortArgs = new ArrayList<>(llvmArgs);
          shortArgs.add("--functions=short");
          shortArgs.add("--output-style=JSON");
          List<List<Frame>> shortNames = json(llvm(stdin, shortArgs).out);
          List<List<Frame>> llvmJson = null;
          for (String style : List.of("JSON", "LLVM")) {
            List<String> l = new ArrayList<>(llvmArgs);
            l.add("--output-style=" + style);
            List<String> o = new ArrayList<>(ourArgs);
            o.add("--output-style=" + style);
            Out theirs = llvm(stdin, l);
            Out mine = ours(stdin, o);
            assertThat(mine.err).as("stderr, %s, %s", what, style).isEqualTo(theirs.err);
            List<List<Frame>> expected = style.equals("JSON") ? json(theirs.out) : plain(theirs.out);
            if (llvmJson == null) llvmJson = expected;
            List<List<Frame>> actual = style.equals("JSON") ? json(mine.out) : plain(mine.out);
            assertThat(actual).as("answers, %s, %s", what, style).hasSameSizeAs(inputs);
            assertThat(expected).hasSameSizeAs(inputs);
            for (int i = 0; i < inputs.size(); i++) {
              String input = inputs.get(i);
              compare(binaryOf.get(input.substring(0, input.lastIndexOf(' '))), input + " (" + what + ", " + style + ")",
                  expected.get(i), actual.get(i), shortNames.get(i), llvmJson.get(i).getLast().start, inlines);
              compared++;
            }
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(10_000);
    StringBuilder table = new StringBuilder();
    accepted.forEach((why, n) -> table.append(why).append(": ").append(n).append('\n'));
    assertThat(table.toString()).as("differences accepted per binary and reason, of %d answers", compared)
        .isEqualTo(ACCEPTED.stripIndent());
  }

  /** @param llvmStart llvm's start address of the outermost frame (its symbol's, from the JSON answer) */
  private void compare(String binary, String input, List<Frame> llvmFrames, List<Frame> ourFrames, List<Frame> shortNames,
      String llvmStart, boolean inlines) {
    String where = input + "\n  llvm: " + llvmFrames + "\n  ours: " + ourFrames;
    assertThat(ourFrames).as("frames at %s", where).hasSameSizeAs(llvmFrames);
    int n = ourFrames.size();
    for (int k = 0; k < n; k++) {
      Frame l = llvmFrames.get(k);
      Frame o = ourFrames.get(k);
      boolean outermost = k == n - 1 || !inlines;
      if (o.file == null && o.line == 0) {
        // GSYM has no line table for this function (llvm-gsymutil kept its symbol only): llvm may
        // still find a line-table row, or name an STT_FILE symbol's file
        if (l.file != null || l.line != 0) accept(binary, "no line information in GSYM for the function");
      } else {
        assertThat(o.file).as("file of frame %d at %s", k, where).isEqualTo(l.file);
        assertThat(o.line).as("line of frame %d at %s", k, where).isEqualTo(l.line);
      }
      if (outermost && l.start != null && !l.start.isEmpty()) {
        assertThat(o.start).as("start address at %s", where).isEqualTo(l.start);
      }
      if (!java.util.Objects.equals(o.function, l.function)) {
        // the outermost frame is named from the binary's symbol table, as llvm names it
        assertThat(outermost).as("a different name (%s, llvm %s) for the outermost frame at %s", o.function, l.function,
            where).isFalse();
        String why = nameDifference(l.function, o.function, outermost, shortNames.get(Math.min(k, shortNames.size() - 1)),
            llvmStart);
        assertThat(why).as("function name of frame %d at %s", k, where).isNotNull();
        accept(binary, why);
      }
    }
  }

  private void accept(String binary, String why) {
    accepted.merge(binary + ": " + why, 1, Integer::sum);
  }

  private static final Pattern CLONE = Pattern.compile("(\\.(cold|part\\.\\d+|isra\\.\\d+|constprop\\.\\d+|lto_priv\\.\\d+))+$");
  private static final Pattern DEMANGLED_CLONE = Pattern.compile("( \\(\\.(cold|part\\.\\d+|isra\\.\\d+|constprop\\.\\d+)\\))+$");

  /**
   * Why llvm's name (from the ELF symbol table for the outermost frame, from DWARF for inlined
   * ones) may differ from GSYM's (llvm-gsymutil's choice), or null if no known reason applies.
   */
  private static String nameDifference(String llvmName, String ours, boolean outermost, Frame shortName,
      String llvmStart) {
    if (llvmName == null || ours == null) return null;
    if (outermost) {
      if (CLONE.matcher(llvmName).replaceFirst("").equals(ours)
          || DEMANGLED_CLONE.matcher(llvmName).replaceFirst("").equals(ours)) {
        return "symbol-table clone suffix (.cold, .part.N, ...)";
      }
      if (shortName != null && ours.equals(shortName.function)) return "DWARF name of a function without a linkage name";
      if (llvmStart != null && !llvmStart.isEmpty() && SYMBOLS_AT.getOrDefault(llvmStart + " " + ours, false)) {
        return "another ELF symbol at the same address (folded code, IFUNC resolver)";
      }
    }
    String plain = unqualified(Demangler.llvm().demangle(llvmName));
    if (plain.equals(ours) || ours.endsWith("::" + plain) || plain.endsWith("::" + ours)) {
      return outermost ? "qualified DWARF name where llvm prints the symbol's" : "qualified DWARF name of an inlined function";
    }
    return null;
  }

  /** "ns::(anonymous namespace)::f(int) const" -> "ns::f": parameters, qualifiers, anonymous scopes dropped. */
  private static String unqualified(String name) {
    StringBuilder sb = new StringBuilder();
    int depth = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '(' && !name.startsWith("operator()", Math.max(0, i - 8)) && !name.startsWith("(anonymous", i)) {
        depth++;
      } else if (c == ')' && depth > 0) {
        depth--;
      } else if (depth == 0) {
        sb.append(c);
      }
    }
    String s = sb.toString().replace("(anonymous namespace)::", "").replaceAll(" const$", "").trim();
    List<String> parts = new ArrayList<>();
    for (String p : s.split("::")) if (!p.startsWith("'lambda'") && !p.startsWith("'unnamed'")) parts.add(p);
    return String.join("::", parts);
  }

  /** "0xADDR NAME" of every defined ELF symbol of the binaries (llvm-nm-22), mangled and demangled. */
  private static final Map<String, Boolean> SYMBOLS_AT = new HashMap<>();

  /** Fills {@link #SYMBOLS_AT} from llvm-nm-22. */
  private static void loadSymbols() throws IOException, InterruptedException {
    for (Binary b : BINARIES) {
      Process p = new ProcessBuilder(nm.toString(), "--defined-only", b.path.toString()).redirectErrorStream(true).start();
      for (String line : new String(p.getInputStream().readAllBytes(), ByteStrings.CHARSET).split("\n")) {
        String[] f = line.split(" ", 3);
        if (f.length != 3 || f[0].isEmpty()) continue;
        String at = "0x" + Long.toHexString(Long.parseUnsignedLong(f[0], 16)) + " ";
        SYMBOLS_AT.put(at + f[2], true);
        SYMBOLS_AT.put(at + Demangler.llvm().demangle(f[2]), true);
      }
      p.waitFor();
    }
  }

  /** Frames of each answer of llvm's JSON lines (one object per line). */
  @SuppressWarnings("unchecked")
  private static List<List<Frame>> json(String text) {
    List<List<Frame>> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) continue;
      Map<String, Object> o = (Map<String, Object>) MiniJson.parse(line);
      List<Frame> frames = new ArrayList<>();
      for (Object f : (List<Object>) o.get("Symbol")) {
        Map<String, Object> m = (Map<String, Object>) f;
        String fn = (String) m.get("FunctionName");
        String file = (String) m.get("FileName");
        frames.add(new Frame(fn.isEmpty() ? null : fn, file.isEmpty() ? null : file, (Long) m.get("Line"),
            (String) m.get("StartAddress")));
      }
      out.add(frames);
    }
    return out;
  }

  /** Frames of each answer of the LLVM style: NAME, FILE:LINE:COLUMN pairs, an empty line after each answer. */
  private static List<List<Frame>> plain(String text) {
    List<List<Frame>> out = new ArrayList<>();
    List<Frame> cur = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i + 1 < lines.length; i++) {
      if (lines[i].isEmpty()) {
        out.add(cur);
        cur = new ArrayList<>();
        continue;
      }
      String name = lines[i];
      String loc = lines[++i];
      int c2 = loc.lastIndexOf(':');
      int c1 = loc.lastIndexOf(':', c2 - 1);
      String file = loc.substring(0, c1);
      cur.add(new Frame(name.equals("??") ? null : name, file.equals("??") ? null : file,
          Long.parseLong(loc.substring(c1 + 1, c2)), null));
    }
    return out;
  }
}
