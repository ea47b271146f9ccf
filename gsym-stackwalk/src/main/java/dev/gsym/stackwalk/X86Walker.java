package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.WindowsFrameInfo;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * 32-bit x86 (Breakpad's {@code StackwalkerX86}): Windows frame data ({@code STACK WIN}: its program
 * string, or the FPO rules, with Breakpad's scans for a better return address and frame pointer),
 * then CFI, then the frame pointer (ebp) chain, falling back to scanning.
 */
final class X86Walker extends ArchWalker {
  static final int EAX = 0;
  static final int EBX = 3;
  static final int ESP = 4;
  static final int EBP = 5;
  static final int ESI = 6;
  static final int EDI = 7;
  static final int EIP = 8;
  /** Breakpad's CFI names by DWARF number; eflags (9) is not in its map. */
  static final String[] NAMES = {"$eax", "$ecx", "$edx", "$ebx", "$esp", "$ebp", "$esi", "$edi", "$eip", null};
  /** ebx, ebp, esi, edi. */
  private static final long CALLEE_SAVED = 1L << EBX | 1L << EBP | 1L << ESI | 1L << EDI;
  /** A larger gap between two frames is not believed when the ebp chain is recovered after a scan. */
  private static final long MAX_REASONABLE_GAP = 128 * 1024;
  /** STACK WIN types. */
  private static final int FPO = 0;

  private final CfiRules.Caller caller = new CfiRules.Caller(10);
  private final long[] found = new long[2];
  private final long[] parameterSize = new long[1];

  X86Walker(StackMemory memory, FrameSymbolizer symbolizer, SystemDescription system) {
    // a stack above 4 GiB cannot be an x86 stack: Breakpad walks no further than the context frame
    super(Arch.X86, memory != null && Long.compareUnsigned(memory.base() + memory.size() - 1, 0xffff_ffffL) > 0 ? null : memory,
        symbolizer, system);
  }

  @Override
  WalkFrame contextFrame(FrameRegisters context) {
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < f.regs.length; i++) f.put(i, context.value(i));
    f.valid = FrameRegisters.ALL;
    f.trust = FrameTrust.CONTEXT;
    f.instruction = f.get(EIP);
    return f;
  }

  @Override
  WalkFrame callerFrame(List<WalkFrame> frames, boolean scanAllowed) {
    if (memory == null) return null;
    WalkFrame last = last(frames);
    WalkFrame f = null;
    WindowsFrameInfo win = symbolizer.windowsFrameInfo(last, parameterSize);
    if (win != null || parameterSize[0] >= 0) f = byWindowsFrameInfo(frames, win, parameterSize[0], scanAllowed);
    if (f == null && cfi(last)) f = byCfi(last);
    if (f == null) f = byFramePointer(last, scanAllowed);
    if (f == null) return null;
    if (terminate(f.get(EIP), f.get(ESP), last.get(ESP), last.trust == FrameTrust.CONTEXT)) return null;
    f.instruction = (f.get(EIP) - 1) & mask;
    return f;
  }

  /** The parameter size a frame's Windows frame data declares (STACK WIN or FUNC), or -1. */
  private static long declaredParameterSize(WalkFrame f) {
    if (f.windowsFrameInfo != null) return f.windowsFrameInfo.parameterSize();
    return f.parameterSize;
  }

  private WalkFrame byWindowsFrameInfo(List<WalkFrame> frames, WindowsFrameInfo info, long funcParameterSize,
      boolean scanAllowed) {
    WalkFrame last = last(frames);
    // kept for the frames above: their callee's parameter size
    last.windowsFrameInfo = info;
    last.parameterSize = info == null ? funcParameterSize : -1;
    if (info == null) return null; // a FUNC's parameter size alone: other strategies walk this frame
    FrameTrust trust;
    // Breakpad takes the parameter size of the innermost frame below that declares one
    long calleeParameters = 0;
    for (int i = frames.size() - 2; i >= 0; i--) {
      WalkFrame callee = frames.get(i);
      if (callee.inline) continue;
      long p = declaredParameterSize(callee);
      if (p >= 0) calleeParameters = p;
    }
    Map<String, Long> dict = new HashMap<>();
    dict.put("$ebp", last.get(EBP));
    dict.put("$esp", last.get(ESP));
    if (last.valid(EBX)) dict.put("$ebx", last.get(EBX));
    dict.put(".cbCalleeParams", calleeParameters & mask);
    dict.put(".cbSavedRegs", info.savedRegisterSize() & mask);
    dict.put(".cbLocals", info.localSize() & mask);
    long raSearchStart = (last.get(ESP) + calleeParameters + info.localSize() + info.savedRegisterSize()) & mask;
    long raSearchStartOld = raSearchStart;
    // look up to three words further, in case the stack was aligned
    if (scan(raSearchStart, 3, found)) {
      raSearchStart = found[0];
      if (last.trust == FrameTrust.CONTEXT && info.type() == FPO && raSearchStartOld == raSearchStart
          && found[1] == last.get(EIP)) {
        // an FPO system call in the context frame: the callee returned, its return address still on
        // top of the stack; skip it
        raSearchStart = (raSearchStart + 4) & mask;
        if (scan(raSearchStart, 3, found)) raSearchStart = found[0];
      }
    }
    dict.put(".cbParams", info.parameterSize() & mask);
    String program;
    boolean recoverEbp = true;
    trust = FrameTrust.CFI;
    if (info.programString() != null && !info.programString().isEmpty()) {
      program = info.programString();
    } else if (info.allocatesBasePointer()) {
      program = "$eip .raSearchStart ^ = $ebp $esp .cbCalleeParams + .cbSavedRegs + 8 - ^ = $esp .raSearchStart 4 + =";
    } else {
      program = "$eip .raSearchStart ^ = $esp .raSearchStart 4 + =";
      if (last.valid(EBX)) program += " $ebx $ebx =";
      recoverEbp = false;
    }
    // an aligned stack pointer: only ebp leads to the return address
    if (last.valid(EBP) && program.indexOf('@') >= 0) raSearchStart = (last.get(EBP) + 4) & mask;
    dict.put(".raSearchStart", raSearchStart);
    dict.put(".raSearch", raSearchStart);
    Set<String> assigned = new HashSet<>();
    Postfix evaluator = new Postfix(dict, memory, 4);
    if (!evaluator.evaluate(program, assigned) || !assigned.contains("$eip") || !assigned.contains("$esp")) {
      // the program failed (ebp pointing outside the stack, say): scan for a return address
      if (!scanAllowed || !scan(last.get(ESP), last.trust == FrameTrust.CONTEXT, found)) return null;
      dict.put("$eip", found[1]);
      dict.put("$esp", (found[0] + 4) & mask);
      trust = FrameTrust.SCAN;
    }
    // unless the program found the end of the stack (eip and ebp both 0), check the return address
    if (get(dict, "$eip") != 0 || get(dict, "$ebp") != 0) {
      long offset = 0;
      long eip = get(dict, "$eip");
      CodeModules modules = symbolizer.modules();
      if (modules != null && modules.forAddress(eip) == null) {
        // not in a module: look for a better one from the word above .raSearchStart
        long start = (get(dict, ".raSearchStart") + 4) & mask;
        if (scanAllowed && scan(start, last.trust == FrameTrust.CONTEXT, found)) {
          dict.put("$eip", found[1]);
          dict.put("$esp", (found[0] + 4) & mask);
          offset = (found[0] - start) & mask;
          trust = FrameTrust.CFI_SCAN;
        }
      }
      if (recoverEbp) {
        // look for the caller's ebp in the saved-register area (from its top down), grown by the
        // scan's offset, when the program's ebp is unusable or frames were skipped
        long ebp = get(dict, "$ebp");
        boolean skipped = trust != FrameTrust.CFI && Long.compareUnsigned(ebp, (raSearchStart + offset) & mask) <= 0;
        if (skipped || !readable(ebp)) {
          long searchBytes = (info.savedRegisterSize() + offset) & 0xffff_ffffL;
          long end = (last.get(ESP) + calleeParameters) & mask;
          long location = (end + searchBytes) & mask;
          for (long n = 0; Long.compareUnsigned(location, end) >= 0 && n <= (searchBytes >>> 2) + 1; n++) {
            if (!readable(location)) break;
            long candidate = word(location);
            if (readable(candidate)) {
              dict.put("$ebp", candidate);
              break;
            }
            if (location == 0) break; // location - 4 would wrap
            location = (location - 4) & mask;
          }
        }
      }
    }
    WalkFrame f = WalkFrame.copyOf(last);
    f.windowsFrameInfo = null;
    f.parameterSize = -1;
    f.trust = trust;
    f.valid = 0;
    f.set(EIP, get(dict, "$eip"));
    f.set(ESP, get(dict, "$esp"));
    f.set(EBP, get(dict, "$ebp"));
    // callee-saved registers the program string recovered
    if (assigned.contains("$ebx")) f.set(EBX, get(dict, "$ebx"));
    if (assigned.contains("$esi")) f.set(ESI, get(dict, "$esi"));
    if (assigned.contains("$edi")) f.set(EDI, get(dict, "$edi"));
    return f;
  }

  /** A dictionary value; a missing one reads as 0, as the C++ map's operator[] creates it. */
  private static long get(Map<String, Long> dict, String name) {
    Long v = dict.get(name);
    if (v == null) {
      dict.put(name, 0L);
      return 0;
    }
    return v;
  }

  private WalkFrame byCfi(WalkFrame last) {
    if (!CfiRules.apply(arch, row, NAMES, last.regs, last.valid, memory, 4, caller)) return null;
    WalkFrame f = new WalkFrame(arch);
    for (int i = 0; i < NAMES.length; i++) {
      if (NAMES[i] == null) {
        f.put(i, Amd64Walker.UNSET);
        continue;
      }
      if ((caller.valid & (1L << i)) != 0) f.set(i, caller.values[i]);
      else if (i == ESP) f.set(i, caller.cfa);
      else if (i == EIP) f.set(i, caller.ra);
      else if ((CALLEE_SAVED & (1L << i)) != 0 && last.valid(i)) f.set(i, last.get(i));
      else f.put(i, Amd64Walker.UNSET);
    }
    if (!f.valid(EIP) || !f.valid(ESP) || !f.valid(EBP)) return null; // ebp is essential too
    f.trust = FrameTrust.CFI;
    return f;
  }

  private WalkFrame byFramePointer(WalkFrame last, boolean scanAllowed) {
    long esp = last.get(ESP);
    long ebp = last.get(EBP);
    long eip;
    long callerEsp;
    long callerEbp;
    FrameTrust trust;
    if (readable(ebp + 4) && readable(ebp)) {
      eip = word(ebp + 4);
      callerEbp = word(ebp);
      callerEsp = (ebp + 8) & mask;
      trust = FrameTrust.FP;
    } else {
      // ebp does not point into the stack: code without frame pointers; scan
      if (!scanAllowed || !scan(esp, last.trust == FrameTrust.CONTEXT, found)) return null;
      callerEsp = (found[0] + 4) & mask;
      eip = found[1];
      // the caller's ebp would be right below the return address if the callee pushed it
      long chain = (callerEsp - 8) & mask;
      if (readable(chain)) {
        callerEbp = word(chain);
        if (Long.compareUnsigned(callerEbp, chain) <= 0 || Long.compareUnsigned((callerEbp - chain) & mask, MAX_REASONABLE_GAP) > 0) {
          callerEbp = ebp;
        }
      } else {
        callerEbp = ebp;
      }
      trust = FrameTrust.SCAN;
    }
    WalkFrame f = WalkFrame.copyOf(last);
    f.windowsFrameInfo = null;
    f.parameterSize = -1;
    f.trust = trust;
    f.valid = 0;
    f.set(EIP, eip);
    f.set(ESP, callerEsp);
    f.set(EBP, callerEbp);
    return f;
  }
}
