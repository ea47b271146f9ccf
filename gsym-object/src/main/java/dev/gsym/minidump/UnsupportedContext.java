package dev.gsym.minidump;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;

/**
 * A context of a CPU whose layout this reader does not decode (PowerPC, SPARC, MIPS, RISC-V): its
 * flags and size are known; it holds no registers.
 */
public record UnsupportedContext(int contextFlags, long size) implements CpuContext {
  static final int PPC_SIZE = 1004;
  static final int PPC64_SIZE = 1160;
  static final int SPARC_SIZE = 584;
  static final int MIPS_SIZE = 600;
  static final int RISCV_SIZE = 268;
  static final int RISCV64_SIZE = 528;

  @Override
  public Arch arch() {
    return null;
  }

  @Override
  public long pc() {
    throw new UnsupportedOperationException(String.format("context of CPU type 0x%x is not decoded", cpuType()));
  }

  @Override
  public long sp() {
    throw new UnsupportedOperationException(String.format("context of CPU type 0x%x is not decoded", cpuType()));
  }

  @Override
  public void registers(Registers out) {
    out.clear();
  }
}
