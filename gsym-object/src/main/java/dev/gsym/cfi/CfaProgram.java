package dev.gsym.cfi;

import dev.gsym.GsymFormatException;
import dev.gsym.io.Cursor;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Call frame instructions: the one decoder of a CIE's or FDE's instruction bytes ({@link #parse},
 * instruction by instruction to a visitor, LLVM's {@code CFIProgram::parse} shape) and the row
 * machine that turns a CIE's and an FDE's instructions into the rows of a call frame information
 * table ({@link #rows}, llvm-dwarfdump's {@code UnwindTable::create}).
 *
 * <pre>
 * ENCODING (one instruction)
 *   high two bits 01: DW_CFA_advance_loc (delta in the low six bits)
 *                 10: DW_CFA_offset (register in the low six bits) ULEB factored offset
 *                 11: DW_CFA_restore (register in the low six bits)
 *   otherwise the byte is the opcode, followed by its operands:
 *   0x00 nop | 0x01 set_loc address | 0x02 advance_loc1 u8 | 0x03 advance_loc2 u16
 *   0x04 advance_loc4 u32 | 0x05 offset_extended ULEB reg, ULEB factored offset
 *   0x06 restore_extended ULEB reg | 0x07 undefined ULEB reg | 0x08 same_value ULEB reg
 *   0x09 register ULEB reg, ULEB reg | 0x0a remember_state | 0x0b restore_state
 *   0x0c def_cfa ULEB reg, ULEB offset | 0x0d def_cfa_register ULEB reg | 0x0e def_cfa_offset ULEB
 *   0x0f def_cfa_expression ULEB length, bytes | 0x10 expression ULEB reg, ULEB length, bytes
 *   0x11 offset_extended_sf ULEB reg, SLEB | 0x12 def_cfa_sf ULEB reg, SLEB | 0x13 def_cfa_offset_sf SLEB
 *   0x14 val_offset ULEB reg, ULEB | 0x15 val_offset_sf ULEB reg, SLEB | 0x16 val_expression as 0x10
 *   0x1d MIPS_advance_loc8 u64 | 0x2c AARCH64_negate_ra_state_with_pc | 0x2d GNU_window_save
 *   (AARCH64_negate_ra_state) | 0x2e GNU_args_size ULEB | 0x2f GNU_negative_offset_extended ULEB
 *   reg, ULEB | 0x30 LLVM_def_aspace_cfa ULEB reg, ULEB offset, ULEB space | 0x31 _sf (SLEB offset)
 * </pre>
 *
 * The address of set_loc is, in {@code .eh_frame}, a pointer in the CIE's FDE encoding (as GCC's
 * unwinder reads it), in {@code .debug_frame} an address of the CIE's address size.
 */
public final class CfaProgram {
  /** {@code DW_CFA_nop}. */
  public static final int DW_CFA_nop = 0x00;
  /** {@code DW_CFA_set_loc}. */
  public static final int DW_CFA_set_loc = 0x01;
  /** {@code DW_CFA_advance_loc1}. */
  public static final int DW_CFA_advance_loc1 = 0x02;
  /** {@code DW_CFA_advance_loc2}. */
  public static final int DW_CFA_advance_loc2 = 0x03;
  /** {@code DW_CFA_advance_loc4}. */
  public static final int DW_CFA_advance_loc4 = 0x04;
  /** {@code DW_CFA_offset_extended}. */
  public static final int DW_CFA_offset_extended = 0x05;
  /** {@code DW_CFA_restore_extended}. */
  public static final int DW_CFA_restore_extended = 0x06;
  /** {@code DW_CFA_undefined}. */
  public static final int DW_CFA_undefined = 0x07;
  /** {@code DW_CFA_same_value}. */
  public static final int DW_CFA_same_value = 0x08;
  /** {@code DW_CFA_register}. */
  public static final int DW_CFA_register = 0x09;
  /** {@code DW_CFA_remember_state}. */
  public static final int DW_CFA_remember_state = 0x0a;
  /** {@code DW_CFA_restore_state}. */
  public static final int DW_CFA_restore_state = 0x0b;
  /** {@code DW_CFA_def_cfa}. */
  public static final int DW_CFA_def_cfa = 0x0c;
  /** {@code DW_CFA_def_cfa_register}. */
  public static final int DW_CFA_def_cfa_register = 0x0d;
  /** {@code DW_CFA_def_cfa_offset}. */
  public static final int DW_CFA_def_cfa_offset = 0x0e;
  /** {@code DW_CFA_def_cfa_expression}. */
  public static final int DW_CFA_def_cfa_expression = 0x0f;
  /** {@code DW_CFA_expression}. */
  public static final int DW_CFA_expression = 0x10;
  /** {@code DW_CFA_offset_extended_sf}. */
  public static final int DW_CFA_offset_extended_sf = 0x11;
  /** {@code DW_CFA_def_cfa_sf}. */
  public static final int DW_CFA_def_cfa_sf = 0x12;
  /** {@code DW_CFA_def_cfa_offset_sf}. */
  public static final int DW_CFA_def_cfa_offset_sf = 0x13;
  /** {@code DW_CFA_val_offset}. */
  public static final int DW_CFA_val_offset = 0x14;
  /** {@code DW_CFA_val_offset_sf}. */
  public static final int DW_CFA_val_offset_sf = 0x15;
  /** {@code DW_CFA_val_expression}. */
  public static final int DW_CFA_val_expression = 0x16;
  /** {@code DW_CFA_MIPS_advance_loc8}. */
  public static final int DW_CFA_MIPS_advance_loc8 = 0x1d;
  /** {@code DW_CFA_AARCH64_negate_ra_state_with_pc}. */
  public static final int DW_CFA_AARCH64_negate_ra_state_with_pc = 0x2c;
  /** {@code DW_CFA_GNU_window_save}. */
  public static final int DW_CFA_GNU_window_save = 0x2d;
  /** {@code DW_CFA_GNU_args_size}. */
  public static final int DW_CFA_GNU_args_size = 0x2e;
  /** {@code DW_CFA_GNU_negative_offset_extended}. */
  public static final int DW_CFA_GNU_negative_offset_extended = 0x2f;
  /** {@code DW_CFA_LLVM_def_aspace_cfa}. */
  public static final int DW_CFA_LLVM_def_aspace_cfa = 0x30;
  /** {@code DW_CFA_LLVM_def_aspace_cfa_sf}. */
  public static final int DW_CFA_LLVM_def_aspace_cfa_sf = 0x31;
  /** Primary opcodes (the two high bits). */
  public static final int DW_CFA_advance_loc = 0x40;
  /** {@code DW_CFA_offset}. */
  public static final int DW_CFA_offset = 0x80;
  /** {@code DW_CFA_restore}. */
  public static final int DW_CFA_restore = 0xc0;

  /** Deepest DW_CFA_remember_state nesting a table may have (compilers nest one or two). */
  public static final int MAX_REMEMBERED_STATES = 256;

  private CfaProgram() {}

  /** Receives the instructions in order; return false to stop the walk. */
  @FunctionalInterface
  public interface InstructionVisitor {
    /** {@code position}: the instruction's position in the section. */
    boolean instruction(long position, CfaInstruction instruction);
  }

  /**
   * The one decoder of call frame instructions: reads the instructions of {@code section} from
   * position {@code start} up to {@code end} (a CIE's initial instructions or an FDE's), with the
   * CIE's alignment factors and pointer encoding, and reports each to {@code v}. {@code pcBegin} is
   * the FDE's initial location (funcrel base of set_loc; ignored for a CIE). A truncated operand,
   * an unknown opcode, a factored operand with a zero alignment factor, a register number over
   * 2<sup>31</sup> - 1 or a set_loc pointer that cannot be read throws {@link GsymFormatException}
   * at the instruction, after the instructions before it were reported.
   */
  public static void parse(CfiSection section, Cie cie, long start, long end, long pcBegin, InstructionVisitor v) {
    Cursor c = section.data().slice(0, end).cursor(start);
    while (c.position() < end) {
      long at = c.position();
      int op = c.u8();
      CfaInstruction insn = switch (op & 0xc0) {
        case DW_CFA_advance_loc -> new CfaInstruction.Advance(DW_CFA_advance_loc, codeFactored(c, at, cie, op & 0x3f));
        case DW_CFA_offset -> new CfaInstruction.SetRule(DW_CFA_offset, op & 0x3f,
            new RegisterRule.Offset(dataFactored(c, at, cie, c.uleb())));
        case DW_CFA_restore -> new CfaInstruction.Restore(DW_CFA_restore, op & 0x3f);
        default -> extended(c, at, op, section, cie, pcBegin);
      };
      if (!v.instruction(at, insn)) return;
    }
  }

  private static CfaInstruction extended(Cursor c, long at, int op, CfiSection section, Cie cie, long pcBegin) {
    return switch (op) {
      case DW_CFA_nop -> new CfaInstruction.Nop();
      case DW_CFA_set_loc -> {
        if (section.isEh()) {
          yield new CfaInstruction.SetLoc(PointerEncoding.read(c, cie.fdeEncoding(), cie.addressSize(),
              section.bases().withFunction(pcBegin), "DW_CFA_set_loc").value());
        }
        yield new CfaInstruction.SetLoc(c.uN(cie.addressSize()));
      }
      case DW_CFA_advance_loc1 -> new CfaInstruction.Advance(op, codeFactored(c, at, cie, c.u8()));
      case DW_CFA_advance_loc2 -> new CfaInstruction.Advance(op, codeFactored(c, at, cie, c.u16()));
      case DW_CFA_advance_loc4 -> new CfaInstruction.Advance(op, codeFactored(c, at, cie, c.u32()));
      case DW_CFA_MIPS_advance_loc8 -> new CfaInstruction.Advance(op, codeFactored(c, at, cie, c.u64()));
      case DW_CFA_offset_extended -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.Offset(dataFactored(c, at, cie, c.uleb())));
      }
      case DW_CFA_offset_extended_sf -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.Offset(dataFactored(c, at, cie, c.sleb())));
      }
      case DW_CFA_GNU_negative_offset_extended -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.Offset(-dataFactored(c, at, cie, c.uleb())));
      }
      case DW_CFA_val_offset -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.ValOffset(dataFactored(c, at, cie, c.uleb())));
      }
      case DW_CFA_val_offset_sf -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.ValOffset(dataFactored(c, at, cie, c.sleb())));
      }
      case DW_CFA_register -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.Register(register(c, at)));
      }
      case DW_CFA_undefined -> new CfaInstruction.SetRule(op, register(c, at), RegisterRule.UNDEFINED);
      case DW_CFA_same_value -> new CfaInstruction.SetRule(op, register(c, at), RegisterRule.SAME_VALUE);
      case DW_CFA_expression -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.Expression(block(c, at)));
      }
      case DW_CFA_val_expression -> {
        int reg = register(c, at);
        yield new CfaInstruction.SetRule(op, reg, new RegisterRule.ValExpression(block(c, at)));
      }
      case DW_CFA_restore_extended -> new CfaInstruction.Restore(op, register(c, at));
      case DW_CFA_remember_state -> new CfaInstruction.RememberState();
      case DW_CFA_restore_state -> new CfaInstruction.RestoreState();
      case DW_CFA_def_cfa -> {
        int reg = register(c, at);
        yield new CfaInstruction.DefCfa(op, reg, c.uleb());
      }
      case DW_CFA_def_cfa_sf -> {
        int reg = register(c, at);
        yield new CfaInstruction.DefCfa(op, reg, dataFactored(c, at, cie, c.sleb()));
      }
      case DW_CFA_def_cfa_register -> new CfaInstruction.DefCfaRegister(register(c, at));
      case DW_CFA_def_cfa_offset -> new CfaInstruction.DefCfaOffset(op, c.uleb());
      case DW_CFA_def_cfa_offset_sf -> new CfaInstruction.DefCfaOffset(op, dataFactored(c, at, cie, c.sleb()));
      case DW_CFA_def_cfa_expression -> new CfaInstruction.DefCfaExpression(new CfaRule.Expression(block(c, at)));
      case DW_CFA_GNU_args_size -> new CfaInstruction.ArgsSize(c.uleb());
      case DW_CFA_GNU_window_save -> new CfaInstruction.WindowSave();
      case DW_CFA_AARCH64_negate_ra_state_with_pc -> new CfaInstruction.NegateRaStateWithPc();
      case DW_CFA_LLVM_def_aspace_cfa -> {
        int reg = register(c, at);
        long offset = c.uleb();
        yield new CfaInstruction.DefAspaceCfa(op, reg, offset, c.uleb());
      }
      case DW_CFA_LLVM_def_aspace_cfa_sf -> {
        int reg = register(c, at);
        long offset = dataFactored(c, at, cie, c.sleb());
        yield new CfaInstruction.DefAspaceCfa(op, reg, offset, c.uleb());
      }
      default -> throw c.errorAt(at, "unknown call frame instruction 0x" + hex2(op));
    };
  }

  private static String hex2(int op) {
    return String.format("%02x", op);
  }

  private static int register(Cursor c, long at) {
    long r = c.uleb();
    if (r < 0 || r > Integer.MAX_VALUE) throw c.errorAt(at, "register number " + Long.toUnsignedString(r) + " is too large");
    return (int) r;
  }

  private static long codeFactored(Cursor c, long at, Cie cie, long delta) {
    if (cie.codeAlignment() == 0) throw c.errorAt(at, "a location advance, but the CIE's code alignment factor is 0");
    return delta * cie.codeAlignment();
  }

  private static long dataFactored(Cursor c, long at, Cie cie, long offset) {
    if (cie.dataAlignment() == 0) throw c.errorAt(at, "a factored offset, but the CIE's data alignment factor is 0");
    return offset * cie.dataAlignment();
  }

  private static byte[] block(Cursor c, long at) {
    long length = c.uleb();
    if (!c.has(length)) throw c.errorAt(at, "DWARF expression of " + Long.toUnsignedString(length) + " bytes runs past the end of the entry");
    return c.split(length).copyRemaining();
  }

  /** The instructions from {@code start} to {@code end}, in order. */
  static List<CfaInstruction> decode(CfiSection section, Cie cie, long start, long end, long pcBegin, Budget budget, long entry) {
    List<CfaInstruction> out = new ArrayList<>();
    parse(section, cie, start, end, pcBegin, (at, insn) -> {
      budget.spend(1, section, entry);
      out.add(insn);
      return true;
    });
    return out;
  }

  /**
   * The rows of {@code fde}'s table: its CIE's initial instructions, then its own, run from its
   * initial location, as llvm-dwarfdump's UnwindTable builds them (see docs/unwind.md for where we
   * differ). Errors are {@link GsymFormatException}s at the instruction.
   */
  public static List<UnwindRow> rows(CfiSection section, Fde fde) {
    Budget budget = Budget.forBytes(fde.end() - fde.offset() + fde.cie().end() - fde.cie().offset());
    Cie cie = fde.cie();
    List<CfaInstruction> initial = decode(section, cie, cie.instructions(), cie.end(), fde.pcBegin(), budget, cie.offset());
    return rows(section, fde, initial, budget);
  }

  /** {@link #rows(CfiSection, Fde)} with the CIE's instructions decoded already and a shared budget. */
  static List<UnwindRow> rows(CfiSection section, Fde fde, List<CfaInstruction> cieInstructions, Budget budget) {
    Machine m = new Machine(section, fde, budget);
    for (CfaInstruction insn : cieInstructions) {
      budget.spend(1, section, fde.offset());
      m.execute(fde.cie().offset(), insn);
    }
    m.initial = new TreeMap<>(m.registers);
    parse(section, fde.cie(), fde.instructions(), fde.end(), fde.pcBegin(), (at, insn) -> {
      budget.spend(1, section, fde.offset());
      m.execute(at, insn);
      return true;
    });
    return m.finish();
  }

  /** The row state machine (LLVM 22's {@code parseRows}). */
  private static final class Machine {
    private final CfiSection section;
    private final Fde fde;
    private final Budget budget;
    private final boolean aarch64;
    private final boolean sparc;
    private final List<UnwindRow> rows = new ArrayList<>();
    private final ArrayDeque<State> saved = new ArrayDeque<>();
    private long address;
    private CfaRule cfa;
    private TreeMap<Integer, RegisterRule> registers = new TreeMap<>();
    /** The registers' rules after the CIE's instructions (null while they run). */
    TreeMap<Integer, RegisterRule> initial;

    private record State(CfaRule cfa, TreeMap<Integer, RegisterRule> registers) {}

    Machine(CfiSection section, Fde fde, Budget budget) {
      this.section = section;
      this.fde = fde;
      this.budget = budget;
      this.address = fde.pcBegin();
      this.aarch64 = section.arch() == Arch.AARCH64;
      this.sparc = section.archName() != null && section.archName().startsWith("sparc");
    }

    private GsymFormatException error(long at, String detail) {
      return section.data().error(at, detail);
    }

    /** Closes the current row (LLVM appends a row before each location change). */
    private void push(long at) {
      budget.spend(registers.size() + 1L, section, fde.offset());
      UnwindRow row = new UnwindRow(address, cfa, registers);
      if (!rows.isEmpty()) {
        long last = rows.getLast().address();
        if (last == address) {
          // llvm-dwarfdump keeps both rows of a zero advance; the later one holds
          rows.set(rows.size() - 1, row);
          return;
        }
        if (Long.compareUnsigned(address, last) < 0) throw error(at, "row address 0x" + Long.toHexString(address) + " is below the row before it");
      }
      rows.add(row);
    }

    void execute(long at, CfaInstruction insn) {
      switch (insn) {
        case CfaInstruction.Advance a -> {
          push(at);
          long next = address + a.delta();
          if (Long.compareUnsigned(next, address) < 0) throw error(at, "the location advances past the end of the address space");
          address = next;
        }
        case CfaInstruction.SetLoc s -> {
          if (Long.compareUnsigned(s.address(), address) <= 0) {
            throw error(at, "DW_CFA_set_loc with address 0x" + Long.toHexString(s.address())
                + " which must be greater than the current row address 0x" + Long.toHexString(address));
          }
          push(at);
          address = s.address();
        }
        case CfaInstruction.DefCfa d -> cfa = new CfaRule.RegisterOffset(d.register(), d.offset());
        case CfaInstruction.DefCfaRegister d -> cfa = cfa instanceof CfaRule.RegisterOffset ro
            ? new CfaRule.RegisterOffset(d.register(), ro.offset()) : new CfaRule.RegisterOffset(d.register(), 0);
        case CfaInstruction.DefCfaOffset d -> {
          if (!(cfa instanceof CfaRule.RegisterOffset ro)) {
            throw error(at, name(d.opcode()) + " found when CFA rule was not RegPlusOffset");
          }
          cfa = new CfaRule.RegisterOffset(ro.register(), d.offset());
        }
        case CfaInstruction.DefCfaExpression d -> cfa = d.rule();
        case CfaInstruction.SetRule s -> registers.put(s.register(), s.rule());
        case CfaInstruction.Restore r -> {
          if (initial == null) throw error(at, name(r.opcode()) + " encountered while parsing a CIE");
          RegisterRule rule = initial.get(r.register());
          if (rule != null) registers.put(r.register(), rule);
          else registers.remove(r.register());
        }
        case CfaInstruction.RememberState ignored -> {
          if (saved.size() >= MAX_REMEMBERED_STATES) {
            throw error(at, "DW_CFA_remember_state nested deeper than " + MAX_REMEMBERED_STATES + " levels");
          }
          budget.spend(registers.size() + 1L, section, fde.offset());
          saved.push(new State(cfa, new TreeMap<>(registers)));
        }
        case CfaInstruction.RestoreState ignored -> {
          if (saved.isEmpty()) throw error(at, "DW_CFA_restore_state without a matching previous DW_CFA_remember_state");
          State s = saved.pop();
          cfa = s.cfa();
          registers = s.registers();
        }
        case CfaInstruction.Nop ignored -> {}
        case CfaInstruction.ArgsSize ignored -> {}
        case CfaInstruction.WindowSave ignored -> {
          if (aarch64) {
            toggleRaState(at, 1);
          } else if (sparc) {
            for (int r = 16; r < 32; r++) registers.put(r, new RegisterRule.Offset((r - 16) * 8L));
          } else {
            throw error(at, "DW_CFA_GNU_window_save is not supported for architecture " + section.archName());
          }
        }
        case CfaInstruction.NegateRaStateWithPc ignored -> toggleRaState(at, 3);
        case CfaInstruction.DefAspaceCfa ignored -> throw error(at, name(insn.opcode()) + ": CFA address spaces are not supported");
      }
    }

    private void toggleRaState(long at, long bits) {
      RegisterRule r = registers.get(Arch.AARCH64_RA_SIGN_STATE);
      if (r == null) {
        registers.put(Arch.AARCH64_RA_SIGN_STATE, new RegisterRule.Constant(bits));
      } else if (r instanceof RegisterRule.Constant k) {
        registers.put(Arch.AARCH64_RA_SIGN_STATE, new RegisterRule.Constant(k.value() ^ bits));
      } else {
        throw error(at, "DW_CFA_AARCH64_negate_ra_state encountered when existing rule for this register is not a constant");
      }
    }

    List<UnwindRow> finish() {
      // a program of nops only leaves an empty state, which llvm-dwarfdump does not list
      if (!registers.isEmpty() || cfa != null) push(fde.end());
      return rows;
    }
  }

  /** The DW_CFA name of {@code opcode}, for messages. */
  public static String name(int opcode) {
    return switch (opcode) {
      case DW_CFA_nop -> "DW_CFA_nop";
      case DW_CFA_set_loc -> "DW_CFA_set_loc";
      case DW_CFA_advance_loc1 -> "DW_CFA_advance_loc1";
      case DW_CFA_advance_loc2 -> "DW_CFA_advance_loc2";
      case DW_CFA_advance_loc4 -> "DW_CFA_advance_loc4";
      case DW_CFA_offset_extended -> "DW_CFA_offset_extended";
      case DW_CFA_restore_extended -> "DW_CFA_restore_extended";
      case DW_CFA_undefined -> "DW_CFA_undefined";
      case DW_CFA_same_value -> "DW_CFA_same_value";
      case DW_CFA_register -> "DW_CFA_register";
      case DW_CFA_remember_state -> "DW_CFA_remember_state";
      case DW_CFA_restore_state -> "DW_CFA_restore_state";
      case DW_CFA_def_cfa -> "DW_CFA_def_cfa";
      case DW_CFA_def_cfa_register -> "DW_CFA_def_cfa_register";
      case DW_CFA_def_cfa_offset -> "DW_CFA_def_cfa_offset";
      case DW_CFA_def_cfa_expression -> "DW_CFA_def_cfa_expression";
      case DW_CFA_expression -> "DW_CFA_expression";
      case DW_CFA_offset_extended_sf -> "DW_CFA_offset_extended_sf";
      case DW_CFA_def_cfa_sf -> "DW_CFA_def_cfa_sf";
      case DW_CFA_def_cfa_offset_sf -> "DW_CFA_def_cfa_offset_sf";
      case DW_CFA_val_offset -> "DW_CFA_val_offset";
      case DW_CFA_val_offset_sf -> "DW_CFA_val_offset_sf";
      case DW_CFA_val_expression -> "DW_CFA_val_expression";
      case DW_CFA_MIPS_advance_loc8 -> "DW_CFA_MIPS_advance_loc8";
      case DW_CFA_AARCH64_negate_ra_state_with_pc -> "DW_CFA_AARCH64_negate_ra_state_with_pc";
      case DW_CFA_GNU_window_save -> "DW_CFA_GNU_window_save";
      case DW_CFA_GNU_args_size -> "DW_CFA_GNU_args_size";
      case DW_CFA_GNU_negative_offset_extended -> "DW_CFA_GNU_negative_offset_extended";
      case DW_CFA_LLVM_def_aspace_cfa -> "DW_CFA_LLVM_def_aspace_cfa";
      case DW_CFA_LLVM_def_aspace_cfa_sf -> "DW_CFA_LLVM_def_aspace_cfa_sf";
      case DW_CFA_advance_loc -> "DW_CFA_advance_loc";
      case DW_CFA_offset -> "DW_CFA_offset";
      case DW_CFA_restore -> "DW_CFA_restore";
      default -> "DW_CFA_0x" + hex2(opcode);
    };
  }
}
