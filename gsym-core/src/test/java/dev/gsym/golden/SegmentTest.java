package dev.gsym.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GsymCreator.saveSegments over the decoded whole-file conversion reproduces the segment files
 * llvm-gsymutil-22 --convert --segment-size=N wrote for the same binary, byte for byte.
 */
class SegmentTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "{0} -> {2}-* (N={1})")
  @CsvSource({
    "gsym/c-clang-O2.gsym, 400, gsym/c-clang-O2.seg.gsym",
    "vectors/t2.gsym, 200, vectors/t2seg.gsym",
  })
  void segmentsMatchLlvm(String whole, long size, String segPrefix) throws Exception {
    Path src = TestData.path(whole);
    Path expectedDir = TestData.path(segPrefix).getParent();
    String prefix = TestData.path(segPrefix).getFileName().toString();
    List<String> expected;
    try (Stream<Path> s = Files.list(expectedDir)) {
      expected = s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix + "-0x"))
          .sorted().toList();
    }
    assertThat(expected).isNotEmpty();

    GsymCreator c;
    try (GsymReader r = GsymReader.open(src)) {
      c = Rebuild.creatorFor(r);
      List<Path> written = c.saveSegments(tmp.resolve(prefix), r.byteOrder(), size);
      List<String> names = new ArrayList<>();
      for (Path p : written) names.add(p.getFileName().toString());
      assertThat(names.stream().sorted().toList()).isEqualTo(expected);
    }
    for (String n : expected) {
      assertThat(Files.readAllBytes(tmp.resolve(n))).as(n)
          .isEqualTo(Files.readAllBytes(expectedDir.resolve(n)));
    }
  }
}
