package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import org.junit.jupiter.api.Test;

/** {@link SourceLine}, the one source-position record, as the reader's {@link SourceLocation} gives it. */
class SourceLineTest {
  @Test
  void aLocationsPositionReadsTheLineAsUnsignedAndJoinsThePathAsLlvmPrintsIt() {
    SourceLocation big = new SourceLocation("f", "/src", "a.c", 0xfffffffe, 0);
    assertThat(big.sourceLine()).isEqualTo(new SourceLine("/src", "a.c", 4294967294L));
    assertThat(big.path()).isEqualTo("/src/a.c");
    assertThat(big.toString()).isEqualTo("f @ " + big.path() + ":" + big.sourceLine().line());
    assertThat(new SourceLocation("f", "C:\\src", "a.c", 3, 0).path()).isEqualTo("C:\\src\\a.c");
    assertThat(new SourceLocation("f", "", "a.c", 3, 0).path()).isEqualTo("a.c");
    assertThat(new SourceLocation("f", "", "", 0, 0).sourceLine().hasFile()).isFalse();
    assertThat(new SourceLocation("f", "", "", 0, 0).path()).isEmpty();
  }

  @Test
  void everyFrameOfALookupHasItsPosition() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("gsym", "c-gcc-O2.gsym"))) {
      LookupResult res = r.find(0x1200).orElseThrow();
      assertThat(res.locations()).hasSizeGreaterThanOrEqualTo(3);
      for (SourceLocation loc : res.locations()) {
        assertThat(res.toString()).contains(" @ " + loc.path() + ":" + loc.sourceLine().line());
      }
    }
  }
}
