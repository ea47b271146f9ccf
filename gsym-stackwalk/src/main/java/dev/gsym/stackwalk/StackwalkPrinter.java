package dev.gsym.stackwalk;

import dev.gsym.unwind.Arch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Prints a {@link ProcessState} exactly as Breakpad's {@code minidump_stackwalk} prints it
 * ({@code stackwalk_common.cc}): the text report ({@link #text}: system, crash, each thread's frames
 * with registers and "Found by", optionally the stack contents, the module list with its warnings),
 * the pipe-delimited machine-readable form ({@link #machineReadable}, {@code -m}) and the brief form
 * ({@link #brief}, {@code -b}). Strings are those of the state (names and paths decoded by {@code
 * ByteStrings}; encode the result with {@code ByteStrings.encode} to get the bytes); as in C, a name
 * ends at a NUL character.
 */
public final class StackwalkPrinter {
  private static final char SEPARATOR = '|';
  private static final int MAX_WIDTH = 80;

  private StackwalkPrinter() {}

  /**
   * The text report: with {@code stackContents} ({@code -s}) each frame is followed by the stack
   * words between it and its caller, and with {@code requestingThreadOnly} ({@code -c}) only the
   * thread that crashed or requested the dump is printed.
   */
  public static String text(ProcessState state, boolean stackContents, boolean requestingThreadOnly) {
    StringBuilder out = new StringBuilder(4096);
    try {
      text(state, stackContents, requestingThreadOnly, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringBuilder does not fail
    }
    return out.toString();
  }

  /**
   * {@link #text(ProcessState, boolean, boolean)} written to {@code target} as it is made (in pieces
   * of about {@value #PIECE} characters), for outputs too large to hold: stack contents span whole stacks.
   */
  public static void text(ProcessState state, boolean stackContents, boolean requestingThreadOnly, Appendable target)
      throws IOException {
    StringBuilder out = target instanceof StringBuilder sb ? sb : new StringBuilder(PIECE + 1024);
    SystemDescription sys = state.system();
    out.append("Operating system: ").append(c(sys.os())).append('\n');
    out.append("                  ").append(c(sys.osVersion())).append('\n');
    out.append("CPU: ").append(c(sys.cpu())).append('\n');
    if (!sys.cpuInfo().isEmpty()) out.append("     ").append(c(sys.cpuInfo())).append('\n');
    out.append("     ").append(sys.cpuCount()).append(" CPU").append(sys.cpuCount() != 1 ? "s" : "").append('\n');
    out.append('\n');
    out.append("GPU: UNKNOWN\n");
    out.append('\n');
    if (state.crashed()) {
      out.append("Crash reason:  ").append(c(state.crash().reason())).append('\n');
      out.append("Crash address: 0x").append(Long.toHexString(state.crash().address())).append('\n');
    } else {
      out.append("No crash\n");
    }
    if (!state.assertion().isEmpty()) out.append("Assertion: ").append(c(state.assertion())).append('\n');
    long stamp = state.dumpTime();
    long created = state.processCreateTime();
    if (stamp != 0 && created != 0 && Long.compareUnsigned(stamp, created) >= 0) {
      out.append("Process uptime: ").append((int) (stamp - created)).append(" seconds\n");
    } else {
      out.append("Process uptime: not available\n");
    }
    int requesting = state.requestingThread();
    String cpu = sys.cpu();
    if (requesting != -1) {
      out.append('\n');
      out.append("Thread ").append(requesting).append(state.crashed() ? " (crashed)" : " (requested dump, did not crash)")
          .append('\n');
      stack(out, target, state, state.threads().get(requesting), cpu, stackContents);
    }
    if (!requestingThreadOnly) {
      for (int i = 0; i < state.threads().size(); i++) {
        if (i == requesting) continue;
        out.append('\n');
        out.append("Thread ").append(i).append('\n');
        stack(out, target, state, state.threads().get(i), cpu, stackContents);
      }
    }
    modules(out, state);
    drain(out, target, 0);
  }

  /** Characters gathered before they are handed to the target. */
  private static final int PIECE = 1 << 16;

  /** Hands what {@code out} holds to {@code target} once it holds more than {@code threshold} characters. */
  private static void drain(StringBuilder out, Appendable target, int threshold) throws IOException {
    if (out == target || out.length() <= threshold) return;
    target.append(out);
    out.setLength(0);
  }

  /** The {@code -m} form: OS, CPU, GPU, Crash and Module lines, a blank line, then thread|frame|module|function|file|line|offset. */
  public static String machineReadable(ProcessState state) {
    StringBuilder out = new StringBuilder(4096);
    SystemDescription sys = state.system();
    out.append("OS").append(SEPARATOR).append(strip(sys.os())).append(SEPARATOR).append(strip(sys.osVersion())).append('\n');
    out.append("CPU").append(SEPARATOR).append(strip(sys.cpu())).append(SEPARATOR).append(strip(sys.cpuInfo())).append(SEPARATOR)
        .append(sys.cpuCount()).append('\n');
    out.append("GPU").append(SEPARATOR).append(SEPARATOR).append(SEPARATOR).append('\n');
    int requesting = state.requestingThread();
    out.append("Crash").append(SEPARATOR);
    if (state.crashed()) {
      out.append(strip(state.crash().reason())).append(SEPARATOR).append("0x").append(Long.toHexString(state.crash().address()))
          .append(SEPARATOR);
    } else if (!state.assertion().isEmpty()) {
      out.append(strip(state.assertion())).append(SEPARATOR).append(SEPARATOR);
    } else {
      out.append("No crash").append(SEPARATOR).append(SEPARATOR);
    }
    if (requesting != -1) out.append(requesting);
    out.append('\n');
    CodeModules modules = state.modules();
    if (modules != null) {
      CodeModule main = modules.main();
      for (CodeModule m : modules.inAddressOrder()) {
        out.append("Module").append(SEPARATOR).append(strip(CodeModule.fileName(m.codeFile()))).append(SEPARATOR)
            .append(strip(m.version())).append(SEPARATOR).append(strip(CodeModule.fileName(m.debugFile()))).append(SEPARATOR)
            .append(strip(m.debugIdentifier())).append(SEPARATOR).append(hex8(m.base())).append(SEPARATOR)
            .append(hex8(m.base() + m.size() - 1)).append(SEPARATOR)
            .append(main != null && m.base() == main.base() ? 1 : 0).append('\n');
      }
    }
    out.append('\n');
    if (requesting != -1) stackMachineReadable(out, requesting, state.threads().get(requesting));
    for (int i = 0; i < state.threads().size(); i++) {
      if (i != requesting) stackMachineReadable(out, i, state.threads().get(i));
    }
    return out.toString();
  }

  /** The {@code -b} form: the requesting thread's frame lines alone. */
  public static String brief(ProcessState state) {
    StringBuilder out = new StringBuilder();
    int requesting = state.requestingThread();
    if (requesting == -1) return " <no crashing or requesting dump thread identified>\n";
    out.append("Thread ").append(requesting).append(state.crashed() ? " (crashed)" : " (requested dump, did not crash)")
        .append('\n');
    List<StackFrame> frames = state.threads().get(requesting).frames();
    for (int i = 0; i < frames.size(); i++) {
      frameHeader(out, frames.get(i), i);
      out.append('\n');
    }
    return out.toString();
  }

  // ------------------------------------------------------------------ text

  private static void frameHeader(StringBuilder out, StackFrame f, int index) {
    out.append(String.format("%2d  ", index));
    long address = f.returnAddress();
    if (f.module() != null) {
      out.append(c(CodeModule.fileName(f.module().codeFile())));
      if (!f.function().isEmpty()) {
        out.append('!').append(c(f.function()));
        if (!f.sourceFile().isEmpty()) {
          out.append(" [").append(c(CodeModule.fileName(f.sourceFile()))).append(" : ").append(f.sourceLine()).append(" + 0x")
              .append(Long.toHexString(address - f.sourceLineBase())).append(']');
        } else {
          out.append(" + 0x").append(Long.toHexString(address - f.functionBase()));
        }
      } else {
        out.append(" + 0x").append(Long.toHexString(address - f.module().base()));
      }
    } else {
      out.append("0x").append(Long.toHexString(address));
    }
  }

  private static void stack(StringBuilder out, Appendable target, ProcessState state, CallStack stack, String cpu,
      boolean contents) throws IOException {
    List<StackFrame> frames = stack.frames();
    if (frames.isEmpty()) out.append(" <no frames>\n");
    for (int i = 0; i < frames.size(); i++) {
      StackFrame f = frames.get(i);
      frameHeader(out, f, i);
      out.append("\n ");
      if (f.trust() != FrameTrust.INLINE) registers(out, f.registers(), cpu);
      out.append("\n    Found by: ").append(f.trust().description()).append('\n');
      if (contents && i + 1 < frames.size()) stackContents(out, target, state, f, frames.get(i + 1), cpu, stack.stack());
      drain(out, target, PIECE);
    }
  }

  /** The registers minidump_stackwalk prints for {@code cpu}, in its order, four (or two) to a line. */
  private static void registers(StringBuilder out, FrameRegisters r, String cpu) {
    if (r == null) return;
    int[] col = {0};
    switch (cpu) {
      case "x86" -> {
        if (r.arch() != Arch.X86) return;
        reg32(out, col, r, "eip", 8);
        reg32(out, col, r, "esp", 4);
        reg32(out, col, r, "ebp", 5);
        reg32(out, col, r, "ebx", 3);
        reg32(out, col, r, "esi", 6);
        reg32(out, col, r, "edi", 7);
        if (r.allValid()) {
          reg32(out, col, r, "eax", 0);
          reg32(out, col, r, "ecx", 1);
          reg32(out, col, r, "edx", 2);
          reg32(out, col, r, "efl", 9);
        }
      }
      case "amd64" -> {
        if (r.arch() != Arch.X86_64) return;
        String[] names = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
            "r15", "rip"};
        for (int i = 0; i < names.length; i++) reg64(out, col, r, names[i], i);
      }
      case "arm" -> {
        if (r.arch() != Arch.ARM) return;
        for (int i = 0; i <= 10; i++) reg32(out, col, r, "r" + i, i);
        reg32(out, col, r, "r12", 12);
        reg32(out, col, r, "fp", 11);
        reg32(out, col, r, "sp", 13);
        reg32(out, col, r, "lr", 14);
        reg32(out, col, r, "pc", 15);
      }
      case "arm64" -> {
        if (r.arch() != Arch.AARCH64) return;
        for (int i = 0; i <= 28; i++) reg64(out, col, r, "x" + i, i);
        reg64(out, col, r, "fp", 29);
        reg64(out, col, r, "lr", 30);
        reg64(out, col, r, "sp", 31);
        reg64(out, col, r, "pc", 32);
      }
      default -> { }
    }
  }

  private static void reg32(StringBuilder out, int[] col, FrameRegisters r, String name, int i) {
    if (!r.valid(i) && !r.allValid()) return;
    register(out, col, String.format(" %5s = 0x%08x", name, r.value(i) & 0xffff_ffffL));
  }

  private static void reg64(StringBuilder out, int[] col, FrameRegisters r, String name, int i) {
    if (!r.valid(i) && !r.allValid()) return;
    register(out, col, String.format(" %5s = 0x%016x", name, r.value(i)));
  }

  private static void register(StringBuilder out, int[] col, String text) {
    if (col[0] + text.length() > MAX_WIDTH) {
      col[0] = 0;
      out.append("\n ");
    }
    out.append(text);
    col[0] += text.length();
  }

  /** The stack words from this frame's stack pointer up to its caller's, in hex and as text, then the words that point into code. */
  private static void stackContents(StringBuilder out, Appendable target, ProcessState state, StackFrame frame,
      StackFrame caller, String cpu, StackMemory memory) throws IOException {
    int word;
    int sp;
    switch (cpu) {
      case "x86" -> { word = 4; sp = 4; }
      case "amd64" -> { word = 8; sp = 7; }
      case "arm" -> { word = 4; sp = 13; }
      case "arm64" -> { word = 8; sp = 31; }
      default -> { return; }
    }
    FrameRegisters a = frame.registers();
    FrameRegisters b = caller.registers();
    if (a == null || b == null || a.arch() != b.arch() || sp >= FrameRegisters.slots(a.arch())) return;
    if (!a.valid(sp) || !b.valid(sp)) return;
    long begin = a.value(sp);
    long end = b.value(sp);
    if (begin == 0 || end == 0 || memory == null) return;
    String indent = "    ";
    out.append('\n').append(indent).append("Stack contents:");
    // rows and words wholly outside the thread's stack memory are not printed (Breakpad prints them
    // blank, and reads such words as 0): a hostile frame's stack pointer could ask for gigabytes
    long lo = memory.base();
    long hi = memory.base() + memory.size();
    long first = begin;
    if (Long.compareUnsigned(first, lo) < 0) first += Long.divideUnsigned(lo - first, 16) * 16;
    long last = Long.compareUnsigned(end, hi) > 0 && Long.compareUnsigned(hi, first) > 0 ? hi : end;
    for (long address = first; Long.compareUnsigned(address, last) < 0; ) {
      if (word == 4) out.append('\n').append(indent).append(' ').append(String.format("%08x", address & 0xffff_ffffL));
      else out.append('\n').append(indent).append(' ').append(String.format("%016x", address));
      StringBuilder text = new StringBuilder(16);
      for (int i = 0; i < 16; i++, address++) {
        if (Long.compareUnsigned(address, end) < 0 && memory.readable(address, 1)) {
          int v = (int) memory.read(address, 1) & 0xff;
          out.append(String.format(" %02x", v));
          text.append(v >= 0x20 && v < 0x7f ? (char) v : '.');
        } else {
          out.append("   ");
          text.append(' ');
        }
        if (address == -1L) break; // the last byte of the address space
      }
      out.append("  ").append(text);
      drain(out, target, PIECE);
    }
    out.append('\n').append(indent).append("Possible instruction pointers:\n");
    long firstWord = begin;
    if (Long.compareUnsigned(firstWord, lo) < 0) firstWord += Long.divideUnsigned(lo - firstWord, word) * word;
    for (long address = firstWord; Long.compareUnsigned(address, last) < 0; address += word) {
      long value = memory.readable(address, word) ? memory.read(address, word) : 0;
      for (StackFrame f : state.resolver().resolve(value)) {
        if (f.function().isEmpty()) continue;
        if (word == 4) {
          out.append(indent).append(String.format(" *(0x%08x) = 0x%08x", address & 0xffff_ffffL, f.instruction() & 0xffff_ffffL));
        } else {
          out.append(indent).append(String.format(" *(0x%016x) = 0x%016x", address, f.instruction()));
        }
        out.append(" <").append(c(f.function())).append("> [").append(c(CodeModule.fileName(f.sourceFile()))).append(" : ")
            .append(f.sourceLine()).append(" + 0x").append(Long.toHexString(f.instruction() - f.sourceLineBase())).append("]\n");
      }
      if (Long.compareUnsigned(address + word, address) < 0) break;
      drain(out, target, PIECE);
    }
    out.append('\n');
  }

  private static void modules(StringBuilder out, ProcessState state) {
    CodeModules modules = state.modules();
    if (modules == null) return;
    out.append('\n');
    out.append("Loaded modules:\n");
    CodeModule main = modules.main();
    long mainBase = main == null ? 0 : main.base();
    for (CodeModule m : modules.inAddressOrder()) {
      String issues = "";
      if (contains(state.modulesWithoutSymbols(), m)) {
        issues = "  (WARNING: No symbols, " + CodeModule.fileName(m.debugFile()) + ", " + m.debugIdentifier() + ")";
      } else if (contains(state.modulesWithCorruptSymbols(), m)) {
        issues = "  (WARNING: Corrupt symbols, " + CodeModule.fileName(m.debugFile()) + ", " + m.debugIdentifier() + ")";
      }
      out.append(hex8(m.base())).append(" - ").append(hex8(m.base() + m.size() - 1)).append("  ")
          .append(c(CodeModule.fileName(m.codeFile()))).append("  ").append(m.version().isEmpty() ? "???" : c(m.version()))
          .append(mainBase != 0 && m.base() == mainBase ? "  (main)" : "").append(c(issues)).append('\n');
    }
  }

  /** Breakpad's {@code ContainsModule}: a module of the same debug file and identifier is listed. */
  private static boolean contains(List<CodeModule> list, CodeModule m) {
    for (CodeModule o : list) {
      if (o.debugFile().equals(m.debugFile()) && o.debugIdentifier().equals(m.debugIdentifier())) return true;
    }
    return false;
  }

  // ------------------------------------------------------------------ machine-readable

  private static void stackMachineReadable(StringBuilder out, int thread, CallStack stack) {
    List<StackFrame> frames = stack.frames();
    for (int i = 0; i < frames.size(); i++) {
      StackFrame f = frames.get(i);
      out.append(thread).append(SEPARATOR).append(i).append(SEPARATOR);
      long address = f.returnAddress();
      if (f.module() != null) {
        out.append(strip(CodeModule.fileName(f.module().codeFile())));
        if (!f.function().isEmpty()) {
          out.append(SEPARATOR).append(strip(f.function()));
          if (!f.sourceFile().isEmpty()) {
            out.append(SEPARATOR).append(strip(f.sourceFile())).append(SEPARATOR).append(f.sourceLine()).append(SEPARATOR)
                .append("0x").append(Long.toHexString(address - f.sourceLineBase()));
          } else {
            out.append(SEPARATOR).append(SEPARATOR).append(SEPARATOR).append("0x").append(Long.toHexString(address - f.functionBase()));
          }
        } else {
          out.append(SEPARATOR).append(SEPARATOR).append(SEPARATOR).append(SEPARATOR).append("0x")
              .append(Long.toHexString(address - f.module().base()));
        }
      } else {
        out.append(SEPARATOR).append(SEPARATOR).append(SEPARATOR).append(SEPARATOR).append("0x").append(Long.toHexString(address));
      }
      out.append('\n');
    }
  }

  // ------------------------------------------------------------------ C strings

  /** {@code s} up to its first NUL: what {@code printf("%s")} prints of it. */
  private static String c(String s) {
    int nul = s.indexOf('\0');
    return nul < 0 ? s : s.substring(0, nul);
  }

  /** Breakpad's {@code StripSeparator}: without {@code |} and newlines (and, printed with %s, up to a NUL). */
  private static String strip(String s) {
    String t = c(s);
    if (t.indexOf(SEPARATOR) < 0 && t.indexOf('\n') < 0) return t;
    return t.replace("|", "").replace("\n", "");
  }

  private static String hex8(long v) {
    String h = Long.toHexString(v);
    return h.length() >= 8 ? "0x" + h : "0x" + "0".repeat(8 - h.length()) + h;
  }
}
