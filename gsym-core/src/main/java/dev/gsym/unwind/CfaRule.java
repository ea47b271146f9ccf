package dev.gsym.unwind;

import java.util.Arrays;
import java.util.HexFormat;

/** How to compute the canonical frame address (CFA) at a row of a call frame information table. */
public sealed interface CfaRule {
  /** CFA = value of {@code register} + {@code offset} (DW_CFA_def_cfa and friends). */
  record RegisterOffset(int register, long offset) implements CfaRule {
    @Override
    public String toString() {
      return "reg" + register + (offset < 0 ? "" : "+") + offset;
    }
  }

  /** CFA = the value a DWARF expression computes (DW_CFA_def_cfa_expression), kept as its bytes. */
  record Expression(byte[] expression) implements CfaRule {
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
      return "expr(" + HexFormat.of().formatHex(expression) + ")";
    }
  }

  /**
   * CFA = a Breakpad postfix expression that is not a register plus an offset (from a {@code STACK
   * CFI} record), kept as written with single spaces.
   */
  record Postfix(String expression) implements CfaRule {
    @Override
    public String toString() {
      return "postfix(" + expression + ")";
    }
  }
}
