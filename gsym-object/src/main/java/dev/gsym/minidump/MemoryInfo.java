package dev.gsym.minidump;

/**
 * {@code MINIDUMP_MEMORY_INFO}: the state and protection of one region of the address space.
 *
 * <pre>
 *   0  u64 base_address
 *   8  u64 allocation_base
 *  16  u32 allocation_protection
 *  20  u32 __alignment1
 *  24  u64 region_size
 *  32  u32 state                    MEM_COMMIT 0x1000, MEM_RESERVE 0x2000, MEM_FREE 0x10000
 *  36  u32 protection               PAGE_*
 *  40  u32 type                     MEM_PRIVATE 0x20000, MEM_MAPPED 0x40000, MEM_IMAGE 0x1000000
 *  44  u32 __alignment2
 * </pre>
 */
public record MemoryInfo(long baseAddress, long allocationBase, long allocationProtection, long regionSize, long state,
    long protection, long type) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 48;

  /** Whether the protection allows execution (Breakpad's {@code IsExecutable}). */
  public boolean executable() {
    long p = protection & 0xff;
    return p == 0x10 || p == 0x20 || p == 0x40;
  }

  /** Whether the protection allows writing (Breakpad's {@code IsWritable}). */
  public boolean writable() {
    long p = protection & 0xff;
    return p == 0x04 || p == 0x08 || p == 0x40 || p == 0x80;
  }
}
