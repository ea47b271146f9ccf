package dev.gsym.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The checked-in corpus (src-test-data/demangle, made by its regenerate.sh): a few thousand names
 * sampled from libstdc++, libjvm, libLLVM, rustc's driver, a Rust v0 program and the test
 * binaries, hand-written corner cases and mutated names, with llvm-cxxfilt-22's output for each.
 * This is what CI checks without the large inputs or the llvm tools.
 */
class CorpusTest {
  private static List<byte[]> lines(String file) throws IOException {
    return LlvmCxxfilt.lines(Files.readAllBytes(TestData.path("demangle", file)));
  }

  @Test
  void everyNameAsLlvmCxxfiltPrintsIt() throws IOException {
    List<byte[]> names = lines("names.txt");
    List<byte[]> expected = lines("names.llvm-cxxfilt.txt");
    Comparison c = Comparison.of("src-test-data/demangle", names, expected);
    System.out.print(c.summary());
    assertThat(c.unexplained()).as("differences no category explains").isEmpty();
    assertThat(c.identicalRatio()).isGreaterThanOrEqualTo(0.999);
  }

  @Test
  void corpusIsLargeAndCoversEveryScheme() throws IOException {
    List<byte[]> names = lines("names.txt");
    List<byte[]> expected = lines("names.llvm-cxxfilt.txt");
    assertThat(names).hasSizeGreaterThan(3000);
    int itanium = 0;
    int rustV0 = 0;
    int rustLegacy = 0;
    int dlang = 0;
    int rejected = 0;
    for (int i = 0; i < names.size(); i++) {
      String n = ByteStrings.decode(names.get(i));
      boolean changed = !n.equals(ByteStrings.decode(expected.get(i)));
      if (!changed) {
        if (n.startsWith("_Z") || n.startsWith("_R")) rejected++;
        continue;
      }
      if (n.startsWith("_R")) rustV0++;
      else if (n.startsWith("_D")) dlang++;
      else if (n.startsWith("_ZN") && n.matches(".*17h[0-9a-f]{16}E.*")) rustLegacy++;
      else itanium++;
    }
    assertThat(itanium).isGreaterThan(2000);
    assertThat(rustV0).isGreaterThan(500);
    assertThat(rustLegacy).isGreaterThan(5);
    assertThat(dlang).isGreaterThan(5);
    assertThat(rejected).as("names llvm rejects, which must stay unchanged").isGreaterThan(300);
  }

  @Test
  void sameResultsFromManyThreads() throws IOException {
    List<byte[]> names = lines("names.txt");
    Demangler d = Demangler.llvm();
    Map<Integer, String> sequential = new ConcurrentHashMap<>();
    for (int i = 0; i < names.size(); i++) sequential.put(i, d.demangle(ByteStrings.decode(names.get(i))));
    for (int round = 0; round < 3; round++) {
      java.util.stream.IntStream.range(0, names.size()).parallel().forEach(i ->
          assertThat(d.demangle(ByteStrings.decode(names.get(i)))).isEqualTo(sequential.get(i)));
    }
  }
}
