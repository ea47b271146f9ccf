package dev.gsym.dwarf.read;

/** The line-number state machine registers (gimli's LineRow); {@link #execute} applies one instruction. */
public final class LineRow {
  long address;
  long file;
  long line;
  int column;
  boolean isStmt;
  boolean endSequence;
  private final LineInstruction.Params params;

  LineRow(LineInstruction.Params params) {
    this.params = params;
    reset();
  }

  /** The initial state (DWARF 6.2.2), also after each end_sequence. */
  void reset() {
    address = 0;
    file = 1;
    line = 1;
    column = 0;
    isStmt = params.defaultIsStmt();
    endSequence = false;
  }

  /** Applies {@code insn}; returns true when it appends a row to the matrix. */
  boolean execute(LineInstruction insn) {
    LineInstruction.Params p = params;
    switch (insn) {
      case LineInstruction.Special s -> {
        int adj = s.opcode() - p.opcodeBase();
        address += (long) p.minInstLength() * (adj / p.lineRange());
        line += p.lineBase() + (adj % p.lineRange());
        return true;
      }
      case LineInstruction.Copy c -> {
        return true;
      }
      case LineInstruction.AdvancePc a -> address += (long) p.minInstLength() * a.operationAdvance();
      case LineInstruction.AdvanceLine a -> line += a.delta();
      case LineInstruction.SetFile f -> file = f.file();
      case LineInstruction.SetColumn c -> column = (int) c.column();
      case LineInstruction.NegateStmt n -> isStmt = !isStmt;
      case LineInstruction.ConstAddPc c -> address += (long) p.minInstLength() * ((255 - p.opcodeBase()) / p.lineRange());
      case LineInstruction.FixedAddPc f -> address += f.delta();
      case LineInstruction.EndSequence e -> {
        endSequence = true;
        return true;
      }
      case LineInstruction.SetAddress s -> address = s.address();
      case LineInstruction.SetBasicBlock x -> {}
      case LineInstruction.SetPrologueEnd x -> {}
      case LineInstruction.SetEpilogueBegin x -> {}
      case LineInstruction.SetIsa x -> {}
      case LineInstruction.UnknownStandard x -> {}
      case LineInstruction.DefineFile x -> {}
      case LineInstruction.SetDiscriminator x -> {}
      case LineInstruction.UnknownExtended x -> {}
    }
    return false;
  }
}
