package dev.gsym.dwarf.read;

import dev.gsym.io.Cursor;

/**
 * One decoded .debug_line opcode (gimli's LineInstruction). Unknown opcodes keep their operands
 * and do nothing when executed. {@link #read} decodes one; {@link LineRow#execute} applies one.
 */
public sealed interface LineInstruction {
  /** Header fields the decoder and the state machine need. */
  record Params(int minInstLength, boolean defaultIsStmt, int lineBase, int lineRange, int opcodeBase, int[] standardLengths) {}

  record Special(int opcode) implements LineInstruction {}
  record Copy() implements LineInstruction {}
  record AdvancePc(long operationAdvance) implements LineInstruction {}
  record AdvanceLine(long delta) implements LineInstruction {}
  record SetFile(long file) implements LineInstruction {}
  record SetColumn(long column) implements LineInstruction {}
  record NegateStmt() implements LineInstruction {}
  record SetBasicBlock() implements LineInstruction {}
  record ConstAddPc() implements LineInstruction {}
  record FixedAddPc(int delta) implements LineInstruction {}
  record SetPrologueEnd() implements LineInstruction {}
  record SetEpilogueBegin() implements LineInstruction {}
  record SetIsa(long isa) implements LineInstruction {}
  record UnknownStandard(int opcode, long[] operands) implements LineInstruction {}
  record EndSequence() implements LineInstruction {}
  /** DW_LNE_set_address; {@code operandOffset} is where the address is in .debug_line. */
  record SetAddress(long address, long operandOffset) implements LineInstruction {}
  record DefineFile(String name, long dirIndex) implements LineInstruction {}
  record SetDiscriminator(long discriminator) implements LineInstruction {}
  record UnknownExtended(int opcode, long length) implements LineInstruction {}

  /**
   * Shared instances of the instructions without operands and of the common small operands: a line
   * program of a large binary has tens of millions of instructions (records are values, so sharing
   * them changes nothing but the garbage).
   */
  final class Shared {
    private Shared() {}

    static final Special[] SPECIALS = new Special[256];
    static final SetColumn[] COLUMNS = new SetColumn[256];
    static final AdvancePc[] PC_ADVANCES = new AdvancePc[256];
    static final AdvanceLine[] LINE_ADVANCES = new AdvanceLine[8192]; // -4096..4095
    static final SetFile[] FILES = new SetFile[1024];
    static final Copy COPY = new Copy();
    static final NegateStmt NEGATE_STMT = new NegateStmt();
    static final SetBasicBlock SET_BASIC_BLOCK = new SetBasicBlock();
    static final ConstAddPc CONST_ADD_PC = new ConstAddPc();
    static final SetPrologueEnd SET_PROLOGUE_END = new SetPrologueEnd();
    static final SetEpilogueBegin SET_EPILOGUE_BEGIN = new SetEpilogueBegin();
    static final EndSequence END_SEQUENCE = new EndSequence();

    static {
      for (int i = 0; i < 256; i++) {
        SPECIALS[i] = new Special(i);
        COLUMNS[i] = new SetColumn(i);
        PC_ADVANCES[i] = new AdvancePc(i);
      }
      for (int i = 0; i < LINE_ADVANCES.length; i++) LINE_ADVANCES[i] = new AdvanceLine(i - 4096);
      for (int i = 0; i < FILES.length; i++) FILES[i] = new SetFile(i);
    }

    static SetColumn setColumn(long v) {
      return v >= 0 && v < COLUMNS.length ? COLUMNS[(int) v] : new SetColumn(v);
    }

    static AdvancePc advancePc(long v) {
      return v >= 0 && v < PC_ADVANCES.length ? PC_ADVANCES[(int) v] : new AdvancePc(v);
    }

    static AdvanceLine advanceLine(long v) {
      return v >= -4096 && v < 4096 ? LINE_ADVANCES[(int) v + 4096] : new AdvanceLine(v);
    }

    static SetFile setFile(long v) {
      return v >= 0 && v < FILES.length ? FILES[(int) v] : new SetFile(v);
    }
  }

  /** Decodes the instruction at the cursor (which is bounded by the line table's end). */
  static LineInstruction read(Cursor c, Params p) {
    long opAt = c.position();
    int op = c.u8();
    if (op >= p.opcodeBase()) {
      if (p.lineRange() == 0) throw c.errorAt(opAt, "special opcode with line_range 0");
      return Shared.SPECIALS[op];
    }
    if (op == 0) {
      long len = c.uleb();
      if (len == 0 || len > c.remaining()) throw c.errorAt(opAt, "bad extended opcode length 0x" + Long.toHexString(len));
      long next = c.position() + len;
      int sub = c.u8();
      LineInstruction insn = switch (sub) {
        case LineTable.DW_LNE_END_SEQUENCE -> Shared.END_SEQUENCE;
        case LineTable.DW_LNE_SET_ADDRESS -> {
          int n = (int) (len - 1);
          if (n != 1 && n != 2 && n != 4 && n != 8) throw c.errorAt(opAt, "bad DW_LNE_set_address size " + n);
          yield new SetAddress(DwarfUnit.uN(c.view(), c.position(), n), c.position());
        }
        case LineTable.DW_LNE_DEFINE_FILE -> {
          String f = c.view().cString(c.position());
          while (c.u8() != 0) {}
          yield new DefineFile(f, c.uleb());
        }
        case LineTable.DW_LNE_SET_DISCRIMINATOR -> new SetDiscriminator(c.uleb());
        default -> new UnknownExtended(sub, len);
      };
      c.seek(next);
      return insn;
    }
    return switch (op) {
      case LineTable.DW_LNS_COPY -> Shared.COPY;
      case LineTable.DW_LNS_ADVANCE_PC -> Shared.advancePc(c.uleb());
      case LineTable.DW_LNS_ADVANCE_LINE -> Shared.advanceLine(c.sleb());
      case LineTable.DW_LNS_SET_FILE -> Shared.setFile(c.uleb());
      case LineTable.DW_LNS_SET_COLUMN -> Shared.setColumn(c.uleb());
      case LineTable.DW_LNS_NEGATE_STMT -> Shared.NEGATE_STMT;
      case LineTable.DW_LNS_SET_BASIC_BLOCK -> Shared.SET_BASIC_BLOCK;
      case LineTable.DW_LNS_CONST_ADD_PC -> {
        if (p.lineRange() == 0) throw c.errorAt(opAt, "DW_LNS_const_add_pc with line_range 0");
        yield Shared.CONST_ADD_PC;
      }
      case LineTable.DW_LNS_FIXED_ADVANCE_PC -> new FixedAddPc(c.u16());
      case LineTable.DW_LNS_SET_PROLOGUE_END -> Shared.SET_PROLOGUE_END;
      case LineTable.DW_LNS_SET_EPILOGUE_BEGIN -> Shared.SET_EPILOGUE_BEGIN;
      case LineTable.DW_LNS_SET_ISA -> new SetIsa(c.uleb());
      default -> {
        int n = p.standardLengths()[op];
        long[] args = new long[n];
        for (int i = 0; i < n; i++) args[i] = c.uleb();
        yield new UnknownStandard(op, args);
      }
    };
  }
}
