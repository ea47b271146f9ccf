package dev.gsym.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.GlobalData;
import dev.gsym.format.HeaderV2;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every GSYM golden under src-test-data ({@link TestData#gsymFiles}: llvm-gsymutil-22's files of
 * gsym/, vectors/, macho/, pecoff/, embed/, callsites/, breakpad/elf/ and ours of breakpad/ and
 * stack/), transcoded to GSYM version 2 (in both byte orders) and back to version 1: the version 1
 * file comes back byte for byte, and the version 2 file answers every lookup mode (plain, merged
 * functions, verbose) with the same text as the original. LLVM 14's files come back as our
 * version 1 rewrite of them (RoundTripTest: LLVM 14 leaves adjacent inline ranges unmerged).
 */
@Slow
class Version2RoundTripTest {
  static List<Path> files() {
    return TestData.gsymFiles();
  }

  static byte[] transcode(GsymReader r, int version, ByteOrder order) {
    GsymCreator c = GsymCreator.from(r);
    c.setOutputVersion(version);
    c.finish(Diagnostics.silent());
    return c.encode(order);
  }

  /** The manifest's lookup addresses for this file (if it lists it), every function start, middle and end. */
  static List<Long> addresses(Path gsym, GsymReader r) {
    TreeSet<Long> set = new TreeSet<>(Long::compareUnsigned);
    for (Golden.Entry l : Golden.manifest("lookup")) {
      if (l.gsym().normalize().equals(gsym.normalize()) && !l.addrs().equals("-")) set.addAll(l.addresses());
    }
    for (int i = 0; i < r.numFunctions(); i++) {
      long start = r.functionAddress(i);
      long size = r.functionInfoAtIndex(i).range().size();
      set.add(start);
      set.add(start + size / 2);
      set.add(start + size);
      set.add(start - 1);
    }
    return new ArrayList<>(set);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void version2RoundTripsAndAnswersAlike(Path e) throws Exception {
    try (GsymReader v1 = GsymReader.open(e)) {
      byte[] orig = e.getFileName().toString().contains(".llvm14.") ? transcode(v1, 1, v1.byteOrder()) : Files.readAllBytes(e);
      List<Long> addrs = addresses(e, v1);
      String lookups = Golden.lookupText(v1, "f", addrs);
      String merged = Golden.mergedText(v1, "f", addrs);
      String verbose = Golden.verboseText(v1, "f", addrs);
      for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
        byte[] v2bytes = transcode(v1, 2, order);
        try (GsymReader v2 = GsymReader.of(v2bytes, "v2")) {
          assertThat(v2.version()).isEqualTo(HeaderV2.VERSION);
          assertThat(v2.byteOrder()).isEqualTo(order);
          assertThat(v2.uuid()).isEqualTo(v1.uuid());
          assertThat(v2.directory().find(GlobalData.UUID) != null).isEqualTo(v1.uuid().length > 0);
          assertThat(Golden.lookupText(v2, "f", addrs)).as("%s %s lookups", e, order).isEqualTo(lookups);
          assertThat(Golden.mergedText(v2, "f", addrs)).as("%s %s merged", e, order).isEqualTo(merged);
          assertThat(Golden.verboseText(v2, "f", addrs)).as("%s %s verbose", e, order).isEqualTo(verbose);
          for (int i = 0; i < v1.numFunctions(); i++) {
            assertThat(v2.functionInfoAtIndex(i)).isEqualTo(v1.functionInfoAtIndex(i));
          }
          // v2 -> v2 is stable, and v2 -> v1 gives the original bytes
          assertThat(transcode(v2, 2, order)).isEqualTo(v2bytes);
          assertThat(transcode(v2, 1, v1.byteOrder())).as("%s v1 -> v2 (%s) -> v1", e, order).isEqualTo(orig);
        }
      }
    }
  }
}
