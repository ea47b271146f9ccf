package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import java.util.List;

/**
 * AArch64 (Breakpad's {@code StackwalkerARM64}): CFI, then the frame pointer (x29), then stack
 * scanning. Return addresses with pointer-authentication bits are stripped to the range of the
 * loaded modules.
 */
final class Arm64Walker extends ArchWalker {
  static final int FP = 29;
  static final int LR = 30;
  static final int SP = 31;
  static final int PC = 32;
  static final String[] NAMES = new String[33];

  static {
    for (int i = 0; i <= 30; i++) NAMES[i] = "x" + i;
    NAMES[SP] = "sp";
    NAMES[PC] = "pc";
  }

  private final CfiRules.Caller caller = new CfiRules.Caller(33);
  private final long[] found = new long[2];
  /** The bits of an address in the loaded modules' range (pointer-authentication bits are above). */
  private final long addressMask;

  Arm64Walker(StackMemory memory, FrameSymbolizer symbolizer, SystemDescription system) {
    super(Arch.AARCH64, memory, symbolizer, system);
    CodeModules modules = symbolizer.modules();
    long m = -1L;
    if (modules != null && modules.size() > 0) {
      CodeModule high = modules.inAddressOrder().getLast();
      m = high.base() + high.size();
      m |= m >>> 1;
      m |= m >>> 2;
      m |= m >>> 4;
      m |= m >>> 8;
      m |= m >>> 16;
      m |= m >>> 32;
    }
    this.addressMask = m;
  }

  /** {@code p} without pointer-authentication bits, when that lands in a module; else unchanged. */
  private long strip(long p) {
    long stripped = p & addressMask;
    CodeModules modules = symbolizer.modules();
    return modules != null && modules.forAddress(stripped) != null ? stripped : p;
  }

  @Override
  WalkFrame contextFrame(FrameRegisters context) {
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < f.regs.length; i++) f.put(i, context.value(i));
    f.valid = FrameRegisters.ALL;
    f.trust = FrameTrust.CONTEXT;
    f.instruction = f.get(PC);
    f.put(LR, strip(f.get(LR)));
    return f;
  }

  @Override
  WalkFrame callerFrame(List<WalkFrame> frames, boolean scanAllowed) {
    if (memory == null) return null;
    WalkFrame last = last(frames);
    WalkFrame f = null;
    if (cfi(last)) f = byCfi(last);
    if (f == null) f = byFramePointer(frames, last);
    if (scanAllowed && f == null) f = byScan(last);
    if (f == null) return null;
    if (terminate(f.get(PC), f.get(SP), last.get(SP), last.trust == FrameTrust.CONTEXT)) return null;
    // instructions are 4 bytes: the call instruction itself
    f.instruction = f.get(PC) - 4;
    return f;
  }

  private WalkFrame byCfi(WalkFrame last) {
    if (!CfiRules.apply(arch, row, NAMES, last.regs, last.valid, memory, 8, caller)) return null;
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < NAMES.length; i++) {
      if ((caller.valid & (1L << i)) != 0) f.set(i, caller.values[i]);
      else if (i >= 19 && i <= 29 && last.valid(i)) f.set(i, last.get(i)); // x19-x29 are callee-saved
    }
    if (!f.valid(PC)) f.set(PC, caller.ra);
    if (!f.valid(SP)) f.set(SP, caller.cfa);
    f.put(PC, strip(f.get(PC)));
    f.trust = FrameTrust.CFI;
    return f;
  }

  private WalkFrame byScan(WalkFrame last) {
    if (!scan(last.get(SP), last.trust == FrameTrust.CONTEXT, found)) return null;
    WalkFrame f = WalkFrame.copyOf(last);
    f.valid = 0;
    f.trust = FrameTrust.SCAN;
    f.set(PC, found[1]);
    f.set(SP, found[0] + 8);
    return f;
  }

  private WalkFrame byFramePointer(List<WalkFrame> frames, WalkFrame last) {
    if (!last.valid(LR)) correctLr(frames, last);
    long fp = last.get(FP);
    long callerFp = 0;
    long callerLr = 0;
    if (fp != 0) {
      if (!readable(fp)) return null;
      callerFp = word(fp);
      if (!readable(fp + 8)) return null;
      callerLr = word(fp + 8);
    }
    callerLr = strip(callerLr);
    long callerSp = fp != 0 ? fp + 16 : last.get(SP);
    WalkFrame f = WalkFrame.copyOf(last);
    f.valid = 0;
    f.trust = FrameTrust.FP;
    f.set(FP, callerFp);
    f.set(SP, callerSp);
    f.set(PC, last.get(LR));
    f.set(LR, callerLr);
    return f;
  }

  /**
   * Breakpad's {@code CorrectRegLRByFramePointer}: when the frame's lr is not known, take it from
   * the frame record its callee's fp points at, if that record's fp is this frame's fp.
   */
  private void correctLr(List<WalkFrame> frames, WalkFrame last) {
    if (frames.size() < 2 || Long.compareUnsigned(last.get(FP), last.get(SP)) <= 0) return;
    WalkFrame callee = frames.get(frames.size() - 2);
    if (callee.inline) return; // Breakpad would read an inlined frame's missing registers here
    long calleeFp = callee.get(FP);
    long fp = 0;
    if (calleeFp != 0) {
      if (!readable(calleeFp)) return;
      fp = word(calleeFp);
    }
    if (last.get(FP) != fp) return;
    long lr = 0;
    if (calleeFp != 0) {
      if (!readable(calleeFp + 8)) return;
      lr = word(calleeFp + 8);
    }
    last.put(LR, strip(lr));
  }
}
