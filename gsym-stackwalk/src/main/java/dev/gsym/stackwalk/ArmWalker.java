package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import java.util.List;

/**
 * 32-bit ARM (Breakpad's {@code StackwalkerARM}): CFI (not on iOS), the frame pointer where the
 * system has one (r7 on iOS; Breakpad uses none elsewhere), then stack scanning.
 */
final class ArmWalker extends ArchWalker {
  static final int SP = 13;
  static final int LR = 14;
  static final int PC = 15;
  static final String[] NAMES = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr",
      "pc"};
  /** iOS keeps its frame pointer in r7. */
  private static final int IOS_FP = 7;

  private final int fpRegister;
  private final CfiRules.Caller caller = new CfiRules.Caller(16);
  private final long[] found = new long[2];

  ArmWalker(StackMemory memory, FrameSymbolizer symbolizer, SystemDescription system) {
    super(Arch.ARM, memory, symbolizer, system);
    this.fpRegister = system.osShort().equals("ios") ? IOS_FP : -1;
  }

  @Override
  WalkFrame contextFrame(FrameRegisters context) {
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < f.regs.length; i++) f.put(i, context.value(i));
    f.valid = FrameRegisters.ALL;
    f.trust = FrameTrust.CONTEXT;
    f.instruction = f.get(PC);
    return f;
  }

  @Override
  WalkFrame callerFrame(List<WalkFrame> frames, boolean scanAllowed) {
    if (memory == null) return null;
    WalkFrame last = last(frames);
    WalkFrame f = null;
    if (!system.os().equals("iOS") && cfi(last)) f = byCfi(last);
    if (fpRegister >= 0 && f == null) f = byFramePointer(last);
    if (scanAllowed && f == null) f = byScan(last);
    if (f == null) return null;
    if (terminate(f.get(PC), f.get(SP), last.get(SP), last.trust == FrameTrust.CONTEXT)) return null;
    // inside the call instruction (not its start, but on its line)
    f.instruction = (f.get(PC) - 2) & mask;
    return f;
  }

  private WalkFrame byCfi(WalkFrame last) {
    if (!CfiRules.apply(arch, row, NAMES, last.regs, last.valid, memory, 4, caller)) return null;
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < NAMES.length; i++) {
      if ((caller.valid & (1L << i)) != 0) f.set(i, caller.values[i]);
      else if (i >= 4 && i <= 11 && last.valid(i)) f.set(i, last.get(i)); // r4-r11 are callee-saved
    }
    if (!f.valid(PC)) {
      if (fpRegister == -1) {
        f.set(PC, caller.ra);
      } else {
        // the CFI recovered the link register: the pc is the callee's lr
        f.set(LR, caller.ra);
        f.set(PC, last.get(LR));
      }
    }
    if (!f.valid(SP)) f.set(SP, caller.cfa);
    f.trust = FrameTrust.CFI;
    return f;
  }

  private WalkFrame byScan(WalkFrame last) {
    if (!scan(last.get(SP), last.trust == FrameTrust.CONTEXT, found)) return null;
    WalkFrame f = WalkFrame.copyOf(last);
    f.valid = 0;
    f.trust = FrameTrust.SCAN;
    f.set(PC, found[1]);
    f.set(SP, found[0] + 4);
    return f;
  }

  private WalkFrame byFramePointer(WalkFrame last) {
    if (!last.valid(fpRegister)) return null;
    long fp = last.get(fpRegister);
    long callerFp = 0;
    long callerLr = 0;
    if (fp != 0) {
      if (!readable(fp)) return null;
      callerFp = word(fp);
      if (!readable(fp + 4)) return null;
      callerLr = word(fp + 4);
    }
    long callerSp = fp != 0 ? fp + 8 : last.get(SP);
    WalkFrame f = WalkFrame.copyOf(last);
    f.valid = 0;
    f.trust = FrameTrust.FP;
    f.set(fpRegister, callerFp);
    f.set(SP, callerSp);
    f.set(PC, last.get(LR));
    f.set(LR, callerLr);
    return f;
  }
}
