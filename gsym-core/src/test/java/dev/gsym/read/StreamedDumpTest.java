package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import org.junit.jupiter.api.Test;

/** dump(sb, drain) produces the same text as dump(sb), handed out in pieces. */
class StreamedDumpTest {
  @Test
  void drainedDumpEqualsWholeDump() throws Exception {
    for (String v : new String[] {"t1.gsym", "t3gmc.gsym", "G.gsym"}) {
      try (GsymReader r = GsymReader.open(TestData.path("vectors", v))) {
        StringBuilder whole = new StringBuilder();
        r.dump(whole);
        StringBuilder drained = new StringBuilder();
        StringBuilder sb = new StringBuilder();
        int[] calls = {0};
        r.dump(sb, b -> {
          drained.append(b);
          b.setLength(0);
          calls[0]++;
        });
        assertThat(sb).isEmpty();
        assertThat(drained.toString()).isEqualTo(whole.toString());
        assertThat(calls[0]).isPositive();
      }
    }
  }
}
