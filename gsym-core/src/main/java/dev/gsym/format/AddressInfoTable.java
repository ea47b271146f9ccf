package dev.gsym.format;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;

/**
 * For each address-table entry, where its FunctionInfo record is: in version 1 the absolute file
 * offset (u32); in version 2 an offset (u64) relative to the FunctionInfo section ({@code base}).
 *
 * @param entrySize 4 (version 1) or 8 (version 2)
 * @param base added to every entry: 0 in version 1, the FunctionInfo section's offset in version 2
 */
public record AddressInfoTable(ByteView view, long offset, int count, int entrySize, long base) {

  /** Binds the version 1 table that follows the address table (aligned to 4). */
  public static AddressInfoTable decode(ByteView v, AddressTable addrs) {
    long offset = AddressTable.alignTo(addrs.end(), 4);
    if (!v.has(offset, (long) addrs.count() * 4)) {
      // llvm-gsymutil on a little-endian host reads big-endian files through a byte-swapping path
      // whose message for this table is "failed to read address table"
      throw new GsymFormatException(v.source(), offset, v.order() == ByteOrder.BIG_ENDIAN
          ? "failed to read address table" : "failed to read address info offsets table");
    }
    return new AddressInfoTable(v, offset, addrs.count(), 4, 0);
  }

  /**
   * Binds a version 2 AddrInfoOffsets section of {@code count} u64 entries at {@code offset},
   * relative to the FunctionInfo section at {@code functionInfoOffset}.
   */
  public static AddressInfoTable bindV2(ByteView v, long offset, int count, long functionInfoOffset) {
    if (!v.has(offset, (long) count * 8)) throw v.error(offset, "failed to read address info offsets table");
    return new AddressInfoTable(v, offset, count, 8, functionInfoOffset);
  }

  /** The offset just past the table. */
  public long end() {
    return offset + (long) count * entrySize;
  }

  /** The absolute offset of record {@code i} (version 2: the raw entry plus {@code base}). */
  public long get(int i) {
    if (entrySize == 4) return view.u32(offset + (long) i * 4);
    return base + view.u64(offset + (long) i * 8);
  }

  /** The stored value of entry {@code i} (relative in version 2). */
  public long raw(int i) {
    return entrySize == 4 ? view.u32(offset + (long) i * 4) : view.u64(offset + (long) i * 8);
  }

  /** Writes version 1's table: u32 record offsets, aligned to 4. */
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

  /** The "Address Info Offsets:" block of llvm main's version 2 dump: relative and file offsets. */
  public void dumpV2(StringBuilder sb) {
    sb.append("Address Info Offsets:\n");
    sb.append("INDEX  OFFSET 64 (FILE OFFSET 64)\n");
    sb.append("====== ========================================\n");
    for (int i = 0; i < count; i++) {
      sb.append('[').append(String.format("%4d", i)).append("] ");
      Hex.append(sb, raw(i), 16).append(" (");
      Hex.append(sb, get(i), 16).append(")\n");
    }
  }
}
