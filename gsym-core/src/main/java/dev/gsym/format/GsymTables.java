package dev.gsym.format;

/**
 * Resolves string-table offsets and file-table indexes, for the resolved ("dump") form of the
 * FunctionInfo structures. Implemented by {@code GsymReader}.
 */
public interface GsymTables {
  /**
   * The string at {@code strp} ("" past the table), decoded by {@link dev.gsym.ByteStrings}
   * (bytes that are not UTF-8 appear as U+DC80 + byte).
   */
  String string(int strp);

  /** File entry {@code index}, or null if out of range. */
  FileEntry file(long index);
}
