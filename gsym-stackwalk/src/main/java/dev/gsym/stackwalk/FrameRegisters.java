package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;
import java.util.Arrays;

/**
 * A frame's registers: a value for each register of the architecture's layout and which of them
 * are valid (a frame found by scanning knows its pc and stack pointer; the other values are kept,
 * as Breakpad keeps them, but are not valid). Registers are numbered as DWARF numbers them, plus the
 * pc: x86 {@code eax ecx edx ebx esp ebp esi edi eip eflags} (0-9); x86-64 {@code rax rdx rcx rbx
 * rsi rdi rbp rsp r8-r15 rip} (0-16); ARM {@code r0-r15} (sp 13, lr 14, pc 15); AArch64 {@code
 * x0-x30}, {@code sp} 31, {@code pc} 32. Immutable.
 */
public final class FrameRegisters {
  /** The validity of a context frame: every register, and the registers no layout names. */
  public static final long ALL = -1L;

  private final Arch arch;
  private final long[] values;
  private final long validity;

  private FrameRegisters(Arch arch, long[] values, long validity) {
    this.arch = arch;
    this.values = values;
    this.validity = validity;
  }

  /** Registers of {@code arch} with these values (indexes as above; 32-bit values are masked) and validity bits. */
  public static FrameRegisters of(Arch arch, long[] values, long validity) {
    int n = slots(arch);
    long[] v = Arrays.copyOf(values, n);
    if (wordSize(arch) == 4) for (int i = 0; i < n; i++) v[i] &= 0xffff_ffffL;
    return new FrameRegisters(arch, v, validity);
  }

  /** A context frame's registers ({@link #ALL} valid) from {@code regs} (DWARF numbers; AArch64's pc from {@link Registers#pc()}). */
  public static FrameRegisters context(Arch arch, Registers regs) {
    long[] v = new long[slots(arch)];
    for (int i = 0; i < v.length; i++) v[i] = regs.get(i);
    v[pcIndex(arch)] = regs.pc();
    return of(arch, v, ALL);
  }

  /** Number of registers in {@code arch}'s layout; 0 for an architecture the walker does not walk. */
  public static int slots(Arch arch) {
    return switch (arch) {
      case X86 -> 10;
      case X86_64 -> 17;
      case ARM -> 16;
      case AARCH64 -> 33;
      default -> 0;
    };
  }

  /** Bytes in a register (and a stack word) of {@code arch}. */
  public static int wordSize(Arch arch) {
    return arch.addressSize();
  }

  /** The index of the pc. */
  public static int pcIndex(Arch arch) {
    return switch (arch) {
      case X86 -> 8;
      case X86_64 -> 16;
      case ARM -> 15;
      case AARCH64 -> 32;
      default -> throw new IllegalArgumentException("no stack walking for " + arch);
    };
  }

  /** The index of the stack pointer. */
  public static int spIndex(Arch arch) {
    return switch (arch) {
      case X86 -> 4;
      case X86_64 -> 7;
      case ARM -> 13;
      case AARCH64 -> 31;
      default -> throw new IllegalArgumentException("no stack walking for " + arch);
    };
  }

  /** The architecture the registers are of. */
  public Arch arch() {
    return arch;
  }

  /** Whether register {@code i} is valid. */
  public boolean valid(int i) {
    return i >= 0 && i < 64 && (validity & (1L << i)) != 0;
  }

  /** Whether every register is valid (a context frame). */
  public boolean allValid() {
    return validity == ALL;
  }

  /** The validity bits (bit i: register i). */
  public long validity() {
    return validity;
  }

  /** The value of register {@code i}, valid or not. */
  public long value(int i) {
    return values[i];
  }

  /** The pc, valid or not. */
  public long pc() {
    return values[pcIndex(arch)];
  }

  /** The stack pointer, valid or not. */
  public long sp() {
    return values[spIndex(arch)];
  }

  /** A copy of the values. */
  long[] values() {
    return values.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FrameRegisters r && r.arch == arch && r.validity == validity && Arrays.equals(r.values, values);
  }

  @Override
  public int hashCode() {
    return arch.hashCode() * 31 + Long.hashCode(validity) * 17 + Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(arch.toString());
    for (int i = 0; i < values.length; i++) {
      sb.append(' ').append(i).append(valid(i) ? "=" : "~").append(Long.toHexString(values[i]));
    }
    return sb.toString();
  }
}
