package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression: a FunctionInfo offset past the end of the file is reported with llvm's message
 * ("invalid address info offset 0x164", in lookups and in the dump) as the detail of a
 * GsymFormatException, which also names the file and the offset (the CLI prints the detail inside
 * "error: ..." lines, as llvm-gsymutil does).
 */
class TruncatedRecordLookupTest {
  @Test
  void llvmMessageForRecordPastEnd() throws Exception {
    byte[] whole = Files.readAllBytes(TestData.path("vectors", "t1.gsym"));
    GsymReader r = GsymReader.of(Arrays.copyOf(whole, 300), "t1-300.gsym");
    for (org.assertj.core.api.ThrowableAssert.ThrowingCallable c : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
        () -> r.lookup(0x1141), () -> r.lookupAll(0x1141), () -> r.find(0x1141), () -> r.lookup(0x1141, new LookupFrames()))) {
      assertThatThrownBy(c).isInstanceOfSatisfying(dev.gsym.GsymFormatException.class, e -> {
        assertThat(e.detail()).isEqualTo("invalid address info offset 0x164");
        assertThat(e.source()).isEqualTo("t1-300.gsym");
        assertThat(e.offset()).isEqualTo(0x5c);
      });
    }
    StringBuilder sb = new StringBuilder();
    r.dump(sb);
    assertThat(sb.toString())
        .contains("FunctionInfo @ 0x00000164: FunctionInfo:invalid address info offset 0x164\n");
  }

  private static String lookupError(String vector, int length, long addr) throws Exception {
    byte[] whole = Files.readAllBytes(TestData.path("vectors", vector));
    GsymReader r = GsymReader.of(Arrays.copyOf(whole, length), vector + "-" + length);
    try {
      return r.lookup(addr).toString();
    } catch (LookupException | dev.gsym.GsymFormatException e) {
      return dev.gsym.testing.LookupErrors.llvm(e);
    }
  }

  /** Records cut short: the messages llvm-gsymutil-22 prints for the same truncated files. */
  @Test
  void llvmMessagesForTruncatedRecords() throws Exception {
    // exactly the size is left
    assertThat(lookupError("E.gsym", 140, 0x1141)).isEqualTo("FunctionInfo data is truncated");
    // less than the size is left: size and name read as 0, offset 0 - 4 wraps
    assertThat(lookupError("A.gsym", 245, 0x1141))
        .isEqualTo("0xfffffffffffffffc: invalid FunctionInfo Name value 0x00000000");
    // part of the name is left
    assertThat(lookupError("B.gsym", 90, 0x401005))
        .isEqualTo("0x00000000: invalid FunctionInfo Name value 0x00000000");
    // the following entry's record is fetched before its start address is compared
    assertThat(lookupError("E.gsym", 168, 0x2008)).isEqualTo("invalid address info offset 0xbc");
  }
}
