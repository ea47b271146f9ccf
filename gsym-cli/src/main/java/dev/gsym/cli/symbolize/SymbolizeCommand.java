package dev.gsym.cli.symbolize;

import dev.gsym.Progress;
import dev.gsym.ByteStrings;
import dev.gsym.TextBuffer;
import dev.gsym.cli.Addresses;
import dev.gsym.cli.CliException;
import dev.gsym.cli.InputLines;
import dev.gsym.cli.ProgressBar;
import dev.gsym.cli.Session;
import dev.gsym.cli.Version;
import dev.gsym.symbolize.AddressAdjustment;
import dev.gsym.symbolize.AddressMode;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.Optional;

/**
 * {@code gsymutil symbolize}: llvm-symbolizer-22's command line, input syntax and output over the
 * {@link Symbolizer} (docs/symbolize.md, "Command line"). Addresses come as arguments or as lines
 * on stdin; modules are files or build-ids, found and converted to GSYM by the symbolizer (a GSYM
 * store, debug file directories, debuginfod, Breakpad symbol stores); answers are printed in input
 * order, a stdin line's answer as soon as no more input is waiting. A module or address that cannot
 * be answered prints what llvm-symbolizer prints (an error on stderr and {@code ??}, or a JSON
 * error object) and never stops the run. Never loads picocli.
 */
public final class SymbolizeCommand {
  /** What llvm calls its argv[0] in messages. */
  private final String tool;
  private final Session session;
  private final PrintStream err;
  private final Map<String, String> env;
  /** The progress display of a batch, given stderr. */
  private final Function<PrintStream, Progress> progress;

  public SymbolizeCommand(Session session, Map<String, String> env) {
    // a progress line only when stderr is a terminal and the answers are not printed on one (the
    // launcher tells which); it counts answers written, the input's length being unknown
    this(session, env, e -> Boolean.getBoolean("gsym.stdout.tty") ? Progress.NONE
        : ProgressBar.forTerminal(e, "addresses", false));
  }

  SymbolizeCommand(Session session, Map<String, String> env, Function<PrintStream, Progress> progress) {
    this.tool = CliException.TOOL_NAME;
    this.session = session;
    this.err = session.err;
    this.env = env;
    this.progress = progress;
  }

  /** Runs {@code gsymutil symbolize ARGS} (the arguments after "symbolize"); returns the exit status. */
  public int run(List<String> args) {
    SymbolizeArgs a = SymbolizeArgs.parse(args, env.get("LLVM_SYMBOLIZER_OPTS"));
    if (!a.errors.isEmpty()) {
      for (String e : a.errors) err.println("error: " + e);
      return 1;
    }
    if (a.has(SymbolizeOpt.HELP)) {
      session.sb.append(SymbolizeOpt.help());
      session.emit();
      return 0;
    }
    if (a.has(SymbolizeOpt.VERSION)) {
      session.sb.append(CliException.TOOL_NAME).append(" symbolize\n").append(Version.lines()[1]).append('\n');
      session.emit();
      return 0;
    }
    session.verbose = a.has(SymbolizeOpt.VERBOSE);
    Config config;
    try {
      config = config(a);
    } catch (CliException e) {
      err.println(e.getMessage());
      return e.exitCode;
    }
    if (a.has(SymbolizeOpt.PPROF) || a.has(SymbolizeOpt.PERF_SCRIPT) || a.has(SymbolizeOpt.FLAMEGRAPH)) {
      return new ProfileCommand(session).run(a, config.symbolizer,
          a.has(SymbolizeOpt.FLAMEGRAPH) ? (a.has(SymbolizeOpt.SVG) ? ProfileCommand.Output.SVG : ProfileCommand.Output.HTML)
              : a.has(SymbolizeOpt.COLLAPSED) ? ProfileCommand.Output.COLLAPSED : ProfileCommand.Output.PPROF);
    }
    Symbolizer symbolizer;
    try {
      symbolizer = config.symbolizer.build();
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
    try (symbolizer) {
      return answer(a, config, symbolizer);
    }
  }

  /** Everything the options say, checked in llvm's order. */
  private record Config(long adjustVma, int contextLines, SymbolizePrinter.Style style, SymbolizeBatches.Settings settings,
      byte[] buildId, String obj, int threads, Symbolizer.Builder symbolizer, SymbolizeModules modules) {}

  private Config config(SymbolizeArgs a) {
    long adjustVma = unsigned(a, SymbolizeOpt.ADJUST_VMA, 0);
    SymbolizeBatches.Paths paths = SymbolizeBatches.Paths.ABSOLUTE;
    SymbolizeArgs.Arg p = a.lastOf(SymbolizeOpt.BASENAMES, SymbolizeOpt.RELATIVENAMES);
    if (p != null) paths = p.opt() == SymbolizeOpt.BASENAMES ? SymbolizeBatches.Paths.BASENAME : SymbolizeBatches.Paths.RELATIVE;
    boolean demangle = a.flag(SymbolizeOpt.DEMANGLE, SymbolizeOpt.NO_DEMANGLE, true);
    SymbolizeBatches.Functions functions = SymbolizeBatches.Functions.LINKAGE;
    if (!a.has(SymbolizeOpt.FUNCTIONS) && a.has(SymbolizeOpt.FUNCTIONS_EQ)) {
      functions = switch (a.last(SymbolizeOpt.FUNCTIONS_EQ)) {
        case "none" -> SymbolizeBatches.Functions.NONE;
        case "short" -> SymbolizeBatches.Functions.SHORT;
        default -> SymbolizeBatches.Functions.LINKAGE;
      };
    }
    int contextLines = signedInt(a, SymbolizeOpt.PRINT_SOURCE_CONTEXT_LINES);
    unsigned(a, SymbolizeOpt.CACHE_SIZE, 0); // checked as llvm checks it; modules are bounded by count
    boolean inlines = a.flag(SymbolizeOpt.INLINES, SymbolizeOpt.NO_INLINES, true);
    for (SymbolizeOpt unsupported : List.of(SymbolizeOpt.FILTER_MARKUP, SymbolizeOpt.DWP, SymbolizeOpt.DSYM_HINT)) {
      SymbolizeArgs.Arg u = a.lastOf(unsupported);
      if (u != null) {
        throw CliException.stderr("error: " + u.spelling() + " is not supported by " + tool + " symbolize"
            + (unsupported == SymbolizeOpt.DWP ? " (a package FILE.dwp beside FILE is read)" : ""));
      }
    }
    if (a.has(SymbolizeOpt.DIA)) err.println("warning: DIA not available; using native PDB reader");
    SymbolizePrinter.Style style = SymbolizePrinter.Style.LLVM;
    String s = a.last(SymbolizeOpt.OUTPUT_STYLE);
    if ("GNU".equals(s)) style = SymbolizePrinter.Style.GNU;
    else if ("JSON".equals(s)) style = SymbolizePrinter.Style.JSON;
    if (a.has(SymbolizeOpt.BUILD_ID) && a.has(SymbolizeOpt.OBJ)) {
      throw CliException.stderr("error: cannot specify both --build-id and --obj");
    }
    byte[] buildId = null;
    if (a.has(SymbolizeOpt.BUILD_ID)) {
      String v = a.last(SymbolizeOpt.BUILD_ID);
      buildId = SymbolizeInput.parseBuildId(v);
      if (buildId == null) throw CliException.stderr(spelling(SymbolizeOpt.BUILD_ID) + ": expected a build ID, but got '" + v + "'");
    }
    int threads = Runtime.getRuntime().availableProcessors();
    if (a.has(SymbolizeOpt.THREADS)) threads = positiveInt(a, SymbolizeOpt.THREADS);
    Symbolizer.Builder b = Symbolizer.builder().addressMode(AddressMode.ABSOLUTE).demangle(false).threads(threads);
    if (a.has(SymbolizeOpt.MAX_OPEN_MODULES)) b.maxOpenModules(positiveInt(a, SymbolizeOpt.MAX_OPEN_MODULES));
    String store = a.last(SymbolizeOpt.STORE);
    if (store != null) b.store(path(SymbolizeOpt.STORE, store));
    if (a.has(SymbolizeOpt.MAX_STORE_SIZE)) {
      if (store == null) throw CliException.stderr("error: --max-store-size needs --store");
      b.maxStoreSize(size("--max-store-size=", a.last(SymbolizeOpt.MAX_STORE_SIZE)));
    }
    List<Path> debugDirs = new ArrayList<>();
    for (String d : a.all(SymbolizeOpt.DEBUG_FILE_DIRECTORY)) debugDirs.add(path(SymbolizeOpt.DEBUG_FILE_DIRECTORY, d));
    if (debugDirs.isEmpty()) debugDirs.add(Source.DebugDirectories.DEFAULT_DIRECTORY);
    String fallback = a.last(SymbolizeOpt.FALLBACK_DEBUG_PATH);
    if (fallback != null) debugDirs.add(path(SymbolizeOpt.FALLBACK_DEBUG_PATH, fallback));
    b.addSource(Source.DebugDirectories.of(debugDirs.toArray(Path[]::new)));
    if (a.flag(SymbolizeOpt.DEBUGINFOD, SymbolizeOpt.NO_DEBUGINFOD, true)) {
      Optional<Source.Debuginfod> d;
      try {
        d = Source.Debuginfod.fromEnvironment(env);
      } catch (IllegalArgumentException e) {
        throw CliException.stderr("error: " + e.getMessage());
      }
      d.ifPresent(b::addSource);
    }
    for (String loc : a.all(SymbolizeOpt.BREAKPAD_SYMBOLS)) {
      try {
        b.addSource(Source.BreakpadSymbols.parse(loc));
      } catch (IllegalArgumentException e) {
        throw CliException.stderr("error: --breakpad-symbols: " + e.getMessage());
      }
    }
    AddressAdjustment adjust = AddressAdjustment.ALL_BUT_FIRST;
    String adj = a.last(SymbolizeOpt.ADJUST_ADDRESSES);
    if (adj != null) {
      adjust = switch (adj) {
        case "all_but_first" -> AddressAdjustment.ALL_BUT_FIRST;
        case "all" -> AddressAdjustment.ALL;
        case "none" -> AddressAdjustment.NONE;
        default -> throw CliException.stderr(spelling(SymbolizeOpt.ADJUST_ADDRESSES)
            + ": expected all_but_first, all or none, but got '" + adj + "'");
      };
    }
    SymbolizeModules modules = new SymbolizeModules(a.has(SymbolizeOpt.DISABLE_GSYM), a.all(SymbolizeOpt.GSYM_FILE_DIRECTORY),
        debugDirs);
    return new Config(adjustVma, contextLines, style,
        new SymbolizeBatches.Settings(functions, paths, demangle, inlines, adjustVma, a.has(SymbolizeOpt.STACK),
            adjust), buildId,
        a.last(SymbolizeOpt.OBJ), threads, b, modules);
  }

  private int answer(SymbolizeArgs a, Config c, Symbolizer symbolizer) {
    boolean list = !a.inputs.isEmpty();
    // --stack prints one JSON object per frame, stacks separated by an empty line, in both forms
    SymbolizePrinter printer = new SymbolizePrinter(new SymbolizePrinter.Config(c.style,
        a.has(SymbolizeOpt.ADDRESSES), a.has(SymbolizeOpt.PRETTY_PRINT),
        c.settings.functions() != SymbolizeBatches.Functions.NONE, a.has(SymbolizeOpt.VERBOSE),
        new SourceContext(c.contextLines), list && c.style == SymbolizePrinter.Style.JSON && !c.settings.stack()));
    String obj = c.obj == null ? "" : c.obj;
    if (c.obj != null) {
      // llvm opens --obj first and stops if it cannot (also a truncated or corrupt object file)
      SymbolizeModules.Module m = c.modules.file(obj);
      if (m.error != null) {
        if (c.style == SymbolizePrinter.Style.JSON) {
          TextBuffer t = new TextBuffer(256);
          new SymbolizePrinter(new SymbolizePrinter.Config(c.style, false, a.has(SymbolizeOpt.PRETTY_PRINT), true, false,
              new SourceContext(0), false)).error(t, new SymbolizePrinter.Request(obj, true, 0, null), m.error);
          session.write(t);
        } else {
          err.println(tool + ": error: '" + obj + "': " + m.error);
        }
        return 1;
      }
    }
    try (SymbolizeBatches batches = new SymbolizeBatches(session, err, tool, symbolizer, printer, c.settings, c.threads,
        progress.apply(err))) {
      Reader reader = new Reader(batches, c.modules, obj, c.buildId, c.settings.stack());
      if (list) {
        TextBuffer begin = new TextBuffer(16);
        printer.begin(begin);
        session.write(begin);
        for (String in : a.inputs) reader.add(in);
        reader.finish();
        TextBuffer end = new TextBuffer(16);
        printer.end(end, batches.answered() > 0);
        session.write(end);
      } else {
        reader.readStdin(session.in);
      }
    }
    return 0;
  }

  /** Turns inputs into chunks (on the thread that writes the answers). */
  private static final class Reader {
    private final SymbolizeBatches batches;
    private final SymbolizeModules modules;
    private final String obj;
    private final byte[] buildId;
    private SymbolizeBatches.Chunk chunk;
    /** --stack: the frames of the stack being read (a chunk holds whole stacks). */
    private final boolean stack;
    private final List<SymbolizeInput> frames = new ArrayList<>();
    private final List<SymbolizeModules.Module> frameModules = new ArrayList<>();
    /** Frames of the current stack already submitted (in pieces, when it is longer than a chunk). */
    private int framesBefore;
    private final SymbolizeInput.Words words = new SymbolizeInput.Words();

    Reader(SymbolizeBatches batches, SymbolizeModules modules, String obj, byte[] buildId, boolean stack) {
      this.batches = batches;
      this.modules = modules;
      this.obj = obj;
      this.buildId = buildId;
      this.stack = stack;
      this.chunk = batches.chunk();
    }

    /** An address argument. */
    void add(String input) {
      byte[] b = ByteStrings.encode(input);
      add(b, 0, b.length);
    }

    /** The input in {@code b[from, to)}. */
    void add(byte[] b, int from, int to) {
      if (stack) {
        addFrame(b, from, to);
        return;
      }
      if (from == to) {
        chunk.add(null, null);
      } else {
        SymbolizeInput in = SymbolizeInput.parse(b, from, to, obj, buildId, words);
        chunk.add(in, in.error() == null ? modules.of(in) : null);
      }
      if (chunk.isFull()) submit();
    }

    /**
     * --stack: a frame, an empty input that ends a stack, or a comment ({@code #} first, ignored:
     * stack files can say what they hold). A stack goes into one chunk (the one
     * being filled if it fits); a stack longer than a chunk is resolved in chunk-sized pieces.
     */
    private void addFrame(byte[] b, int from, int to) {
      if (from == to) {
        endStack(true);
        return;
      }
      if (b[from] == '#') return;
      SymbolizeInput in = SymbolizeInput.parse(b, from, to, obj, buildId, words);
      frames.add(in);
      frameModules.add(in.error() == null ? modules.of(in) : null);
      if (frames.size() == SymbolizeBatches.CHUNK_SIZE - 1) endStack(false);
    }

    private void endStack(boolean separator) {
      int need = frames.size() + (separator ? 1 : 0);
      if (chunk.size() + need > SymbolizeBatches.CHUNK_SIZE) submit();
      // a piece after the first starts a chunk (the piece before was submitted with its chunk)
      if (chunk.isEmpty()) chunk.firstFrame = framesBefore;
      for (int i = 0; i < frames.size(); i++) chunk.add(frames.get(i), frameModules.get(i));
      if (separator && !frames.isEmpty()) chunk.add(null, null);
      framesBefore = separator ? 0 : framesBefore + frames.size();
      frames.clear();
      frameModules.clear();
      if (chunk.isFull() || !separator) submit();
    }

    void finish() {
      if (stack) endStack(false);
      submit();
      batches.drain();
    }

    private void submit() {
      if (chunk.isEmpty()) return;
      SymbolizeBatches.Chunk c = chunk;
      chunk = null;
      batches.submit(c);
      chunk = batches.chunk();
    }

    /**
     * Reads lines as llvm-symbolizer does with {@code fgets}: every CR and LF removed, a line ending
     * at a NUL byte (a C string); answers everything read so far before waiting for more input.
     */
    void readStdin(InputStream in) {
      InputLines lines = new InputLines(in, () -> {
        submit();
        batches.drain();
        batches.flush();
      }, true);
      while (lines.next()) add(lines.bytes(), 0, lines.length());
      finish();
    }
  }

  // ------------------------------------------------------------------ option values

  /** The spelling llvm names a valued option by in its messages (its {@code --name=} form). */
  private static String spelling(SymbolizeOpt o) {
    return o.spellings.getFirst().text();
  }

  /** llvm's {@code parseIntArg} for an unsigned 64-bit option. */
  private static long unsigned(SymbolizeArgs a, SymbolizeOpt o, long dflt) {
    String v = a.last(o);
    if (v == null) return dflt;
    Long n = Addresses.parse(v);
    if (n == null) throw CliException.stderr(spelling(o) + ": expected a non-negative integer, but got '" + v + "'");
    return n;
  }

  /** llvm's {@code parseIntArg} for an {@code int} option (a leading '-' allowed). */
  private static int signedInt(SymbolizeArgs a, SymbolizeOpt o) {
    String v = a.last(o);
    if (v == null) return 0;
    boolean negative = v.startsWith("-");
    Long n = Addresses.parse(negative ? v.substring(1) : v);
    long max = negative ? 1L << 31 : Integer.MAX_VALUE;
    if (n == null || n < 0 || n > max || (negative && v.length() > 1 && v.charAt(1) == '-')) {
      throw CliException.stderr(spelling(o) + ": expected a non-negative integer, but got '" + v + "'");
    }
    return (int) (negative ? -n : n);
  }

  private static int positiveInt(SymbolizeArgs a, SymbolizeOpt o) {
    String v = a.last(o);
    Long n = Addresses.parse(v);
    if (n == null || n < 1 || n > 100_000) {
      throw CliException.stderr(spelling(o) + ": expected a positive integer, but got '" + v + "'");
    }
    return n.intValue();
  }

  /** A byte count with an optional K, M, G or T suffix (powers of 1024). */
  /** A size in bytes with an optional K, M, G or T suffix (also {@code serve}'s sizes). */
  public static long size(String option, String v) {
    String t = v.trim().toUpperCase(Locale.ROOT);
    int shift = 0;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'K' -> shift = 10;
        case 'M' -> shift = 20;
        case 'G' -> shift = 30;
        case 'T' -> shift = 40;
        default -> {
        }
      }
    }
    if (shift > 0) t = t.substring(0, t.length() - 1);
    Long n = Addresses.parse(t);
    if (n == null || n < 1 || n > (Long.MAX_VALUE >> shift)) {
      throw CliException.stderr(option + ": expected a size in bytes (suffix K, M, G or T), but got '" + v + "'");
    }
    return n << shift;
  }

  private static Path path(SymbolizeOpt o, String v) {
    try {
      if (v.indexOf('\0') >= 0) throw new InvalidPathException(v, "NUL character");
      return Path.of(v);
    } catch (InvalidPathException e) {
      throw CliException.stderr(spelling(o) + ": invalid path '" + v + "'");
    }
  }
}
