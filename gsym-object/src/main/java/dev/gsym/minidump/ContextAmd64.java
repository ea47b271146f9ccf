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
  public static final int SIZE = 1232;
  public static final int CONTROL = CONTEXT_AMD64 | 0x1;
  public static final int INTEGER = CONTEXT_AMD64 | 0x2;
  public static final int SEGMENTS = CONTEXT_AMD64 | 0x4;
  public static final int FLOATING_POINT = CONTEXT_AMD64 | 0x8;
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

  public long mxCsr() { return raw.u32(52); }
  public int cs() { return raw.u16(56); }
  public int ds() { return raw.u16(58); }
  public int es() { return raw.u16(60); }
  public int fs() { return raw.u16(62); }
  public int gs() { return raw.u16(64); }
  public int ss() { return raw.u16(66); }
  public long eflags() { return raw.u32(68); }
  public long dr0() { return raw.u64(72); }
  public long dr1() { return raw.u64(80); }
  public long dr2() { return raw.u64(88); }
  public long dr3() { return raw.u64(96); }
  public long dr6() { return raw.u64(104); }
  public long dr7() { return raw.u64(112); }
  public long rax() { return raw.u64(120); }
  public long rcx() { return raw.u64(128); }
  public long rdx() { return raw.u64(136); }
  public long rbx() { return raw.u64(144); }
  public long rsp() { return raw.u64(152); }
  public long rbp() { return raw.u64(160); }
  public long rsi() { return raw.u64(168); }
  public long rdi() { return raw.u64(176); }
  /** r8 .. r15. */
  public long r(int n) {
    if (n < 8 || n > 15) throw new IllegalArgumentException("r" + n);
    return raw.u64(184 + 8L * (n - 8));
  }
  public long rip() { return raw.u64(248); }
  /** The FXSAVE area (x87, MXCSR, xmm0..xmm15). */
  public byte[] floatSave() { return raw.bytes(256, 512); }
  public long vectorControl() { return raw.u64(1184); }
  public long debugControl() { return raw.u64(1192); }
  public long lastBranchToRip() { return raw.u64(1200); }
  public long lastBranchFromRip() { return raw.u64(1208); }
  public long lastExceptionToRip() { return raw.u64(1216); }
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
