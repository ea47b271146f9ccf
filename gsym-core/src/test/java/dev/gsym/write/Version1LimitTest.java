package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GSYM version 1 stores the string table's offset and size and each record's offset in 32 bits:
 * the writer refuses what would not fit (as LLVM main's GsymCreatorV1) and points to version 2,
 * instead of writing wrapped offsets. The 4 GiB limit is lowered here so that a small file hits it.
 */
class Version1LimitTest {
  @TempDir Path dir;

  private static GsymCreator creator() {
    GsymCreator c = new GsymCreator();
    for (int i = 0; i < 4; i++) {
      c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000 + 0x100L * i, 0x1080 + 0x100L * i),
          c.insertString("function_number_" + i)));
    }
    c.finish(Diagnostics.silent());
    return c;
  }

  @Test
  void stringTablePastTheLimitIsRefused() {
    GsymCreator c = creator();
    c.version1Limit = 40; // the string table holds 1 + 4 * 18 bytes
    assertThatThrownBy(() -> c.encode(ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class)
        .extracting(e -> ((GsymFormatException) e).detail())
        .isEqualTo("string table size exceeded 32-bit max: GSYM version 1 stores 32-bit offsets; write GSYM"
            + " version 2 instead (--output-version=2)");
  }

  @Test
  void recordOffsetPastTheLimitIsRefusedAndNothingIsWritten() throws Exception {
    GsymCreator c = creator();
    int size = c.encode(ByteOrder.LITTLE_ENDIAN).length;
    // the tables fit, the last record does not start below the limit
    c.version1Limit = size - 20;
    Path out = dir.resolve("x.gsym");
    assertThatThrownBy(() -> c.save(out, ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class)
        .extracting(e -> ((GsymFormatException) e).detail())
        .isEqualTo("address info offset exceeded 32-bit max: GSYM version 1 stores 32-bit offsets; write GSYM"
            + " version 2 instead (--output-version=2)");
    assertThat(out).doesNotExist();
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty(); // no temporary file left either
    }
  }

  @Test
  void version2IsNotLimited() {
    GsymCreator c = creator();
    c.version1Limit = 10;
    c.setOutputVersion(2);
    try (GsymReader r = GsymReader.of(c.encode(ByteOrder.LITTLE_ENDIAN), "v2")) {
      assertThat(r.version()).isEqualTo(2);
      assertThat(r.lookup(0x1310).toString()).isEqualTo("0x0000000000001310: function_number_3 + 16\n");
    }
  }

  @Test
  void atTheLimitIsWritten() {
    GsymCreator c = creator();
    byte[] all = c.encode(ByteOrder.LITTLE_ENDIAN);
    try (GsymReader r = GsymReader.of(all, "v1")) {
      c.version1Limit = r.functionInfoOffset(3); // the last record starts exactly at the limit
    }
    assertThat(c.encode(ByteOrder.LITTLE_ENDIAN)).isEqualTo(all);
  }
}
