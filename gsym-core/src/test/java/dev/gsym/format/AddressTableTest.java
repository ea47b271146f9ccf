package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** AddressTable and AddressInfoTable. */
class AddressTableTest {

  private static byte[] build(ByteOrder o, int size, long[] offsets, long[] infos) {
    GsymWriter w = new GsymWriter(o);
    new Header(1, size, 0x1000, offsets.length, 0, 0, null).encode(w);
    AddressTable.encode(w, offsets, size);
    AddressInfoTable.encode(w, infos);
    return w.toByteArray();
  }

  @ParameterizedTest
  @CsvSource({"1, LE", "2, LE", "4, LE", "8, LE", "1, BE", "2, BE", "4, BE", "8, BE"})
  void roundTripAllSizesBothOrders(int size, String order) {
    ByteOrder o = order.equals("LE") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    long max = size == 8 ? -1L : (1L << (8 * size)) - 1;
    long[] offsets = {0, 1, 1, max >>> 1, max};
    long[] infos = {0x100, 0x110, 0x120, 0xfffffffcL, 0x80000000L};
    byte[] b = build(o, size, offsets, infos);
    int infoStart = (int) AddressTable.alignTo(48 + 5L * size, 4);
    assertThat(b).hasSize(infoStart + 20);
    ByteView v = ByteView.of(b, o, "t");
    Header h = Header.decode(v);
    AddressTable t = AddressTable.decode(v, h);
    assertThat(t.offset()).isEqualTo(48);
    assertThat(t.count()).isEqualTo(5);
    for (int i = 0; i < 5; i++) assertThat(t.get(i)).isEqualTo(offsets[i]);
    assertThat(t.end()).isEqualTo(48 + 5L * size);
    AddressInfoTable it = AddressInfoTable.decode(v, t);
    assertThat(it.offset()).isEqualTo(infoStart);
    for (int i = 0; i < 5; i++) assertThat(it.get(i)).isEqualTo(infos[i]);
    // lower_bound semantics, unsigned
    assertThat(t.lowerBound(0)).isEqualTo(0);
    assertThat(t.lowerBound(1)).isEqualTo(1);
    assertThat(t.lowerBound(2)).isEqualTo(3);
    assertThat(t.lowerBound(max)).isEqualTo(4);
    assertThat(t.lowerBound(max - 1)).isEqualTo(4);
    assertThat(t.lowerBound(max >>> 1)).isEqualTo(3);
  }

  @Test
  void vec1AddressTableBytes() {
    long[] offsets = {0x1000, 0x1050, 0x1080, 0x10b0, 0x10f0, 0x1130, 0x1140, 0x1160, 0x11b0, 0x11f0};
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 48, 64);
    AddressTable.encode(w, offsets, 2);
    assertThat(HexFormat.of().formatHex(w.toByteArray()))
        .isEqualTo("00105010801" + "0b010f010301140116011b011f011");
  }

  @Test
  void encodeAlignsToEntrySize() {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 49, 16);
    AddressTable.encode(w, new long[] {7}, 8);
    assertThat(w.length()).isEqualTo(7 + 8);
    GsymWriter w2 = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 50, 16);
    AddressInfoTable.encode(w2, new long[] {1});
    assertThat(HexFormat.of().formatHex(w2.toByteArray())).isEqualTo("000001000000");
  }

  @Test
  void tablesPastEof() {
    byte[] b = build(ByteOrder.LITTLE_ENDIAN, 4, new long[] {0, 4}, new long[] {0, 0});
    ByteView v = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "t");
    Header h = Header.decode(v);
    Header huge = new Header(1, 8, 0, 0xffffffffL, 0, 0, null);
    assertThatThrownBy(() -> AddressTable.decode(v, huge)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("failed to read address table");
    ByteView cut = v.slice(0, b.length - 1);
    AddressTable t = AddressTable.decode(cut, h);
    assertThatThrownBy(() -> AddressInfoTable.decode(cut, t)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("failed to read address info offsets table");
  }

  @Test
  void dumpHeadings() {
    for (int size : new int[] {1, 2, 4, 8}) {
      byte[] b = build(ByteOrder.LITTLE_ENDIAN, size, new long[] {0x10}, new long[] {0x5c});
      ByteView v = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "t");
      AddressTable t = AddressTable.decode(v, Header.decode(v));
      StringBuilder sb = new StringBuilder();
      t.dump(sb, 0x1000);
      String heading = switch (size) {
        case 1 -> "OFFSET8  (ADDRESS)";
        case 2 -> "OFFSET16 (ADDRESS)";
        case 4 -> "OFFSET32 (ADDRESS)";
        default -> "OFFSET64 (ADDRESS)";
      };
      String off = switch (size) {
        case 1 -> "0x10";
        case 2 -> "0x0010";
        default -> "0x00000010";
      };
      assertThat(sb.toString()).isEqualTo("Address Table:\nINDEX  " + heading + "\n"
          + "====== =============================== \n[   0] " + off + " (0x0000000000001010)\n");
      StringBuilder sb2 = new StringBuilder();
      AddressInfoTable.decode(v, t).dump(sb2);
      assertThat(sb2.toString()).isEqualTo(
          "Address Info Offsets:\nINDEX  Offset\n====== ==========\n[   0] 0x0000005c\n");
    }
  }
}
