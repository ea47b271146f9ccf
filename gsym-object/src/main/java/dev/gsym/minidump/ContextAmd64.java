package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;

/**
 * {@code MDRawContextAMD64} (Windows' x64 {@code CONTEXT}), 1232 bytes (XSAVE state may follow):
 *
 * <pre>
 *    0  u64 p1_home .. p6_home
 *   48  u32 context_flags, u32 mx_csr
 *   56  u16 cs, ds, es, fs, gs, ss
 *   68  u32 eflags
 *   72  u64 dr0, dr1, dr2, dr3, dr6, dr7
 *  120  u64 rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8 .. r15
 *  248  u64 rip
 *  256  XMM_SAVE_AREA32 flt_save (512 bytes: FXSAVE layout, xmm0..xmm15 at 160)
 *  768  u128 vector_register[26], u64 vector_control
 * 1192  u64 debug_control, last_branch_to_rip, last_branch_from_rip, last_exception_to_rip,
 *       last_exception_from_rip
 * </pre>
 */
public final class ContextAmd64 implements CpuContext {
  /** The size of this context in bytes. */
  public static final int SIZE = 1232;
  /** {@code context_flags} bits: the context holds the control registers. */
  public static final int CONTROL = CONTEXT_AMD64 | 0x1;
  /** {@code context_flags} bits: the context holds the integer registers. */
  public static final int INTEGER = CONTEXT_AMD64 | 0x2;
  /** {@code context_flags} bits: the context holds the segment registers. */
  public static final int SEGMENTS = CONTEXT_AMD64 | 0x4;
  /** {@code context_flags} bits: the context holds the floating-point registers. */
  public static final int FLOATING_POINT = CONTEXT_AMD64 | 0x8;
  /** {@code context_flags} bits: the context holds the debug registers. */
  public static final int DEBUG_REGISTERS = CONTEXT_AMD64 | 0x10;

  /** The integer registers in context order (rax at 120, then 8 bytes each). */
  private static final String[] GPR = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
      "r13", "r14", "r15"};
  /** DWARF numbers of {@link #GPR}. */
  private static final int[] GPR_DWARF = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};

  private final ByteView raw;
  private final int flags;

  ContextAmd64(ByteView raw, int flags) {
    this.raw = raw;
    this.flags = flags;
  }

  /** The context's first 1232 bytes as the dump holds them. */
  public ByteView raw() {
    return raw;
  }

  @Override
  public int contextFlags() {
    return flags;
  }

  @Override
  public Arch arch() {
    return Arch.X86_64;
  }

  /** The register-parameter home slot {@code i} (1..6). */
  public long pHome(int i) {
    return raw.u64(8L * (i - 1));
  }

  /** The {@code mx_csr} field. */
  public long mxCsr() { return raw.u32(52); }
  /** The {@code cs} field. */
  public int cs() { return raw.u16(56); }
  /** The {@code ds} field. */
  public int ds() { return raw.u16(58); }
  /** The {@code es} field. */
  public int es() { return raw.u16(60); }
  /** The {@code fs} field. */
  public int fs() { return raw.u16(62); }
  /** The {@code gs} field. */
  public int gs() { return raw.u16(64); }
  /** The {@code ss} field. */
  public int ss() { return raw.u16(66); }
  /** The {@code eflags} field. */
  public long eflags() { return raw.u32(68); }
  /** The {@code dr0} field. */
  public long dr0() { return raw.u64(72); }
  /** The {@code dr1} field. */
  public long dr1() { return raw.u64(80); }
  /** The {@code dr2} field. */
  public long dr2() { return raw.u64(88); }
  /** The {@code dr3} field. */
  public long dr3() { return raw.u64(96); }
  /** The {@code dr6} field. */
  public long dr6() { return raw.u64(104); }
  /** The {@code dr7} field. */
  public long dr7() { return raw.u64(112); }
  /** The {@code rax} field. */
  public long rax() { return raw.u64(120); }
  /** The {@code rcx} field. */
  public long rcx() { return raw.u64(128); }
  /** The {@code rdx} field. */
  public long rdx() { return raw.u64(136); }
  /** The {@code rbx} field. */
  public long rbx() { return raw.u64(144); }
  /** The {@code rsp} field. */
  public long rsp() { return raw.u64(152); }
  /** The {@code rbp} field. */
  public long rbp() { return raw.u64(160); }
  /** The {@code rsi} field. */
  public long rsi() { return raw.u64(168); }
  /** The {@code rdi} field. */
  public long rdi() { return raw.u64(176); }
  /** r8 .. r15. */
  public long r(int n) {
    if (n < 8 || n > 15) throw new IllegalArgumentException("r" + n);
    return raw.u64(184 + 8L * (n - 8));
  }
  /** The {@code rip} field. */
  public long rip() { return raw.u64(248); }
  /** The FXSAVE area (x87, MXCSR, xmm0..xmm15). */
  public byte[] floatSave() { return raw.bytes(256, 512); }
  /** The {@code vector_control} field. */
  public long vectorControl() { return raw.u64(1184); }
  /** The {@code debug_control} field. */
  public long debugControl() { return raw.u64(1192); }
  /** The {@code last_branch_to_rip} field. */
  public long lastBranchToRip() { return raw.u64(1200); }
  /** The {@code last_branch_from_rip} field. */
  public long lastBranchFromRip() { return raw.u64(1208); }
  /** The {@code last_exception_to_rip} field. */
  public long lastExceptionToRip() { return raw.u64(1216); }
  /** The {@code last_exception_from_rip} field. */
  public long lastExceptionFromRip() { return raw.u64(1224); }

  /** A general register by its name ({@code rax} .. {@code r15}, {@code rip}). */
  public long register(String name) {
    if (name.equals("rip")) return rip();
    for (int i = 0; i < GPR.length; i++) if (GPR[i].equals(name)) return raw.u64(120 + 8L * i);
    throw new IllegalArgumentException("no amd64 register " + name);
  }

  @Override
  public long pc() {
    return rip();
  }

  @Override
  public long sp() {
    return rsp();
  }

  @Override
  public void registers(Registers out) {
    out.clear();
    for (int i = 0; i < GPR.length; i++) out.set(GPR_DWARF[i], raw.u64(120 + 8L * i));
    out.set(16, rip());
    // DWARF x86-64: rflags 49, es 50, cs 51, ss 52, ds 53, fs 54, gs 55
    out.set(49, eflags());
    out.set(50, es());
    out.set(51, cs());
    out.set(52, ss());
    out.set(53, ds());
    out.set(54, fs());
    out.set(55, gs());
    out.pc(rip());
  }
}
