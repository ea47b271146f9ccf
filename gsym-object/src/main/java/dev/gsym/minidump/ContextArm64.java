package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;
import java.nio.ByteOrder;

/**
 * {@code MDRawContextARM64} (Windows' ARM64 {@code CONTEXT}), 912 bytes:
 *
 * <pre>
 *   0  u32 context_flags
 *   4  u32 cpsr
 *   8  u64 iregs[33]                x0..x28, fp (x29), lr (x30), sp, pc
 * 272  u128 float_save.regs[32], u32 fpcr, u32 fpsr
 * 792  u32 bcr[8], u64 bvr[8], u32 wcr[2], u64 wvr[2]
 * </pre>
 *
 * Breakpad's Linux writer still writes the older layout, {@code MDRawContextARM64_Old} (796
 * bytes, packed to 4): u64 context_flags (CPU bit 0x80000000), u64 iregs[33], u32 cpsr, u32
 * fpsr, u32 fpcr, u128 regs[32]. {@link #fromOld} converts it as Breakpad's {@code
 * ConvertOldARM64Context} does: flags become {@code CONTEXT_ARM64} plus control and integer when
 * the old flags and {@code 0x80000002} share a bit, plus floating point when they and {@code
 * 0x80000004} do; the debug registers are 0.
 */
public final class ContextArm64 implements CpuContext {
  /** The size of this context in bytes. */
  public static final int SIZE = 912;
  /** The size of the old AArch64 context in bytes. */
  public static final int OLD_SIZE = 796;
  /** {@code context_flags} bits: the context holds the control registers. */
  public static final int CONTROL = CONTEXT_ARM64 | 0x1;
  /** {@code context_flags} bits: the context holds the integer registers. */
  public static final int INTEGER = CONTEXT_ARM64 | 0x2;
  /** {@code context_flags} bits: the context holds the floating-point registers. */
  public static final int FLOATING_POINT = CONTEXT_ARM64 | 0x4;
  /** {@code context_flags} bits: the context holds the debug registers. */
  public static final int DEBUG = CONTEXT_ARM64 | 0x8;

  private final ByteView raw;
  private final int flags;
  private final boolean converted;

  ContextArm64(ByteView raw, int flags, boolean converted) {
    this.raw = raw;
    this.flags = flags;
    this.converted = converted;
  }

  /** Converts the old layout (its bytes {@code old}, its 64-bit flags {@code oldFlags}). */
  static ContextArm64 fromOld(ByteView old, long oldFlags) {
    int flags = CONTEXT_ARM64;
    if ((oldFlags & 0x80000002L) != 0) flags |= INTEGER | CONTROL;
    if ((oldFlags & 0x80000004L) != 0) flags |= FLOATING_POINT;
    byte[] b = new byte[SIZE];
    ByteView out = ByteView.of(b, old.order(), old.source());
    java.lang.foreign.MemorySegment seg = out.segment();
    var u32 = java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(old.order());
    var u64 = java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(old.order());
    seg.set(u32, 0, flags);
    seg.set(u32, 4, old.s32(272)); // cpsr
    for (int i = 0; i < 33; i++) seg.set(u64, 8 + 8L * i, old.u64(8 + 8L * i));
    java.lang.foreign.MemorySegment.copy(old.segment(), 284, seg, 272, 512); // float registers
    seg.set(u32, 784, old.s32(280)); // fpcr
    seg.set(u32, 788, old.s32(276)); // fpsr
    return new ContextArm64(out, flags, true);
  }

  /** The context in the current layout (converted when the dump has the old one). */
  public ByteView raw() {
    return raw;
  }

  /** Whether the dump holds the old layout, converted here. */
  public boolean convertedFromOld() {
    return converted;
  }

  @Override
  public int contextFlags() {
    return flags;
  }

  @Override
  public Arch arch() {
    return Arch.AARCH64;
  }

  /** The {@code cpsr} field. */
  public long cpsr() { return raw.u32(4); }

  /** iregs[{@code i}]: x0..x30, then sp (31) and pc (32). */
  public long ireg(int i) {
    if (i < 0 || i > 32) throw new IllegalArgumentException("iregs[" + i + "]");
    return raw.u64(8 + 8L * i);
  }

  /** The high 64 bits of vector register v{@code i} (0..31). */
  public long floatRegHigh(int i) {
    return half(i, true);
  }

  /** The low 64 bits of vector register v{@code i} (0..31). */
  public long floatRegLow(int i) {
    return half(i, false);
  }

  private long half(int i, boolean high) {
    if (i < 0 || i > 31) throw new IllegalArgumentException("v" + i);
    long at = 272 + 16L * i;
    boolean le = raw.order() == ByteOrder.LITTLE_ENDIAN;
    return raw.u64(at + (high == le ? 8 : 0));
  }

  /** The {@code fpcr} field. */
  public long fpcr() { return raw.u32(784); }
  /** The {@code fpsr} field. */
  public long fpsr() { return raw.u32(788); }
  /** Breakpoint control register {@code i} (0 to 7). */
  public long bcr(int i) { return raw.u32(792 + 4L * check(i, 8)); }
  /** Breakpoint value register {@code i} (0 to 7). */
  public long bvr(int i) { return raw.u64(824 + 8L * check(i, 8)); }
  /** Watchpoint control register {@code i} (0 or 1). */
  public long wcr(int i) { return raw.u32(888 + 4L * check(i, 2)); }
  /** Watchpoint value register {@code i} (0 or 1). */
  public long wvr(int i) { return raw.u64(896 + 8L * check(i, 2)); }

  private static int check(int i, int n) {
    if (i < 0 || i >= n) throw new IllegalArgumentException("index " + i);
    return i;
  }

  @Override
  public long pc() {
    return ireg(32);
  }

  @Override
  public long sp() {
    return ireg(31);
  }

  @Override
  public void registers(Registers out) {
    out.clear();
    for (int i = 0; i <= 31; i++) out.set(i, ireg(i)); // DWARF AArch64: x0..x30 are 0..30, sp 31
    out.pc(pc());
  }
}
