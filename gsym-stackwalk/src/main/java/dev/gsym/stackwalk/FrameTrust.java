package dev.gsym.stackwalk;

/** How a frame was found, from least to most trusted (Breakpad's {@code FrameTrust}), with its "Found by" words. */
public enum FrameTrust {
  /** Unknown. */
  NONE("unknown"),
  /** A return address found by scanning the stack. */
  SCAN("stack scanning"),
  /** Call frame information (or STACK WIN data) whose return address was improved by scanning. */
  CFI_SCAN("call frame info with scanning"),
  /** The previous frame's frame pointer. */
  FP("previous frame's frame pointer"),
  /** Call frame information, or Windows frame data. */
  CFI("call frame info"),
  /** Given by an external stack walker. */
  PREWALKED("recovered by external stack walker"),
  /** The thread's context: the frame where the CPU was. */
  CONTEXT("given as instruction pointer in context"),
  /** An inlined call inside the frame after it, from the symbols' INLINE records. */
  INLINE("inline record"),
  /** A return simulated from a leaf function (Windows x64 functions without unwind information). */
  LEAF("simulating a return from leaf function");

  private final String description;

  FrameTrust(String description) {
    this.description = description;
  }

  /** The words minidump_stackwalk prints after "Found by:". */
  public String description() {
    return description;
  }

  /** Whether the frame counts as scanned for the limit on scanned frames (none, scan, CFI with scanning). */
  boolean scanned() {
    return this == NONE || this == SCAN || this == CFI_SCAN;
  }
}
