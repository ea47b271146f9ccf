package dev.gsym.unwind;

import java.util.List;

/**
 * A call frame information table for {@code [start, start + length)}: the rows a DWARF FDE (with
 * its CIE's initial instructions) describes, or the rows made from another source's unwind data.
 * Rows are in ascending address order; the first is at {@code start}.
 *
 * @param returnAddressRegister the column that holds the return address (the CIE's return address
 *     register)
 */
public record CfiTable(UnwindSource source, long ordinal, long start, long length, int returnAddressRegister,
    List<UnwindRow> rows) implements UnwindEntry {
  /** Copies the rows. */
  public CfiTable {
    rows = List.copyOf(rows);
    for (int i = 0; i < rows.size(); i++) {
      long a = rows.get(i).address();
      if (i == 0 && a != start) throw new IllegalArgumentException("first row at 0x" + Long.toHexString(a)
          + ", not at the table's start 0x" + Long.toHexString(start));
      if (i > 0 && Long.compareUnsigned(a, rows.get(i - 1).address()) <= 0) {
        throw new IllegalArgumentException("rows out of order at 0x" + Long.toHexString(a));
      }
    }
  }

  /** The row in effect at {@code address}, or null when the address is outside the table. */
  public UnwindRow rowAt(long address) {
    if (!contains(address) || rows.isEmpty()) return null;
    UnwindRow found = rows.getFirst();
    for (UnwindRow r : rows) {
      if (Long.compareUnsigned(r.address(), address) > 0) break;
      found = r;
    }
    return found;
  }
}
