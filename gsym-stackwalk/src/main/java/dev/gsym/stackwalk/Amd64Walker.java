package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import java.util.List;

/**
 * x86-64 (Breakpad's {@code StackwalkerAMD64}): CFI; on Windows, above the context frame, a
 * simulated return from a leaf function; elsewhere the frame pointer (rbp); then stack scanning.
 */
final class Amd64Walker extends ArchWalker {
  static final int RBP = 6;
  static final int RSP = 7;
  static final int RIP = 16;
  /** Breakpad's CFI names of rax..r15, rip (the DWARF order). */
  static final String[] NAMES = {"$rax", "$rdx", "$rcx", "$rbx", "$rsi", "$rdi", "$rbp", "$rsp", "$r8", "$r9", "$r10", "$r11",
      "$r12", "$r13", "$r14", "$r15", "$rip"};
  /** rbx, rbp, r12-r15: kept from the callee when the CFI does not mention them. */
  private static final long CALLEE_SAVED = 1L << 3 | 1L << 6 | 1L << 12 | 1L << 13 | 1L << 14 | 1L << 15;
  /** What a CFI walker's new frame holds before the rules fill it (Breakpad's memset with 0xda). */
  static final long UNSET = 0xdadadadadadadadaL;

  private final CfiRules.Caller caller = new CfiRules.Caller(17);
  private final long[] found = new long[2];

  Amd64Walker(StackMemory memory, FrameSymbolizer symbolizer, SystemDescription system) {
    super(Arch.X86_64, memory, symbolizer, system);
  }

  @Override
  WalkFrame contextFrame(FrameRegisters context) {
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < f.regs.length; i++) f.put(i, context.value(i));
    f.valid = FrameRegisters.ALL;
    f.trust = FrameTrust.CONTEXT;
    f.instruction = f.get(RIP);
    return f;
  }

  @Override
  WalkFrame callerFrame(List<WalkFrame> frames, boolean scanAllowed) {
    if (memory == null) return null;
    WalkFrame last = last(frames);
    WalkFrame f = null;
    if (cfi(last)) f = byCfi(last);
    boolean windows = system.osShort().equals("windows");
    if (f == null && last.trust == FrameTrust.CONTEXT && windows) f = bySimulatingReturn(last);
    if (f == null && !windows) f = byFramePointer(last);
    if (scanAllowed && f == null) f = byScan(last);
    if (f == null) return null;
    if (system.osShort().equals("nacl")) {
      // Native Client's sandbox: only the low 32 bits of these are the addresses
      f.put(RIP, f.get(RIP) & 0xffff_ffffL);
      f.put(RSP, f.get(RSP) & 0xffff_ffffL);
      f.put(RBP, f.get(RBP) & 0xffff_ffffL);
    }
    if (terminate(f.get(RIP), f.get(RSP), last.get(RSP), last.trust == FrameTrust.CONTEXT)) return null;
    f.instruction = f.get(RIP) - 1;
    return f;
  }

  private WalkFrame byCfi(WalkFrame last) {
    if (!CfiRules.apply(arch, row, NAMES, last.regs, last.valid, memory, 8, caller)) return null;
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < NAMES.length; i++) {
      if ((caller.valid & (1L << i)) != 0) f.set(i, caller.values[i]);
      else if (i == RSP) f.set(i, caller.cfa);
      else if (i == RIP) f.set(i, caller.ra);
      else if ((CALLEE_SAVED & (1L << i)) != 0 && last.valid(i)) f.set(i, last.get(i));
      else f.put(i, UNSET);
    }
    if (f.get(RIP) == 0 || f.get(RSP) == 0) return null;
    f.trust = FrameTrust.CFI;
    return f;
  }

  /** Whether {@code p} is not in x86-64 canonical form (bits 47-63 not all equal). */
  private static boolean nonCanonical(long p) {
    return Long.compareUnsigned(p, 0x7FFFFFFFFFFFL) > 0 && Long.compareUnsigned(p, 0xFFFF800000000000L) < 0;
  }

  private WalkFrame byFramePointer(WalkFrame last) {
    long rbp = last.get(RBP);
    if (rbp % 8 != 0) return null;
    if (!readable(rbp + 8) || !readable(rbp)) return null;
    long rip = word(rbp + 8);
    long callerRbp = word(rbp);
    long rsp = rbp + 16;
    if (nonCanonical(rip)) return null;
    if (Long.compareUnsigned(rsp, rbp) <= 0 || Long.compareUnsigned(callerRbp, rsp) < 0) return null;
    if (!readable(callerRbp)) return null;
    WalkFrame f = WalkFrame.copyOf(last);
    f.valid = 0;
    f.set(RIP, rip);
    f.set(RSP, rsp);
    f.set(RBP, callerRbp);
    f.trust = FrameTrust.FP;
    return f;
  }

  private WalkFrame bySimulatingReturn(WalkFrame last) {
    if (!scan(last.get(RSP), 1, found)) return null;
    WalkFrame f = WalkFrame.copyOf(last);
    f.trust = FrameTrust.LEAF;
    f.put(RIP, found[1]);
    f.put(RSP, found[0] + 8);
    return f;
  }

  private WalkFrame byScan(WalkFrame last) {
    if (!scan(last.get(RSP), last.trust == FrameTrust.CONTEXT, found)) return null;
    long location = found[0];
    WalkFrame f = WalkFrame.copyOf(last);
    f.valid = 0;
    f.trust = FrameTrust.SCAN;
    f.set(RIP, found[1]);
    f.set(RSP, location + 8);
    if (last.valid(RBP)) {
      // a function pushes its caller's rbp right below the return address and points rbp at it
      if (location - 8 == last.get(RBP)) {
        if (readable(last.get(RBP))) {
          long callerRbp = word(last.get(RBP));
          if (Long.compareUnsigned(callerRbp, location) > 0) f.set(RBP, callerRbp);
        }
      } else if (Long.compareUnsigned(last.get(RBP), location + 8) >= 0) {
        f.set(RBP, last.get(RBP)); // a plausible caller's rbp the callee left alone
      }
    }
    return f;
  }
}
