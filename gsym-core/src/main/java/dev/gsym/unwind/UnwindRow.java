package dev.gsym.unwind;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One row of a call frame information table: from {@code address} up to the next row (or the end
 * of the table), the CFA is found by {@code cfa} and each register of {@code registers} is
 * recovered by its rule; registers without a rule are unspecified. Rows hold the whole state, not
 * the change from the row before.
 *
 * @param cfa null when the table defines no CFA rule at this row (malformed or truncated CFI)
 * @param registers rules by DWARF register number, in ascending order
 */
public record UnwindRow(long address, CfaRule cfa, SortedMap<Integer, RegisterRule> registers) {
  /** Copies the rules. */
  public UnwindRow {
    registers = Collections.unmodifiableSortedMap(new TreeMap<>(registers));
  }

  /** The rule of {@code register}, or null when it is unspecified. */
  public RegisterRule rule(int register) {
    return registers.get(register);
  }

  /** This row at another address (the same rules). */
  public UnwindRow at(long newAddress) {
    return new UnwindRow(newAddress, cfa, registers);
  }

  /** As llvm-dwarfdump prints a row's rules: {@code CFA=reg7+8: reg16=[CFA-8]}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("0x").append(Long.toHexString(address)).append(": CFA=").append(cfa);
    String sep = ": ";
    for (var e : registers.entrySet()) {
      sb.append(sep).append("reg").append(e.getKey()).append('=').append(e.getValue());
      sep = ", ";
    }
    return sb.toString();
  }
}
