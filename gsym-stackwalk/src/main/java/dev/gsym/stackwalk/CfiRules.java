package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.MemoryReader;
import dev.gsym.unwind.Registers;
import dev.gsym.unwind.Unwinder;
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
 * evaluated as Breakpad evaluates the text. DWARF expressions, which object-file CFI has and
 * Breakpad's symbol files cannot hold (the CFA of i386 functions that realign their stack, glibc's
 * signal frames), are evaluated as {@link Unwinder} evaluates them, over the callee's valid
 * registers (the walker's registers are numbered as DWARF numbers them).
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
  static boolean apply(Arch arch, UnwindState row, String[] names, long[] calleeValues, long calleeValid, MemoryReader memory,
      int wordSize, Caller out) {
    long mask = wordSize == 4 ? 0xffff_ffffL : -1L;
    Map<String, Long> dict = new HashMap<>();
    Registers regs = new Registers();
    for (int i = 0; i < names.length; i++) {
      if (names[i] != null && (calleeValid & (1L << i)) != 0) {
        dict.put(names[i], calleeValues[i] & mask);
        regs.set(i, calleeValues[i] & mask);
      }
    }
    Dwarf dwarf = new Dwarf(new Unwinder(arch), regs, memory);
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
      case UnwindState.EXPRESSION -> {
        if (!dwarf.unwinder.evaluateExpression(row.cfaExpression(), regs, memory, 0, false, v)) return false;
      }
      default -> {
        return false; // no CFA rule
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
    } else if (!rule(row, ra, dict, names, cfa, memory, wordSize, dwarf, v)) {
      return false;
    }
    out.cfa = cfa;
    out.ra = v[0] & mask;
    out.valid = 0;
    for (int i = 0; i < row.ruleCount(); i++) {
      int reg = row.ruleRegister(i);
      if (reg == ra || reg < 0 || reg >= names.length || names[reg] == null) continue; // the walker would not use it
      if (rule(row, reg, dict, names, cfa, memory, wordSize, dwarf, v)) {
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
  /** What DWARF expressions are evaluated with: the callee's valid registers by DWARF number. */
  private record Dwarf(Unwinder unwinder, Registers regs, MemoryReader memory) {}

  private static boolean rule(UnwindState row, int reg, Map<String, Long> dict, String[] names, long cfa, MemoryReader memory,
      int wordSize, Dwarf dwarf, long[] v) {
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
      case UnwindState.EXPRESSION, UnwindState.VAL_EXPRESSION -> {
        if (!dwarf.unwinder.evaluateExpression(row.ruleExpression(reg), dwarf.regs, memory, cfa, true, v)) return false;
        if (row.ruleKind(reg) == UnwindState.VAL_EXPRESSION) return true;
        long at = v[0] & mask;
        if (!memory.readable(at, wordSize)) return false;
        v[0] = memory.read(at, wordSize);
        return true;
      }
      default -> {
        return false; // undefined, a constant
      }
    }
  }
}
