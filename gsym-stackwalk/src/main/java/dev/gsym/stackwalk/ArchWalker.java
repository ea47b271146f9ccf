package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.UnwindState;
import java.util.List;

/**
 * One architecture's stack walker (Breakpad's {@code Stackwalker} subclasses): the context frame,
 * then each caller by the architecture's strategies in Breakpad's order, with its scanning and
 * termination rules. Reads only the thread's stack memory.
 */
abstract class ArchWalker {
  /** Words a scan for a return address looks at (four times as many above the context frame). */
  static final int SCAN_WORDS = 40;

  final Arch arch;
  final int wordSize;
  final long mask;
  /** The thread's stack; null when it has none (only the context frame is then found). */
  final StackMemory memory;
  final FrameSymbolizer symbolizer;
  final SystemDescription system;
  final UnwindState row = new UnwindState();

  ArchWalker(Arch arch, StackMemory memory, FrameSymbolizer symbolizer, SystemDescription system) {
    this.arch = arch;
    this.wordSize = FrameRegisters.wordSize(arch);
    this.mask = wordSize == 4 ? 0xffff_ffffL : -1L;
    this.memory = memory;
    this.symbolizer = symbolizer;
    this.system = system;
  }

  /** The walker of {@code arch}, or null for an architecture that is not walked. */
  static ArchWalker of(Arch arch, StackMemory memory, FrameSymbolizer symbolizer, SystemDescription system) {
    return switch (arch) {
      case X86_64 -> new Amd64Walker(memory, symbolizer, system);
      case X86 -> new X86Walker(memory, symbolizer, system);
      case ARM -> new ArmWalker(memory, symbolizer, system);
      case AARCH64 -> new Arm64Walker(memory, symbolizer, system);
      default -> null;
    };
  }

  /** The frame of the thread's context. */
  abstract WalkFrame contextFrame(FrameRegisters context);

  /** The caller of the last real frame of {@code frames}, or null when the walk ends. */
  abstract WalkFrame callerFrame(List<WalkFrame> frames, boolean scanAllowed);

  /** The last frame that is not inlined (a walk always ends its frame list with one). */
  static WalkFrame last(List<WalkFrame> frames) {
    return frames.getLast();
  }

  boolean readable(long address) {
    return memory.readable(address & mask, wordSize);
  }

  long word(long address) {
    return memory.read(address & mask, wordSize);
  }

  /**
   * Breakpad's {@code ScanForReturnAddress}: the first word from {@code start} up to {@code words}
   * words above it (inclusive) that, less one, is in a module and seems a valid instruction; {@code
   * found[0]} gets its location, {@code found[1]} its value. Stops at the first unreadable word.
   */
  boolean scan(long start, int words, long[] found) {
    start &= mask;
    long end = (start + (long) words * wordSize) & mask;
    long location = start;
    for (int i = 0; i <= words && Long.compareUnsigned(location, end) <= 0; i++, location = (location + wordSize) & mask) {
      if (!readable(location)) break;
      long ip = word(location);
      long probe = (ip - 1) & mask;
      CodeModules modules = symbolizer.modules();
      if (modules != null && modules.forAddress(probe) != null && symbolizer.seemsValid(probe)) {
        found[0] = location;
        found[1] = ip;
        return true;
      }
    }
    return false;
  }

  /** {@link #scan} over 40 words, 160 above the context frame. */
  boolean scan(long start, boolean contextFrame, long[] found) {
    return scan(start, contextFrame ? SCAN_WORDS * 4 : SCAN_WORDS, found);
  }

  /**
   * Breakpad's {@code TerminateWalk}: an instruction address below 4 KiB ends the stack, and the
   * stack pointer must grow (or, on the first unwind, not shrink).
   */
  static boolean terminate(long callerIp, long callerSp, long calleeSp, boolean firstUnwind) {
    if (Long.compareUnsigned(callerIp, 1 << 12) < 0) return true;
    return firstUnwind ? Long.compareUnsigned(callerSp, calleeSp) < 0 : Long.compareUnsigned(callerSp, calleeSp) <= 0;
  }

  /** The CFI row at {@code frame}'s instruction from its module's symbols, in {@link #row}; false without one. */
  boolean cfi(WalkFrame frame) {
    return symbolizer.cfi(frame, row);
  }
}
