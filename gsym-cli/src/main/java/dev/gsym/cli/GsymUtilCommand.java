package dev.gsym.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The top-level command, spelled like llvm-gsymutil: positional files are dumped, {@code --address}
 * looks addresses up in every file, {@code --addresses-from-stdin} reads {@code <addr> <path>} lines.
 *
 * <p>Each way of using the tool is a <em>mode</em> chosen in {@link #call()} from the options given:
 * dump, lookup, stdin lookups, or conversion ({@link ConvertOptions}: {@code --dwarf}/{@code
 * --convert}, {@code --breakpad}, {@code --to-breakpad}, with {@code -o}). A new mode adds its
 * options here or as a mixin, one branch in {@link #call()} and, if wanted, a subcommand next to
 * {@link DumpCommand}, {@link LookupCommand} and {@link ConvertCommand}.
 */
@Command(name = GsymUtil.TOOL_NAME,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    header = "gsymutil - symbolicate addresses with GSYM files, dump them, and create them",
    synopsisHeading = "%nUsage:%n",
    // one line each: HelpText wraps them at the terminal's width
    customSynopsis = {
        "  gsymutil [--dump] [--verbose] FILE...",
        "  gsymutil --address=ADDR... [--verbose] [--threads N] [--merged-functions"
            + " [--merged-functions-filter=REGEX]...] FILE...",
        "  gsymutil --addresses-from-stdin [--verbose] [--threads N] [--merged-functions ...]",
        "  gsymutil dump [--verbose] FILE...",
        "  gsymutil lookup [--verbose] [--threads N] [--merged-functions ...] FILE... ADDR..."
            + " (or ADDR... FILE..., or -f FILE... ADDR...)",
        "  gsymutil --dwarf FILE [-o OUT] [--quiet] [--segment-size N] [--merged-functions]"
            + " [--dwarf-callsites] [--verify] [--num-threads N] [--json-summary-file F]",
        "  gsymutil --convert FILE [--out-file OUT] (llvm-gsymutil's spelling of --dwarf)",
        "  gsymutil --breakpad SYM [-o OUT] [--lenient] [--quiet] [--segment-size N]",
        "  gsymutil --to-breakpad GSYM|ELF [-o OUT] [--module-os OS] [--module-arch ARCH]"
            + " [--module-name NAME] [--load-address ADDR] [--quiet]",
        "  gsymutil convert (--dwarf FILE | --breakpad SYM | --to-breakpad GSYM|ELF) [options]",
        "  gsymutil help [COMMAND]",
        "  gsymutil -h | --help | -v | --version",
    },
    description = {
        "",
        "Dumps GSYM files and symbolicates addresses with them, with the output of"
            + " llvm-gsymutil (LLVM 22). Files given without an address are dumped;"
            + " --address (alias --lookup) looks every address up in every FILE;"
            + " --addresses-from-stdin reads '<addr> <gsym-path>' lines and prints each result"
            + " followed by an empty line. The dump and lookup commands are the same as"
            + " the first two forms (name a file called dump, lookup, convert or help as ./dump);"
            + " lookup takes addresses and files in any order: an argument that parses as an"
            + " address is an address, any other is a file.",
        "Addresses use C notation: 0x/0X hex, 0b binary, leading 0 octal, otherwise decimal.",
        "Lookups that fail print an 'error:' line and do not change the exit status; unreadable or"
            + " invalid files and bad arguments exit with status 1.",
        "Conversions write OUT through a temporary file renamed into place (a symbolic link stays a"
            + " link and its target is replaced; a device or FIFO is written in place); -o - writes to"
            + " standard output and the summary to stderr; an output that is the input is refused.",
    },
    parameterListHeading = "%nArguments:%n",
    optionListHeading = "%nOptions:%n",
    commandListHeading = "%nCommands:%n")
final class GsymUtilCommand implements Callable<Integer> {
  private final Session session;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
  boolean help;

  @Option(names = {"-v", "--version"}, versionHelp = true, description = "Print the version and exit.")
  boolean version;

  @Option(names = "--dump", description = "Dump every FILE (the default when no address is given).")
  boolean dump;

  @Option(names = {"--address", "--lookup"}, paramLabel = "ADDR",
      description = "Look ADDR up in every FILE. Repeatable.")
  List<String> addresses = new ArrayList<>();

  @Option(names = "--addresses-from-stdin",
      description = "Read lines '<addr> <gsym-path>' from stdin and look each address up in its file;"
          + " each result is followed by an empty line.")
  boolean fromStdin;

  @Mixin
  LookupOptions lookup = new LookupOptions();

  @Mixin
  ConvertOptions convert = new ConvertOptions();

  @Parameters(paramLabel = "FILE", description = "GSYM files (\"-\" reads stdin).")
  List<String> files = new ArrayList<>();

  GsymUtilCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = lookup.verbose;
    List<Long> addrs = Modes.parseAddresses(addresses, "--address");
    Modes.checkFilters(lookup, !addrs.isEmpty() || fromStdin);
    List<String> inputs = files.stream().filter(f -> !f.isEmpty()).toList();
    convert.mergedFunctions = lookup.mergedFunctions;
    if (convert.anyGiven()) {
      if (!addrs.isEmpty() || fromStdin || dump || !inputs.isEmpty()) {
        throw CliException.stderr(GsymUtil.TOOL_NAME + ": conversion options cannot be combined with"
            + " dump or lookup arguments");
      }
      return Convert.run(session, convert);
    }
    if (fromStdin) {
      if (!addrs.isEmpty() || !inputs.isEmpty()) {
        throw CliException.stdout("error: no input files or addresses can be specified when using"
            + " the --addresses-from-stdin option.");
      }
      if (dump) throw CliException.stderr(GsymUtil.TOOL_NAME
          + ": --dump cannot be used with --addresses-from-stdin");
      return new StdinLookups(session, new Symbolicator(lookup), lookup.threads()).run();
    }
    if (dump && !addrs.isEmpty()) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --dump cannot be used with --address/--lookup");
    }
    if (addrs.isEmpty()) return Modes.dump(session, inputs);
    return Modes.lookup(session, inputs, addrs, new Symbolicator(lookup), lookup.threads());
  }
}
