package dev.gsym.format;

import java.util.function.IntUnaryOperator;

/**
 * Translates string-table offsets and file-table indexes while a FunctionInfo is encoded, so that a
 * FunctionInfo built against one creator's tables can be written against another's without first
 * being copied ({@link FunctionInfo#remap} gives the same result as an object). Offset 0 and file
 * index 0 ("none") are never passed to the functions.
 */
public record IndexMap(IntUnaryOperator strings, IntUnaryOperator files) {
  /** Leaves every offset and index as it is. */
  public static final IndexMap IDENTITY = new IndexMap(IntUnaryOperator.identity(), IntUnaryOperator.identity());

  /** The translated string offset (0 stays 0). */
  public int string(int offset) {
    return offset == 0 ? 0 : strings.applyAsInt(offset);
  }

  /** The translated file index (0 stays 0). */
  public int file(int index) {
    return index == 0 ? 0 : files.applyAsInt(index);
  }
}
