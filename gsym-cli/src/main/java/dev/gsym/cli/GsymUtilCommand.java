package dev.gsym.cli;

import java.util.List;

/**
 * The top-level command, spelled like llvm-gsymutil: positional files are dumped, {@code --address}
 * looks addresses up in every file, {@code --addresses-from-stdin} reads {@code <addr> <path>} lines,
 * and a conversion mode ({@code --dwarf}/{@code --convert}, {@code --breakpad}, {@code --to-breakpad},
 * see {@link Conversions}) converts. Its options are {@link Opt#TOP}; {@link #call()} picks
 * the mode from those given. The subcommands {@link DumpCommand}, {@link LookupCommand} and {@link
 * ConvertCommand} run the same modes.
 */
final class GsymUtilCommand implements CliCommand {
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
      if (args.flag(Opt.DUMP)) throw CliException.stderr(GsymUtil.TOOL_NAME
          + ": --dump cannot be used with --addresses-from-stdin");
      return new StdinLookups(session, new Symbolicator(args), Modes.threads(args)).run();
    }
    if (args.has(Opt.STATISTICS)) {
      if (!addrs.isEmpty() || args.flag(Opt.FROM_STDIN) || args.flag(Opt.DUMP)) {
        throw CliException.stderr(GsymUtil.TOOL_NAME + ": --statistics cannot be used with --dump, --address or"
            + " --addresses-from-stdin");
      }
      return Modes.statistics(session, inputs, args.value(Opt.STATISTICS));
    }
    if (args.flag(Opt.DUMP) && !addrs.isEmpty()) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --dump cannot be used with --address/--lookup");
    }
    if (addrs.isEmpty()) return Modes.dump(session, inputs);
    return Modes.lookup(session, inputs, addrs, new Symbolicator(args), Modes.threads(args));
  }

  /**
   * What is checked before the mode is known, in this order: the addresses, the merged-functions
   * filters, and that a conversion comes without dump or lookup arguments. Also run when picocli
   * refuses two conversion modes, so that those errors keep coming first.
   *
   * @return the addresses
   */
  List<Long> checkLookupArguments() {
    session.verbose = args.flag(Opt.VERBOSE);
    List<Long> addrs = Modes.parseAddresses(args.values(Opt.ADDRESS), "--address");
    Modes.checkFilters(args, !addrs.isEmpty() || args.flag(Opt.FROM_STDIN));
    if (conversionRequested() && (!addrs.isEmpty() || args.flag(Opt.FROM_STDIN) || args.flag(Opt.DUMP)
        || !inputs().isEmpty())) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": conversion options cannot be combined with"
          + " dump or lookup arguments");
    }
    return addrs;
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
