package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GSYM (llvm-gsymutil-22 from DWARF) → Breakpad → GSYM answers every lookup like the original,
 * and .sym → GSYM → .sym → GSYM is stable.
 */
@NeedsLlvm
class CrossFormatTest {

  static Stream<Path> llvm22Files() throws IOException {
    try (Stream<Path> s = Files.list(TestData.path("gsym"))) {
      return s.filter(p -> p.getFileName().toString().endsWith(".gsym"))
          .filter(p -> !p.getFileName().toString().endsWith(".llvm14.gsym"))
          .sorted().toList().stream();
    }
  }

  /** Start, every line-row address, middle and last byte of every function. */
  static TreeSet<Long> addresses(GsymReader r) {
    TreeSet<Long> out = new TreeSet<>(Long::compareUnsigned);
    for (int i = 0; i < r.numFunctions(); i++) {
      FunctionInfo fi = r.functionInfoAtIndex(i);
      long start = fi.range().start();
      long size = fi.range().size();
      out.add(start);
      if (size > 0) {
        out.add(start + size / 2);
        out.add(start + size - 1);
      }
      if (fi.lineTable() != null) {
        for (LineEntry e : fi.lineTable().rows()) out.add(e.address());
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("llvm22Files")
  void toBreakpadAndBackAgrees(Path gsym) throws IOException {
    try (GsymReader orig = GsymReader.open(gsym)) {
      String sym = Conv.symFromGsym(orig);
      try (GsymReader back = Conv.gsymFromSym(sym)) {
        TreeSet<Long> addrs = addresses(orig);
        List<String> diffs = new ArrayList<>();
        for (long a : addrs) {
          String want = Conv.lookup(orig, a);
          String got = Conv.lookup(back, a);
          if (!want.equals(got)) diffs.add("want " + want + " got  " + got);
        }
        assertThat(diffs).as("%d addresses", addrs.size()).isEmpty();
        assertThat(addrs.size()).isGreaterThan(10);
        assertThat(back.uuid()).isEqualTo(orig.uuid());
        // from then on the text is stable (file and origin numbers follow paths and names)
        String sym2 = Conv.symFromGsym(back);
        try (GsymReader back2 = Conv.gsymFromSym(sym2)) {
          assertThat(Conv.symFromGsym(back2)).isEqualTo(sym2);
        }
      }
    }
  }

  /**
   * With names demangled (the default, as dump_syms writes them) the round trip answers every
   * lookup like the original but for the names, which come back as {@link
   * dev.gsym.demangle.Demangler#llvm()} prints the original's; and the text is stable from then on.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("llvm22Files")
  void demangledRoundTripAgreesButForTheNames(Path gsym) throws IOException {
    BreakpadWriter.Options demangled = BreakpadWriter.Options.defaults("test");
    try (GsymReader orig = GsymReader.open(gsym); GsymReader back = Conv.gsymFromSym(Conv.symFromGsym(orig, demangled))) {
      List<String> diffs = new ArrayList<>();
      int renamed = 0;
      for (long a : addresses(orig)) {
        String want = Conv.demangledLookup(orig, a);
        if (!want.equals(Conv.lookup(orig, a))) renamed++;
        String got = Conv.lookup(back, a);
        if (!want.equals(got)) diffs.add("want " + want + " got  " + got);
      }
      assertThat(diffs).isEmpty();
      if (gsym.getFileName().toString().startsWith("cpp-")) assertThat(renamed).isPositive();
      String sym2 = Conv.symFromGsym(back, demangled);
      try (GsymReader back2 = Conv.gsymFromSym(sym2)) {
        assertThat(Conv.symFromGsym(back2, demangled)).isEqualTo(sym2);
      }
    }
  }

  /**
   * On llvm's own address lists (function starts, middles, last bytes, one-past-ends, line rows,
   * inline range bounds, below and above everything) the round-tripped GSYM answers exactly what
   * llvm-gsymutil-22 printed for the original ({@code expected/gsym/F.lookup.txt}).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("llvm22Files")
  void roundTripMatchesLlvmGoldenLookups(Path gsym, @TempDir Path dir) throws IOException, InterruptedException {
    roundTrip(gsym, dir, null);
  }

  /** llvm-gsymutil-22, live, prints the same golden lookups for the round-tripped file. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("llvm22Files")
  void llvmReadsTheRoundTripAlike(Path gsym, @TempDir Path dir) throws IOException, InterruptedException {
    roundTrip(gsym, dir, Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL));
  }

  /** {@link #roundTripMatchesLlvmGoldenLookups}, then {@code llvm}'s lookups in the round trip if not null. */
  private static void roundTrip(Path gsym, Path dir, Path llvm) throws IOException, InterruptedException {
    String name = gsym.getFileName().toString();
    List<String> addrs = Files.readAllLines(TestData.path("expected", "gsym", name + ".addrs"));
    String golden = TestData.text(TestData.path("expected", "gsym", name + ".lookup.txt"));
    Path back = dir.resolve(name);
    try (GsymReader orig = GsymReader.open(gsym)) {
      Files.write(back, Conv.gsymBytesFromSym(Conv.symFromGsym(orig), false));
    }
    StringBuilder ours = new StringBuilder("Looking up addresses in \"" + name + "\":\n");
    try (GsymReader r = GsymReader.open(back)) {
      for (String a : addrs) ours.append(Conv.lookup(r, Long.decode(a)));
    }
    assertThat(ours.toString()).isEqualTo(golden);
    if (llvm == null) return;
    List<String> cmd = new ArrayList<>(List.of(llvm.toString()));
    for (String a : addrs) cmd.add("--address=" + a);
    cmd.add(name);
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = dev.gsym.ByteStrings.decode(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).isZero();
    assertThat(out).isEqualTo(golden);
  }

  @Test
  void symToGsymToSymToGsymIsStable() throws IOException {
    String sym = Files.readString(TestData.path("breakpad", "basic.sym"));
    try (GsymReader g1 = Conv.gsymFromSym(sym)) {
      String sym2 = Conv.symFromGsym(g1);
      try (GsymReader g2 = Conv.gsymFromSym(sym2)) {
        for (long a = 0xff0; a < 0x1400; a++) {
          assertThat(Conv.lookup(g2, a)).isEqualTo(Conv.lookup(g1, a));
        }
        assertThat(Conv.lookup(g2, 0x5000)).isEqualTo(Conv.lookup(g1, 0x5000));
        assertThat(g2.uuid()).isEqualTo(g1.uuid());
        assertThat(Conv.symFromGsym(g2)).isEqualTo(sym2);
      }
      assertThat(sym2).isEqualTo(Files.readString(TestData.path("breakpad", "basic.roundtrip.sym")));
    }
  }

  /**
   * The new shapes survive .sym → GSYM → .sym → GSYM: every byte from just below the first to just
   * past the last expected address answers the same (line gaps stay gaps, the split inline nodes and
   * the PUBLIC tails come back), and the second .sym text is stable.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"inline-merged", "line-gaps", "public-tail", "inline-outside-parent", "overlapping-records",
      "file-after-use", "root-paths"})
  void newShapesSurviveTheRoundTrip(String name) throws IOException {
    String sym = Files.readString(TestData.path("breakpad", name + ".sym"));
    List<Long> addrs = new java.util.ArrayList<>(ResolverOracle.committed(name).keySet()); // sorted
    try (GsymReader g1 = Conv.gsymFromSym(sym)) {
      String sym2 = Conv.symFromGsym(g1);
      try (GsymReader g2 = Conv.gsymFromSym(sym2)) {
        for (long a = addrs.getFirst() - 1; a <= addrs.getLast() + 1; a++) {
          assertThat(Conv.lookup(g2, a)).as("0x%x", a).isEqualTo(Conv.lookup(g1, a));
        }
        assertThat(Conv.symFromGsym(g2)).isEqualTo(sym2);
      }
    }
  }
}
