package dev.gsym.format;

/**
 * How a walker of encoded bytes ({@link FunctionInfo#parse}, {@link LineTable#parse}, {@link
 * InlineInfo#parse}) treats bytes that are missing or cannot be read. LLVM reads the same bytes
 * with different leniency in its decoders and its lookups, and both are reproduced exactly.
 */
public enum Reading {
  /**
   * LLVM's {@code decode}: a missing field is an error worded as LLVM's (offsets relative to the
   * payload); values LLVM reads without an error argument (LEB128s) are 0 when they cannot be read.
   */
  DECODE,
  /**
   * LLVM's {@code lookup}: a FunctionInfo record's fields and chunks are read as LLVM's
   * {@code FunctionInfo::lookup} reads them, an InlineInfo tree as LLVM's {@code InlineInfo::skip}
   * reads it (every value past the end is 0); the line program as in {@link #DECODE} (LLVM parses
   * it the same way in both).
   */
  LOOKUP,
  /**
   * As {@link #DECODE}, but every value must be read completely: where LLVM would read 0, this is
   * an error. For the cache builders and the merge relocation, which on an error leave the bytes to
   * the lenient readers.
   */
  EXACT;

  /** A LEB128 read as this mode reads one. */
  long uleb(dev.gsym.io.Cursor c) {
    return this == EXACT ? c.uleb() : c.ulebOrZero();
  }

  long sleb(dev.gsym.io.Cursor c) {
    return this == EXACT ? c.sleb() : c.slebOrZero();
  }
}
