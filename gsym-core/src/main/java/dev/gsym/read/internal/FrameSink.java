package dev.gsym.read.internal;

import dev.gsym.format.InlineInfo;

/**
 * Where the lookup code of this package writes an answer: implemented by the reader's result type
 * ({@code LookupFrames}), which holds frames as string offsets and file indexes.
 */
public interface FrameSink {
  /** Starts an answer for {@code addr} in the function {@code [start, end)} named {@code name}. */
  void begin(long addr, long start, long end, int name);

  /**
   * Adds the concrete function's frame at line-table row {@code file}:{@code line}.
   *
   * @throws dev.gsym.GsymFormatException "failed to extract file[N]" if there is no such file
   */
  void addRow(int name, long file, int line, long offset);

  /** Adds the concrete function's frame without a source location (no line table). */
  void addNoFile(int name, long offset);

  /** Receives the inline frames, deepest first (LLVM's lookup loop). */
  InlineInfo.InlineFrames inlineFrames();

  /** Forgets call-site regexes and flags added so far. */
  void clearRegex();

  /** The flags of the call site whose regexes follow. */
  void callSiteFlags(int flags);

  /** Adds the string offset of a call-site regex. */
  void addRegex(int strp);
}
