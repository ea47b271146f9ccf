package dev.gsym.cli;

import dev.gsym.ByteStrings;
import dev.gsym.cli.gsymutil.CommandModel;
import dev.gsym.cli.gsymutil.Conversions;
import dev.gsym.cli.gsymutil.GsymUtilCommand;
import dev.gsym.cli.gsymutil.QuickArgs;
import dev.gsym.cli.stackwalk.StackwalkCommand;
import dev.gsym.cli.symbolize.SymbolizeCommand;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.MutuallyExclusiveArgsException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * {@code gsymutil}: dumps GSYM files and looks addresses up in them with llvm-gsymutil-22's exact
 * output, error messages and exit codes. {@link #run} is the whole program and can be called
 * in-process; {@link #main} only connects it to the process streams.
 */
public final class GsymUtil {
  private GsymUtil() {}

  public static void main(String[] args) {
    // names and paths in messages are printed as their original bytes, as llvm-gsymutil does
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
        ByteStrings.CHARSET);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
        ByteStrings.CHARSET);
    int status = run(args, System.in, out, err);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /**
   * Runs gsymutil with {@code args}, reading stdin from {@code in}. Stdout text is written to
   * {@code out} through one 64 KiB+ byte buffer, as UTF-8 with names and paths as their original
   * bytes ({@link ByteStrings}); diagnostics go to {@code err}. Never throws.
   * The everyday dump and lookup forms are parsed by {@link QuickArgs}, the rest by picocli.
   *
   * @return the exit status
   */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    return run(args, in, out, err, true);
  }

  /** {@link #run}; {@code quick} false always parses with picocli (for tests comparing both). */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err, boolean quick) {
    return run(args, in, out, err, quick, System.getenv());
  }

  /**
   * {@link #run} with the environment {@code env} (read by {@code symbolize}: DEBUGINFOD_URLS and
   * the debuginfod client's settings, LLVM_SYMBOLIZER_OPTS).
   */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err, boolean quick,
      Map<String, String> env) {
    Session session = new Session(in, out, err);
    int status;
    try {
      if (args.length == 0) return usageError(session);
      List<String> symbolize = symbolizeArguments(args);
      List<String> stackwalk = stackwalkArguments(args);
      GsymUtilCommand parsed = quick && symbolize == null && stackwalk == null ? QuickArgs.parse(args, session) : null;
      if (symbolize != null) {
        status = new SymbolizeCommand(session, env).run(symbolize);
      } else if (stackwalk != null) {
        status = new StackwalkCommand(session, env).run(stackwalk);
      } else if (parsed != null) {
        status = callQuick(session, parsed);
      } else {
        String grouped = badShortOptionGroup(args);
        if (grouped != null) {
          err.println(grouped);
          err.println(seeHelp(CliException.TOOL_NAME));
          return 1;
        }
        CommandLine cl = commandLine(session);
        cl.setOut(new PrintWriter(session.writer(), false));
        cl.setErr(new PrintWriter(err, true));
        status = cl.execute(args);
      }
    } catch (RuntimeException | Error e) {
      status = internalError(session, e);
    }
    try {
      session.flush();
    } catch (UncheckedIOException e) {
      err.println(CliException.TOOL_NAME + ": error writing output: " + e.getCause().getMessage());
      status = 1;
    }
    return status;
  }

  /**
   * The arguments of {@code gsymutil symbolize ...} (llvm-symbolizer's command line, parsed by
   * {@link dev.gsym.cli.symbolize.SymbolizeArgs}, never by picocli), with {@code help symbolize}
   * read as {@code symbolize --help}; null for any other command line.
   */
  static List<String> symbolizeArguments(String[] args) {
    if (args.length >= 1 && args[0].equals(SYMBOLIZE)) return List.of(args).subList(1, args.length);
    if (args.length >= 1 && args[0].equals(FLAMEGRAPH)) {
      // 'flamegraph IN -o OUT' is 'symbolize --flamegraph IN -o OUT' (the same module options)
      List<String> rest = new java.util.ArrayList<>(List.of(args).subList(1, args.length));
      rest.addFirst("--flamegraph");
      return rest;
    }
    if (args.length == 2 && args[0].equals("help") && args[1].equals(SYMBOLIZE)) return List.of("--help");
    return null;
  }

  static final String SYMBOLIZE = "symbolize";
  static final String FLAMEGRAPH = "flamegraph";

  /**
   * The arguments of {@code gsymutil stackwalk ...} (minidump_stackwalk's command line, parsed by
   * {@link StackwalkCommand}, never by picocli), with {@code help stackwalk} read as {@code
   * stackwalk --help}; null for any other command line.
   */
  static List<String> stackwalkArguments(String[] args) {
    if (args.length >= 1 && args[0].equals(StackwalkCommand.NAME)) return List.of(args).subList(1, args.length);
    if (args.length == 2 && args[0].equals("help") && args[1].equals(StackwalkCommand.NAME)) return List.of("--help");
    return null;
  }

  /** Runs a command parsed by {@link QuickArgs} as picocli's {@code execute} would. */
  private static int callQuick(Session session, GsymUtilCommand command) {
    try {
      return command.call();
    } catch (RuntimeException e) {
      return executionError(session, e);
    }
  }

  /**
   * llvm parses "-abc" as the grouped short options -a -b -c and reports the first unknown one;
   * picocli would take unknown trailing letters as a positional argument. The argument after an
   * option that takes a value is that value, whatever it looks like.
   */
  static String badShortOptionGroup(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--") || Opt.SUBCOMMANDS.contains(a)) return null;
      if (takesValue(a)) {
        i++;
        continue;
      }
      if (a.length() > 2 && a.charAt(0) == '-' && a.charAt(1) != '-') {
        for (int j = 1; j < a.length(); j++) {
          char c = a.charAt(j);
          if (c != 'h' && c != 'v') return "unknown argument '-" + c + "'";
        }
      }
    }
    return null;
  }

  private static boolean takesValue(String arg) {
    for (Opt o : Opt.TOP) if (o.takesValue() && o.names.contains(arg)) return true;
    return false;
  }

  /** The whole command line (picocli's model from {@link CommandModel}), set up as llvm parses. */
  static CommandLine commandLine(Session session) {
    CommandLine cl = CommandModel.commandLine(session);
    HelpText.install(cl);
    cl.setOverwrittenOptionsAllowed(true);
    cl.setAllowOptionsAsOptionParameters(true); // llvm takes the next argument as the value, whatever it is
    cl.setParameterExceptionHandler((ex, a) -> parameterError(session, ex));
    cl.setExecutionExceptionHandler((ex, c, parseResult) -> executionError(session, ex));
    return cl;
  }

  private static int executionError(Session session, Exception ex) {
    if (ex instanceof CliException e) {
      if (e.toStdout) {
        session.sb.setLength(0);
        session.sb.append(e.getMessage()).append('\n');
        session.emit();
        return e.exitCode;
      }
      session.flush();
      session.err.println(e.getMessage());
      if (session.verbose && e.getCause() != null) e.getCause().printStackTrace(session.err);
      return e.exitCode;
    }
    return internalError(session, ex);
  }

  private static int internalError(Session session, Throwable e) {
    try {
      session.flush();
    } catch (RuntimeException ignored) {
      // report the original problem
    }
    session.err.println(CliException.TOOL_NAME + ": error: " + e);
    if (session.verbose) e.printStackTrace(session.err);
    else LoggerFactory.getLogger(GsymUtil.class).debug("internal error", e);
    return 1;
  }

  /** Command-line errors, worded like llvm's OptTable where llvm has the same option. */
  private static int parameterError(Session session, ParameterException ex) {
    String msg;
    if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      // llvm's line, then where to look
      msg = unknownArgument(u.getUnmatched().getFirst(), ex.getCommandLine()) + System.lineSeparator()
          + seeHelp(ex.getCommandLine().getCommandSpec().qualifiedName());
    } else if (ex instanceof MissingParameterException m && isOptionMissingValue(m)) {
      msg = ((OptionSpec) m.getMissing().getFirst()).longestName() + ": missing argument";
    } else if (ex instanceof MutuallyExclusiveArgsException) {
      // two conversion modes; the top level reports its lookup-argument errors first
      if (ex.getCommandLine().getCommand() instanceof GsymUtilCommand top) {
        CommandModel.collect(ex.getCommandLine());
        try {
          top.checkLookupArguments();
        } catch (CliException e) {
          return executionError(session, e);
        }
      }
      msg = Conversions.ONE_MODE;
    } else {
      msg = CliException.TOOL_NAME + ": " + ex.getMessage();
    }
    session.flush();
    session.err.println(msg);
    return 1;
  }

  /**
   * {@code gsymutil} without arguments: the usage lines and where to read more on stderr, exit
   * status 1 (llvm-gsymutil-22 prints nothing and exits 0, which reads as success).
   */
  private static int usageError(Session session) {
    CommandLine cl = commandLine(session);
    CommandLine.Help help = cl.getHelp();
    Map<String, IHelpSectionRenderer> sections = cl.getHelpSectionMap();
    String usage = sections.get(UsageMessageSpec.SECTION_KEY_SYNOPSIS_HEADING).render(help)
        + sections.get(UsageMessageSpec.SECTION_KEY_SYNOPSIS).render(help);
    session.err.print(usage.stripLeading());
    session.err.println(seeHelp(CliException.TOOL_NAME));
    return 1;
  }

  /** The pointer to the help after an unknown argument, for {@code command} ("gsymutil lookup"). */
  static String seeHelp(String command) {
    return "Try '" + command + " --help' for more information.";
  }

  /** An option given without its value (no option is required; picocli marks the conversion modes so). */
  private static boolean isOptionMissingValue(MissingParameterException m) {
    List<ArgSpec> missing = m.getMissing();
    return missing != null && !missing.isEmpty() && missing.getFirst() instanceof OptionSpec o
        && o.arity().min() > 0 && (!o.required() || o.group() != null);
  }

  /** llvm's "unknown argument 'X'" with its "did you mean" suggestion (OptTable::findNearest). */
  static String unknownArgument(String arg, CommandLine cl) {
    if (arg.startsWith("-") && !arg.startsWith("--") && arg.length() > 2) {
      // grouped short options: the first character that is not a known flag is reported
      for (int i = 1; i < arg.length(); i++) {
        char c = arg.charAt(i);
        if (!cl.getCommandSpec().optionsMap().containsKey("-" + c)) return "unknown argument '-" + c + "'";
      }
    }
    List<String> candidates = new ArrayList<>();
    for (OptionSpec o : cl.getCommandSpec().options()) {
      for (String name : o.names()) {
        if (!name.startsWith("--") || name.length() - 2 < 4) continue;
        candidates.add(name);
        if (o.arity().max() > 0) candidates.add(name + "=");
      }
    }
    int best = Integer.MAX_VALUE;
    String nearest = null;
    for (String cand : candidates) {
      boolean delim = cand.endsWith("=");
      String normalized = arg;
      String rhs = "";
      if (delim) {
        int eq = arg.indexOf('=');
        if (eq >= 0) {
          normalized = arg.substring(0, eq + 1);
          rhs = arg.substring(eq + 1);
        }
      }
      int d = EditDistance.between(cand, normalized);
      if (rhs.isEmpty() && delim) d++;
      if (d < best) {
        best = d;
        nearest = cand + rhs;
      }
    }
    if (nearest == null || best > 1) return "unknown argument '" + arg + "'";
    return "unknown argument '" + arg + "', did you mean '" + nearest + "'?";
  }
}
