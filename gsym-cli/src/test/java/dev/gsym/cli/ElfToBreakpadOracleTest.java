package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.breakpad.ElfModule;
import dev.gsym.demangle.Demangler;
import dev.gsym.elf.ElfFile;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import dev.gsym.testing.Breakpad;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Breakpad symbol files {@code --to-breakpad} writes for ELF files, checked against independent
 * tools (docs/breakpad.md, "Checked against llvm-symbolizer, Breakpad's resolver and dump_syms");
 * the oracles' answers are in {@code src-test-data/breakpad/elf}, written by {@code
 * regenerate-breakpad-elf.sh}.
 *
 * <ul>
 *   <li>{@link #answersAsLlvmSymbolizer}: each committed {@code X.sym} (which the CLI writes byte for
 *       byte: {@code ElfToBreakpadCliTest.writesTheGoldenSym}), read by Breakpad's own resolver
 *       ({@code X.sym.resolver.txt}), answers as llvm-symbolizer-22 on the ELF's DWARF ({@code
 *       X.symbolizer.txt}) at llvm's lookup addresses: function (demangled), file, line and inline
 *       frames, except for the documented rules ({@link Why}), each difference counted and the
 *       counts asserted per file.
 *   <li>{@link #agreementOnRandomAddresses}: the same comparison for the {@code .sym} we write now of
 *       every ELF input of {@code src-test-data/gsym} and the four of {@code breakpad/elf}, at 100
 *       random addresses inside their functions each ({@code random/X.symbolizer.txt}), read back by
 *       {@code --breakpad} (and live by Breakpad's resolver): the number of answers that agree
 *       exactly and the number of each difference, per binary.
 *   <li>{@link #recordsAsDumpSyms}: the MODULE, INFO CODE_ID and FILE records are Breakpad's
 *       dump_syms' ({@code X.dump_syms.txt}), INLINE_ORIGIN records are numbered as dump_syms
 *       numbers them, and its FUNC, INLINE and PUBLIC records are ours but for counted differences.
 *   <li>Live: llvm-symbolizer-22, Breakpad's resolver and dump_syms give the committed answers
 *       today (skipped through {@link Tools} without them, failed under {@code
 *       -Dgsym.requireTools=true}).
 * </ul>
 */
@NeedsLlvm
class ElfToBreakpadOracleTest {
  @TempDir
  static Path dir;

  /** The nine inputs of {@code breakpad/elf} with a committed {@code .sym}. */
  static Stream<String> goldens() throws IOException {
    return ElfToBreakpadCliTest.goldens();
  }

  // ------------------------------------------------------------------ the answers compared

  /** One frame as llvm-symbolizer prints it: function (null for ??), file (null for ??) and line. */
  record Frame(String function, String file, long line) {
    @Override
    public String toString() {
      return function + " @ " + file + ":" + line;
    }
  }

  /** One llvm-symbolizer answer: its address and frames, deepest first (empty for "??"). */
  record Answer(long address, List<Frame> frames) {}

  /**
   * llvm-symbolizer's LLVM-style output with {@code --print-address}: the address, then a function
   * line and a {@code FILE:LINE:COLUMN} line per frame, an empty line after each answer.
   */
  static List<Answer> parseSymbolizer(String text) {
    List<Answer> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    int i = 0;
    while (i < lines.length && !lines[i].isEmpty()) {
      long address = Long.parseUnsignedLong(lines[i++].substring(2), 16);
      List<Frame> frames = new ArrayList<>();
      while (!lines[i].isEmpty()) {
        String name = lines[i++];
        String loc = lines[i++];
        int c2 = loc.lastIndexOf(':');
        int c1 = loc.lastIndexOf(':', c2 - 1);
        String file = loc.substring(0, c1);
        frames.add(new Frame(name.equals("??") ? null : name, file.equals("??") ? null : file,
            Long.parseLong(loc.substring(c1 + 1, c2))));
      }
      i++;
      if (frames.size() == 1 && frames.getFirst().equals(new Frame(null, null, 0))) frames.clear();
      out.add(new Answer(address, frames));
    }
    assertThat(i).as("parsed to the end").isEqualTo(lines.length - 1);
    return out;
  }

  /**
   * An answer of the .sym: its frames, deepest first, the start of the FUNC or PUBLIC that gave it
   * (an ELF address) and whether that was a PUBLIC record.
   */
  record Ours(List<Frame> frames, long functionStart, boolean publicRecord) {}

  /** How the .sym is read: an ELF address to the .sym's answer. */
  interface SymReader {
    Ours answer(long elfAddress);
  }

  /**
   * The answers of Breakpad's resolver ({@code breakpad/oracle/resolve.cc}: BasicSourceLineResolver)
   * for a .sym: lines {@code <address> <depth> <function> <function_base> <file> <line>} (tabs,
   * module-relative hex addresses, innermost frame first) or {@code <address> -} (no answer),
   * turned into answers at ELF addresses ({@code load} added); {@code publics} are the .sym's PUBLIC
   * addresses (module-relative), which tell a PUBLIC's frame from a FUNC's.
   */
  static SymReader resolverAnswers(String text, long load, Set<Long> publics) {
    Map<Long, List<Frame>> frames = new java.util.HashMap<>();
    Map<Long, Long> bases = new java.util.HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) continue;
      String[] f = line.split("\t", -1);
      long a = Long.parseUnsignedLong(f[0].substring(2), 16) + load;
      List<Frame> l = frames.computeIfAbsent(a, k -> new ArrayList<>());
      if (f[1].equals("-")) continue;
      assertThat(Integer.parseInt(f[1])).as(line).isEqualTo(l.size());
      l.add(new Frame(f[2], f[4].isEmpty() ? null : f[4], Long.parseLong(f[5])));
      bases.put(a, Long.parseUnsignedLong(f[3].substring(2), 16));
    }
    return address -> {
      List<Frame> l = frames.get(address);
      assertThat(l).as("the resolver's answer at 0x%x", address).isNotNull();
      if (l.isEmpty()) return new Ours(List.of(), -1, false);
      long base = bases.get(address); // the outermost frame's: the FUNC's or PUBLIC's address
      return new Ours(l, base + load, publics.contains(base));
    };
  }

  /** The module-relative addresses of the PUBLIC records of a .sym text. */
  static Set<Long> publicAddresses(String sym) {
    Set<Long> out = new HashSet<>();
    for (String line : sym.split("\n")) {
      if (!line.startsWith("PUBLIC ")) continue;
      String[] f = line.split(" ");
      out.add(Long.parseUnsignedLong(f[1].equals("m") ? f[2] : f[1], 16));
    }
    return out;
  }

  /** Breakpad's resolver's answers for {@code sym} at the ELF addresses {@code addresses}, live. */
  static SymReader resolveLive(Path resolver, Path sym, long load, List<Long> addresses)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(resolver.toString(), sym.toString()));
    for (long a : new java.util.LinkedHashSet<>(addresses)) cmd.add(Long.toHexString(a - load));
    Path out = dir.resolve("resolver.out");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    assertThat(p.waitFor()).as("%s", cmd).isZero();
    return resolverAnswers(TestData.text(out), load, publicAddresses(TestData.text(sym)));
  }

  static Ours ours(GsymReader r, long address) {
    LookupResult res;
    try {
      res = r.lookup(address);
    } catch (LookupException e) {
      return new Ours(List.of(), -1, false);
    }
    List<Frame> frames = new ArrayList<>();
    for (SourceLocation l : res.locations()) {
      String file = null;
      if (l.hasFile()) {
        StringBuilder sb = new StringBuilder();
        dev.gsym.format.FileTable.appendPath(sb, l.dir(), l.base());
        file = sb.toString();
      }
      frames.add(new Frame(l.name(), file, Integer.toUnsignedLong(l.line())));
    }
    // the converter gives a PUBLIC record a size-0 FunctionInfo (docs/breakpad.md)
    return new Ours(frames, res.functionRange().start(), res.functionRange().size() == 0);
  }

  /**
   * Why an answer of the .sym may differ from llvm-symbolizer-22's on the DWARF: what GSYM (and so
   * the .sym) keeps, docs/breakpad.md, "Differences from llvm-symbolizer". Each is recognised by a
   * narrow rule below.
   */
  enum Why {
    /** llvm prints the ELF symbol of the outermost frame, with GCC's clone suffix: {@code main.cold}. */
    CLONE_SUFFIX,
    /**
     * llvm prints the ELF symbol of the outermost frame, the .sym the DWARF name of a function
     * without a linkage name: short ({@code run} for {@code app::run(int)}) or qualified without
     * parameters ({@code shapes::sq}).
     */
    DWARF_NAME,
    /** llvm prints another ELF symbol at the function's start: folded code (ICF), an asm label. */
    OTHER_SYMBOL,
    /** An inlined frame: the .sym has the qualified DWARF name, llvm DW_AT_name ({@code sq}). */
    INLINED_QUALIFIED,
    /**
     * A function the .sym knows only from the symbol table (a PUBLIC record): llvm finds a
     * line-table row or an {@code STT_FILE} name for it.
     */
    PUBLIC_NO_LINES,
    /**
     * A PUBLIC extends to the next symbol: past the end of its ELF symbol llvm has no function, or
     * a later symbol without a size ({@code _end}).
     */
    PUBLIC_EXTENT,
    /**
     * Between functions (padding), no function for either: llvm finds a line-table row there, the
     * .sym has line records only inside FUNCs.
     */
    LINE_OUTSIDE_FUNCTIONS,
    /**
     * Outside every FUNC and PUBLIC (above the last FUNC): llvm names the ELF symbol below the
     * address, a data symbol ({@code _GLOBAL_OFFSET_TABLE_}, {@code _end}); the .sym has nothing.
     */
    SYMBOL_OUTSIDE_FUNCTIONS,
  }

  /** Per binary: answers that agree exactly, and per reason the answers that differ for it. */
  record Tally(int answers, int agree, Map<Why, Integer> reasons) {
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder().append(agree).append('/').append(answers);
      reasons.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
      return sb.toString();
    }
  }

  private static final Demangler DEMANGLER = Demangler.llvm();
  private static final Pattern CLONE = Pattern.compile("(\\.(cold|part\\.\\d+|isra\\.\\d+|constprop\\.\\d+))+$");
  private static final Pattern DEMANGLED_CLONE = Pattern.compile("( \\(\\.(cold|part\\.\\d+|isra\\.\\d+|constprop\\.\\d+)\\))+$");

  /**
   * Compares every answer; an answer that differs must be explained frame by frame, else it is
   * listed in {@code unexplained}.
   */
  static Tally compare(String name, List<Answer> llvm, SymReader sym, Symbols symbols, List<String> unexplained) {
    int agree = 0;
    Map<Why, Integer> reasons = new EnumMap<>(Why.class);
    for (Answer a : llvm) {
      Ours o = sym.answer(a.address());
      if (o.frames().equals(a.frames())) {
        agree++;
        continue;
      }
      Set<Why> why = explain(a, o, symbols);
      if (why == null) {
        unexplained.add(String.format("%s 0x%x%n  llvm: %s%n  ours: %s", name, a.address(), a.frames(), o.frames()));
      } else {
        for (Why w : why) reasons.merge(w, 1, Integer::sum);
      }
    }
    return new Tally(llvm.size(), agree, reasons);
  }

  /** The reasons for the differences of one answer, or null if a difference has no known reason. */
  static Set<Why> explain(Answer a, Ours o, Symbols symbols) {
    List<Frame> l = a.frames();
    List<Frame> f = o.frames();
    Set<Why> why = java.util.EnumSet.noneOf(Why.class);
    if (f.isEmpty() && l.size() == 1 && l.getFirst().function() == null && l.getFirst().file() != null) {
      return Set.of(Why.LINE_OUTSIDE_FUNCTIONS);
    }
    if (f.isEmpty() && l.size() == 1 && l.getFirst().line() == 0
        && symbols.startsIn(l.getFirst().function(), 0, a.address() + 1)) {
      return Set.of(Why.SYMBOL_OUTSIDE_FUNCTIONS);
    }
    if (o.publicRecord() && f.size() == 1) {
      Frame ours = f.getFirst();
      if (l.isEmpty() || !symbols.at(o.functionStart(), l.getFirst().function())) {
        // no function there for llvm, or a later symbol: the address lies past the PUBLIC's symbol
        if (l.isEmpty() ? !symbols.at(o.functionStart(), ours.function())
            : l.size() != 1 || !symbols.startsIn(l.getFirst().function(), o.functionStart() + 1, a.address() + 1)) {
          return null;
        }
        return Set.of(Why.PUBLIC_EXTENT);
      }
      // llvm's symbol is ours (maybe by another of its names); llvm may have a file or line for it
      if (l.size() != 1) return null;
      Frame theirs = l.getFirst();
      if (!java.util.Objects.equals(theirs.file(), ours.file()) || theirs.line() != ours.line()) why.add(Why.PUBLIC_NO_LINES);
      if (!java.util.Objects.equals(theirs.function(), ours.function())) {
        Why n = outermostName(theirs.function(), ours.function(), o.functionStart(), symbols);
        if (n == null) return null;
        why.add(n);
      }
      return why;
    }
    if (l.size() != f.size()) return null;
    for (int k = 0; k < l.size(); k++) {
      Frame theirs = l.get(k);
      Frame ours = f.get(k);
      if (!java.util.Objects.equals(theirs.file(), ours.file()) || theirs.line() != ours.line()) return null;
      if (java.util.Objects.equals(theirs.function(), ours.function())) continue;
      if (theirs.function() == null || ours.function() == null) return null;
      Why n = k == l.size() - 1 ? outermostName(theirs.function(), ours.function(), o.functionStart(), symbols)
          : inlinedName(theirs.function(), ours.function());
      if (n == null) return null;
      why.add(n);
    }
    return why;
  }

  /**
   * The outermost frame: llvm-symbolizer prints the name of the ELF symbol at the function's start
   * (llvm's {@code shouldOverrideWithSymbolTable}), the .sym the name GSYM keeps.
   */
  static Why outermostName(String llvm, String ours, long start, Symbols symbols) {
    if (!symbols.at(start, llvm)) return null;
    if (CLONE.matcher(llvm).replaceFirst("").equals(ours) || DEMANGLED_CLONE.matcher(llvm).replaceFirst("").equals(ours)) {
      return Why.CLONE_SUFFIX;
    }
    String plain = unqualified(llvm);
    if (!ours.contains("(") && (plain.equals(ours) || plain.endsWith("::" + ours) || ours.endsWith("::" + plain))) {
      return Why.DWARF_NAME;
    }
    return Why.OTHER_SYMBOL;
  }

  /** An inlined frame: llvm prints DW_AT_name, the .sym the qualified name llvm-gsymutil makes. */
  static Why inlinedName(String llvm, String ours) {
    return !llvm.contains("::") && ours.endsWith("::" + llvm) ? Why.INLINED_QUALIFIED : null;
  }

  /** "ns::(anonymous namespace)::f(int) const" -> "ns::f": parameters, qualifiers, anonymous scopes dropped. */
  static String unqualified(String name) {
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

  /** The ELF symbol table of a binary, by address: names as stored and demangled. */
  record Symbols(TreeMap<Long, Set<String>> names) {
    static Symbols of(Path elf) throws IOException {
      TreeMap<Long, Set<String>> names = new TreeMap<>(Long::compareUnsigned);
      try (ElfFile e = ElfFile.open(elf)) {
        for (ElfFile.Symbol s : e.symbols()) {
          if (s.name().isEmpty() || s.shndx() == 0) continue;
          Set<String> n = names.computeIfAbsent(s.value(), k -> new HashSet<>());
          n.add(s.name());
          n.add(DEMANGLER.demangle(s.name()));
        }
      }
      return new Symbols(names);
    }

    /** Whether {@code name} (as stored or demangled) is a symbol at {@code address}. */
    boolean at(long address, String name) {
      return name != null && names.getOrDefault(address, Set.of()).contains(name);
    }

    /** Whether a symbol {@code name} (as stored or demangled) starts in {@code [from, to)}. */
    boolean startsIn(String name, long from, long to) {
      for (Map.Entry<Long, Set<String>> e : names.subMap(from, to).entrySet()) {
        if (e.getValue().contains(name)) return true;
      }
      return false;
    }
  }

  /** A .sym converted back to GSYM with the ELF's load address, so that it answers ELF addresses. */
  static GsymReader readBack(Path sym, long loadAddress, String name) throws IOException {
    Path back = dir.resolve(name + ".back.gsym");
    CliRun c = CliRun.run("--breakpad", sym.toString(), "--load-address", "0x" + Long.toHexString(loadAddress),
        "-o", back.toString(), "--quiet");
    assertThat(c.status()).as(c.err()).isZero();
    return GsymReader.open(back);
  }

  static Path input(String name) {
    Path bin = TestData.path("bin", name);
    return Files.exists(bin) ? bin : TestData.path("breakpad", "elf", name);
  }

  static long loadAddress(Path elf) throws IOException {
    try (ElfFile e = ElfFile.open(elf)) {
      return ElfModule.of(e, elf.getFileName().toString()).loadAddress();
    }
  }

  // ------------------------------------------------------------------ the committed .sym files

  /**
   * Per committed .sym: answers at llvm's lookup addresses (derive-addresses.py: every function
   * start, middle, last byte and one past the end, every line row and inline range bound, below
   * and above everything), the number that agree exactly, and the number of each difference.
   */
  private static final Map<String, String> GOLDEN_TALLIES = tallies("""
      c-clang-O2 100/108 PUBLIC_NO_LINES=4 PUBLIC_EXTENT=2 LINE_OUTSIDE_FUNCTIONS=2
      c-clang-O2-notesegment 105/108 PUBLIC_EXTENT=3
      c-clang-O2.debug 105/108 PUBLIC_EXTENT=3
      c-gcc-O2-nobuildid 100/103 PUBLIC_EXTENT=3
      cpp-gcc-O2 88/107 CLONE_SUFFIX=4 INLINED_QUALIFIED=5 PUBLIC_NO_LINES=4 PUBLIC_EXTENT=2 LINE_OUTSIDE_FUNCTIONS=4
      fs-aarch64-O2-d5 17/17
      fs-i386-O2-d5 19/20 SYMBOL_OUTSIDE_FUNCTIONS=1
      fs-ppc64-O2-d5 19/20 SYMBOL_OUTSIDE_FUNCTIONS=1
      libgsymtest-clang-O2.so 36/38 PUBLIC_EXTENT=2
      """);

  /**
   * The committed .sym read by Breakpad's resolver ({@code X.sym.resolver.txt}) answers as
   * llvm-symbolizer-22 on the DWARF ({@code X.symbolizer.txt}) but for the counted differences.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void answersAsLlvmSymbolizer(String name) throws IOException {
    List<Answer> llvm = parseSymbolizer(TestData.text(TestData.path("breakpad", "elf", name + ".symbolizer.txt")));
    String sym = TestData.text(TestData.path("breakpad", "elf", name + ".sym"));
    SymReader breakpad = resolverAnswers(TestData.text(TestData.path("breakpad", "elf", name + ".sym.resolver.txt")),
        firstLoad(name), publicAddresses(sym));
    List<String> unexplained = new ArrayList<>();
    Tally t = compare(name, llvm, breakpad, Symbols.of(input(name)), unexplained);
    System.out.println("ElfToBreakpadOracleTest: " + name + " " + t);
    assertThat(unexplained).as("answers that differ from llvm-symbolizer-22's for no documented reason").isEmpty();
    assertThat(t.toString()).isEqualTo(GOLDEN_TALLIES.get(name));
  }

  /** The first PT_LOAD's address by llvm-readelf-22 (X.readelf.txt): the .sym's load address. */
  static long firstLoad(String name) throws IOException {
    Long load = ElfToBreakpadCliTest.facts(name).firstLoad();
    return load == null ? 0 : load;
  }

  /** Breakpad's resolver, live, gives the committed answers for the committed .sym. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void resolverGivesTheCommittedAnswers(String name) throws IOException, InterruptedException {
    Path resolver = Breakpad.resolver();
    Path addrs = TestData.path("breakpad", "elf", name + ".gsym.addrs");
    if (!Files.exists(addrs)) addrs = TestData.path("expected", "gsym", name + ".gsym.addrs");
    List<String> cmd = new ArrayList<>(List.of(resolver.toString(), TestData.path("breakpad", "elf", name + ".sym").toString()));
    long load = firstLoad(name);
    for (String a : Files.readAllLines(addrs)) cmd.add(Long.toHexString(Long.decode(a) - load));
    Path out = dir.resolve(name + ".sym.resolver.txt");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    assertThat(p.waitFor()).isZero();
    assertThat(TestData.text(out)).isEqualTo(TestData.text(TestData.path("breakpad", "elf", name + ".sym.resolver.txt")));
  }

  /** Parses "name agree/answers REASON=n ..." lines. */
  static Map<String, String> tallies(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : text.strip().split("\n")) {
      int sp = line.indexOf(' ');
      m.put(line.substring(0, sp), line.substring(sp + 1));
    }
    return m;
  }

  // ------------------------------------------------------------------ random addresses, every ELF input

  /** Every ELF input with llvm-symbolizer-22's answers at random addresses. */
  static Stream<String> randomInputs() throws IOException {
    try (Stream<Path> s = Files.list(TestData.path("breakpad", "elf", "random"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".symbolizer.txt"))
          .map(n -> n.substring(0, n.length() - ".symbolizer.txt".length())).sorted().toList().stream();
    }
  }

  /** Per ELF input: of its 100 random addresses, how many agree exactly, and each difference. */
  private static final Map<String, String> RANDOM_TALLIES = tallies("""
      c-clang-O0 100/100
      c-clang-O2 100/100
      c-clang-O2-gline-tables-only 66/100 PUBLIC_NO_LINES=34
      c-clang-O2-gz-zlib 100/100
      c-clang-O2-gz-zstd 100/100
      c-clang-O2-notesegment 100/100
      c-clang-O2.debug 100/100
      c-gcc-O0 100/100
      c-gcc-O2 90/100 CLONE_SUFFIX=10
      c-gcc-O2-gz-zstd 96/100 CLONE_SUFFIX=4
      c-gcc-O2-nobuildid 100/100
      c-gcc-O2-zdebug 91/100 PUBLIC_NO_LINES=9
      cpp-clang-O0 100/100
      cpp-clang-O2 100/100
      cpp-clang-O2-gline-tables-only 55/100 DWARF_NAME=19 PUBLIC_NO_LINES=26
      cpp-gcc-O0 94/100 DWARF_NAME=3 OTHER_SYMBOL=3
      cpp-gcc-O2 93/100 CLONE_SUFFIX=6 INLINED_QUALIFIED=1
      dwp-clang-O2-d4 100/100
      dwp-clang-O2-d5 100/100
      dwp-clangxx-O2-d5-types 100/100
      dwp-gcc-O2-d4 91/100 CLONE_SUFFIX=9
      dwp-gxx-O2-d4-types 96/100 CLONE_SUFFIX=4
      dwp-gxx-O2-d5 91/100 CLONE_SUFFIX=9
      fs-aarch64-O2-d5 100/100
      fs-i386-O2-d4 100/100
      fs-i386-O2-d5 100/100
      fs-ppc64-O2-d5 100/100
      gc-clang-O2-ld 100/100
      gc-clang-O2-lld 100/100
      gc-gcc-O2-ld 90/100 CLONE_SUFFIX=10
      icf-clang-O2-gold 81/100 OTHER_SYMBOL=9 PUBLIC_NO_LINES=10
      latin1-clang-O2 100/100
      latin1-gcc-O2 87/100 OTHER_SYMBOL=13
      libgsymtest-clang-O2.so 100/100
      rust-O2 100/100
      split-clang-O2 100/100
      split-gcc-O2 93/100 CLONE_SUFFIX=7
      symtab-gcc-O0-nopie 71/100 DWARF_NAME=26 OTHER_SYMBOL=3
      """);

  /**
   * The .sym we write now of every ELF input, read back by our {@code --breakpad} conversion, at the
   * random addresses: per binary the exact agreements and counted differences; in all 3,585 of
   * 3,800 answers agree exactly (94.3 %; 3,021 with the mangled names written before).
   */
  @Test
  void agreementOnRandomAddresses() throws IOException, InterruptedException {
    randomAgreement(false);
  }

  /** The same .sym files read by Breakpad's resolver, live: the same counts. */
  @Test
  void agreementOnRandomAddressesThroughBreakpadsResolver() throws IOException, InterruptedException {
    randomAgreement(true);
  }

  private void randomAgreement(boolean breakpadsResolver) throws IOException, InterruptedException {
    Path resolver = breakpadsResolver ? Breakpad.resolver() : null;
    List<String> names = randomInputs().toList();
    assertThat(names).hasSizeGreaterThanOrEqualTo(30);
    List<String> unexplained = new ArrayList<>();
    Map<String, String> got = new LinkedHashMap<>();
    int answers = 0;
    int agree = 0;
    for (String name : names) {
      Path elf = input(name);
      Path sym = dir.resolve(name + ".sym");
      CliRun c = CliRun.run("--to-breakpad", elf.toString(), "-o", sym.toString(), "--quiet");
      assertThat(c.status()).as("%s: %s", name, c.err()).isZero();
      List<Answer> llvm = parseSymbolizer(TestData.text(TestData.path("breakpad", "elf", "random", name + ".symbolizer.txt")));
      long load = loadAddress(elf);
      Tally t;
      if (breakpadsResolver) {
        SymReader r = resolveLive(resolver, sym, load, llvm.stream().map(Answer::address).toList());
        t = compare(name, llvm, r, Symbols.of(elf), unexplained);
      } else {
        try (GsymReader r = readBack(sym, load, name)) {
          t = compare(name, llvm, a -> ours(r, a), Symbols.of(elf), unexplained);
        }
      }
      got.put(name, t.toString());
      answers += t.answers();
      agree += t.agree();
    }
    StringBuilder table = new StringBuilder();
    got.forEach((k, v) -> table.append(k).append(' ').append(v).append('\n'));
    System.out.printf("ElfToBreakpadOracleTest: %d of %d random answers agree with llvm-symbolizer-22 (%.1f%%)%n%s",
        agree, answers, 100.0 * agree / answers, table);
    assertThat(unexplained).as("answers that differ from llvm-symbolizer-22's for no documented reason").isEmpty();
    assertThat(got).isEqualTo(RANDOM_TALLIES);
    assertThat(agree).isEqualTo(3585);
    assertThat(answers).isEqualTo(3800);
  }

  // ------------------------------------------------------------------ dump_syms

  /** The records of a .sym file that dump_syms also writes, with FILE and origin numbers resolved. */
  record SymRecords(List<String> head, List<String> files, List<String> origins, Map<String, String> funcs,
      Set<String> inlines, Map<String, String> publics) {
    static SymRecords parse(String text) {
      List<String> head = new ArrayList<>();
      List<String> files = new ArrayList<>();
      List<String> origins = new ArrayList<>();
      Map<String, String> funcs = new LinkedHashMap<>(); // "addr size" -> name
      Set<String> inlines = new HashSet<>(); // "func-addr|level|line|path|origin| ranges"
      Map<String, String> publics = new LinkedHashMap<>(); // addr -> name
      Map<String, String> fileById = new LinkedHashMap<>();
      Map<String, String> originById = new LinkedHashMap<>();
      String func = null;
      for (String line : text.split("\n")) {
        String[] f = line.split(" ", 6);
        switch (f[0]) {
          case "MODULE", "INFO" -> head.add(line);
          case "FILE" -> {
            files.add(line);
            fileById.put(f[1], line.substring(f[0].length() + f[1].length() + 2));
          }
          case "INLINE_ORIGIN" -> {
            origins.add(line);
            originById.put(f[1], line.substring(f[0].length() + f[1].length() + 2));
          }
          case "FUNC" -> {
            String[] g = line.split(" ", 5);
            func = g[1];
            funcs.put(g[1] + " " + g[2], g[4]);
          }
          case "PUBLIC" -> publics.put(f[1], line.split(" ", 4)[3]);
          case "INLINE" -> {
            String[] g = line.split(" ", 6);
            inlines.add(String.join("|", func, g[1], g[2], fileById.get(g[3]), originById.get(g[4]),
                g.length > 5 ? " " + g[5] : ""));
          }
          default -> { } // line records
        }
      }
      return new SymRecords(head, files, origins, funcs, inlines, publics);
    }
  }

  /**
   * Per input with dump_syms' output: its FUNCs that ours has at the same address and size with
   * the same name ({@code same}; no other kind is allowed), FUNCs only ours writes (dump_syms loses
   * functions whose GCC DWARF 5 ranges it cannot read, and writes their symbols as PUBLIC), INLINE
   * records of both (numbers resolved to paths and names), those where dump_syms drops the
   * namespaces of a GCC DWARF name ({@code sq} for {@code shapes::sq}), those only ours writes (dump_syms drops
   * inlined calls with DWARF 5 indexed range lists), those only dump_syms writes (each with an empty
   * range: its reading of GCC DWARF 5), PUBLICs of both, and those dump_syms writes where ours has a
   * FUNC.
   */
  private static final Map<String, String> DUMP_SYMS_TALLIES = tallies("""
      c-clang-O2 same=7 onlyOurs=0 inlines=8 unqualifiedInlinesOfTheirs=0 inlinesOnlyOurs=2 emptyInlinesOnlyTheirs=0 publics=7 publicsOnlyTheirs=0
      c-clang-O2-notesegment same=7 onlyOurs=0 inlines=8 unqualifiedInlinesOfTheirs=0 inlinesOnlyOurs=2 emptyInlinesOnlyTheirs=0 publics=7 publicsOnlyTheirs=0
      c-clang-O2.debug same=7 onlyOurs=0 inlines=8 unqualifiedInlinesOfTheirs=0 inlinesOnlyOurs=2 emptyInlinesOnlyTheirs=0 publics=7 publicsOnlyTheirs=0
      c-gcc-O2-nobuildid same=6 onlyOurs=2 inlines=1 unqualifiedInlinesOfTheirs=0 inlinesOnlyOurs=9 emptyInlinesOnlyTheirs=0 publics=7 publicsOnlyTheirs=2
      cpp-gcc-O2 same=10 onlyOurs=2 inlines=1 unqualifiedInlinesOfTheirs=2 inlinesOnlyOurs=9 emptyInlinesOnlyTheirs=9 publics=7 publicsOnlyTheirs=2
      fs-aarch64-O2-d5 same=3 onlyOurs=0 inlines=1 unqualifiedInlinesOfTheirs=0 inlinesOnlyOurs=0 emptyInlinesOnlyTheirs=0 publics=0 publicsOnlyTheirs=0
      fs-i386-O2-d5 same=3 onlyOurs=0 inlines=1 unqualifiedInlinesOfTheirs=0 inlinesOnlyOurs=0 emptyInlinesOnlyTheirs=0 publics=0 publicsOnlyTheirs=0
      libgsymtest-clang-O2.so same=2 onlyOurs=0 inlines=0 unqualifiedInlinesOfTheirs=0 inlinesOnlyOurs=2 emptyInlinesOnlyTheirs=0 publics=6 publicsOnlyTheirs=0
      """);
  private static final Pattern EMPTY_RANGE = Pattern.compile(" [0-9a-f]+ 0( |$)");

  /**
   * The MODULE and INFO CODE_ID records are dump_syms' and so are the FILE records (numbered from 0
   * in path order); INLINE_ORIGIN records are numbered from 0 in name order as dump_syms numbers
   * them; the FUNC, INLINE and PUBLIC records dump_syms writes are ours but for the counted
   * differences ({@link #DUMP_SYMS_TALLIES}).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void recordsAsDumpSyms(String name) throws IOException {
    String theirText = TestData.text(TestData.path("breakpad", "elf", name + ".dump_syms.txt"));
    SymRecords ours = SymRecords.parse(TestData.text(TestData.path("breakpad", "elf", name + ".sym")));
    // FILE and INLINE_ORIGIN numbering: from 0, in byte order of paths and names (dump_syms' std::map
    // and std::set of std::string)
    assertNumberedInByteOrder(ours.files(), "FILE");
    assertNumberedInByteOrder(ours.origins(), "INLINE_ORIGIN");
    if (theirText.startsWith("dump_syms: exit status")) {
      // this dump_syms build crashes on the big-endian ppc64 file (ElfModuleTest checks its MODULE
      // line against llvm-readelf's facts)
      assertThat(name).isEqualTo("fs-ppc64-O2-d5");
      return;
    }
    SymRecords theirs = SymRecords.parse(theirText);
    assertThat(ours.head()).isEqualTo(theirs.head());
    assertThat(ours.files()).isEqualTo(theirs.files());
    Map<String, Integer> n = new LinkedHashMap<>();
    for (String k : List.of("same", "onlyOurs", "inlines", "unqualifiedInlinesOfTheirs", "inlinesOnlyOurs",
        "emptyInlinesOnlyTheirs", "publics", "publicsOnlyTheirs")) {
      n.put(k, 0);
    }
    List<String> unexplained = new ArrayList<>();
    theirs.funcs().forEach((at, theirName) -> {
      String ourName = ours.funcs().get(at);
      if (theirName.equals(ourName)) n.merge("same", 1, Integer::sum);
      else unexplained.add("FUNC " + at + " " + theirName + ", ours " + ourName);
    });
    for (String at : ours.funcs().keySet()) if (!theirs.funcs().containsKey(at)) n.merge("onlyOurs", 1, Integer::sum);
    for (String in : theirs.inlines()) {
      if (ours.inlines().contains(in)) n.merge("inlines", 1, Integer::sum);
      else if (qualifiedByUs(in, ours.inlines())) n.merge("unqualifiedInlinesOfTheirs", 1, Integer::sum);
      else if (EMPTY_RANGE.matcher(in.substring(in.lastIndexOf('|'))).find()) n.merge("emptyInlinesOnlyTheirs", 1, Integer::sum);
      else unexplained.add("INLINE " + in);
    }
    for (String in : ours.inlines()) {
      if (!theirs.inlines().contains(in) && theirs.inlines().stream().noneMatch(t -> qualifiedByUs(t, Set.of(in)))) {
        n.merge("inlinesOnlyOurs", 1, Integer::sum);
      }
    }
    theirs.publics().forEach((at, theirName) -> {
      if (theirName.equals(ours.publics().get(at))) n.merge("publics", 1, Integer::sum);
      else if (ours.funcs().keySet().stream().anyMatch(k -> k.startsWith(at + " "))) n.merge("publicsOnlyTheirs", 1, Integer::sum);
      else unexplained.add("PUBLIC " + at + " " + theirName + ", ours " + ours.publics().get(at));
    });
    assertThat(ours.publics().keySet()).isSubsetOf(theirs.publics().keySet());
    StringBuilder got = new StringBuilder();
    n.forEach((k, v) -> got.append(got.isEmpty() ? "" : " ").append(k).append('=').append(v));
    System.out.println("ElfToBreakpadOracleTest: dump_syms " + name + " " + got);
    assertThat(unexplained).isEmpty();
    assertThat(got.toString()).isEqualTo(DUMP_SYMS_TALLIES.get(name));
  }

  /**
   * Whether {@code ours} has the INLINE record {@code theirs} with a qualified origin name ({@code
   * shapes::sq} for dump_syms' {@code sq}: it drops the namespaces of GCC's DWARF names).
   */
  static boolean qualifiedByUs(String theirs, Set<String> ours) {
    String[] t = theirs.split("\\|", -1);
    for (String o : ours) {
      String[] u = o.split("\\|", -1);
      if (u.length == t.length && u[4].endsWith("::" + t[4])
          && java.util.Arrays.equals(u, 0, 4, t, 0, 4) && u[5].equals(t[5])) {
        return true;
      }
    }
    return false;
  }

  /** Records "KIND n text" numbered 0, 1, ... with the texts strictly ascending as unsigned bytes. */
  static void assertNumberedInByteOrder(List<String> records, String kind) {
    byte[] last = null;
    for (int i = 0; i < records.size(); i++) {
      String prefix = kind + " " + i + " ";
      assertThat(records.get(i)).startsWith(prefix);
      byte[] text = dev.gsym.ByteStrings.encode(records.get(i).substring(prefix.length()));
      if (last != null) assertThat(java.util.Arrays.compareUnsigned(last, text)).as(records.get(i)).isNegative();
      last = text;
    }
  }

  // ------------------------------------------------------------------ live: the oracles today

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void llvmSymbolizerGivesTheCommittedAnswers(String name) throws IOException, InterruptedException {
    Path tool = Tools.require(Llvm.symbolizer(), "llvm-symbolizer-22");
    Path addrs = TestData.path("breakpad", "elf", name + ".gsym.addrs");
    if (!Files.exists(addrs)) addrs = TestData.path("expected", "gsym", name + ".gsym.addrs");
    assertThat(symbolize(tool, input(name), Files.readString(addrs)))
        .isEqualTo(TestData.text(TestData.path("breakpad", "elf", name + ".symbolizer.txt")));
  }

  /** llvm-symbolizer-22 as the script runs it: beside the ELF, LLVM style, addresses printed. */
  static String symbolize(Path tool, Path elf, String addresses) throws IOException, InterruptedException {
    Path in = dir.resolve("addresses.txt");
    Files.writeString(in, addresses);
    Path out = dir.resolve("symbolizer.out");
    ProcessBuilder pb = new ProcessBuilder(tool.toString(), "--obj=" + elf.getFileName(), "--inlines", "--demangle",
        "--print-address", "--output-style=LLVM").directory(elf.toAbsolutePath().getParent().toFile())
        .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().remove("DEBUGINFOD_URLS");
    pb.environment().remove("LLVM_SYMBOLIZER_OPTS");
    assertThat(pb.start().waitFor()).isZero();
    return TestData.text(out);
  }

  @Test
  void llvmSymbolizerGivesTheCommittedRandomAnswers() throws IOException, InterruptedException {
    Path tool = Tools.require(Llvm.symbolizer(), "llvm-symbolizer-22");
    for (String name : randomInputs().toList()) {
      String golden = TestData.text(TestData.path("breakpad", "elf", "random", name + ".symbolizer.txt"));
      StringBuilder addrs = new StringBuilder();
      for (Answer a : parseSymbolizer(golden)) addrs.append("0x").append(Long.toHexString(a.address())).append('\n');
      assertThat(symbolize(tool, input(name), addrs.toString())).as(name).isEqualTo(golden);
    }
  }

  /**
   * The STACK CFI records of every ELF golden are line for line the ones Breakpad's dump_syms
   * writes ({@code X.dump_syms.stack.txt}; none for the ppc64 file, where dump_syms crashes and
   * writes no CFI for the architecture anyway), in its order.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void stackRecordsAsDumpSyms(String name) throws IOException {
    List<String> ours = TestData.text(TestData.path("breakpad", "elf", name + ".sym")).lines()
        .filter(l -> l.startsWith("STACK ")).toList();
    String theirs = TestData.text(TestData.path("breakpad", "elf", name + ".dump_syms.stack.txt"));
    if (theirs.startsWith("dump_syms: exit status")) {
      assertThat(name).isEqualTo("fs-ppc64-O2-d5");
      assertThat(ours).isEmpty();
      return;
    }
    assertThat(ours).containsExactlyElementsOf(theirs.lines().toList());
    if (!name.endsWith(".debug")) assertThat(ours).as("an input with CFI").isNotEmpty();
  }

  /** The STACK records dump_syms writes today are the committed ones (live). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void dumpSymsGivesTheCommittedStackRecords(String name) throws IOException, InterruptedException {
    Path tool = Breakpad.dumpSyms();
    Path out = dir.resolve(name + ".dump_syms.full.txt");
    Process p = new ProcessBuilder(tool.toString(), input(name).toString())
        .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    int status = p.waitFor();
    String got = status == 0
        ? TestData.text(out).lines().filter(l -> l.startsWith("STACK ")).map(l -> l + "\n").collect(java.util.stream.Collectors.joining())
        : "dump_syms: exit status " + status + "\n";
    assertThat(got).isEqualTo(TestData.text(TestData.path("breakpad", "elf", name + ".dump_syms.stack.txt")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void dumpSymsGivesTheCommittedRecords(String name) throws IOException, InterruptedException {
    Path tool = Breakpad.dumpSyms();
    Path out = dir.resolve(name + ".dump_syms.txt");
    Process p = new ProcessBuilder(tool.toString(), "-d", "-c", input(name).toString())
        .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    int status = p.waitFor();
    String got = status == 0 ? TestData.text(out) : "dump_syms: exit status " + status + "\n";
    assertThat(got).isEqualTo(TestData.text(TestData.path("breakpad", "elf", name + ".dump_syms.txt")));
  }
}
