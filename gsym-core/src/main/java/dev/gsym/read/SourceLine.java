package dev.gsym.read;

import dev.gsym.format.FileTable;

/**
 * A position in a source file: the one record of a source line for the reader ({@link
 * SourceLocation#sourceLine()}), the symbolizer's frames, the service and Spark. Names and paths are the module's bytes decoded by {@code
 * dev.gsym.ByteStrings} (UTF-8; a byte that is not part of well-formed UTF-8 appears as U+DC80 +
 * byte).
 *
 * @param directory the file's directory, "" if unknown or if the file name is the whole path
 * @param fileName the file's base name, "" if the position has no file
 * @param line the line, 1-based; 0 if unknown (an unsigned 32-bit value in GSYM)
 */
public record SourceLine(String directory, String fileName, long line) {
  /** Checks that the strings are not null. */
  public SourceLine {
    if (directory == null || fileName == null) throw new IllegalArgumentException("null directory or file name");
  }

  /** True if a source file is known. */
  public boolean hasFile() {
    return !directory.isEmpty() || !fileName.isEmpty();
  }

  /**
   * The path as llvm-gsymutil prints it: directory + separator + file name, the separator being
   * {@code \} for a directory with backslashes and no slash (a Windows path), else {@code /}; ""
   * without a file.
   */
  public String path() {
    if (directory.isEmpty()) return fileName;
    StringBuilder sb = new StringBuilder(directory.length() + 1 + fileName.length());
    FileTable.appendPath(sb, directory, fileName);
    return sb.toString();
  }
}
