package dev.gsym.stackwalk;

import dev.gsym.unwind.UnwindState;
import dev.gsym.unwind.WindowsFrameInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The symbols of one dump's walk, as Breakpad's {@code StackFrameSymbolizer} with its resolver finds
 * them: modules by code file, each asked of the {@link SymbolSource} once (found or remembered as
 * missing), frames filled from them.
 */
final class FrameSymbolizer {
  /** Breakpad's {@code SymbolizerResult}. */
  enum Result {
    OK,
    /** No module, or no symbols for it. */
    ERROR,
    /** Symbols with bad records. */
    CORRUPT
  }

  private final SymbolSource source;
  private final CodeModules modules;
  private final CodeModules unloaded;
  private final SystemDescription system;
  private final Map<String, ModuleSymbols> loaded = new HashMap<>();
  private final Set<String> missing = new HashSet<>();

  FrameSymbolizer(SymbolSource source, CodeModules modules, CodeModules unloaded, SystemDescription system) {
    this.source = source;
    this.modules = modules;
    this.unloaded = unloaded;
    this.system = system;
  }

  /** Whether symbols can be looked for at all (Breakpad's {@code HasImplementation}: a symbol supplier). */
  boolean hasImplementation() {
    return source != null;
  }

  CodeModules modules() {
    return modules;
  }

  /**
   * Finds {@code frame}'s module (a loaded one, else an unloaded one) and fills its function, file
   * and line; {@code inlined} (may be null) receives the frames inlined at its address, innermost first.
   */
  Result fill(WalkFrame frame, List<WalkFrame> inlined) {
    CodeModule module = modules == null ? null : modules.forAddress(frame.instruction);
    if (module == null && unloaded != null) module = unloaded.forAddress(frame.instruction);
    if (module == null) return Result.ERROR;
    frame.module = module;
    ModuleSymbols symbols = loaded.get(module.codeFile());
    if (symbols == null) {
      if (missing.contains(module.codeFile()) || source == null) return Result.ERROR;
      symbols = source.find(module, system);
      if (symbols == null) {
        missing.add(module.codeFile());
        return Result.ERROR;
      }
      loaded.put(module.codeFile(), symbols);
    }
    fillFrom(symbols, frame, inlined);
    return symbols.corrupt() ? Result.CORRUPT : Result.OK;
  }

  private static void fillFrom(ModuleSymbols symbols, WalkFrame frame, List<WalkFrame> inlined) {
    long base = frame.module.base();
    SourceInfo info;
    try {
      info = symbols.lookup(frame.instruction - base);
    } catch (RuntimeException e) {
      info = null; // malformed symbols answer as absent
    }
    if (info == null) return;
    frame.function = info.function();
    frame.functionBase = base + info.functionBase();
    if (info.hasLine()) frame.sourceLineBase = base + info.lineBase();
    frame.sourceFile = info.file();
    frame.sourceLine = info.line();
    if (inlined != null) {
      for (SourceInfo.Inlined in : info.inlined()) {
        WalkFrame f = frame.inlinedCopy();
        f.function = in.function();
        f.functionBase = base + in.base();
        f.sourceFile = in.file();
        f.sourceLine = in.line();
        inlined.add(f);
      }
    }
  }

  /** The symbols already loaded for {@code frame}'s module, or null (Breakpad never loads symbols to unwind). */
  private ModuleSymbols loadedFor(WalkFrame frame) {
    return frame.module == null ? null : loaded.get(frame.module.codeFile());
  }

  /** The CFI row at {@code frame}'s instruction, in {@code state}; false when there is none. */
  boolean cfi(WalkFrame frame, UnwindState state) {
    ModuleSymbols s = loadedFor(frame);
    if (s == null) return false;
    try {
      return s.cfi(frame.instruction - frame.module.base(), state);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The STACK WIN data at {@code frame}'s instruction, or null; {@code parameterSize[0]} the FUNC's parameter size or -1. */
  WindowsFrameInfo windowsFrameInfo(WalkFrame frame, long[] parameterSize) {
    parameterSize[0] = -1;
    ModuleSymbols s = loadedFor(frame);
    if (s == null) return null;
    long offset = frame.instruction - frame.module.base();
    try {
      WindowsFrameInfo w = s.windowsFrameInfo(offset);
      if (w != null) return w;
      parameterSize[0] = s.parameterSize(offset);
    } catch (RuntimeException e) {
      parameterSize[0] = -1;
    }
    return null;
  }

  /**
   * Breakpad's {@code InstructionAddressSeemsValid}: {@code address} is in a module, and either
   * there are no symbols to check against or its function is known.
   */
  boolean seemsValid(long address) {
    WalkFrame probe = new WalkFrame(dev.gsym.unwind.Arch.X86_64);
    probe.instruction = address;
    Result r = fill(probe, null);
    if (probe.module == null) return false;
    if (!hasImplementation()) return true;
    if (r != Result.OK && r != Result.CORRUPT) return true;
    return !probe.function.isEmpty();
  }

  /** What minidump_stackwalk's {@code -s} output looks up: the frame (and its inlined frames) of an address, from symbols already loaded. */
  List<StackFrame> resolve(long address) {
    WalkFrame f = new WalkFrame(dev.gsym.unwind.Arch.X86_64);
    f.instruction = address;
    f.inline = true; // printed from the instruction
    CodeModule module = modules == null ? null : modules.forAddress(address);
    List<StackFrame> out = new ArrayList<>();
    if (module != null) {
      f.module = module;
      ModuleSymbols s = loaded.get(module.codeFile());
      List<WalkFrame> inlined = new ArrayList<>();
      if (s != null) fillFrom(s, f, inlined);
      out.add(f.toStackFrame());
      for (WalkFrame i : inlined) out.add(i.toStackFrame());
    } else {
      out.add(f.toStackFrame());
    }
    return out;
  }
}
