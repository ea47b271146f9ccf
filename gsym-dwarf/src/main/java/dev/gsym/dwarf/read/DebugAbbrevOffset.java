package dev.gsym.dwarf.read;

/**
 * An offset in .debug_abbrev: where a unit's abbreviation set starts (the unit header's
 * debug_abbrev_offset, or a package unit's index column). A type of its own so that it cannot be
 * mistaken for a .debug_info or .debug_line offset; one per unit.
 */
public record DebugAbbrevOffset(long value) {
  @Override
  public String toString() {
    return ".debug_abbrev+0x" + Long.toHexString(value);
  }
}
