package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class GsymCreatorFromTest {

  private static String lookups(GsymReader r, long... addrs) {
    StringBuilder sb = new StringBuilder();
    for (long a : addrs) r.lookup(a).appendTo(sb);
    return sb.toString();
  }

  @Test
  void llvmFileIsCopiedWithIdenticalOffsets() throws Exception {
    byte[] orig = Files.readAllBytes(TestData.path("vectors", "t2.gsym"));
    try (GsymReader r = GsymReader.of(orig, "t2.gsym")) {
      GsymCreator c = GsymCreator.from(r);
      c.finalize(Diagnostics.silent());
      assertThat(c.encode(ByteOrder.LITTLE_ENDIAN)).isEqualTo(orig);
      assertThat(c.encode()).as("little endian by default").isEqualTo(orig);
    }
  }

  @Test
  void nameOffsetInsideAStringIsTranslated() throws Exception {
    byte[] bytes = Files.readAllBytes(TestData.path("vectors", "t1.gsym"));
    // FunctionInfo of "add" is at 0x164; its Name (u32 at 0x168) is 1 ("add"); point it at "dd".
    assertThat(bytes[0x168]).isEqualTo((byte) 1);
    bytes[0x168] = 2;
    try (GsymReader patched = GsymReader.of(bytes, "patched")) {
      assertThat(lookups(patched, 0x1141)).isEqualTo("0x0000000000001141: dd + 1 @ /tmp/specwork/v1/t1.c:3\n");
      GsymCreator c = GsymCreator.from(patched);
      c.finalize(Diagnostics.silent());
      byte[] copy = c.encode(ByteOrder.BIG_ENDIAN);
      try (GsymReader r = GsymReader.of(copy, "copy")) {
        assertThat(r.byteOrder()).isEqualTo(ByteOrder.BIG_ENDIAN);
        long[] addrs = {0x1000, 0x1141, 0x1157, 0x1184, 0x11b0, 0x11f8};
        assertThat(lookups(r, addrs)).isEqualTo(lookups(patched, addrs));
        // "dd" became a string of its own at the end of the table
        assertThat(r.string(r.functionInfo(0x1141).name())).isEqualTo("dd");
        assertThat(r.header().strtabSize()).isEqualTo(patched.header().strtabSize() + 3);
      }
    }
  }
}
