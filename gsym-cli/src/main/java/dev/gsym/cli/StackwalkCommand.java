package dev.gsym.cli;

import dev.gsym.GsymFormatException;
import dev.gsym.minidump.Minidump;
import dev.gsym.stackwalk.BreakpadSymbolDirectories;
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
 * {@code gsymutil stackwalk [-m] [-s] [-c] [-b] [--json [--pretty]] MINIDUMP... [SYMBOL_PATH...]}: Breakpad's
 * {@code minidump_stackwalk} (its options, parsed as its {@code getopt} parses them, and its
 * output byte for byte), over the {@link Stackwalker}. The first argument is a minidump, as for
 * minidump_stackwalk; each later one that is a file beginning with a minidump signature is another
 * dump, every other one a symbol path (a Breakpad symbol directory). Dumps are walked in order, in
 * one process, and each one's output is exactly minidump_stackwalk's for it alone. Symbol files are
 * converted once into GSYM files under the symbol cache ({@code --symbol-cache DIR}, default
 * {@code $XDG_CACHE_HOME/gsymutil/stackwalk} or {@code ~/.cache/gsymutil/stackwalk}). A dump that
 * cannot be read prints nothing on stdout and one line on stderr (the file, the offset, what is
 * wrong); the others are still walked, and the exit status is then 1. {@code --json} prints
 * rust-minidump's JSON report instead ({@link StackwalkJson}; one line per dump, or indented with
 * {@code --pretty}). Never loads picocli.
 */
final class StackwalkCommand {
  static final String NAME = "stackwalk";

  private final Session session;
  private final PrintStream err;
  private final Map<String, String> env;

  StackwalkCommand(Session session, Map<String, String> env) {
    this.session = session;
    this.err = session.err;
    this.env = env;
  }

  /** The usage text (minidump_stackwalk's, with our additions). */
  static String usage() {
    return """
        Usage: gsymutil stackwalk [options] <minidump-file>... [symbol-path ...]

        Output a stack trace for the provided minidump, as Breakpad's minidump_stackwalk does

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
          --verbose  Print the stack trace of an error

        The first argument is a minidump; each later argument that is a file beginning with a
        minidump signature is another minidump, every other one a symbol path: a directory of
        Breakpad symbols laid out as NAME/DEBUG_ID/NAME.sym. Several minidumps print one after
        the other, each exactly as minidump_stackwalk prints it.
        """;
  }

  /** Runs {@code gsymutil stackwalk ARGS} (the arguments after "stackwalk"); returns the exit status. */
  int run(List<String> args) {
    boolean machine = false;
    boolean contents = false;
    boolean crashedOnly = false;
    boolean brief = false;
    boolean json = false;
    boolean pretty = false;
    String cache = null;
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
        err.println(GsymUtil.TOOL_NAME + " " + NAME + ": " + positional.get(i) + ": not a valid path");
        return 1;
      }
      if (i == 0 || isMinidump(p)) dumps.add(p);
      else symbolPaths.add(p);
    }
    Path cacheDir = cache != null ? Path.of(cache) : defaultCache();
    int status = 0;
    try (BreakpadSymbolDirectories symbols = symbolPaths.isEmpty() ? null
        : new BreakpadSymbolDirectories(symbolPaths, cacheDir)) {
      Stackwalker.Builder b = Stackwalker.builder();
      if (symbols != null) b.symbols(symbols);
      Stackwalker walker = b.build();
      for (Path dump : dumps) {
        try (Minidump d = Minidump.open(dump)) {
          ProcessState state = walker.walk(d);
          if (json) session.sb.append(StackwalkJson.json(state, StackwalkJson.DumpDetails.of(d), pretty)).append('\n');
          else if (machine) session.sb.append(StackwalkPrinter.machineReadable(state));
          else if (brief) session.sb.append(StackwalkPrinter.brief(state));
          // printed as it is made: stack contents (-s) span whole stacks
          else StackwalkPrinter.text(state, contents, crashedOnly, session.stdoutText());
          session.emit();
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

  private int fail(String message, Exception e) {
    session.flush();
    err.println(GsymUtil.TOOL_NAME + " " + NAME + ": " + message);
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
    err.println(GsymUtil.TOOL_NAME + " " + NAME + ": " + message);
    err.print(usage());
    return 1;
  }
}
