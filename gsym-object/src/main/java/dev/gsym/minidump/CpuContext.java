package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;

/**
 * A thread's registers ({@code CONTEXT} / Breakpad's {@code MDRawContext*}) as a minidump holds
 * them: x86, amd64, 32-bit ARM and AArch64 are read (AArch64 in both the current layout and the
 * older one Breakpad's Linux writer still produces, converted as Breakpad converts it); contexts of
 * the other CPUs are recognised and reported as {@link UnsupportedContext}.
 *
 * <p>Which layout a context has is decided as Breakpad's {@code MinidumpContext::Read} decides it,
 * from its size, its {@code context_flags} CPU bits and the system info's CPU: a size of 1232
 * bytes, or at least that on an amd64 system (the rest is XSAVE state, at most {@link
 * #MAX_XSAVE_SIZE} bytes), is amd64; 1160 bytes PowerPC 64; 796 bytes old AArch64; otherwise the
 * CPU bits of the u32 flags (the system info's when they are 0; the legacy ARM bit 0x40 when set)
 * pick the layout, whose size must match exactly. The context's CPU must agree with the system
 * info's, when the dump has a readable one.
 */
public sealed interface CpuContext permits ContextX86, ContextAmd64, ContextArm, ContextArm64, UnsupportedContext {
  /** The CPU-type bits of {@code context_flags}. */
  int CPU_MASK = 0xffffff00;
  /** The CPU-type bits of a x86 context. */
  int CONTEXT_X86 = 0x00010000;
  /** The CPU-type bits of a x86-64 context. */
  int CONTEXT_AMD64 = 0x00100000;
  /** The CPU-type bits of a ARM context. */
  int CONTEXT_ARM = 0x40000000;
  /** The ARM CPU bit of old dumps (Windows CE's value, which collides with CONTEXT_XSTATE). */
  int CONTEXT_ARM_OLD = 0x00000040;
  /** The CPU-type bits of a AArch64 context. */
  int CONTEXT_ARM64 = 0x00400000;
  /** The CPU-type bits of a AArch64 (old layout) context. */
  int CONTEXT_ARM64_OLD = 0x80000000;
  /** The CPU-type bits of a PowerPC context. */
  int CONTEXT_PPC = 0x20000000;
  /** The CPU-type bits of a PowerPC 64 context. */
  int CONTEXT_PPC64 = 0x01000000;
  /** The CPU-type bits of a SPARC context. */
  int CONTEXT_SPARC = 0x10000000;
  /** The CPU-type bits of a MIPS context. */
  int CONTEXT_MIPS = 0x00040000;
  /** The CPU-type bits of a MIPS 64 context. */
  int CONTEXT_MIPS64 = 0x00080000;
  /** The CPU-type bits of a RISC-V context. */
  int CONTEXT_RISCV = 0x00800000;
  /** The CPU-type bits of a RISC-V 64 context. */
  int CONTEXT_RISCV64 = 0x08000000;
  /** The CPU-type bits of a IA-64 context. */
  int CONTEXT_IA64 = 0x00080000;
  /** The CPU-type bits of a SuperH context. */
  int CONTEXT_SHX = 0x000000c0;
  /** The CPU-type bits of a Alpha context. */
  int CONTEXT_ALPHA = 0x00020000;

  /** Largest XSAVE area after an amd64 context that Breakpad accepts. */
  int MAX_XSAVE_SIZE = 16384;

  /** {@code context_flags} as Breakpad keeps it (the CPU bits filled in from the system info when absent). */
  int contextFlags();

  /** The CPU bits of {@link #contextFlags()} ({@code CONTEXT_X86}, ...). */
  default int cpuType() {
    return contextFlags() & CPU_MASK;
  }

  /** The architecture, or null for an unsupported CPU. */
  Arch arch();

  /** The instruction pointer (eip, rip, pc). */
  long pc();

  /** The stack pointer (esp, rsp, sp). */
  long sp();

  /**
   * Clears {@code out}, then sets every general register this context holds under its DWARF number
   * of {@link #arch()} (the segment and flag registers too where DWARF numbers them), and the pc.
   */
  void registers(Registers out);

  /**
   * Reads the context {@code location} names; {@code at} is the file offset of the location
   * descriptor (reported when the context cannot be read).
   */
  static CpuContext read(Minidump dump, Location location, long at) {
    long size = location.dataSize();
    SystemInfo system = dump.systemInfoOrNull();
    int systemCpu = system == null ? 0 : system.contextCpuType();
    ByteView file = dump.file();
    if (!location.inside(dump.size())) {
      throw dump.error(at, "CPU context: " + location + " extends past the end of the file (" + dump.size() + " bytes)");
    }
    long rva = location.rva();
    if (size == ContextAmd64.SIZE || (systemCpu == CONTEXT_AMD64 && size >= ContextAmd64.SIZE)) {
      if (size - ContextAmd64.SIZE > MAX_XSAVE_SIZE) {
        throw dump.error(at, "amd64 context of " + size + " bytes: an XSAVE area larger than " + MAX_XSAVE_SIZE + " bytes");
      }
      int flags = file.s32(rva + 48);
      if ((flags & CPU_MASK) != CONTEXT_AMD64) {
        throw dump.error(rva + 48, String.format("context of %d bytes (amd64's size) has context_flags 0x%x, not amd64's", size, flags));
      }
      check(dump, system, CONTEXT_AMD64, rva);
      return new ContextAmd64(file.slice(rva, ContextAmd64.SIZE), flags);
    }
    if (size == ContextArm64.OLD_SIZE) {
      long flags64 = file.u64(rva);
      int cpu = (int) flags64 & CPU_MASK;
      if (cpu == 0) cpu = systemCpu;
      if (cpu != CONTEXT_ARM64_OLD) {
        throw dump.error(rva, String.format("context of %d bytes (old arm64's size) has context_flags 0x%x, not arm64's", size, flags64));
      }
      check(dump, system, CONTEXT_ARM64_OLD, rva);
      return ContextArm64.fromOld(file.slice(rva, size), flags64);
    }
    if (size == UnsupportedContext.PPC64_SIZE) {
      long flags64 = file.u64(rva);
      int cpu = (int) flags64 & CPU_MASK;
      if (cpu == 0) cpu = systemCpu;
      if (cpu != CONTEXT_PPC64) {
        throw dump.error(rva, String.format("context of %d bytes (ppc64's size) has context_flags 0x%x, not ppc64's", size, flags64));
      }
      check(dump, system, CONTEXT_PPC64, rva);
      return new UnsupportedContext((int) flags64, size);
    }
    if (size < 4) throw dump.error(at, "CPU context of " + size + " bytes has no context_flags");
    int flags = file.s32(rva);
    int cpu = flags & CPU_MASK;
    if (cpu == 0 && (flags & CONTEXT_ARM_OLD) != 0) {
      flags = (flags | CONTEXT_ARM) & ~CONTEXT_ARM_OLD;
      cpu = CONTEXT_ARM;
    }
    if (cpu == 0) {
      cpu = systemCpu;
      flags |= cpu;
    }
    long expected = switch (cpu) {
      case CONTEXT_X86 -> ContextX86.SIZE;
      case CONTEXT_ARM -> ContextArm.SIZE;
      case CONTEXT_ARM64 -> ContextArm64.SIZE;
      case CONTEXT_PPC -> UnsupportedContext.PPC_SIZE;
      case CONTEXT_SPARC -> UnsupportedContext.SPARC_SIZE;
      case CONTEXT_MIPS, CONTEXT_MIPS64 -> UnsupportedContext.MIPS_SIZE;
      case CONTEXT_RISCV -> UnsupportedContext.RISCV_SIZE;
      case CONTEXT_RISCV64 -> UnsupportedContext.RISCV64_SIZE;
      default -> throw dump.error(rva, String.format("CPU context of %d bytes with context_flags 0x%x: unknown CPU type 0x%x", size,
          file.s32(rva), cpu));
    };
    if (size != expected) {
      throw dump.error(at, String.format("CPU context of type 0x%x is %d bytes, not %d", cpu, size, expected));
    }
    check(dump, system, cpu, rva);
    ByteView raw = file.slice(rva, size);
    return switch (cpu) {
      case CONTEXT_X86 -> new ContextX86(raw, flags);
      case CONTEXT_ARM -> new ContextArm(raw, flags);
      case CONTEXT_ARM64 -> new ContextArm64(raw, flags, false);
      default -> new UnsupportedContext(flags, size);
    };
  }

  /** Breakpad's {@code CheckAgainstSystemInfo}: the context's CPU must be the system's. */
  private static void check(Minidump dump, SystemInfo system, int cpu, long at) {
    if (system == null) return;
    int arch = system.processorArchitecture();
    boolean ok = switch (cpu) {
      case CONTEXT_X86 -> arch == SystemInfo.CPU_X86 || arch == SystemInfo.CPU_X86_WIN64 || arch == SystemInfo.CPU_AMD64;
      case CONTEXT_PPC -> arch == SystemInfo.CPU_PPC;
      case CONTEXT_PPC64 -> arch == SystemInfo.CPU_PPC64;
      case CONTEXT_AMD64 -> arch == SystemInfo.CPU_AMD64;
      case CONTEXT_SPARC -> arch == SystemInfo.CPU_SPARC;
      case CONTEXT_ARM -> arch == SystemInfo.CPU_ARM;
      case CONTEXT_ARM64 -> arch == SystemInfo.CPU_ARM64;
      case CONTEXT_ARM64_OLD -> arch == SystemInfo.CPU_ARM64_OLD;
      case CONTEXT_MIPS -> arch == SystemInfo.CPU_MIPS;
      case CONTEXT_MIPS64 -> arch == SystemInfo.CPU_MIPS64;
      case CONTEXT_RISCV -> arch == SystemInfo.CPU_RISCV;
      case CONTEXT_RISCV64 -> arch == SystemInfo.CPU_RISCV64;
      default -> false;
    };
    if (!ok) {
      throw dump.error(at, String.format("CPU context of type 0x%x does not match the system info's CPU 0x%x (%s)", cpu, arch,
          system.cpu()));
    }
  }
}
