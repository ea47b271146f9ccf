package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
      c.finish(Diagnostics.silent());
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
      c.finish(Diagnostics.silent());
      byte[] copy = c.encode(ByteOrder.BIG_ENDIAN);
      try (GsymReader r = GsymReader.of(copy, "copy")) {
        assertThat(r.byteOrder()).isEqualTo(ByteOrder.BIG_ENDIAN);
        long[] addrs = {0x1000, 0x1141, 0x1157, 0x1184, 0x11b0, 0x11f8};
        assertThat(lookups(r, addrs)).isEqualTo(lookups(patched, addrs));
        // "dd" became a string of its own at the end of the table
        assertThat(r.string(r.functionInfo(0x1141).name())).isEqualTo("dd");
        assertThat(((dev.gsym.format.Header) r.header()).strtabSize()).isEqualTo(((dev.gsym.format.Header) patched.header()).strtabSize() + 3);
      }
    }
  }

  /** f [0x100, 0x120): no line below 0x104, line 5 up to 0x110, none from there. */
  private static void addGappy(GsymCreator c) {
    int file = c.insertFile("/g/a.c");
    int none = c.insertNoFile();
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x100, 0x120), c.insertString("f"),
        new LineTable(List.of(new LineEntry(0x100, none, 0), new LineEntry(0x104, file, 5),
            new LineEntry(0x110, none, 0))), null, null, null));
  }

  private static final String GAPPY = "0x0000000000000102: f + 2\n0x0000000000000108: f + 8 @ /g/a.c:5\n"
      + "0x0000000000000118: f + 24\n";

  @TempDir Path tmp;

  /**
   * The "no file" entry is {0, 0} like entry 0, but must not be folded into it when a creator
   * copies a file (from a reader, into segments, from a scratch creator): rows in file 0 fail
   * lookups where rows in the no-file entry answer with the function alone.
   */
  @Test
  void noFileEntrySurvivesCopies() throws Exception {
    GsymCreator c = new GsymCreator();
    addGappy(c);
    assertThat(c.insertNoFile()).as("added once").isEqualTo(2);
    assertThat(c.getFile(2)).isEqualTo(FileEntry.NONE);
    c.finish(Diagnostics.silent());
    byte[] bytes = c.encode();
    try (GsymReader r = GsymReader.of(bytes, "gappy")) {
      assertThat(lookups(r, 0x102, 0x108, 0x118)).isEqualTo(GAPPY);
      GsymCreator copy = GsymCreator.from(r);
      copy.finish(Diagnostics.silent());
      assertThat(copy.encode()).isEqualTo(bytes);
      for (Path seg : copy.saveSegments(tmp.resolve("s.gsym"), ByteOrder.LITTLE_ENDIAN, 1000)) {
        try (GsymReader s = GsymReader.open(seg)) {
          assertThat(lookups(s, 0x102, 0x108, 0x118)).isEqualTo(GAPPY);
        }
      }
    }
    GsymCreator whole = new GsymCreator();
    whole.insertFile("/other.c");
    GsymCreator part = whole.scratch();
    addGappy(part);
    whole.addAll(part);
    whole.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(whole.encode(), "merged")) {
      assertThat(lookups(r, 0x102, 0x108, 0x118)).isEqualTo(GAPPY);
    }
  }
}
