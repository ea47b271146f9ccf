package dev.gsym.cfi;

import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.RegisterRule;

/**
 * One decoded call frame instruction ({@code DW_CFA_*}, DWARF 5 section 6.4.2, with the GNU,
 * AArch64 and LLVM extensions), as {@link CfaProgram#parse} reads it: operands are unfactored here
 * already (code offsets times the CIE's code alignment factor, data offsets times its data alignment
 * factor; 64-bit wrapping arithmetic), and rules are the model's {@link RegisterRule}s. {@link
 * #opcode()} is the opcode as encoded (for the primary opcodes, the two high bits only).
 */
public sealed interface CfaInstruction {
  /** The instruction's DW_CFA_* opcode (the primary opcode for advance_loc, offset and restore). */
  int opcode();

  /** DW_CFA_advance_loc, _loc1, _loc2, _loc4, DW_CFA_MIPS_advance_loc8: the location moves by {@code delta} bytes. */
  record Advance(int opcode, long delta) implements CfaInstruction {}

  /** DW_CFA_set_loc: the location becomes {@code address}. */
  record SetLoc(long address) implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_set_loc;
    }
  }

  /** DW_CFA_def_cfa, DW_CFA_def_cfa_sf: CFA = {@code register} + {@code offset}. */
  record DefCfa(int opcode, int register, long offset) implements CfaInstruction {}

  /** DW_CFA_def_cfa_register: the CFA's register becomes {@code register}, its offset stays. */
  record DefCfaRegister(int register) implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_def_cfa_register;
    }
  }

  /** DW_CFA_def_cfa_offset, DW_CFA_def_cfa_offset_sf: the CFA's offset becomes {@code offset}. */
  record DefCfaOffset(int opcode, long offset) implements CfaInstruction {}

  /** DW_CFA_def_cfa_expression. */
  record DefCfaExpression(CfaRule.Expression rule) implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_def_cfa_expression;
    }
  }

  /**
   * A register's rule is set: DW_CFA_offset, _offset_extended, _offset_extended_sf and
   * DW_CFA_GNU_negative_offset_extended ({@link RegisterRule.Offset}), DW_CFA_val_offset and _sf
   * ({@link RegisterRule.ValOffset}), DW_CFA_register, DW_CFA_expression, DW_CFA_val_expression,
   * DW_CFA_undefined, DW_CFA_same_value.
   */
  record SetRule(int opcode, int register, RegisterRule rule) implements CfaInstruction {}

  /** DW_CFA_restore, DW_CFA_restore_extended: the register's rule becomes the CIE's. */
  record Restore(int opcode, int register) implements CfaInstruction {}

  /** DW_CFA_remember_state. */
  record RememberState() implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_remember_state;
    }
  }

  /** DW_CFA_restore_state. */
  record RestoreState() implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_restore_state;
    }
  }

  /** DW_CFA_nop. */
  record Nop() implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_nop;
    }
  }

  /** DW_CFA_GNU_args_size: bytes of outgoing arguments on the stack (no rule changes). */
  record ArgsSize(long size) implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_GNU_args_size;
    }
  }

  /**
   * DW_CFA_GNU_window_save, which AArch64 reads as DW_CFA_AARCH64_negate_ra_state (the return
   * address signing state toggles) and SPARC as a register window save.
   */
  record WindowSave() implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_GNU_window_save;
    }
  }

  /** DW_CFA_AARCH64_negate_ra_state_with_pc. */
  record NegateRaStateWithPc() implements CfaInstruction {
    @Override
    public int opcode() {
      return CfaProgram.DW_CFA_AARCH64_negate_ra_state_with_pc;
    }
  }

  /** DW_CFA_LLVM_def_aspace_cfa and _sf: CFA = {@code register} + {@code offset} in an address space. */
  record DefAspaceCfa(int opcode, int register, long offset, long addressSpace) implements CfaInstruction {}
}
