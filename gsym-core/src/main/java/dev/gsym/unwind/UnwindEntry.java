package dev.gsym.unwind;

/**
 * The unwind information for one range of code, as one source gave it: a call frame information
 * table ({@link CfiTable}) or a Windows frame data record ({@link WindowsFrameInfo}).
 */
public sealed interface UnwindEntry permits CfiTable, WindowsFrameInfo {
  /** First address covered. */
  long start();

  /** Bytes covered from {@link #start()}. */
  long length();

  /** Where the entry came from. */
  UnwindSource source();

  /**
   * The entry's position among all entries of its file, in the order its source lists them (for
   * DWARF CFI: {@code .debug_frame} entries, then {@code .eh_frame} entries, each in section
   * order); writers that must reproduce a source's order sort by it.
   */
  long ordinal();

  /** Whether {@code address} is in {@code [start, start + length)}. */
  default boolean contains(long address) {
    return Long.compareUnsigned(address - start(), length()) < 0;
  }
}
