package dev.gsym.dwarf.read;

/**
 * An offset in .debug_line: where a unit's line table starts (DW_AT_stmt_list). A type of its own so
 * that it cannot be mistaken for a .debug_info or .debug_abbrev offset; one per unit, so the record
 * costs nothing measurable.
 */
public record DebugLineOffset(long value) {
  @Override
  public String toString() {
    return ".debug_line+0x" + Long.toHexString(value);
  }
}
