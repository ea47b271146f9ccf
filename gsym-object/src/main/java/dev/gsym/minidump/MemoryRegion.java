package dev.gsym.minidump;

import dev.gsym.io.ByteView;

/**
 * A range of the process's memory held in the dump: {@code size} bytes from {@code start}. The
 * bytes are {@code null} when the dump does not hold them readably (outside the file, or larger
 * than {@link #MAX_SIZE}, which Breakpad does not read); the range still counts for overlaps.
 */
public record MemoryRegion(long start, long size, long fileOffset, ByteView bytes) {
  /** Largest region Breakpad reads (64 MiB). */
  public static final long MAX_SIZE = 64L << 20;

  /** The region of descriptor {@code d}, whose descriptor is at {@code at}; fails when its bytes are not in the file. */
  static MemoryRegion of(Minidump dump, MemoryDescriptor d, long at, String what) {
    ByteView b = dump.bytes(d.memory(), at + 8, what);
    return new MemoryRegion(d.start(), d.size(), d.memory().rva(), b);
  }

  /** The region of {@code d} with its bytes if the file holds them, else with none. */
  static MemoryRegion lenient(Minidump dump, MemoryDescriptor d) {
    boolean readable = d.memory().inside(dump.size()) && d.size() <= MAX_SIZE;
    return new MemoryRegion(d.start(), d.size(), d.memory().rva(),
        readable ? dump.file().slice(d.memory().rva(), d.size()) : null);
  }

  /** The first address past the region (0 when it ends at 2^64). */
  public long end() {
    return start + size;
  }

  /** Whether {@code address} lies in the region. */
  public boolean contains(long address) {
    return Long.compareUnsigned(address - start, size) < 0 && Long.compareUnsigned(address, start) >= 0;
  }

  /** Whether the region's bytes can be read. */
  public boolean readable() {
    return bytes != null;
  }

  /** A copy of the region's bytes (at most 2 GiB), or null when they are not readable. */
  public byte[] copy() {
    return bytes == null ? null : bytes.bytes(0, (int) Math.min(bytes.size(), Integer.MAX_VALUE - 16));
  }
}
