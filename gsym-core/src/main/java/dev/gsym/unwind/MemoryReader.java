package dev.gsym.unwind;

/**
 * The memory of the process being unwound (a minidump's memory lists, a core file's segments, a
 * live process, a test's bytes), as the unwinder reads it: whole little- or big-endian words.
 */
public interface MemoryReader {
  /** Whether the {@code size} bytes (1 to 8) at {@code address} can be read. */
  boolean readable(long address, int size);

  /**
   * The unsigned value of the {@code size} bytes (1 to 8) at {@code address}, in the process's byte
   * order (zero-extended). Called only after {@link #readable} answered true.
   */
  long read(long address, int size);
}
