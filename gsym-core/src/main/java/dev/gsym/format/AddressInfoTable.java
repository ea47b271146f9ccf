package dev.gsym.format;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;

/**
 * For each address-table entry, the absolute file offset (u32) of its FunctionInfo record.
 */
public record AddressInfoTable(ByteView view, long offset, int count) {

  /** Binds the table that follows the address table (aligned to 4). */
  public static AddressInfoTable decode(ByteView v, AddressTable addrs) {
    long offset = AddressTable.alignTo(addrs.end(), 4);
    if (!v.has(offset, (long) addrs.count() * 4)) {
      // llvm-gsymutil on a little-endian host reads big-endian files through a byte-swapping path
      // whose message for this table is "failed to read address table"
      throw new GsymFormatException(v.source(), offset, v.order() == ByteOrder.BIG_ENDIAN
          ? "failed to read address table" : "failed to read address info offsets table");
    }
    return new AddressInfoTable(v, offset, addrs.count());
  }

  public long end() {
    return offset + (long) count * 4;
  }

  public long get(int i) {
    return view.u32(offset + (long) i * 4);
  }

  public static void encode(GsymWriter w, long[] offsets) {
    w.alignTo(4);
    for (long o : offsets) w.u32(o);
  }

  /** The "Address Info Offsets:" block of llvm-gsymutil's dump. */
  public void dump(StringBuilder sb) {
    sb.append("Address Info Offsets:\n");
    sb.append("INDEX  Offset\n");
    sb.append("====== ==========\n");
    for (int i = 0; i < count; i++) {
      sb.append('[').append(String.format("%4d", i)).append("] ");
      Hex.append(sb, get(i), 8).append('\n');
    }
  }
}
