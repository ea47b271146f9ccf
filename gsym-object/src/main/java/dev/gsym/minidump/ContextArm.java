package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;

/**
 * {@code MDRawContextARM}, 368 bytes:
 *
 * <pre>
 *   0  u32 context_flags
 *   4  u32 iregs[16]                r0..r12, sp (r13), lr (r14), pc (r15)
 *  68  u32 cpsr
 *  72  u64 fpscr, u64 regs[32] (d0..d31), u32 extra[8]
 * </pre>
 */
public final class ContextArm implements CpuContext {
  /** The size of this context in bytes. */
  public static final int SIZE = 368;
  /** {@code context_flags} bits: the context holds the integer registers. */
  public static final int INTEGER = CONTEXT_ARM | 0x2;
  /** {@code context_flags} bits: the context holds the floating-point registers. */
  public static final int FLOATING_POINT = CONTEXT_ARM | 0x4;
  /** Register names of iregs as Breakpad prints them. */
  public static final String[] NAMES = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp",
      "lr", "pc"};

  private final ByteView raw;
  private final int flags;

  ContextArm(ByteView raw, int flags) {
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
    return Arch.ARM;
  }

  /** Integer register r{@code i} (0..15). */
  public long ireg(int i) {
    if (i < 0 || i > 15) throw new IllegalArgumentException("r" + i);
    return raw.u32(4 + 4L * i);
  }

  /** The {@code cpsr} field. */
  public long cpsr() { return raw.u32(68); }
  /** The {@code fpscr} field. */
  public long fpscr() { return raw.u64(72); }
  /** VFP register d{@code i} (0..31). */
  public long floatReg(int i) {
    if (i < 0 || i > 31) throw new IllegalArgumentException("d" + i);
    return raw.u64(80 + 8L * i);
  }
  /** Miscellaneous floating-point control word {@code i} (0..7). */
  public long floatExtra(int i) {
    if (i < 0 || i > 7) throw new IllegalArgumentException("extra" + i);
    return raw.u32(336 + 4L * i);
  }

  @Override
  public long pc() {
    return ireg(15);
  }

  @Override
  public long sp() {
    return ireg(13);
  }

  @Override
  public void registers(Registers out) {
    out.clear();
    for (int i = 0; i < 16; i++) out.set(i, ireg(i)); // DWARF ARM: r0..r15 are 0..15
    out.pc(pc());
  }
}
