package dev.gsym.cli.stackwalk;

import dev.gsym.GsymFormatException;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Session;
import dev.gsym.minidump.Minidump;
import dev.gsym.elf.ElfCore;
import dev.gsym.stackwalk.BreakpadSymbolDirectories;
import dev.gsym.stackwalk.ElfCoreProcess;
import dev.gsym.stackwalk.ModuleSymbols;
import dev.gsym.stackwalk.SymbolSource;
import dev.gsym.stackwalk.SymbolizerSymbols;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import java.net.URI;
import java.util.Optional;
import dev.gsym.stackwalk.ProcessState;
import dev.gsym.stackwalk.StackwalkJson;
import dev.gsym.stackwalk.StackwalkPrinter;
import dev.gsym.stackwalk.Stackwalker;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code gsymutil stackwalk [-m] [-s] [-c] [-b] [--json [--pretty]] DUMP... [SYMBOL_PATH...]}: Breakpad's
 * {@code minidump_stackwalk} (its options, parsed as its {@code getopt} parses them, and its
 * output byte for byte), over the {@link Stackwalker}. The first argument is a dump, as for
 * minidump_stackwalk; each later one that is a file beginning with a minidump signature, or an ELF
 * core file, is another dump, every other one a symbol path (a Breakpad symbol directory; for core
 * files also a directory where the core's binaries and libraries are looked for by name and
 * build-id). A minidump is walked as minidump_stackwalk walks it; an ELF core file ({@link
 * ElfCoreProcess}) as minidump_stackwalk would walk the minidump Breakpad's core2md makes of it,
 * with the symbols and CFI of its modules from GSYMs the {@link Symbolizer} makes of them. The
 * symbolizer's sources ({@code --store}, {@code --debug-file-directory}, {@code --debuginfod},
 * {@code --breakpad-symbols}, as for {@code gsymutil symbolize}) serve cores always and minidumps
 * when one of them is given (after the symbol paths). Dumps are walked in order, in one process,
 * and each one's output is exactly minidump_stackwalk's for it alone. Symbol files are converted
 * once into GSYM files under the symbol cache ({@code --symbol-cache DIR}, default {@code
 * $XDG_CACHE_HOME/gsymutil/stackwalk} or {@code ~/.cache/gsymutil/stackwalk}). A dump that cannot
 * be read prints nothing on stdout and one line on stderr (the file, the offset, what is wrong);
 * the others are still walked, and the exit status is then 1. {@code --json} prints rust-minidump's
 * JSON report instead ({@link StackwalkJson}; one line per dump, or indented with {@code --pretty}).
 * Never loads picocli.
 */
public final class StackwalkCommand {
  public static final String NAME = "stackwalk";

  private final Session session;
  private final PrintStream err;
  private final Map<String, String> env;

  public StackwalkCommand(Session session, Map<String, String> env) {
    this.session = session;
    this.err = session.err;
    this.env = env;
  }

  /** The usage text (minidump_stackwalk's, with our additions). */
  static String usage() {
    return """
        Usage: gsymutil stackwalk [options] <minidump-or-core-file>... [symbol-path ...]

        Output a stack trace for the provided minidump or ELF core file, as Breakpad's
        minidump_stackwalk does (for a core: as it does for the minidump core2md makes of it)

        Options:

          -m         Output in machine-readable format
          -s         Output stack contents
          -c         Output thread that causes crash or dump only
          -b         Brief of the thread that causes crash or dump
          -h, --help Print this help

          --json     Output rust-minidump's JSON report (minidump-stackwalk --json), one line per dump
          --pretty   Indent the JSON report
          --symbol-cache DIR  Where the symbol files (.sym) are kept as GSYM files once converted
                     (default: $XDG_CACHE_HOME/gsymutil/stackwalk, else ~/.cache/gsymutil/stackwalk)
          --store DIR  GSYM store: modules converted (with their CFI) once are kept there
          --debug-file-directory DIR  Where debug files are looked for by build-id
                     (repeatable; default /usr/lib/debug)
          --debuginfod URL  A debuginfod server (repeatable; default: $DEBUGINFOD_URLS)
          --no-debuginfod  Ask no debuginfod server
          --breakpad-symbols DIR|URL  A Breakpad symbol store, a directory or a symbol server
                     (repeatable)
          --verbose  Print the stack trace of an error

        The first argument is a minidump or an ELF core file; each later argument that is a
        file beginning with a minidump signature, or an ELF core file, is another dump, every
        other one a symbol path: a directory of Breakpad symbols laid out as
        NAME/DEBUG_ID/NAME.sym, and for core files also a directory holding the core's
        binaries and libraries (found by name and build-id). A core's modules are symbolized
        from their own files (at the paths the core names, or in the symbol paths), the debug
        files and stores of the options above; a minidump's from the symbol paths, then from
        those options when one is given. Several dumps print one after the other, each exactly
        as minidump_stackwalk prints it.
        """;
  }

  /** Runs {@code gsymutil stackwalk ARGS} (the arguments after "stackwalk"); returns the exit status. */
  public int run(List<String> args) {
    boolean machine = false;
    boolean contents = false;
    boolean crashedOnly = false;
    boolean brief = false;
    boolean json = false;
    boolean pretty = false;
    String cache = null;
    Sources sources = new Sources();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--")) {
        positional.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (a.equals("--help")) return help();
      if (a.equals("--verbose")) {
        session.verbose = true;
      } else if (a.equals("--json")) {
        json = true;
      } else if (a.equals("--pretty")) {
        pretty = true;
      } else if (a.equals("--symbol-cache") || a.startsWith("--symbol-cache=")) {
        if (a.equals("--symbol-cache")) {
          if (i + 1 == args.size()) return usageError("option '--symbol-cache' requires an argument");
          cache = args.get(++i);
        } else {
          cache = a.substring("--symbol-cache=".length());
        }
      } else if (a.equals("--no-debuginfod")) {
        sources.noDebuginfod = true;
      } else if (a.startsWith("--") && Sources.OPTIONS.contains(a.contains("=") ? a.substring(0, a.indexOf('=')) : a)) {
        String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
        String value;
        if (a.contains("=")) {
          value = a.substring(a.indexOf('=') + 1);
        } else {
          if (i + 1 == args.size()) return usageError("option '" + name + "' requires an argument");
          value = args.get(++i);
        }
        try {
          sources.add(name, value);
        } catch (IllegalArgumentException e) {
          return usageError(name + ": " + value + ": " + e.getMessage());
        }
      } else if (a.startsWith("--")) {
        return usageError("unrecognized option '" + a + "'");
      } else if (a.length() > 1 && a.charAt(0) == '-') {
        // getopt's short options, grouped or not, anywhere on the line
        for (int j = 1; j < a.length(); j++) {
          switch (a.charAt(j)) {
            case 'h' -> {
              return help();
            }
            case 'm' -> machine = true;
            case 's' -> contents = true;
            case 'c' -> crashedOnly = true;
            case 'b' -> brief = true;
            default -> {
              return usageError("invalid option -- '" + a.charAt(j) + "'");
            }
          }
        }
      } else {
        positional.add(a);
      }
    }
    if (positional.isEmpty()) return usageError("Missing minidump file");
    if (pretty && !json) return usageError("option '--pretty' requires '--json'");
    List<Path> dumps = new ArrayList<>();
    List<Path> symbolPaths = new ArrayList<>();
    for (int i = 0; i < positional.size(); i++) {
      Path p;
      try {
        p = Path.of(positional.get(i));
      } catch (InvalidPathException e) {
        err.println(CliException.TOOL_NAME + " " + NAME + ": " + positional.get(i) + ": not a valid path");
        return 1;
      }
      if (i == 0 || isMinidump(p) || isCore(p)) dumps.add(p);
      else symbolPaths.add(p);
    }
    Path cacheDir = cache != null ? Path.of(cache) : defaultCache();
    boolean anyCore = dumps.stream().anyMatch(StackwalkCommand::isCore);
    Symbolizer built;
    try {
      built = anyCore || sources.given() ? sources.symbolizer(env).build() : null;
    } catch (IllegalArgumentException e) {
      return fail(e.getMessage(), e);
    }
    int status = 0;
    try (BreakpadSymbolDirectories symbols = symbolPaths.isEmpty() ? null
        : new BreakpadSymbolDirectories(symbolPaths, cacheDir);
        Symbolizer symbolizer = built;
        SymbolizerSymbols modules = symbolizer == null ? null : new SymbolizerSymbols(symbolizer, symbolPaths);
        // a minidump's modules by their identifiers only: the paths it names are another machine's
        SymbolizerSymbols byId = symbolizer == null ? null : new SymbolizerSymbols(symbolizer, List.of(), false)) {
      // the symbol paths first, as minidump_stackwalk; then the symbolizer's sources
      SymbolSource minidumpSymbols = sources.given() ? firstOf(symbols, byId) : symbols;
      SymbolSource coreSymbols = firstOf(symbols, modules);
      for (Path dump : dumps) {
        try {
          ProcessState state;
          if (isCore(dump)) {
            try (ElfCore core = ElfCore.open(dump)) {
              ElfCoreProcess process = ElfCoreProcess.of(core);
              state = Stackwalker.builder().symbols(process.withMemoryImages(coreSymbols)).build().walk(process);
              print(state, StackwalkJson.DumpDetails.NONE, json, pretty, machine, brief, contents, crashedOnly);
            }
          } else {
            try (Minidump d = Minidump.open(dump)) {
              Stackwalker.Builder b = Stackwalker.builder();
              if (minidumpSymbols != null) b.symbols(minidumpSymbols);
              state = b.build().walk(d);
              print(state, StackwalkJson.DumpDetails.of(d), json, pretty, machine, brief, contents, crashedOnly);
            }
          }
        } catch (GsymFormatException e) {
          status = fail(e.getMessage(), e);
        } catch (NoSuchFileException e) {
          status = fail(dump + ": No such file or directory", e);
        } catch (IOException e) {
          status = fail(dump + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        }
      }
    }
    return status;
  }

  private void print(ProcessState state, StackwalkJson.DumpDetails details, boolean json, boolean pretty, boolean machine,
      boolean brief, boolean contents, boolean crashedOnly) throws IOException {
    if (json) session.sb.append(StackwalkJson.json(state, details, pretty)).append('\n');
    else if (machine) session.sb.append(StackwalkPrinter.machineReadable(state));
    else if (brief) session.sb.append(StackwalkPrinter.brief(state));
    // printed as it is made: stack contents (-s) span whole stacks
    else StackwalkPrinter.text(state, contents, crashedOnly, session.stdoutText());
    session.emit();
  }

  /** {@code a}'s symbols, else {@code b}'s (either may be null). */
  private static SymbolSource firstOf(SymbolSource a, SymbolSource b) {
    if (a == null) return b;
    if (b == null) return a;
    return (module, system) -> {
      ModuleSymbols s = a.find(module, system);
      return s != null ? s : b.find(module, system);
    };
  }

  /**
   * The symbolizer's sources as {@code gsymutil symbolize} and {@code serve} take them: the store,
   * the debug directories (default /usr/lib/debug), debuginfod servers (default
   * {@code $DEBUGINFOD_URLS}), Breakpad symbol stores, in that order.
   */
  private static final class Sources {
    static final List<String> OPTIONS = List.of("--store", "--debug-file-directory", "--debuginfod", "--breakpad-symbols");

    String store;
    final List<Path> debugDirectories = new ArrayList<>();
    final List<URI> debuginfod = new ArrayList<>();
    final List<String> breakpad = new ArrayList<>();
    boolean noDebuginfod;

    void add(String option, String value) {
      switch (option) {
        case "--store" -> store = value;
        case "--debug-file-directory" -> debugDirectories.add(Path.of(value));
        case "--debuginfod" -> debuginfod.add(URI.create(value));
        default -> breakpad.add(value);
      }
    }

    /** Whether a source option was given (then minidumps use the symbolizer too). */
    boolean given() {
      return store != null || !debugDirectories.isEmpty() || !debuginfod.isEmpty() || !breakpad.isEmpty();
    }

    /** @throws IllegalArgumentException naming the option of a bad value */
    Symbolizer.Builder symbolizer(Map<String, String> env) {
      Symbolizer.Builder b = Symbolizer.builder().unwind(true);
      if (store != null) b.store(Path.of(store));
      List<Path> dirs = debugDirectories.isEmpty() ? List.of(Source.DebugDirectories.DEFAULT_DIRECTORY) : debugDirectories;
      b.addSource(Source.DebugDirectories.of(dirs.toArray(Path[]::new)));
      if (!noDebuginfod) {
        try {
          Optional<Source.Debuginfod> d = debuginfod.isEmpty() ? Source.Debuginfod.fromEnvironment(env)
              : Optional.of(Source.Debuginfod.of(debuginfod));
          d.ifPresent(b::addSource);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--debuginfod: " + e.getMessage(), e);
        }
      }
      for (String loc : breakpad) {
        try {
          b.addSource(Source.BreakpadSymbols.parse(loc));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--breakpad-symbols: " + e.getMessage(), e);
        }
      }
      return b;
    }
  }

  /** Whether {@code p} is a regular file holding an ELF core file ({@code ET_CORE}, either byte order). */
  static boolean isCore(Path p) {
    if (!Files.isRegularFile(p)) return false;
    try (InputStream in = Files.newInputStream(p)) {
      byte[] h = in.readNBytes(18);
      if (h.length < 18 || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') return false;
      int type = h[5] == 2 ? (h[16] & 0xff) << 8 | (h[17] & 0xff) : (h[17] & 0xff) << 8 | (h[16] & 0xff);
      return type == ElfCore.ET_CORE;
    } catch (IOException e) {
      return false;
    }
  }

  private int fail(String message, Exception e) {
    session.flush();
    err.println(CliException.TOOL_NAME + " " + NAME + ": " + message);
    if (session.verbose) e.printStackTrace(err);
    return 1;
  }

  /** Whether {@code p} is a regular file that begins with a minidump signature (either byte order). */
  private static boolean isMinidump(Path p) {
    if (!Files.isRegularFile(p)) return false;
    try (InputStream in = Files.newInputStream(p)) {
      return Minidump.isMinidump(in.readNBytes(4));
    } catch (IOException e) {
      return false;
    }
  }

  private Path defaultCache() {
    String xdg = env.get("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isEmpty()) return Path.of(xdg, "gsymutil", NAME);
    String home = env.get("HOME");
    if (home == null || home.isEmpty()) home = System.getProperty("user.home");
    return Path.of(home, ".cache", "gsymutil", NAME);
  }

  private int help() {
    session.sb.append(usage());
    session.emit();
    return 0;
  }

  /** getopt's complaint, then the usage on stderr, exit status 1 (as minidump_stackwalk). */
  private int usageError(String message) {
    session.flush();
    err.println(CliException.TOOL_NAME + " " + NAME + ": " + message);
    err.print(usage());
    return 1;
  }
}
