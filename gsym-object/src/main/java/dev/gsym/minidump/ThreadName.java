package dev.gsym.minidump;

/**
 * {@code MINIDUMP_THREAD_NAME}: the name of one thread (packed to 4 bytes).
 *
 * <pre>
 *   0  u32 thread_id
 *   4  u64 thread_name_rva          MINIDUMP_STRING
 * </pre>
 */
public record ThreadName(long threadId, long nameRva, String name) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 12;
}
