package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.CliException;
import dev.gsym.cli.EditDistance;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * The top-level command, spelled like llvm-gsymutil: positional files are dumped, {@code --address}
 * looks addresses up in every file, {@code --addresses-from-stdin} reads {@code <addr> <path>} lines,
 * and a conversion mode ({@code --dwarf}/{@code --convert}, {@code --breakpad}, {@code --to-breakpad},
 * see {@link Conversions}) converts. Its options are {@link Opt#TOP}; {@link #call()} picks
 * the mode from those given. The subcommands {@link DumpCommand}, {@link LookupCommand} and {@link
 * ConvertCommand} run the same modes.
 */
public final class GsymUtilCommand implements CliCommand {
  private final Session session;
  /** What was given, by picocli or {@link QuickArgs}. */
  final Args args = new Args();

  @Override
  public Args args() {
    return args;
  }

  GsymUtilCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    List<Long> addrs = checkLookupArguments();
    List<String> inputs = inputs();
    if (conversionRequested()) return Conversions.run(session, args);
    if (args.flag(Opt.FROM_STDIN)) {
      if (!addrs.isEmpty() || !inputs.isEmpty()) {
        throw CliException.stdout("error: no input files or addresses can be specified when using"
            + " the --addresses-from-stdin option.");
      }
      if (args.flag(Opt.DUMP)) throw CliException.tool(
          "--dump cannot be used with --addresses-from-stdin");
      return new StdinLookups(session, new Symbolicator(args), args.threads()).run();
    }
    if (!inputs.isEmpty()) checkNotAMistypedCommand(inputs.getFirst());
    if (args.has(Opt.STATISTICS)) {
      if (!addrs.isEmpty() || args.flag(Opt.FROM_STDIN) || args.flag(Opt.DUMP)) {
        throw CliException.tool("--statistics cannot be used with --dump, --address or"
            + " --addresses-from-stdin");
      }
      return Modes.statistics(session, inputs, args.value(Opt.STATISTICS));
    }
    if (args.flag(Opt.DUMP) && !addrs.isEmpty()) {
      throw CliException.tool("--dump cannot be used with --address/--lookup");
    }
    if (addrs.isEmpty()) return Modes.dump(session, inputs);
    return Modes.lookup(session, inputs, addrs, new Symbolicator(args), args.threads());
  }

  /**
   * What is checked before the mode is known, in this order: the addresses, the merged-functions
   * filters, and that a conversion comes without dump or lookup arguments. Also run when picocli
   * refuses two conversion modes, so that those errors keep coming first.
   *
   * @return the addresses
   */
  public List<Long> checkLookupArguments() {
    session.verbose = args.flag(Opt.VERBOSE);
    List<Long> addrs = Modes.parseAddresses(args.values(Opt.ADDRESS), "--address");
    Modes.checkFilters(args, !addrs.isEmpty() || args.flag(Opt.FROM_STDIN));
    if (conversionRequested() && (!addrs.isEmpty() || args.flag(Opt.FROM_STDIN) || args.flag(Opt.DUMP)
        || !inputs().isEmpty())) {
      throw CliException.tool("conversion options cannot be combined with"
          + " dump or lookup arguments");
    }
    return addrs;
  }

  /**
   * A first file that does not exist and is spelled almost like a subcommand ({@code gsymutil
   * symbolise 0x10}) is reported with the subcommand it probably meant.
   */
  private static void checkNotAMistypedCommand(String file) {
    String command = nearestCommand(file);
    if (command == null) return;
    try {
      if (Files.exists(Path.of(file), LinkOption.NOFOLLOW_LINKS)) return;
    } catch (InvalidPathException e) {
      return; // reported when it is opened
    }
    throw CliException.stderr(file + ": No such file or directory (did you mean '" + CliException.TOOL_NAME + " " + command
        + "'?)");
  }

  /**
   * The subcommand {@code word} is one typo away from (two for names of five letters or more,
   * case ignored), or null; a word with a path separator or a dot names a file.
   */
  static String nearestCommand(String word) {
    if (word.indexOf('/') >= 0 || word.indexOf('.') >= 0 || word.length() > 12) return null;
    String w = word.toLowerCase(java.util.Locale.ROOT);
    for (String command : Opt.SUBCOMMANDS) {
      if (EditDistance.between(command, w) <= (command.length() >= 5 ? 2 : 1)) return command;
    }
    return null;
  }

  /** True if an option that only makes sense for a conversion was given ({@link Opt#CONVERSION_ONLY}). */
  private boolean conversionRequested() {
    for (Opt o : Opt.CONVERSION_ONLY) if (args.has(o)) return true;
    return false;
  }

  private List<String> inputs() {
    return args.values(Opt.FILES).stream().filter(f -> !f.isEmpty()).toList();
  }
}
