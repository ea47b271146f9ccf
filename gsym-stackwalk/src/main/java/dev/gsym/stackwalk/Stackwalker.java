package dev.gsym.stackwalk;

import dev.gsym.GsymFormatException;
import dev.gsym.minidump.Minidump;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Walks every thread of a crashed process as Breakpad's processor does ({@code MinidumpProcessor},
 * {@code Stackwalker::Walk} and its x86, x86-64, ARM and AArch64 walkers): the context frame, then
 * caller after caller by CFI ({@code STACK CFI}), Windows frame data ({@code STACK WIN}, x86),
 * frame pointers and stack scanning, in Breakpad's order and with its trust levels, each frame
 * symbolicated from its module's symbols (and the frames inlined at its address added before it).
 * A walk ends where Breakpad's ends: no strategy finds a caller, the caller's instruction address is
 * below 4 KiB, the stack pointer does not grow (so a cyclic stack ends), or {@link
 * Builder#maxFrames} frames were found; stack scanning stops being tried after {@link
 * Builder#maxScannedFrames} scanned frames. A missing or corrupt module only loses its symbols, CFI
 * or names; a thread's walk never fails the process: an unexpected error ends that thread's frames.
 *
 * <p>Thread-safe if the {@link SymbolSource} is: each walk has its own state.
 */
public final class Stackwalker {
  /** Breakpad's default most frames per thread: a million. */
  public static final int DEFAULT_MAX_FRAMES = 1 << 20;
  /** Breakpad's default most frames found by stack scanning per thread: 16,384. */
  public static final int DEFAULT_MAX_SCANNED_FRAMES = 1 << 14;

  private final SymbolSource symbols;
  private final int maxFrames;
  private final int maxScannedFrames;

  private Stackwalker(Builder b) {
    this.symbols = b.symbols;
    this.maxFrames = b.maxFrames;
    this.maxScannedFrames = b.maxScannedFrames;
  }

  /** A builder with Breakpad's defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Configures a {@link Stackwalker}. */
  public static final class Builder {
    private SymbolSource symbols;
    private int maxFrames = DEFAULT_MAX_FRAMES;
    private int maxScannedFrames = DEFAULT_MAX_SCANNED_FRAMES;

    private Builder() {}

    /**
     * Where symbols and CFI come from; without a source (the default) no module has symbols, and
     * scanning accepts any address inside a module, as minidump_stackwalk without symbol paths.
     */
    public Builder symbols(SymbolSource source) {
      this.symbols = source;
      return this;
    }

    /** Most frames per thread (inlined ones included); the walk stops after passing it. */
    public Builder maxFrames(int n) {
      if (n < 1) throw new IllegalArgumentException("maxFrames " + n);
      this.maxFrames = n;
      return this;
    }

    /** Scanned frames per thread after which scanning is no longer tried. */
    public Builder maxScannedFrames(int n) {
      if (n < 0) throw new IllegalArgumentException("maxScannedFrames " + n);
      this.maxScannedFrames = n;
      return this;
    }

    /** The stack walker. */
    public Stackwalker build() {
      return new Stackwalker(this);
    }
  }

  /**
   * Walks a minidump ({@link MinidumpProcess#of}).
   *
   * @throws GsymFormatException when the dump has no readable thread list
   */
  public ProcessState walk(Minidump dump) {
    return walk(MinidumpProcess.of(dump));
  }

  /** Walks every thread of {@code process}. */
  public ProcessState walk(CrashedProcess process) {
    SystemDescription system = process.system();
    FrameSymbolizer symbolizer = new FrameSymbolizer(symbols, process.modules(), process.unloadedModules(), system);
    List<CodeModule> withoutSymbols = new ArrayList<>();
    List<CodeModule> corrupt = new ArrayList<>();
    List<CallStack> stacks = new ArrayList<>();
    OptionalLong requestingId = process.requestingThreadId();
    int requesting = -1;
    for (ProcessThread t : process.threads()) {
      if (requesting < 0 && requestingId.isPresent() && t.id() == requestingId.getAsLong()) requesting = stacks.size();
      List<WalkFrame> frames = new ArrayList<>();
      String failure = null;
      if (t.context() != null) {
        ArchWalker walker = ArchWalker.of(t.context().arch(), t.stack(), symbolizer, system);
        if (walker != null) failure = walk(walker, t.context(), symbolizer, frames, withoutSymbols, corrupt);
      }
      List<StackFrame> out = new ArrayList<>(frames.size());
      for (WalkFrame f : frames) out.add(f.toStackFrame());
      stacks.add(new CallStack(t.id(), t.name(), out, t.stack(), failure));
    }
    return new ProcessState(system, process.crash(), process.assertion(), process.dumpTime(), process.processCreateTime(),
        requesting, stacks, process.modules(), withoutSymbols, corrupt, symbolizer::resolve);
  }

  /** Walks one thread into {@code frames}; returns null, or what unexpected error ended the walk. */
  private String walk(ArchWalker walker, FrameRegisters context, FrameSymbolizer symbolizer, List<WalkFrame> frames,
      List<CodeModule> withoutSymbols, List<CodeModule> corrupt) {
    int scanned = 0;
    try {
      WalkFrame frame = walker.contextFrame(context);
      List<WalkFrame> inlined = new ArrayList<>();
      while (frame != null) {
        inlined.clear();
        FrameSymbolizer.Result r = symbolizer.fill(frame, inlined);
        if (r == FrameSymbolizer.Result.ERROR) note(frame.module, withoutSymbols);
        else if (r == FrameSymbolizer.Result.CORRUPT) note(frame.module, corrupt);
        if (frame.trust.scanned()) scanned++;
        frames.addAll(inlined);
        frames.add(frame);
        if (frames.size() > maxFrames) break;
        frame = walker.callerFrame(frames, scanned < maxScannedFrames);
      }
      return null;
    } catch (RuntimeException e) {
      // a bug or an input no check foresaw: this thread keeps the frames found so far, the others are walked
      return e.toString();
    }
  }

  private static void note(CodeModule module, List<CodeModule> list) {
    if (module == null) return;
    for (CodeModule m : list) if (m == module) return;
    list.add(module);
  }
}
