package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import org.junit.jupiter.api.Test;

/**
 * Regression: llvm keeps a location's offset in a uint32_t, so far above a size-0 function the
 * offset wraps (llvm-gsymutil-22 --address 0xffffffffffffffff A.gsym prints
 * "last_zero + 4294962943"); we printed no offset at all because the 64-bit difference was negative.
 */
class LookupOffsetWrapTest {
  @Test
  void offsetIsUnsigned32Bit() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "A.gsym"))) {
      assertThat(r.lookup(0xffffffffffffffffL).toString())
          .isEqualTo("0xffffffffffffffff: last_zero + 4294962943\n");
      assertThat(r.lookup(0x1100L + 0x1_0000_0000L).toString())
          .isEqualTo("0x0000000100001100: last_zero\n");
      assertThat(r.lookup(0x1100L + 0x1_0000_0005L).toString())
          .isEqualTo("0x0000000100001105: last_zero + 5\n");
    }
  }
}
