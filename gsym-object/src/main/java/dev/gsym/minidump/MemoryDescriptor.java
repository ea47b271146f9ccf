package dev.gsym.minidump;

/**
 * {@code MINIDUMP_MEMORY_DESCRIPTOR}: the process's memory from {@code start} held in the file at
 * {@code memory}. Memory descriptors of the memory list, of a thread's stack and of the
 * {@code Memory64List} (whose bytes follow one another from the list's base RVA) all read as this.
 *
 * <pre>
 *   0  u64 start_of_memory_range
 *   8  MINIDUMP_LOCATION_DESCRIPTOR memory
 * </pre>
 *
 * @param memory where the bytes are; for a {@code Memory64List} range its data size may exceed 32
 *     bits
 */
public record MemoryDescriptor(long start, Location memory) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 16;

  /** Bytes of process memory. */
  public long size() {
    return memory.dataSize();
  }

  /** Whether {@code start + size} wraps past 2^64 (Breakpad refuses such ranges). */
  public boolean overflows() {
    return Long.compareUnsigned(size(), -1L - start) > 0;
  }

  @Override
  public String toString() {
    return "0x" + Long.toHexString(start) + "+0x" + Long.toHexString(size()) + " at 0x" + Long.toHexString(memory.rva());
  }
}
