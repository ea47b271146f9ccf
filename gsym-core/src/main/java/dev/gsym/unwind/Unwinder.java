package dev.gsym.unwind;

/**
 * Steps one frame with a call frame information row: from the registers of a frame (the callee)
 * and the process's memory, computes the caller's registers and return address. The rules are
 * DWARF's (DWARF 5, section 6.4); registers the row does not mention are unknown in the caller,
 * except the callee-saved registers of the architecture, which are taken unchanged, as Breakpad's
 * stack walkers take them. Expressions are evaluated by a bounded DWARF expression machine;
 * Breakpad postfix rules by a bounded postfix evaluator. Stateless and thread-safe.
 */
public final class Unwinder {
  /** Most operations one expression may execute: bounds loops in hostile expressions. */
  public static final int MAX_EXPRESSION_STEPS = 10_000;
  private static final int STACK_DEPTH = 64;

  private final Arch arch;
  private final boolean bigEndian;
  private final int[] calleeSaved;

  /** An unwinder for little-endian code of {@code arch}. */
  public Unwinder(Arch arch) {
    this(arch, java.nio.ByteOrder.LITTLE_ENDIAN);
  }

  /** An unwinder for {@code arch} in byte order {@code order} (of the constants in expressions). */
  public Unwinder(Arch arch, java.nio.ByteOrder order) {
    this.arch = arch;
    this.bigEndian = order == java.nio.ByteOrder.BIG_ENDIAN;
    this.calleeSaved = switch (arch) {
      case X86 -> new int[] {3, 5, 6, 7}; // ebx, ebp, esi, edi
      case X86_64 -> new int[] {3, 6, 12, 13, 14, 15}; // rbx, rbp, r12-r15
      case ARM -> new int[] {4, 5, 6, 7, 8, 9, 10, 11};
      case AARCH64 -> new int[] {19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29};
      case MIPS, MIPS64 -> new int[] {16, 17, 18, 19, 20, 21, 22, 23, 28, 30};
      case RISCV32, RISCV64 -> new int[] {8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27};
      case PPC, PPC64 -> range(14, 31);
      case S390X -> range(6, 13);
    };
  }

  private static int[] range(int from, int to) {
    int[] r = new int[to - from + 1];
    for (int i = 0; i < r.length; i++) r[i] = from + i;
    return r;
  }

  public Arch arch() {
    return arch;
  }

  /**
   * Computes the caller of the frame {@code callee} with {@code row} (the row in effect at the
   * callee's pc): {@code caller} is cleared, then receives the caller's registers, its stack pointer
   * (the CFA) and its pc (the return address).
   *
   * @return false when the row cannot be applied: no CFA or return address rule, a register the
   *     rules need is unknown, memory they read is missing, or an expression fails
   */
  public boolean step(UnwindState row, Registers callee, MemoryReader memory, Registers caller) {
    caller.clear();
    long cfa;
    switch (row.cfaKind()) {
      case UnwindState.REGISTER_OFFSET -> {
        if (!callee.has(row.cfaRegister())) return false;
        cfa = callee.get(row.cfaRegister()) + row.cfaOffset();
      }
      case UnwindState.EXPRESSION -> {
        long[] v = new long[1];
        if (!evaluate(row.cfaExpression(), callee, memory, 0, false, v)) return false;
        cfa = v[0];
      }
      case UnwindState.POSTFIX -> {
        long[] v = new long[1];
        if (!Postfix.evaluate(arch, row.cfaPostfix(), callee, memory, 0, false, v)) return false;
        cfa = v[0];
      }
      default -> {
        return false;
      }
    }
    cfa = mask(cfa);
    int ra = row.returnAddressRegister();
    long[] v = new long[1];
    for (int i = 0; i < row.ruleCount(); i++) {
      int reg = row.ruleRegister(i);
      if (reg > Registers.MAX_REGISTER) continue;
      if (recover(row, reg, cfa, callee, memory, v)) caller.set(reg, mask(v[0]));
    }
    for (int reg : calleeSaved) {
      if (row.ruleKind(reg) == UnwindState.NONE && callee.has(reg)) caller.set(reg, callee.get(reg));
    }
    // the return address: its column's rule; a register column without a rule still holds it
    long pc;
    if (caller.has(ra)) pc = caller.get(ra);
    else if (row.ruleKind(ra) == UnwindState.NONE && ra != arch.stackPointer() && isRealRegister(ra) && callee.has(ra)) {
      pc = callee.get(ra);
    } else {
      return false;
    }
    if (arch == Arch.AARCH64 && row.ruleKind(Arch.AARCH64_RA_SIGN_STATE) == UnwindState.CONSTANT
        && (row.ruleValue(Arch.AARCH64_RA_SIGN_STATE) & 1) != 0) {
      pc &= 0x0000_ffff_ffff_ffffL; // a pointer-authenticated return address: strip the signature
    }
    caller.set(arch.stackPointer(), cfa);
    caller.pc(mask(pc));
    return true;
  }

  /** The return-address column is a real register (not x86's eip/rip column, which the call pushed). */
  private boolean isRealRegister(int reg) {
    return arch != Arch.X86 && arch != Arch.X86_64;
  }

  private boolean recover(UnwindState row, int reg, long cfa, Registers callee, MemoryReader memory, long[] v) {
    int size = arch.addressSize();
    switch (row.ruleKind(reg)) {
      case UnwindState.SAME_VALUE -> {
        if (!callee.has(reg)) return false;
        v[0] = callee.get(reg);
        return true;
      }
      case UnwindState.OFFSET -> {
        long at = mask(cfa + row.ruleValue(reg));
        if (!memory.readable(at, size)) return false;
        v[0] = memory.read(at, size);
        return true;
      }
      case UnwindState.VAL_OFFSET -> {
        v[0] = cfa + row.ruleValue(reg);
        return true;
      }
      case UnwindState.REGISTER -> {
        int from = (int) row.ruleValue(reg);
        if (!callee.has(from)) return false;
        v[0] = callee.get(from);
        return true;
      }
      case UnwindState.EXPRESSION, UnwindState.VAL_EXPRESSION -> {
        boolean deref = row.ruleKind(reg) == UnwindState.EXPRESSION;
        if (!evaluate(row.ruleExpression(reg), callee, memory, cfa, true, v)) return false;
        if (!deref) return true;
        long at = mask(v[0]);
        if (!memory.readable(at, size)) return false;
        v[0] = memory.read(at, size);
        return true;
      }
      case UnwindState.CONSTANT -> {
        v[0] = row.ruleValue(reg);
        return true;
      }
      case UnwindState.POSTFIX -> {
        return Postfix.evaluate(arch, row.rulePostfix(reg), callee, memory, cfa, true, v);
      }
      default -> {
        return false; // undefined
      }
    }
  }

  private long mask(long v) {
    return arch.addressSize() == 4 ? v & 0xffff_ffffL : v;
  }

  /**
   * Evaluates a CFI DWARF expression ({@link UnwindState#EXPRESSION} CFA and register rules) as
   * {@link #step} does, for walkers that apply rows themselves: over {@code regs} (DWARF numbers) and
   * {@code memory}, with the CFA pushed first when {@code pushCfa} (register rules); the value on top
   * of the stack goes to {@code result[0]}.
   *
   * @return false when the expression reads an unknown register or unreadable memory, uses an
   *     operation not allowed in CFI, overflows its stack or runs too long
   */
  public boolean evaluateExpression(byte[] expression, Registers regs, MemoryReader memory, long cfa, boolean pushCfa,
      long[] result) {
    return evaluate(expression, regs, memory, cfa, pushCfa, result);
  }

  /**
   * Evaluates a DWARF expression (DWARF 5, section 2.5) over {@code regs} and {@code memory}; with
   * {@code pushCfa} the CFA is pushed first, as for register rules. The result is the value on top
   * of the stack.
   *
   * @return false when the expression reads an unknown register or unreadable memory, uses an
   *     operation that is not allowed in CFI, overflows its stack or runs too long
   */
  boolean evaluate(byte[] e, Registers regs, MemoryReader memory, long cfa, boolean pushCfa, long[] result) {
    long[] stack = new long[STACK_DEPTH];
    int sp = 0;
    if (pushCfa) stack[sp++] = cfa;
    int pc = 0;
    int size = arch.addressSize();
    long[] operand = new long[1];
    for (int steps = 0; pc < e.length; steps++) {
      if (steps == MAX_EXPRESSION_STEPS) return false;
      int op = e[pc++] & 0xff;
      if (sp >= STACK_DEPTH - 1) return false;
      if (op >= 0x30 && op <= 0x4f) { // DW_OP_lit0..31
        stack[sp++] = op - 0x30;
        continue;
      }
      if (op >= 0x50 && op <= 0x6f) { // DW_OP_reg0..31: a location, not a value; not used in CFI
        return false;
      }
      if (op >= 0x70 && op <= 0x8f) { // DW_OP_breg0..31
        if ((pc = sleb(e, pc, operand)) < 0 || !regs.has(op - 0x70)) return false;
        stack[sp++] = regs.get(op - 0x70) + operand[0];
        continue;
      }
      switch (op) {
        case 0x03 -> { // addr
          if (pc + size > e.length) return false;
          stack[sp++] = fixed(e, pc, size, bigEndian);
          pc += size;
        }
        case 0x06, 0x94 -> { // deref, deref_size
          int n = size;
          if (op == 0x94) {
            if (pc >= e.length) return false;
            n = e[pc++] & 0xff;
            if (n < 1 || n > 8) return false;
          }
          if (sp < 1) return false;
          long at = mask(stack[sp - 1]);
          if (!memory.readable(at, n)) return false;
          stack[sp - 1] = memory.read(at, n);
        }
        case 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f -> { // const1u..const8s
          int n = 1 << ((op - 0x08) >> 1);
          if (pc + n > e.length) return false;
          long val = fixed(e, pc, n, bigEndian);
          if ((op & 1) != 0 && n < 8) val = (val << (64 - 8 * n)) >> (64 - 8 * n);
          stack[sp++] = val;
          pc += n;
        }
        case 0x10 -> { // constu
          if ((pc = uleb(e, pc, operand)) < 0) return false;
          stack[sp++] = operand[0];
        }
        case 0x11 -> { // consts
          if ((pc = sleb(e, pc, operand)) < 0) return false;
          stack[sp++] = operand[0];
        }
        case 0x12 -> { // dup
          if (sp < 1) return false;
          stack[sp] = stack[sp - 1];
          sp++;
        }
        case 0x13 -> { // drop
          if (sp < 1) return false;
          sp--;
        }
        case 0x14 -> { // over
          if (sp < 2) return false;
          stack[sp] = stack[sp - 2];
          sp++;
        }
        case 0x15 -> { // pick
          if (pc >= e.length) return false;
          int i = e[pc++] & 0xff;
          if (i >= sp) return false;
          stack[sp] = stack[sp - 1 - i];
          sp++;
        }
        case 0x16 -> { // swap
          if (sp < 2) return false;
          long t = stack[sp - 1];
          stack[sp - 1] = stack[sp - 2];
          stack[sp - 2] = t;
        }
        case 0x17 -> { // rot
          if (sp < 3) return false;
          long t = stack[sp - 1];
          stack[sp - 1] = stack[sp - 2];
          stack[sp - 2] = stack[sp - 3];
          stack[sp - 3] = t;
        }
        case 0x19 -> { // abs
          if (sp < 1) return false;
          stack[sp - 1] = Math.abs(stack[sp - 1]);
        }
        case 0x1f -> { // neg
          if (sp < 1) return false;
          stack[sp - 1] = -stack[sp - 1];
        }
        case 0x20 -> { // not
          if (sp < 1) return false;
          stack[sp - 1] = ~stack[sp - 1];
        }
        case 0x23 -> { // plus_uconst
          if (sp < 1 || (pc = uleb(e, pc, operand)) < 0) return false;
          stack[sp - 1] += operand[0];
        }
        case 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e -> {
          if (sp < 2) return false;
          long b = stack[--sp];
          long a = stack[sp - 1];
          long r;
          switch (op) {
            case 0x1a -> r = a & b;
            case 0x1b -> {
              if (b == 0) return false;
              r = a / b;
            }
            case 0x1c -> r = a - b;
            case 0x1d -> {
              if (b == 0) return false;
              r = Long.remainderUnsigned(a, b);
            }
            case 0x1e -> r = a * b;
            case 0x21 -> r = a | b;
            case 0x22 -> r = a + b;
            case 0x24 -> r = b >= 64 || b < 0 ? 0 : a << b;
            case 0x25 -> r = b >= 64 || b < 0 ? 0 : a >>> b;
            case 0x26 -> r = a >> Math.min(63, Math.max(0, b));
            case 0x27 -> r = a ^ b;
            case 0x29 -> r = a == b ? 1 : 0;
            case 0x2a -> r = a >= b ? 1 : 0;
            case 0x2b -> r = a > b ? 1 : 0;
            case 0x2c -> r = a <= b ? 1 : 0;
            case 0x2d -> r = a < b ? 1 : 0;
            default -> r = a != b ? 1 : 0;
          }
          stack[sp - 1] = r;
        }
        case 0x2f, 0x28 -> { // skip, bra
          if (pc + 2 > e.length) return false;
          int off = (short) fixed(e, pc, 2, bigEndian);
          pc += 2;
          boolean jump = true;
          if (op == 0x28) {
            if (sp < 1) return false;
            jump = stack[--sp] != 0;
          }
          if (jump) {
            pc += off;
            if (pc < 0 || pc > e.length) return false;
          }
        }
        case 0x92 -> { // bregx
          if ((pc = uleb(e, pc, operand)) < 0) return false;
          long reg = operand[0];
          if ((pc = sleb(e, pc, operand)) < 0 || reg > Registers.MAX_REGISTER || !regs.has((int) reg)) return false;
          stack[sp++] = regs.get((int) reg) + operand[0];
        }
        case 0x96 -> { } // nop
        default -> {
          return false;
        }
      }
    }
    if (sp < 1) return false;
    result[0] = stack[sp - 1];
    return true;
  }

  private static long fixed(byte[] e, int at, int n, boolean bigEndian) {
    long v = 0;
    for (int i = 0; i < n; i++) v = (v << 8) | (e[at + (bigEndian ? i : n - 1 - i)] & 0xff);
    return v;
  }

  private static int uleb(byte[] e, int pc, long[] out) {
    long v = 0;
    for (int shift = 0; pc < e.length; shift += 7) {
      int b = e[pc++] & 0xff;
      if (shift < 64) v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        out[0] = v;
        return pc;
      }
      if (shift > 70) return -1;
    }
    return -1;
  }

  private static int sleb(byte[] e, int pc, long[] out) {
    long v = 0;
    int shift = 0;
    while (pc < e.length) {
      int b = e[pc++] & 0xff;
      if (shift < 64) v |= (long) (b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) {
        if (shift < 64 && (b & 0x40) != 0) v |= -1L << shift;
        out[0] = v;
        return pc;
      }
      if (shift > 70) return -1;
    }
    return -1;
  }

  /** Breakpad's postfix expressions (its {@code PostfixEvaluator}), as STACK CFI rules use them. */
  static final class Postfix {
    private Postfix() {}

    /**
     * Evaluates {@code expr} to a value: tokens are numbers (decimal, or hex with 0x), register
     * names of {@code arch}, {@code .cfa} (only with {@code hasCfa}), and the operators {@code + - *
     * / % @} (align) and {@code ^} (dereference).
     */
    static boolean evaluate(Arch arch, String expr, Registers regs, MemoryReader memory, long cfa, boolean hasCfa,
        long[] result) {
      long[] stack = new long[STACK_DEPTH];
      int sp = 0;
      int size = arch.addressSize();
      int steps = 0;
      for (String t : expr.trim().split("\\s+")) {
        if (++steps > MAX_EXPRESSION_STEPS || sp >= STACK_DEPTH) return false;
        if (t.isEmpty()) continue;
        switch (t) {
          case "+", "-", "*", "/", "%", "@" -> {
            if (sp < 2) return false;
            long b = stack[--sp];
            long a = stack[sp - 1];
            switch (t) {
              case "+" -> stack[sp - 1] = a + b;
              case "-" -> stack[sp - 1] = a - b;
              case "*" -> stack[sp - 1] = a * b;
              case "/" -> {
                if (b == 0) return false;
                stack[sp - 1] = Long.divideUnsigned(a, b);
              }
              case "%" -> {
                if (b == 0) return false;
                stack[sp - 1] = Long.remainderUnsigned(a, b);
              }
              default -> {
                if (b == 0 || (b & (b - 1)) != 0) return false;
                stack[sp - 1] = a & -b;
              }
            }
          }
          case "^" -> {
            if (sp < 1) return false;
            long at = stack[sp - 1];
            if (size == 4) at &= 0xffff_ffffL;
            if (!memory.readable(at, size)) return false;
            stack[sp - 1] = memory.read(at, size);
          }
          case BreakpadRegisterNames.CFA -> {
            if (!hasCfa) return false;
            stack[sp++] = cfa;
          }
          default -> {
            Long n = number(t);
            if (n != null) {
              stack[sp++] = n;
              continue;
            }
            int reg = BreakpadRegisterNames.number(arch, t);
            if (reg < 0 || !regs.has(reg)) return false;
            stack[sp++] = regs.get(reg);
          }
        }
      }
      if (sp != 1) return false;
      result[0] = stack[0];
      return true;
    }

    private static Long number(String t) {
      try {
        if (t.startsWith("0x") || t.startsWith("-0x")) {
          boolean neg = t.startsWith("-");
          long v = Long.parseUnsignedLong(t.substring(neg ? 3 : 2), 16);
          return neg ? -v : v;
        }
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }
}
