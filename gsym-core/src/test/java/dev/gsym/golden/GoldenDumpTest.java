package dev.gsym.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Our dump of every llvm-written .gsym in src-test-data equals llvm-gsymutil-22's. */
class GoldenDumpTest {
  static List<Golden.Entry> dumps() {
    return Golden.manifest("dump");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dumps")
  void dumpMatchesLlvm(Golden.Entry e) throws Exception {
    assertThat(e.exit()).as("llvm exit status for %s", e).isZero();
    try (GsymReader r = GsymReader.open(e.gsym())) {
      assertThat(Golden.dump(r)).as("dump of %s", e).isEqualTo(e.expectedText());
    }
  }
}
