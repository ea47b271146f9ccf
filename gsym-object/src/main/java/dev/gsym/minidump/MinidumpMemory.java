package dev.gsym.minidump;

import dev.gsym.unwind.MemoryReader;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The process memory a minidump holds, as the unwinder reads it: regions sorted by address, found
 * by binary search. A read may span regions that follow one another without a gap; a read that
 * touches a byte the dump does not hold (or holds outside the file) is not {@link #readable}.
 * Immutable and thread-safe.
 */
public final class MinidumpMemory implements MemoryReader {
  private final MemoryRegion[] regions;
  private final long[] starts;
  private final boolean littleEndian;

  /** Memory of {@code regions}, which must not overlap, in byte order {@code order}. */
  public MinidumpMemory(List<MemoryRegion> regions, ByteOrder order) {
    List<MemoryRegion> sorted = new ArrayList<>(regions);
    sorted.sort(Comparator.comparing(MemoryRegion::start, Long::compareUnsigned));
    for (int i = 1; i < sorted.size(); i++) {
      MemoryRegion a = sorted.get(i - 1);
      if (Long.compareUnsigned(sorted.get(i).start() - a.start(), a.size()) < 0) {
        throw new IllegalArgumentException("memory regions overlap at 0x" + Long.toHexString(sorted.get(i).start()));
      }
    }
    this.regions = sorted.toArray(MemoryRegion[]::new);
    this.starts = new long[this.regions.length];
    for (int i = 0; i < starts.length; i++) starts[i] = this.regions[i].start();
    this.littleEndian = order == ByteOrder.LITTLE_ENDIAN;
  }

  /** Fails with a format error at {@code at} when two of {@code regions} overlap (Breakpad refuses such lists). */
  static void checkDisjoint(Minidump dump, List<MemoryRegion> regions, long at, String what) {
    List<MemoryRegion> sorted = new ArrayList<>(regions);
    sorted.sort(Comparator.comparing(MemoryRegion::start, Long::compareUnsigned));
    for (int i = 1; i < sorted.size(); i++) {
      MemoryRegion a = sorted.get(i - 1);
      MemoryRegion b = sorted.get(i);
      if (Long.compareUnsigned(b.start() - a.start(), a.size()) < 0) {
        throw dump.error(at, what + ": regions 0x" + Long.toHexString(a.start()) + "+0x" + Long.toHexString(a.size()) + " and 0x"
            + Long.toHexString(b.start()) + "+0x" + Long.toHexString(b.size()) + " overlap");
      }
    }
  }

  /** The regions, sorted by address. */
  public List<MemoryRegion> regions() {
    return List.of(regions);
  }

  /** The region holding {@code address}, or null. */
  public MemoryRegion regionAt(long address) {
    int i = index(address);
    return i < 0 ? null : regions[i];
  }

  /** Index of the region holding {@code address}, or -1. */
  private int index(long address) {
    int lo = 0;
    int hi = starts.length - 1;
    int found = -1;
    while (lo <= hi) { // the last region starting at or below address
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(starts[mid], address) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && regions[found].contains(address) ? found : -1;
  }

  @Override
  public boolean readable(long address, int size) {
    if (size < 1 || size > 8) return false;
    int i = index(address);
    if (i < 0) return false;
    long need = size;
    long at = address;
    while (true) {
      MemoryRegion r = regions[i];
      if (!r.readable()) return false;
      long available = r.size() - (at - r.start());
      if (Long.compareUnsigned(need, available) <= 0) return true;
      need -= available;
      at += available;
      if (at == 0 || ++i == regions.length || regions[i].start() != at) return false; // a gap, or the end of memory
    }
  }

  @Override
  public long read(long address, int size) {
    if (!readable(address, size)) throw new IllegalArgumentException(size + " bytes at 0x" + Long.toHexString(address) + " are not held");
    int i = index(address);
    MemoryRegion r = regions[i];
    long off = address - r.start();
    if (off + size <= r.size()) {
      long v = r.bytes().uN(off, size);
      return r.bytes().order() == (littleEndian ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN) ? v : swap(v, size);
    }
    long v = 0;
    for (int k = 0; k < size; k++) { // across regions, byte by byte
      if (off == r.size()) {
        r = regions[++i];
        off = 0;
      }
      long b = r.bytes().u8(off++);
      v |= littleEndian ? b << (8 * k) : b << (8 * (size - 1 - k));
    }
    return v;
  }

  private static long swap(long v, int size) {
    return Long.reverseBytes(v) >>> (8 * (8 - size));
  }

  /**
   * Copies up to {@code length} bytes from {@code address} into {@code out}, stopping at the first
   * byte not held; returns how many were copied.
   */
  public int copy(long address, byte[] out, int offset, int length) {
    int n = 0;
    int i = index(address);
    while (i >= 0 && n < length) {
      MemoryRegion r = regions[i];
      if (!r.readable()) break;
      long off = address + n - r.start();
      int take = (int) Math.min(length - n, r.size() - off);
      for (int k = 0; k < take; k++) out[offset + n + k] = (byte) r.bytes().u8(off + k);
      n += take;
      long next = r.start() + r.size();
      if (n < length && next != 0 && i + 1 < regions.length && regions[i + 1].start() == next) i++;
      else break;
    }
    return n;
  }
}
