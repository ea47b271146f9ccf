package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Converts every golden binary and compares with llvm-gsymutil-22 --convert --num-threads=1. The
 * split-DWARF binaries' .dwo files (also in bin/) are found beside the binary.
 */
class GoldenConvertTest {
  /** Every executable in src-test-data/bin (not the .dwo/.dwp files). */
  static Stream<String> binaries() throws IOException {
    return TestData.binaries().stream();
  }

  static byte[] convert(String name, StringBuilder log) throws IOException {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary sum = DwarfConverter.convert(TestData.path("bin", name), c, new Diagnostics(log), DwarfConverter.Options.defaults());
    return c.encode(sum.byteOrder());
  }

  @ParameterizedTest
  @MethodSource("binaries")
  void byteIdentical(String name) throws IOException {
    StringBuilder log = new StringBuilder();
    byte[] ours = convert(name, log);
    byte[] llvm = Files.readAllBytes(TestData.path("gsym", name + ".gsym"));
    assertArrayEquals(llvm, ours, name + ": GSYM bytes differ\n" + log);
  }

  /** --num-threads: 1 and 4 threads give llvm's bytes and the same log (also with the merge options). */
  @ParameterizedTest
  @MethodSource("binaries")
  void sameOutputForAnyThreadCount(String name) throws IOException {
    byte[] llvm = Files.readAllBytes(TestData.path("gsym", name + ".gsym"));
    String log1 = null;
    for (int threads : new int[] {1, 4, 2, 0}) {
      StringBuilder log = new StringBuilder();
      Diagnostics d = new Diagnostics(log);
      GsymCreator c = new GsymCreator();
      DwarfConverter.Summary sum = DwarfConverter.convert(TestData.path("bin", name), c, d, DwarfConverter.Options.builder().threads(threads).build());
      assertArrayEquals(llvm, c.encode(sum.byteOrder()), name + " threads=" + threads);
      String all = log + d.summary();
      if (log1 == null) log1 = all;
      assertEquals(log1, all, name + " threads=" + threads);
      GsymCreator m = new GsymCreator();
      DwarfConverter.Summary ms = DwarfConverter.convert(TestData.path("bin", name), m, Diagnostics.silent(), DwarfConverter.Options.builder().mergedFunctions(true).dwarfCallSites(true).threads(threads).build());
      GsymCreator m1 = new GsymCreator();
      DwarfConverter.convert(TestData.path("bin", name), m1, Diagnostics.silent(), DwarfConverter.Options.builder().mergedFunctions(true).dwarfCallSites(true).threads(1).build());
      assertArrayEquals(m1.encode(ms.byteOrder()), m.encode(ms.byteOrder()), name + " merged threads=" + threads);
    }
  }

  /** --merged-functions and --merged-functions --dwarf-callsites on the gold ICF binary. */
  @org.junit.jupiter.api.Test
  void mergedFunctionsAndCallSites() throws IOException {
    for (boolean callSites : new boolean[] {false, true}) {
      StringBuilder log = new StringBuilder();
      GsymCreator c = new GsymCreator();
      DwarfConverter.Summary sum = DwarfConverter.convert(TestData.path("bin", "icf-clang-O2-gold"), c, new Diagnostics(log),
          DwarfConverter.Options.builder().mergedFunctions(true).dwarfCallSites(callSites).build());
      String ref = "icf-clang-O2-gold." + (callSites ? "merged-callsites" : "merged") + ".gsym";
      assertArrayEquals(Files.readAllBytes(TestData.path("gsym", ref)), c.encode(sum.byteOrder()), ref + "\n" + log);
      assertEquals(true, log.toString().contains(
          "Loaded 4 functions from DWARF.\nHave 1 merged functions as children of other functions\nLoaded 11 functions from symbol table.\n"), log.toString());
    }
  }

  /**
   * Our messages + category summary equal llvm's log after its two "Input file/Output file"
   * lines (printed by the CLI). llvm's error dumps of line tables and DIEs (llvm-dwarfdump
   * format) are not reproduced: for those, only our first line of each message is compared
   * (docs/dwarf-differences.md).
   */
  @ParameterizedTest
  @MethodSource("binaries")
  void logMatchesLlvm(String name) throws IOException {
    StringBuilder log = new StringBuilder();
    Diagnostics d = new Diagnostics(log);
    GsymCreator c = new GsymCreator();
    DwarfConverter.convert(TestData.path("bin", name), c, d, DwarfConverter.Options.defaults());
    String ours = log + d.summary();
    String expected = Files.readString(TestData.path("expected", "convert", name + ".gsym.log.txt"));
    expected = expected.substring(expected.indexOf('\n', expected.indexOf('\n') + 1) + 1);
    if (!expected.contains("error: line table has addresses")) {
      assertEquals(expected, ours, name);
      return;
    }
    // Drop llvm's dumps (rows and DIE attributes) after each such error line.
    StringBuilder kept = new StringBuilder();
    boolean skipping = false;
    for (String line : expected.split("\n", -1)) {
      if (line.startsWith("error: line table has addresses")) {
        kept.append(line).append('\n');
        skipping = true;
        continue;
      }
      if (skipping && (line.startsWith("Loaded ") || line.startsWith("error: "))) skipping = false;
      if (!skipping) kept.append(line).append('\n');
    }
    assertEquals(kept.substring(0, kept.length() - 1), ours, name);
  }
}
