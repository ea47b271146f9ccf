package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.WindowsFrameInfo;

/**
 * A frame while its thread is being walked: mutable (AArch64's walker corrects a callee's lr, the
 * symbolizer fills the names), turned into a {@link StackFrame} when the walk ends. Registers are
 * kept with their values even when not valid, as Breakpad keeps them: some walkers read them.
 */
final class WalkFrame {
  final Arch arch;
  final long[] regs;
  long valid;
  long instruction;
  FrameTrust trust;
  boolean inline;
  CodeModule module;
  String function = "";
  long functionBase;
  String sourceFile = "";
  int sourceLine;
  long sourceLineBase;
  /** x86: the Windows frame data used to find this frame's caller (its parameter size serves the caller's caller). */
  WindowsFrameInfo windowsFrameInfo;
  /** x86: the parameter size of {@link #windowsFrameInfo}, or -1 when it has none. */
  long parameterSize = -1;

  WalkFrame(Arch arch) {
    this.arch = arch;
    this.regs = new long[FrameRegisters.slots(arch)];
  }

  /** A copy of {@code other}'s registers (values and validity) in a new frame. */
  static WalkFrame copyOf(WalkFrame other) {
    WalkFrame f = new WalkFrame(other.arch);
    System.arraycopy(other.regs, 0, f.regs, 0, f.regs.length);
    f.valid = other.valid;
    return f;
  }

  boolean valid(int i) {
    return (valid & (1L << i)) != 0;
  }

  long get(int i) {
    return regs[i];
  }

  void set(int i, long v) {
    regs[i] = FrameRegisters.wordSize(arch) == 4 ? v & 0xffff_ffffL : v;
    valid |= 1L << i;
  }

  /** Sets a value without making it valid. */
  void put(int i, long v) {
    regs[i] = FrameRegisters.wordSize(arch) == 4 ? v & 0xffff_ffffL : v;
  }

  long pc() {
    return regs[FrameRegisters.pcIndex(arch)];
  }

  long sp() {
    return regs[FrameRegisters.spIndex(arch)];
  }

  /** The address minidump_stackwalk prints offsets from: the return address on x86 and x86-64, else the instruction. */
  long returnAddress() {
    if (!inline && (arch == Arch.X86 || arch == Arch.X86_64)) return pc();
    return instruction;
  }

  /** An inlined frame inside this one: a copy of its fields (registers excepted), trust {@link FrameTrust#INLINE}. */
  WalkFrame inlinedCopy() {
    WalkFrame f = new WalkFrame(arch);
    f.inline = true;
    f.instruction = instruction;
    f.module = module;
    f.function = function;
    f.functionBase = functionBase;
    f.sourceFile = sourceFile;
    f.sourceLine = sourceLine;
    f.sourceLineBase = sourceLineBase;
    f.trust = FrameTrust.INLINE;
    return f;
  }

  StackFrame toStackFrame() {
    return new StackFrame(instruction, returnAddress(), module, function, functionBase, sourceFile, sourceLine, sourceLineBase,
        trust, inline ? null : FrameRegisters.of(arch, regs, valid));
  }
}
