package dev.gsym.stackwalk;

import dev.gsym.unwind.MemoryReader;

/**
 * The memory a thread's walk reads: one region, {@code size} bytes from {@code base} (Breakpad's
 * walkers read the thread's own stack and nothing else). A read is refused unless it lies wholly in
 * the region and the underlying reader has the bytes (a dump may name a stack whose bytes are not in
 * the file).
 */
public final class StackMemory implements MemoryReader {
  private final long base;
  private final long size;
  private final MemoryReader reader;

  private StackMemory(long base, long size, MemoryReader reader) {
    this.base = base;
    this.size = size;
    this.reader = reader;
  }

  /** The region {@code [base, base + size)} read through {@code reader} (which may lack some or all of it). */
  public static StackMemory of(long base, long size, MemoryReader reader) {
    return new StackMemory(base, size, reader);
  }

  /** The region's first address. */
  public long base() {
    return base;
  }

  /** The region's size in bytes. */
  public long size() {
    return size;
  }

  @Override
  public boolean readable(long address, int n) {
    if (Long.compareUnsigned(address, base) < 0) return false;
    if (Long.compareUnsigned(n, -1L - address) > 0) return false; // address + n would pass 2^64
    if (Long.compareUnsigned(address - base + n, size) > 0) return false;
    return reader.readable(address, n);
  }

  @Override
  public long read(long address, int n) {
    return reader.read(address, n);
  }
}
