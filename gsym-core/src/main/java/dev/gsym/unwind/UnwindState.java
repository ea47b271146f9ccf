package dev.gsym.unwind;

import java.util.Arrays;
import java.util.TreeMap;

/**
 * A reusable, mutable row of a call frame information table: the allocation-free form of {@link
 * UnwindRow} that GSYM unwind lookups fill ({@code GsymReader.unwindRow(address, state)}) and the
 * unwinder reads. One per thread; not thread-safe. Expressions and postfix rules, which are rare,
 * are held as copies.
 */
public final class UnwindState {
  /** No rule. This and the rule kinds below are what {@link #cfaKind()} and {@link #ruleKind(int)} report. */
  public static final int NONE = 0;
  /** CFA = a register's value plus an offset (CFA only). */
  public static final int REGISTER_OFFSET = 1;
  /** The value at the address a DWARF expression computes (CFA: the value it computes). */
  public static final int EXPRESSION = 2;
  /** A Breakpad postfix expression. */
  public static final int POSTFIX = 3;
  /** The register cannot be recovered. */
  public static final int UNDEFINED = 4;
  /** The register keeps its value. */
  public static final int SAME_VALUE = 5;
  /** Saved at CFA + offset. */
  public static final int OFFSET = 6;
  /** Its value is CFA + offset. */
  public static final int VAL_OFFSET = 7;
  /** Saved in another register. */
  public static final int REGISTER = 8;
  /** Its value is what a DWARF expression computes. */
  public static final int VAL_EXPRESSION = 9;
  /** Its value is a constant. */
  public static final int CONSTANT = 10;

  /** Most registers with a rule in one row; more is refused as hostile input. */
  public static final int MAX_RULES = 512;

  /** An empty state, to be filled by a lookup or a table's program. */
  public UnwindState() {}

  private Arch arch;
  private long address;
  private long tableStart;
  private long tableLength;
  private int returnAddressRegister;
  private UnwindSource source;

  private int cfaKind;
  private int cfaRegister;
  private long cfaOffset;
  private Object cfaData; // byte[] or String

  private int n;
  private int[] regs = new int[16];
  private int[] kinds = new int[16];
  private long[] values = new long[16];
  private Object[] data = new Object[16];

  /** Makes this state a copy of {@code other}: its table, address and rules. */
  public void copyFrom(UnwindState other) {
    arch = other.arch;
    address = other.address;
    tableStart = other.tableStart;
    tableLength = other.tableLength;
    returnAddressRegister = other.returnAddressRegister;
    source = other.source;
    cfaKind = other.cfaKind;
    cfaRegister = other.cfaRegister;
    cfaOffset = other.cfaOffset;
    cfaData = other.cfaData;
    for (int i = other.n; i < n; i++) data[i] = null;
    if (regs.length < other.n) {
      regs = new int[other.regs.length];
      kinds = new int[other.regs.length];
      values = new long[other.regs.length];
      data = new Object[other.regs.length];
    }
    n = other.n;
    System.arraycopy(other.regs, 0, regs, 0, n);
    System.arraycopy(other.kinds, 0, kinds, 0, n);
    System.arraycopy(other.values, 0, values, 0, n);
    System.arraycopy(other.data, 0, data, 0, n);
  }

  /** Forgets every rule (the state before a table's first instruction). */
  public void clear() {
    cfaKind = NONE;
    cfaRegister = 0;
    cfaOffset = 0;
    cfaData = null;
    for (int i = 0; i < n; i++) data[i] = null;
    n = 0;
  }

  /** Sets what the row belongs to; called by the readers before the rules. */
  public void table(Arch arch, UnwindSource source, long start, long length, int returnAddressRegister) {
    this.arch = arch;
    this.source = source;
    this.tableStart = start;
    this.tableLength = length;
    this.returnAddressRegister = returnAddressRegister;
  }

  /** Sets the address the rules hold from. */
  public void address(long address) {
    this.address = address;
  }

  /** CFA = {@code register} + {@code offset} (DW_CFA_def_cfa). */
  public void cfaRegisterOffset(int register, long offset) {
    cfaKind = REGISTER_OFFSET;
    cfaRegister = register;
    cfaOffset = offset;
    cfaData = null;
  }

  /** Changes the CFA register, keeping the offset (DW_CFA_def_cfa_register). */
  public void cfaRegisterOnly(int register) {
    if (cfaKind != REGISTER_OFFSET) cfaOffset = 0;
    cfaKind = REGISTER_OFFSET;
    cfaRegister = register;
    cfaData = null;
  }

  /** Changes the CFA offset, keeping the register (DW_CFA_def_cfa_offset). */
  public void cfaOffsetOnly(long offset) {
    if (cfaKind != REGISTER_OFFSET) cfaRegister = 0;
    cfaKind = REGISTER_OFFSET;
    cfaOffset = offset;
    cfaData = null;
  }

  /** Forgets the CFA rule (a row that has none). */
  public void cfaNone() {
    cfaKind = NONE;
    cfaRegister = 0;
    cfaOffset = 0;
    cfaData = null;
  }

  /** CFA = the value DWARF {@code expression} computes (DW_CFA_def_cfa_expression). */
  public void cfaExpression(byte[] expression) {
    cfaKind = EXPRESSION;
    cfaData = expression;
  }

  /** CFA = the value of a Breakpad postfix {@code expression}. */
  public void cfaPostfix(String expression) {
    cfaKind = POSTFIX;
    cfaData = expression;
  }

  /** Removes {@code register}'s rule: it is unspecified from here. */
  public void unspecified(int register) {
    int i = find(register);
    if (i < 0) return;
    n--;
    System.arraycopy(regs, i + 1, regs, i, n - i);
    System.arraycopy(kinds, i + 1, kinds, i, n - i);
    System.arraycopy(values, i + 1, values, i, n - i);
    System.arraycopy(data, i + 1, data, i, n - i);
    data[n] = null;
  }

  /**
   * Sets {@code register}'s rule: {@code kind} is one of the register rule kinds above, {@code
   * value} its offset, register or constant, {@code bytes} its expression (byte[]) or postfix
   * (String), else null.
   */
  public void rule(int register, int kind, long value, Object bytes) {
    int i = find(register);
    if (i < 0) {
      if (n == MAX_RULES) throw new IllegalStateException("more than " + MAX_RULES + " registers with rules in one row");
      if (n == regs.length) grow();
      i = -i - 1;
      System.arraycopy(regs, i, regs, i + 1, n - i);
      System.arraycopy(kinds, i, kinds, i + 1, n - i);
      System.arraycopy(values, i, values, i + 1, n - i);
      System.arraycopy(data, i, data, i + 1, n - i);
      regs[i] = register;
      n++;
    }
    kinds[i] = kind;
    values[i] = value;
    data[i] = bytes;
  }

  private void grow() {
    int len = regs.length * 2;
    regs = Arrays.copyOf(regs, len);
    kinds = Arrays.copyOf(kinds, len);
    values = Arrays.copyOf(values, len);
    data = Arrays.copyOf(data, len);
  }

  /** Index of {@code register} among the rules, or -(insertion point) - 1. */
  private int find(int register) {
    return Arrays.binarySearch(regs, 0, n, register);
  }

  /** The architecture the register numbers are of. */
  public Arch arch() {
    return arch;
  }

  /** Where the table came from. */
  public UnwindSource source() {
    return source;
  }

  /** The address the rules hold from (the row's address). */
  public long address() {
    return address;
  }

  /** The first address the table covers. */
  public long tableStart() {
    return tableStart;
  }

  /** The number of bytes the table covers. */
  public long tableLength() {
    return tableLength;
  }

  /** The register column that holds the return address. */
  public int returnAddressRegister() {
    return returnAddressRegister;
  }

  /** {@link #NONE}, {@link #REGISTER_OFFSET}, {@link #EXPRESSION} or {@link #POSTFIX}. */
  public int cfaKind() {
    return cfaKind;
  }

  /** The CFA's register, for {@link #REGISTER_OFFSET}. */
  public int cfaRegister() {
    return cfaRegister;
  }

  /** The CFA's offset, for {@link #REGISTER_OFFSET}. */
  public long cfaOffset() {
    return cfaOffset;
  }

  /** The CFA's DWARF expression (a copy), or null. */
  public byte[] cfaExpression() {
    return cfaKind == EXPRESSION ? ((byte[]) cfaData).clone() : null;
  }

  /** The CFA's postfix expression, or null. */
  public String cfaPostfix() {
    return cfaKind == POSTFIX ? (String) cfaData : null;
  }

  /** Registers with a rule. */
  public int ruleCount() {
    return n;
  }

  /** The register of the {@code i}th rule, in ascending register order. */
  public int ruleRegister(int i) {
    return regs[i];
  }

  /** The kind of {@code register}'s rule, {@link #NONE} if it is unspecified. */
  public int ruleKind(int register) {
    int i = find(register);
    return i < 0 ? NONE : kinds[i];
  }

  /** The offset, register or constant of {@code register}'s rule. */
  public long ruleValue(int register) {
    int i = find(register);
    return i < 0 ? 0 : values[i];
  }

  /** The DWARF expression of {@code register}'s rule (a copy), or null. */
  public byte[] ruleExpression(int register) {
    int i = find(register);
    return i >= 0 && data[i] instanceof byte[] b ? b.clone() : null;
  }

  /** The postfix expression of {@code register}'s rule, or null. */
  public String rulePostfix(int register) {
    int i = find(register);
    return i >= 0 && data[i] instanceof String s ? s : null;
  }

  /** This state as an immutable row. */
  public UnwindRow toRow() {
    CfaRule cfa = switch (cfaKind) {
      case REGISTER_OFFSET -> new CfaRule.RegisterOffset(cfaRegister, cfaOffset);
      case EXPRESSION -> new CfaRule.Expression((byte[]) cfaData);
      case POSTFIX -> new CfaRule.Postfix((String) cfaData);
      default -> null;
    };
    TreeMap<Integer, RegisterRule> rules = new TreeMap<>();
    for (int i = 0; i < n; i++) rules.put(regs[i], toRule(kinds[i], values[i], data[i]));
    return new UnwindRow(address, cfa, rules);
  }

  private static RegisterRule toRule(int kind, long value, Object bytes) {
    return switch (kind) {
      case UNDEFINED -> RegisterRule.UNDEFINED;
      case SAME_VALUE -> RegisterRule.SAME_VALUE;
      case OFFSET -> new RegisterRule.Offset(value);
      case VAL_OFFSET -> new RegisterRule.ValOffset(value);
      case REGISTER -> new RegisterRule.Register((int) value);
      case EXPRESSION -> new RegisterRule.Expression((byte[]) bytes);
      case VAL_EXPRESSION -> new RegisterRule.ValExpression((byte[]) bytes);
      case CONSTANT -> new RegisterRule.Constant(value);
      case POSTFIX -> new RegisterRule.Postfix((String) bytes);
      default -> throw new IllegalStateException("rule kind " + kind);
    };
  }

  /** Sets this state to {@code row}'s rules. */
  public void set(UnwindRow row) {
    clear();
    address = row.address();
    switch (row.cfa()) {
      case null -> {}
      case CfaRule.RegisterOffset r -> cfaRegisterOffset(r.register(), r.offset());
      case CfaRule.Expression e -> cfaExpression(e.expression());
      case CfaRule.Postfix p -> cfaPostfix(p.expression());
    }
    for (var e : row.registers().entrySet()) {
      int reg = e.getKey();
      switch (e.getValue()) {
        case RegisterRule.Undefined u -> rule(reg, UNDEFINED, 0, null);
        case RegisterRule.SameValue s -> rule(reg, SAME_VALUE, 0, null);
        case RegisterRule.Offset o -> rule(reg, OFFSET, o.offset(), null);
        case RegisterRule.ValOffset o -> rule(reg, VAL_OFFSET, o.offset(), null);
        case RegisterRule.Register r -> rule(reg, REGISTER, r.register(), null);
        case RegisterRule.Expression x -> rule(reg, EXPRESSION, 0, x.expression());
        case RegisterRule.ValExpression x -> rule(reg, VAL_EXPRESSION, 0, x.expression());
        case RegisterRule.Constant c -> rule(reg, CONSTANT, c.value(), null);
        case RegisterRule.Postfix p -> rule(reg, POSTFIX, 0, p.expression());
      }
    }
  }
}
