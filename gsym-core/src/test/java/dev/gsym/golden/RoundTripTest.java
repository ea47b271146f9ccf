package dev.gsym.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import java.nio.file.Files;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every LLVM-written .gsym in src-test-data, decoded and rebuilt through our GsymCreator, comes
 * out byte-identical.
 */
class RoundTripTest {
  static List<Golden.Entry> files() {
    return Golden.gsymFiles();
  }

  static List<Golden.Entry> llvm22Files() {
    return files().stream().filter(e -> !e.file().contains(".llvm14.")).toList();
  }

  static List<Golden.Entry> llvm14Files() {
    return files().stream().filter(e -> e.file().contains(".llvm14.")).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("llvm22Files")
  void rebuildIsByteIdentical(Golden.Entry e) throws Exception {
    byte[] orig = Files.readAllBytes(e.gsym());
    byte[] ours = Rebuild.rebuild(e.gsym());
    if (!java.util.Arrays.equals(orig, ours)) {
      int i = java.util.Arrays.mismatch(orig, ours);
      assertThat(hexAround(ours, i)).as("%s: first difference at 0x%x (orig %d bytes, ours %d)", e, i,
          orig.length, ours.length).isEqualTo(hexAround(orig, i));
    }
    assertThat(ours).as("%s rebuilt", e).isEqualTo(orig);
  }

  /**
   * LLVM 14's writer does not coalesce adjacent address ranges of an inline node (c-gcc-O2: a
   * node with [0x1226,0x1254) [0x1254,0x1257) [0x1260,0x1278)); LLVM 22 and our decoder merge them
   * on read, so such a file cannot come back byte-identical. For LLVM 14 files the rebuild must
   * therefore only decode to the same FunctionInfos, with the same tables.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("llvm14Files")
  void llvm14RebuildIsEquivalent(Golden.Entry e) throws Exception {
    byte[] ours = Rebuild.rebuild(e.gsym());
    try (GsymReader orig = GsymReader.open(e.gsym());
        GsymReader back = GsymReader.of(ours, "rebuilt")) {
      assertThat(back.numFunctions()).isEqualTo(orig.numFunctions());
      assertThat(back.numFiles()).isEqualTo(orig.numFiles());
      assertThat(((dev.gsym.format.Header) back.header()).strtabSize()).isEqualTo(((dev.gsym.format.Header) orig.header()).strtabSize());
      for (int i = 0; i < orig.numFunctions(); i++) {
        assertThat(back.functionInfoAtIndex(i)).isEqualTo(orig.functionInfoAtIndex(i));
      }
    }
  }

  private static String hexAround(byte[] b, int i) {
    int from = Math.max(0, i - 16);
    int to = Math.min(b.length, i + 32);
    return from >= to ? "" : HexFormat.of().formatHex(b, from, to);
  }
}
