package dev.gsym.unwind;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * How to recover a register of the caller at a row of a call frame information table (DWARF 5,
 * section 6.4.1). A register with no rule in a row is unspecified there.
 */
public sealed interface RegisterRule {
  /** The caller's value cannot be recovered (DW_CFA_undefined). */
  record Undefined() implements RegisterRule {
    @Override
    public String toString() {
      return "undefined";
    }
  }

  /** The register is not changed by this frame (DW_CFA_same_value). */
  record SameValue() implements RegisterRule {
    @Override
    public String toString() {
      return "same";
    }
  }

  /** The caller's value is saved in memory at CFA + {@code offset} (DW_CFA_offset and friends). */
  record Offset(long offset) implements RegisterRule {
    @Override
    public String toString() {
      return "[CFA" + (offset < 0 ? "" : "+") + offset + "]";
    }
  }

  /** The caller's value is CFA + {@code offset} itself (DW_CFA_val_offset). */
  record ValOffset(long offset) implements RegisterRule {
    @Override
    public String toString() {
      return "CFA" + (offset < 0 ? "" : "+") + offset;
    }
  }

  /** The caller's value is in {@code register} of this frame (DW_CFA_register). */
  record Register(int register) implements RegisterRule {
    @Override
    public String toString() {
      return "reg" + register;
    }
  }

  /** The caller's value is in memory at the address a DWARF expression computes (DW_CFA_expression). */
  record Expression(byte[] expression) implements RegisterRule {
    /** Copies the expression. */
    public Expression {
      expression = expression.clone();
    }

    /** The expression's bytes (a copy). */
    @Override
    public byte[] expression() {
      return expression.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Expression e && Arrays.equals(expression, e.expression);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(expression);
    }

    @Override
    public String toString() {
      return "[expr(" + HexFormat.of().formatHex(expression) + ")]";
    }
  }

  /** The caller's value is what a DWARF expression computes (DW_CFA_val_expression). */
  record ValExpression(byte[] expression) implements RegisterRule {
    /** Copies the expression. */
    public ValExpression {
      expression = expression.clone();
    }

    /** The expression's bytes (a copy). */
    @Override
    public byte[] expression() {
      return expression.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ValExpression e && Arrays.equals(expression, e.expression);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(expression);
    }

    @Override
    public String toString() {
      return "expr(" + HexFormat.of().formatHex(expression) + ")";
    }
  }

  /**
   * A constant value: AArch64's RA_SIGN_STATE pseudo-register, which DW_CFA_AARCH64_negate_ra_state
   * toggles between 0 and 1.
   */
  record Constant(long value) implements RegisterRule {
    @Override
    public String toString() {
      return Long.toString(value);
    }
  }

  /**
   * A Breakpad postfix expression that none of the other rules expresses (from a {@code STACK CFI}
   * record), kept as written with single spaces.
   */
  record Postfix(String expression) implements RegisterRule {
    @Override
    public String toString() {
      return "postfix(" + expression + ")";
    }
  }

  /** The one {@link Undefined} rule. */
  RegisterRule UNDEFINED = new Undefined();
  /** The one {@link SameValue} rule. */
  RegisterRule SAME_VALUE = new SameValue();
}
