package dev.gsym.cfi;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code .eh_frame_hdr} section (LSB Core, "The .eh_frame_hdr section"): where {@code
 * .eh_frame} is, and a table of (initial location, FDE address) pairs sorted by initial location
 * that a runtime unwinder binary-searches to find a PC's FDE.
 *
 * <pre>
 * ENCODING
 *   version           u8 (1)
 *   eh_frame_ptr_enc  u8     fde_count_enc  u8     table_enc  u8
 *   eh_frame_ptr      pointer in eh_frame_ptr_enc (pcrel: from the field; datarel: from the header)
 *   fde_count         pointer in fde_count_enc (absent when it is DW_EH_PE_omit)
 *   table             fde_count pairs of pointers in table_enc (datarel: from the header)
 * </pre>
 *
 * @param address the header's address
 * @param ehFramePointer the address of {@code .eh_frame} the header gives
 * @param fdeCount the number of table entries, or -1 without a table
 * @param table where the table starts in {@code data}
 */
public record EhFrameHdr(ByteView data, long address, int addressSize, int version, int ehFramePointerEncoding, int fdeCountEncoding,
    int tableEncoding, long ehFramePointer, long fdeCount, long table) {

  /** One table entry. */
  public record Entry(long initialLocation, long fdeAddress) {}

  /** Reads the header of {@code data}, the section loaded at {@code address}; the table's size is checked against the section. */
  public static EhFrameHdr parse(ByteView data, long address, int addressSize) {
    Cursor c = data.cursor(0);
    if (!c.has(4)) throw data.error(0, ".eh_frame_hdr: " + data.size() + " bytes are too few for a header");
    int version = c.u8();
    if (version != 1) throw data.error(0, ".eh_frame_hdr: unsupported version " + version);
    int ptrEnc = c.u8();
    int countEnc = c.u8();
    int tableEnc = c.u8();
    PointerEncoding.Bases bases = new PointerEncoding.Bases(address, null, address, null);
    try {
      long ehFrame = PointerEncoding.read(c, ptrEnc, addressSize, bases, "eh_frame_ptr").value();
      long count = -1;
      if (countEnc != PointerEncoding.OMIT && tableEnc != PointerEncoding.OMIT) {
        long at = c.position();
        count = PointerEncoding.read(c, countEnc, addressSize, bases, "fde_count").value();
        if (!PointerEncoding.valid(tableEnc)) throw c.errorAt(3, ".eh_frame_hdr: unknown table encoding 0x" + Integer.toHexString(tableEnc));
        int entry = PointerEncoding.fixedSize(tableEnc, addressSize);
        if (entry < 0) throw c.errorAt(3, ".eh_frame_hdr: table encoding 0x" + Integer.toHexString(tableEnc) + " is not of fixed size");
        if (count < 0 || count > c.remaining() / (2L * entry)) {
          throw c.errorAt(at, ".eh_frame_hdr: fde_count " + Long.toUnsignedString(count) + " does not fit the " + c.remaining()
              + " bytes after it");
        }
      }
      return new EhFrameHdr(data, address, addressSize, version, ptrEnc, countEnc, tableEnc, ehFrame, count, c.position());
    } catch (GsymFormatException e) {
      if (e.detail().startsWith(".eh_frame_hdr")) throw e;
      throw data.error(e.offset() - data.fileOffset(), ".eh_frame_hdr: " + e.detail());
    }
  }

  private int entrySize() {
    return PointerEncoding.fixedSize(tableEncoding, addressSize);
  }

  /** Table entry {@code i} (0 to {@link #fdeCount()} - 1). */
  public Entry entry(long i) {
    if (i < 0 || i >= fdeCount) throw new IndexOutOfBoundsException(i);
    Cursor c = data.cursor(table + i * 2 * entrySize());
    PointerEncoding.Bases bases = new PointerEncoding.Bases(address, null, address, null);
    long initial = PointerEncoding.read(c, tableEncoding, addressSize, bases, "initial_location").value();
    long fde = PointerEncoding.read(c, tableEncoding, addressSize, bases, "address").value();
    return new Entry(initial, fde);
  }

  /**
   * The address of the FDE whose entry has the greatest initial location at or below {@code pc}, by
   * binary search as an unwinder does it, or -1 (no table, or {@code pc} below every entry). The FDE
   * must still be checked to cover {@code pc}.
   */
  public long find(long pc) {
    long lo = 0;
    long hi = fdeCount - 1;
    long found = -1;
    while (lo <= hi) {
      long mid = (lo + hi) >>> 1;
      Entry e = entry(mid);
      if (Long.compareUnsigned(e.initialLocation(), pc) <= 0) {
        found = e.fdeAddress();
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /**
   * What does not agree between this header and {@code .eh_frame} (loaded at {@code ehFrameAddress})
   * whose FDEs a walk found ({@code fdes}: initial location by FDE section offset): {@code
   * eh_frame_ptr}, the count, the order of the table, and each entry's FDE and initial location.
   * Each disagreement is one GsymFormatException at the header's bytes; an unwinder trusting the
   * header would find a different FDE there.
   */
  public List<GsymFormatException> check(long ehFrameAddress, Map<Long, Long> fdes) {
    List<GsymFormatException> out = new ArrayList<>();
    if (ehFramePointer != ehFrameAddress) {
      out.add(data.error(4, ".eh_frame_hdr: eh_frame_ptr is 0x" + Long.toHexString(ehFramePointer) + ", but .eh_frame is at 0x"
          + Long.toHexString(ehFrameAddress)));
    }
    if (fdeCount < 0) return out;
    if (fdeCount != fdes.size()) {
      out.add(data.error(table, ".eh_frame_hdr: fde_count is " + fdeCount + ", but .eh_frame has " + fdes.size() + " FDEs"));
    }
    long previous = 0;
    for (long i = 0; i < fdeCount && out.size() < 64; i++) {
      Entry e = entry(i);
      long at = table + i * 2 * entrySize();
      if (i > 0 && Long.compareUnsigned(e.initialLocation(), previous) < 0) {
        out.add(data.error(at, ".eh_frame_hdr: entry " + i + " (0x" + Long.toHexString(e.initialLocation()) + ") is below the entry before it"));
      }
      previous = e.initialLocation();
      Long initial = fdes.get(e.fdeAddress() - ehFrameAddress);
      if (initial == null) {
        out.add(data.error(at, ".eh_frame_hdr: entry " + i + " points at 0x" + Long.toHexString(e.fdeAddress()) + ", where .eh_frame has no FDE"));
      } else if (initial != e.initialLocation()) {
        out.add(data.error(at, ".eh_frame_hdr: entry " + i + " gives 0x" + Long.toHexString(e.initialLocation()) + " for the FDE at 0x"
            + Long.toHexString(e.fdeAddress()) + ", which starts at 0x" + Long.toHexString(initial)));
      }
    }
    return out;
  }
}
