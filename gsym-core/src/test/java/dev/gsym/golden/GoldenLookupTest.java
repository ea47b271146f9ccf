package dev.gsym.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our lookups of every address recorded by regenerate.sh (derived from llvm's own dump) equal
 * llvm-gsymutil-22's --address output, in plain, --verbose and --merged-functions modes.
 */
class GoldenLookupTest {
  static List<Golden.Entry> lookups() {
    return Golden.manifest("lookup");
  }

  static List<Golden.Entry> verbose() {
    return Golden.manifest("verbose");
  }

  static List<Golden.Entry> merged() {
    return Golden.manifest("merged");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lookups")
  void lookupsMatchLlvm(Golden.Entry e) throws Exception {
    List<Long> addrs = e.addresses();
    assertThat(addrs).isNotEmpty();
    try (GsymReader r = GsymReader.open(e.gsym())) {
      assertThat(Golden.lookupText(r, e.file(), addrs)).as("lookups in %s", e).isEqualTo(e.expectedText());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verbose")
  void verboseLookupsMatchLlvm(Golden.Entry e) throws Exception {
    try (GsymReader r = GsymReader.open(e.gsym())) {
      assertThat(Golden.verboseText(r, e.file(), e.addresses())).as("verbose lookups in %s", e).isEqualTo(e.expectedText());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("merged")
  void mergedLookupsMatchLlvm(Golden.Entry e) throws Exception {
    try (GsymReader r = GsymReader.open(e.gsym())) {
      assertThat(Golden.mergedText(r, e.file(), e.addresses())).as("merged lookups in %s", e).isEqualTo(e.expectedText());
    }
  }
}
