package dev.gsym.minidump;

/**
 * {@code MINIDUMP_THREAD}: one thread of the thread list. Its registers are read with {@link
 * Minidump#context(MinidumpThread)}, its stack with {@link Minidump#stack(MinidumpThread)}.
 *
 * <pre>
 *   0  u32 thread_id
 *   4  u32 suspend_count
 *   8  u32 priority_class
 *  12  u32 priority
 *  16  u64 teb                      thread environment block (Linux: 0)
 *  24  MINIDUMP_MEMORY_DESCRIPTOR stack
 *  40  MINIDUMP_LOCATION_DESCRIPTOR thread_context
 * </pre>
 *
 * @param offset the record's absolute file offset
 */
public record MinidumpThread(long offset, long threadId, long suspendCount, long priorityClass, long priority, long teb,
    MemoryDescriptor stack, Location context) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 48;
  static final int STACK_OFFSET = 24;
  static final int CONTEXT_OFFSET = 40;
}
