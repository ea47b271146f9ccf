package dev.gsym.minidump;

import dev.gsym.io.ByteView;

/**
 * {@code MDRawBreakpadInfo}: which threads wrote and asked for the dump.
 *
 * <pre>
 *   0  u32 validity                 bit 0: dump_thread_id valid, bit 1: requesting_thread_id valid
 *   4  u32 dump_thread_id           the handler's thread
 *   8  u32 requesting_thread_id     the crashed (or asking) thread
 * </pre>
 */
public record BreakpadInfo(long validity, long dumpThreadId, long requestingThreadId) {
  /** Bytes in the on-disk structure (the stream's exact size). */
  public static final int SIZE = 12;
  public static final int VALID_DUMP_THREAD_ID = 1;
  public static final int VALID_REQUESTING_THREAD_ID = 2;

  static BreakpadInfo read(Minidump dump, DirectoryEntry e) {
    if (e.location().dataSize() != SIZE) {
      throw dump.error(e.offset() + 4, "Breakpad info stream of " + e.location().dataSize() + " bytes, not " + SIZE);
    }
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "Breakpad info stream");
    return new BreakpadInfo(b.u32(0), b.u32(4), b.u32(8));
  }

  /** True if the dump thread id is valid. */
  public boolean hasDumpThreadId() {
    return (validity & VALID_DUMP_THREAD_ID) != 0;
  }

  /** True if the requesting thread id is valid. */
  public boolean hasRequestingThreadId() {
    return (validity & VALID_REQUESTING_THREAD_ID) != 0;
  }
}
