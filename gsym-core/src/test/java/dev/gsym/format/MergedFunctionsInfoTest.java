package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import dev.gsym.testing.TestData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MergedFunctionsInfo (InfoType 3) with the vec4/G bytes. */
class MergedFunctionsInfoTest {
  static final CallSiteInfoCollection TOP_CALL_SITES = new CallSiteInfoCollection(List.of(
      new CallSiteInfo(8, CallSiteInfo.INTERNAL_CALL | CallSiteInfo.EXTERNAL_CALL, List.of(0x0c, 0x12)),
      new CallSiteInfo(0x10, CallSiteInfo.EXTERNAL_CALL, List.of())));

  static final FunctionInfo G_CHILD = new FunctionInfo(new AddressRange(0x2000, 0x2020), 0x18,
      new LineTable(List.of(new LineEntry(0x2000, 1, 20))),
      new InlineInfo(List.of(new AddressRange(0x2000, 0x2020)), 0x18, 0, 0,
          List.of(new InlineInfo(List.of(new AddressRange(0x2004, 0x200c)), 0x25, 1, 21, List.of()))),
      null,
      new CallSiteInfoCollection(List.of(new CallSiteInfo(8, 0, List.of(0x29)))));

  static final FunctionInfo G_TOP = new FunctionInfo(new AddressRange(0x2000, 0x2020), 8,
      new LineTable(List.of(new LineEntry(0x2000, 1, 10), new LineEntry(0x2008, 1, 11))),
      null, new MergedFunctionsInfo(List.of(G_CHILD)), TOP_CALL_SITES);

  static byte[] gFile() throws Exception {
    return Files.readAllBytes(TestData.path("vectors", "G.gsym"));
  }

  /** The 95-byte MergedFunctionsInfo payload of G.gsym's 'top' (at file offset 0x9a). */
  static byte[] gMergedPayload() throws Exception {
    return Arrays.copyOfRange(gFile(), 0x9a, 0x9a + 0x5f);
  }

  @Test
  void vec4GBytes() throws Exception {
    byte[] payload = gMergedPayload();
    assertThat(HexFormat.of().formatHex(payload, 0, 8)).isEqualTo("0100000057000000");
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
    new MergedFunctionsInfo(List.of(G_CHILD)).encode(w);
    assertThat(w.toByteArray()).isEqualTo(payload);
    Cursor c = ByteView.of(payload, ByteOrder.LITTLE_ENDIAN, "G").cursor(0);
    MergedFunctionsInfo m = MergedFunctionsInfo.decode(c, 0x2000);
    assertThat(m.mergedFunctions()).containsExactly(G_CHILD);
    assertThat(c.remaining()).isZero();
  }

  @Test
  void childRecordsAreUnpaddedSlices() throws Exception {
    GsymWriter w = new GsymWriter(ByteOrder.BIG_ENDIAN);
    FunctionInfo a = new FunctionInfo(new AddressRange(0x10, 0x20), 3,
        new LineTable(List.of(new LineEntry(0x10, 1, 1))), null, null, null); // 29 bytes: not a multiple of 4
    FunctionInfo b = new FunctionInfo(new AddressRange(0x10, 0x18), 7);
    new MergedFunctionsInfo(List.of(a, b)).encode(w);
    byte[] bytes = w.toByteArray();
    assertThat(bytes).hasSize(4 + 4 + 29 + 4 + 16);
    ByteView v = ByteView.of(bytes, ByteOrder.BIG_ENDIAN, "m");
    List<Cursor> kids = MergedFunctionsInfo.childRecords(v.cursor(0));
    assertThat(kids).hasSize(2);
    assertThat(kids.get(0).size()).isEqualTo(29);
    assertThat(kids.get(1).absoluteOffset(0)).isEqualTo(4 + 4 + 29 + 4);
    assertThat(MergedFunctionsInfo.decode(v.cursor(0), 0x10).mergedFunctions()).containsExactly(a, b);
  }

  @Test
  void errors() {
    String[] bad = {"", "010000", "01000000", "01000000 100000", "01000000 10000000 00",
        "ffffffff 10000000 01000000 05000000 00000000 00000000 10000000"};
    for (String hex : bad) {
      byte[] b = HexFormat.of().parseHex(hex.replace(" ", ""));
      assertThatThrownBy(() -> MergedFunctionsInfo.decode(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "m").cursor(0), 0))
          .as(hex).isInstanceOf(GsymFormatException.class);
    }
    assertThatThrownBy(() -> MergedFunctionsInfo.decode(ByteView.of(new byte[0], ByteOrder.LITTLE_ENDIAN, "m")
        .cursor(0), 0)).hasMessageContaining("unable to read the function count at offset 0x00000000");
    assertThatThrownBy(() -> MergedFunctionsInfo.decode(ByteView.of(HexFormat.of().parseHex("0200000004000000aabbccdd01"),
        ByteOrder.LITTLE_ENDIAN, "m").cursor(0), 0)).hasMessageContaining("unable to read size of function 1 at offset 0x0000000c");
    assertThatThrownBy(() -> MergedFunctionsInfo.decode(ByteView.of(HexFormat.of().parseHex("0100000057100000"),
        ByteOrder.LITTLE_ENDIAN, "m").cursor(0), 0))
        .hasMessageContaining("function data is truncated for function 0 at offset 0x00000008, expected size 4183");
  }

  @Test
  void countFfffffffWithEmptyChildrenIsBounded() {
    // 0xffffffff children of length 0: each fails to decode, or runs out of data, quickly
    ByteBuffer bb = ByteBuffer.allocate(4 + 4 * 1000).order(ByteOrder.LITTLE_ENDIAN);
    bb.putInt(-1);
    byte[] b = bb.array();
    assertThatThrownBy(() -> MergedFunctionsInfo.decode(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "m").cursor(0), 0))
        .isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> {
      for (Cursor c : MergedFunctionsInfo.childRecords(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "m").cursor(0))) {
        c.position();
      }
    }).isInstanceOf(GsymFormatException.class);
  }

  /** A FunctionInfo record nesting {@code levels} MergedFunctionsInfo chunks. */
  static byte[] nestedMerged(int levels) {
    long total = 16 + 32L * levels;
    ByteBuffer bb = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
    long len = total;
    for (int i = 0; i < levels; i++) {
      long child = len - 32;
      bb.putInt(0x10).putInt(1).putInt(FunctionInfo.MERGED_FUNCTIONS_INFO).putInt((int) (child + 8))
          .putInt(1).putInt((int) child);
      len = child;
    }
    bb.putInt(0x10).putInt(1).putInt(0).putInt(0);
    for (int i = 0; i < levels; i++) bb.putLong(0);
    return bb.array();
  }

  @Test
  void deepNestingIsAClearError() {
    byte[] ok = nestedMerged(10);
    FunctionInfo fi = FunctionInfo.decode(ByteView.of(ok, ByteOrder.LITTLE_ENDIAN, "n").cursor(0), 0);
    int depth = 0;
    while (fi.mergedFunctions() != null) {
      fi = fi.mergedFunctions().mergedFunctions().getFirst();
      depth++;
    }
    assertThat(depth).isEqualTo(10);
    byte[] deep = nestedMerged(100_000);
    assertThatThrownBy(() -> FunctionInfo.decode(ByteView.of(deep, ByteOrder.LITTLE_ENDIAN, "n").cursor(0), 0))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("nested deeper");
  }
}
