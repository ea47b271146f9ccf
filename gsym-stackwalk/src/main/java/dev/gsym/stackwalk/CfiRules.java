package dev.gsym.stackwalk;

import dev.gsym.unwind.MemoryReader;
import dev.gsym.unwind.UnwindState;
import java.util.HashMap;
import java.util.Map;

/**
 * Applies a CFI row to a callee's registers as Breakpad's {@code CFIFrameInfo::FindCallerRegs}
 * evaluates the {@code STACK CFI} rules the row came from: the CFA first (from the callee's valid
 * registers only), then the return address (with {@code .cfa}), then each register's rule; a CFA or
 * return address that cannot be computed fails the row, a register rule that cannot be computed is
 * left out (the walker may then keep a callee-saved register). Rules arrive as the DWARF shapes the
 * symbol file's expressions were read into ({@code $rsp 8 +} as register + offset, {@code .cfa -16 +
 * ^} as saved at CFA - 16, a register name as that register) or as postfix expressions; each is
 * evaluated as Breakpad evaluates the text. DWARF expressions (from object-file CFI) are not
 * evaluated.
 */
final class CfiRules {
  /** What a row gave: the CFA, the return address ({@code .ra}), and the registers of the walker's map it recovered. */
  static final class Caller {
    long cfa;
    long ra;
    final long[] values;
    long valid;

    Caller(int slots) {
      values = new long[slots];
    }
  }

  private CfiRules() {}

  /**
   * Evaluates {@code row} for a callee with {@code calleeValues} / {@code calleeValid}, whose
   * registers are named {@code names} (null for a register outside the walker's map).
   *
   * @return false when the row has no CFA rule, or the CFA or return address cannot be computed
   */
  static boolean apply(UnwindState row, String[] names, long[] calleeValues, long calleeValid, MemoryReader memory,
      int wordSize, Caller out) {
    long mask = wordSize == 4 ? 0xffff_ffffL : -1L;
    Map<String, Long> dict = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      if (names[i] != null && (calleeValid & (1L << i)) != 0) dict.put(names[i], calleeValues[i] & mask);
    }
    long[] v = new long[1];
    // the CFA, from the callee's registers alone
    switch (row.cfaKind()) {
      case UnwindState.REGISTER_OFFSET -> {
        Long r = value(dict, names, row.cfaRegister());
        if (r == null) return false;
        v[0] = r + row.cfaOffset();
      }
      case UnwindState.POSTFIX -> {
        if (!new Postfix(new HashMap<>(dict), memory, wordSize).evaluateForValue(row.cfaPostfix(), v)) return false;
      }
      default -> {
        return false; // no CFA rule, or a DWARF expression
      }
    }
    long cfa = v[0] & mask;
    dict.put(".cfa", cfa);
    int ra = row.returnAddressRegister();
    // the return address: a row without a rule for its column keeps it in that register (".ra: lr")
    if (row.ruleKind(ra) == UnwindState.NONE) {
      Long r = value(dict, names, ra);
      if (r == null) return false;
      v[0] = r;
    } else if (!rule(row, ra, dict, names, cfa, memory, wordSize, v)) {
      return false;
    }
    out.cfa = cfa;
    out.ra = v[0] & mask;
    out.valid = 0;
    for (int i = 0; i < row.ruleCount(); i++) {
      int reg = row.ruleRegister(i);
      if (reg == ra || reg < 0 || reg >= names.length || names[reg] == null) continue; // the walker would not use it
      if (rule(row, reg, dict, names, cfa, memory, wordSize, v)) {
        out.values[reg] = v[0] & mask;
        out.valid |= 1L << reg;
      }
    }
    return true;
  }

  /** The dictionary value of register {@code reg} (by its name), or null when it is not a valid register of the map. */
  private static Long value(Map<String, Long> dict, String[] names, long reg) {
    if (reg < 0 || reg >= names.length || names[(int) reg] == null) return null;
    return dict.get(names[(int) reg]);
  }

  /** Evaluates {@code reg}'s rule into {@code v[0]}; false when it cannot be computed. */
  private static boolean rule(UnwindState row, int reg, Map<String, Long> dict, String[] names, long cfa, MemoryReader memory,
      int wordSize, long[] v) {
    long mask = wordSize == 4 ? 0xffff_ffffL : -1L;
    switch (row.ruleKind(reg)) {
      case UnwindState.SAME_VALUE -> {
        Long r = value(dict, names, reg);
        if (r == null) return false;
        v[0] = r;
        return true;
      }
      case UnwindState.REGISTER -> {
        Long r = value(dict, names, row.ruleValue(reg));
        if (r == null) return false;
        v[0] = r;
        return true;
      }
      case UnwindState.OFFSET -> {
        long at = (cfa + row.ruleValue(reg)) & mask;
        if (!memory.readable(at, wordSize)) return false;
        v[0] = memory.read(at, wordSize);
        return true;
      }
      case UnwindState.VAL_OFFSET -> {
        v[0] = cfa + row.ruleValue(reg);
        return true;
      }
      case UnwindState.POSTFIX -> {
        return new Postfix(new HashMap<>(dict), memory, wordSize).evaluateForValue(row.rulePostfix(reg), v);
      }
      default -> {
        return false; // undefined, a DWARF expression, a constant
      }
    }
  }
}
