package dev.gsym.read;

import dev.gsym.format.FileTable;

/**
 * One frame of a lookup result. Names and paths are decoded by {@link dev.gsym.ByteStrings}
 * (UTF-8; a byte that is not part of well-formed UTF-8 appears as U+DC80 + byte, and {@code
 * ByteStrings.encode} gives the exact bytes back).
 *
 * @param name function name (the inlined function for inlined frames)
 * @param dir directory of the source file ("" if none)
 * @param base base name of the source file ("" if none)
 * @param line source line (unsigned 32-bit)
 * @param offset byte offset of the address from the start of the function or inlined range; an
 *     unsigned 32-bit value as in LLVM (larger differences wrap, e.g. for addresses far above a
 *     size-0 function)
 */
public record SourceLocation(String name, String dir, String base, int line, long offset) {

  /** Keeps the offset's low 32 bits (llvm's {@code SourceLocation::Offset} is a {@code uint32_t}). */
  public SourceLocation {
    offset &= 0xFFFF_FFFFL; // llvm's SourceLocation::Offset is a uint32_t
  }

  /** The source position: {@code dir}, {@code base} and the line read as unsigned. */
  public SourceLine sourceLine() {
    return new SourceLine(dir, base, Integer.toUnsignedLong(line));
  }

  /** The file's path as llvm-gsymutil prints it ({@link SourceLine#path()}), "" without a file. */
  public String path() {
    return sourceLine().path();
  }

  /** True if the location has a file. */
  public boolean hasFile() {
    return !dir.isEmpty() || !base.isEmpty();
  }

  /** "name [+ offset] [@ path:line]" exactly as llvm-gsymutil prints a location. */
  public StringBuilder appendTo(StringBuilder sb) {
    sb.append(name);
    if (offset > 0) sb.append(" + ").append(offset);
    if (hasFile()) {
      sb.append(" @ ");
      FileTable.appendPath(sb, dir, base.isEmpty() ? "<invalid-file>" : base);
      sb.append(':').append(Integer.toUnsignedLong(line));
    }
    return sb;
  }

  @Override
  public String toString() {
    return appendTo(new StringBuilder()).toString();
  }
}
