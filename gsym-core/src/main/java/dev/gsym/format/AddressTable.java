package dev.gsym.format;

import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The sorted function start addresses, as offsets from the header's BaseAddress, each
 * AddrOffSize (1, 2, 4 or 8) bytes. A bound view over the file: nothing is copied.
 */
public record AddressTable(ByteView view, long offset, int entrySize, int count) {

  /** Binds the table that follows the header (aligned to the entry size). */
  public static AddressTable decode(ByteView v, Header h) {
    int size = h.addrOffSize();
    long offset = alignTo(Header.SIZE, size);
    long bytes = h.numAddresses() * size;
    // llvm-gsymutil's byte-swapping path (big-endian files on a little-endian host) also fails on
    // an empty table: it reads the entries into an empty vector's null data()
    boolean swappedEmpty = v.order() == ByteOrder.BIG_ENDIAN && h.numAddresses() == 0;
    if (swappedEmpty || !v.has(offset, bytes)) {
      throw v.error(offset, "failed to read address table");
    }
    return new AddressTable(v, offset, size, (int) h.numAddresses());
  }

  /**
   * Binds {@code count} entries of {@code entrySize} (1 to 8) bytes at {@code offset}: a version 2
   * file's AddrOffsets section (its size was checked against the header).
   */
  public static AddressTable bind(ByteView v, long offset, int entrySize, long count) {
    if (count > Integer.MAX_VALUE || !v.has(offset, count * entrySize)) {
      throw v.error(offset, "failed to read address table");
    }
    return new AddressTable(v, offset, entrySize, (int) count);
  }

  static long alignTo(long v, long align) {
    return (v + align - 1) / align * align;
  }

  /** The byte offset just past the table. */
  public long end() {
    return offset + (long) count * entrySize;
  }

  /** The i-th offset (unsigned). */
  public long get(int i) {
    long at = offset + (long) i * entrySize;
    return switch (entrySize) {
      case 1 -> view.u8(at);
      case 2 -> view.u16(at);
      case 4 -> view.u32(at);
      case 8 -> view.u64(at);
      default -> view.uN(at, entrySize); // version 2 allows any size from 1 to 8
    };
  }

  private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  /**
   * Index of the first entry whose offset is not less than {@code off} (unsigned), i.e.
   * std::lower_bound, with std::lower_bound's probes: the address search of every lookup. It reads
   * the mapped entries directly (the table was bounds-checked when it was bound), one loop per
   * entry size, through constant little-endian layouts (swapped for big-endian files).
   */
  public int lowerBound(long off) {
    MemorySegment s = view.segment();
    boolean swap = view.order() != ByteOrder.LITTLE_ENDIAN;
    long at = offset;
    int first = 0;
    int len = count;
    switch (entrySize) {
      case 1 -> {
        while (len > 0) {
          int half = len >>> 1;
          int mid = first + half;
          if (Long.compareUnsigned(s.get(ValueLayout.JAVA_BYTE, at + mid) & 0xffL, off) < 0) {
            first = mid + 1;
            len = len - half - 1;
          } else {
            len = half;
          }
        }
      }
      case 2 -> {
        while (len > 0) {
          int half = len >>> 1;
          int mid = first + half;
          short x = s.get(LE16, at + 2L * mid);
          if (Long.compareUnsigned((swap ? Short.reverseBytes(x) : x) & 0xffffL, off) < 0) {
            first = mid + 1;
            len = len - half - 1;
          } else {
            len = half;
          }
        }
      }
      case 4 -> {
        while (len > 0) {
          int half = len >>> 1;
          int mid = first + half;
          int x = s.get(LE32, at + 4L * mid);
          if (Long.compareUnsigned(Integer.toUnsignedLong(swap ? Integer.reverseBytes(x) : x), off) < 0) {
            first = mid + 1;
            len = len - half - 1;
          } else {
            len = half;
          }
        }
      }
      case 8 -> {
        while (len > 0) {
          int half = len >>> 1;
          int mid = first + half;
          long x = s.get(LE64, at + 8L * mid);
          if (Long.compareUnsigned(swap ? Long.reverseBytes(x) : x, off) < 0) {
            first = mid + 1;
            len = len - half - 1;
          } else {
            len = half;
          }
        }
      }
      default -> { // 3, 5, 6 or 7 bytes: only version 2 files, read through get
        while (len > 0) {
          int half = len >>> 1;
          int mid = first + half;
          if (Long.compareUnsigned(get(mid), off) < 0) {
            first = mid + 1;
            len = len - half - 1;
          } else {
            len = half;
          }
        }
      }
    }
    return first;
  }

  /** Writes the table (aligned to the entry size). */
  public static void encode(GsymWriter w, long[] offsets, int entrySize) {
    w.alignTo(entrySize);
    for (long o : offsets) w.uN(o, entrySize);
  }

  /** The "Address Table:" block of llvm-gsymutil's dump. */
  public void dump(StringBuilder sb, long baseAddress) {
    sb.append("Address Table:\n");
    sb.append("INDEX  OFFSET").append(switch (entrySize) {
      case 1 -> "8 ";
      case 2 -> "16";
      case 4 -> "32";
      default -> "64";
    }).append(" (ADDRESS)\n");
    sb.append("====== =============================== \n");
    int digits = entrySize == 1 ? 2 : entrySize == 2 ? 4 : 8;
    for (int i = 0; i < count; i++) {
      long o = get(i);
      sb.append('[').append(String.format("%4d", i)).append("] ");
      Hex.append(sb, o, digits).append(" (");
      Hex.append(sb, baseAddress + o, 16).append(")\n");
    }
  }

  /**
   * The "Address Table:" block of llvm main's version 2 dump. LLVM prints "??" and no offset for
   * the sizes 3, 5, 6 and 7 that its header check allows (and then fails); we print the offset with
   * two digits per byte.
   */
  public void dumpV2(StringBuilder sb, long baseAddress) {
    sb.append("Address Table:\n");
    sb.append("INDEX  OFFSET ").append(switch (entrySize) {
      case 1 -> "8 ";
      case 2 -> "16";
      case 4 -> "32";
      case 8 -> "64";
      default -> "??";
    }).append(" (ADDRESS 64)\n");
    sb.append("====== ========================================\n");
    int digits = switch (entrySize) {
      case 1 -> 2;
      case 2 -> 4;
      case 4, 8 -> 8;
      default -> 2 * entrySize;
    };
    for (int i = 0; i < count; i++) {
      long o = get(i);
      sb.append('[').append(String.format("%4d", i)).append("] ");
      Hex.append(sb, o, digits).append(" (");
      Hex.append(sb, baseAddress + o, 16).append(")\n");
    }
  }
}
