package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.format.LookupException;
import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Regression: a FunctionInfo offset past the end of the file is reported with llvm's message
 * ("invalid address info offset 0x164", in lookups and in the dump) instead of our own wording
 * prefixed with the file name and offset, which the CLI printed inside "error: ..." lines.
 */
class TruncatedRecordLookupTest {
  @Test
  void llvmMessageForRecordPastEnd() throws Exception {
    byte[] whole = Files.readAllBytes(TestData.path("vectors", "t1.gsym"));
    GsymReader r = GsymReader.of(Arrays.copyOf(whole, 300), "t1-300.gsym");
    assertThatThrownBy(() -> r.lookup(0x1141)).isInstanceOf(LookupException.class)
        .hasMessage("invalid address info offset 0x164");
    assertThatThrownBy(() -> r.lookupAll(0x1141)).isInstanceOf(LookupException.class)
        .hasMessage("invalid address info offset 0x164");
    StringBuilder sb = new StringBuilder();
    r.dump(sb);
    assertThat(sb.toString())
        .contains("FunctionInfo @ 0x00000164: FunctionInfo:invalid address info offset 0x164\n");
  }
}
