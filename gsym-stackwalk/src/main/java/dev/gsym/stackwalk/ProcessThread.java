package dev.gsym.stackwalk;

/**
 * A thread of a crashed process as the walker takes it.
 *
 * @param name the thread's name, or "" (minidump_stackwalk does not print it)
 * @param context the registers to start from (for the crashing thread, its registers at the crash),
 *     or null when the thread has none readable: it is listed without frames
 * @param stack the thread's stack memory, or null
 */
public record ProcessThread(long id, String name, FrameRegisters context, StackMemory stack) {
  /** A null name becomes "". */
  public ProcessThread {
    name = name == null ? "" : name;
  }
}
