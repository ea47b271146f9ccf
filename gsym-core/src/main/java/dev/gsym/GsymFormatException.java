package dev.gsym;

/**
 * The one error type for malformed input: names the source (a file or section), the absolute byte
 * offset where the problem was found (or -1 when none applies) and what was wrong.
 *
 * <p>{@link #detail()} is the bare description, worded like llvm-gsymutil's message where LLVM has
 * one (the dump prints it verbatim); {@link #getMessage()} adds the source and offset.
 */
public final class GsymFormatException extends RuntimeException {
  /** The file or section the bad bytes came from. */
  private final String source;
  /** Absolute byte offset of the problem, or -1. */
  private final long offset;
  /** The description without source and offset. */
  private final String detail;

  /** An error in {@code source} at byte {@code offset} (-1: none applies), described by {@code detail}. */
  public GsymFormatException(String source, long offset, String detail) {
    super(format(source, offset, detail), null, false, false);
    this.source = source;
    this.offset = offset;
    this.detail = detail;
  }

  private static String format(String source, long offset, String detail) {
    StringBuilder sb = new StringBuilder();
    if (source != null && !source.isEmpty()) sb.append(source).append(": ");
    if (offset >= 0) sb.append(String.format("offset 0x%08x: ", offset));
    return sb.append(detail).toString();
  }

  /** The file or section the bad bytes came from. */
  public String source() {
    return source;
  }

  /** Absolute byte offset of the problem within {@link #source()}, or -1. */
  public long offset() {
    return offset;
  }

  /** The description without source and offset. */
  public String detail() {
    return detail;
  }
}
