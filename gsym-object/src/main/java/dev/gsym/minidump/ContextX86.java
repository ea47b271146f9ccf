package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;

/**
 * {@code MDRawContextX86} (Windows' i386 {@code CONTEXT}), 716 bytes:
 *
 * <pre>
 *   0  u32 context_flags
 *   4  u32 dr0, dr1, dr2, dr3, dr6, dr7
 *  28  FLOATING_SAVE_AREA: u32 control_word, status_word, tag_word, error_offset, error_selector,
 *      data_offset, data_selector, u8 register_area[80], u32 cr0_npx_state
 * 140  u32 gs, fs, es, ds
 * 156  u32 edi, esi, ebx, edx, ecx, eax
 * 180  u32 ebp, eip, cs, eflags, esp, ss
 * 204  u8 extended_registers[512]       (FXSAVE layout)
 * </pre>
 */
public final class ContextX86 implements CpuContext {
  /** The size of this context in bytes. */
  public static final int SIZE = 716;
  /** {@code context_flags} bits: the context holds the control registers. */
  public static final int CONTROL = CONTEXT_X86 | 0x1;
  /** {@code context_flags} bits: the context holds the integer registers. */
  public static final int INTEGER = CONTEXT_X86 | 0x2;
  /** {@code context_flags} bits: the context holds the segment registers. */
  public static final int SEGMENTS = CONTEXT_X86 | 0x4;
  /** {@code context_flags} bits: the context holds the floating-point registers. */
  public static final int FLOATING_POINT = CONTEXT_X86 | 0x8;
  /** {@code context_flags} bits: the context holds the debug registers. */
  public static final int DEBUG_REGISTERS = CONTEXT_X86 | 0x10;
  /** {@code context_flags} bits: the context holds the extended (FXSAVE) registers. */
  public static final int EXTENDED_REGISTERS = CONTEXT_X86 | 0x20;

  private final ByteView raw;
  private final int flags;

  ContextX86(ByteView raw, int flags) {
    this.raw = raw;
    this.flags = flags;
  }

  /** The context's bytes as the dump holds them. */
  public ByteView raw() {
    return raw;
  }

  @Override
  public int contextFlags() {
    return flags;
  }

  @Override
  public Arch arch() {
    return Arch.X86;
  }

  private long u32(int at) {
    return raw.u32(at);
  }

  /** The {@code dr0} field. */
  public long dr0() { return u32(4); }
  /** The {@code dr1} field. */
  public long dr1() { return u32(8); }
  /** The {@code dr2} field. */
  public long dr2() { return u32(12); }
  /** The {@code dr3} field. */
  public long dr3() { return u32(16); }
  /** The {@code dr6} field. */
  public long dr6() { return u32(20); }
  /** The {@code dr7} field. */
  public long dr7() { return u32(24); }
  /** The {@code float_save.control_word} field. */
  public long floatControlWord() { return u32(28); }
  /** The {@code float_save.status_word} field. */
  public long floatStatusWord() { return u32(32); }
  /** The {@code float_save.tag_word} field. */
  public long floatTagWord() { return u32(36); }
  /** The {@code float_save.error_offset} field. */
  public long floatErrorOffset() { return u32(40); }
  /** The {@code float_save.error_selector} field. */
  public long floatErrorSelector() { return u32(44); }
  /** The {@code float_save.data_offset} field. */
  public long floatDataOffset() { return u32(48); }
  /** The {@code float_save.data_selector} field. */
  public long floatDataSelector() { return u32(52); }
  /** The x87 registers st0..st7, 10 bytes each. */
  public byte[] floatRegisterArea() { return raw.bytes(56, 80); }
  /** The {@code float_save.cr0_npx_state} field. */
  public long floatCr0NpxState() { return u32(136); }
  /** The {@code gs} field. */
  public long gs() { return u32(140); }
  /** The {@code fs} field. */
  public long fs() { return u32(144); }
  /** The {@code es} field. */
  public long es() { return u32(148); }
  /** The {@code ds} field. */
  public long ds() { return u32(152); }
  /** The {@code edi} field. */
  public long edi() { return u32(156); }
  /** The {@code esi} field. */
  public long esi() { return u32(160); }
  /** The {@code ebx} field. */
  public long ebx() { return u32(164); }
  /** The {@code edx} field. */
  public long edx() { return u32(168); }
  /** The {@code ecx} field. */
  public long ecx() { return u32(172); }
  /** The {@code eax} field. */
  public long eax() { return u32(176); }
  /** The {@code ebp} field. */
  public long ebp() { return u32(180); }
  /** The {@code eip} field. */
  public long eip() { return u32(184); }
  /** The {@code cs} field. */
  public long cs() { return u32(188); }
  /** The {@code eflags} field. */
  public long eflags() { return u32(192); }
  /** The {@code esp} field. */
  public long esp() { return u32(196); }
  /** The {@code ss} field. */
  public long ss() { return u32(200); }
  /** The FXSAVE area (MMX/SSE state). */
  public byte[] extendedRegisters() { return raw.bytes(204, 512); }

  @Override
  public long pc() {
    return eip();
  }

  @Override
  public long sp() {
    return esp();
  }

  @Override
  public void registers(Registers out) {
    out.clear();
    // DWARF i386: eax 0, ecx 1, edx 2, ebx 3, esp 4, ebp 5, esi 6, edi 7, eip 8, eflags 9,
    // es 40, cs 41, ss 42, ds 43, fs 44, gs 45
    out.set(0, eax());
    out.set(1, ecx());
    out.set(2, edx());
    out.set(3, ebx());
    out.set(4, esp());
    out.set(5, ebp());
    out.set(6, esi());
    out.set(7, edi());
    out.set(8, eip());
    out.set(9, eflags());
    out.set(40, es());
    out.set(41, cs());
    out.set(42, ss());
    out.set(43, ds());
    out.set(44, fs());
    out.set(45, gs());
    out.pc(eip());
  }
}
