package dev.gsym.dwarf.read;

import dev.gsym.io.ByteView;

/** A decoded attribute value; index forms (strx, addrx) are already resolved through the unit's bases. */
public sealed interface AttributeValue {
  /** The DW_FORM this value was read with. */
  int form();

  /** An address (addr, addrx*). */
  record Address(int form, long value) implements AttributeValue {}

  /** An unsigned constant (data1/2/4/8, udata, flag, implicit_const read as unsigned). */
  record Unsigned(int form, long value) implements AttributeValue {}

  /** A signed constant (sdata, implicit_const). */
  record Signed(int form, long value) implements AttributeValue {}

  /** A string (string, strp, line_strp, strx*). */
  record Str(int form, String value) implements AttributeValue {}

  /**
   * A reference to a DIE by its .debug_info offset (unit-relative forms already made absolute). A
   * primitive long, not a record: references are read for most DIEs a conversion visits.
   */
  record Ref(int form, long infoOffset) implements AttributeValue {}

  /** An offset into another section (sec_offset). */
  record SecOffset(int form, long offset) implements AttributeValue {}

  /** An index into a list table (rnglistx, loclistx). */
  record ListIndex(int form, long index) implements AttributeValue {}

  /** A block or expression (block*, exprloc, data16) as a view of the section. */
  record Block(int form, ByteView bytes) implements AttributeValue {}

  /** A value this reader does not interpret (ref_sig8, supplementary forms). */
  record Other(int form, long raw) implements AttributeValue {}

  /** The value as an unsigned number when it is a constant, else null. */
  default Long asUnsigned() {
    return switch (this) {
      case Unsigned u -> u.value();
      case Signed s -> s.value();
      default -> null;
    };
  }
}
