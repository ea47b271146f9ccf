package dev.gsym.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gsymutil lookup ADDR... FILE}, {@code gsymutil lookup FILE ADDR...} and {@code gsymutil
 * lookup -f FILE ADDR...}: the same output as {@code gsymutil --address ADDR... FILE}. A positional
 * argument that parses as an address is an address, anything else a file (a file whose name parses
 * as an address is given as {@code -f NAME} or {@code ./NAME}); the rule does not depend on which
 * files exist.
 */
@Command(name = "lookup",
    sortOptions = false,
    customSynopsis = {
        "  gsymutil lookup [options] FILE... ADDR...",
        "  gsymutil lookup [options] ADDR... FILE...",
        "  gsymutil lookup [options] -f FILE... ADDR...",
    },
    header = "Look addresses up in GSYM files, as gsymutil --address ADDR... FILE... does.",
    synopsisHeading = "%nUsage:%n",
    descriptionHeading = "%n",
    description = {
        "An argument that parses as an address (0x/0X hex, 0b binary, leading 0 octal, otherwise"
            + " decimal) is an address; any other argument is a GSYM file (\"-\" reads one from"
            + " stdin). Name a file whose name looks like an address as ./NAME or with -f. Each"
            + " file gets a 'Looking up addresses in' header, in the order given (-f files first).",
    },
    parameterListHeading = "%nArguments:%n",
    optionListHeading = "%nOptions:%n")
final class LookupCommand implements Callable<Integer> {
  private final Session session;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
  boolean help;

  @Option(names = {"-f", "--file"}, paramLabel = "FILE",
      description = "GSYM file to look the addresses up in. Repeatable.")
  List<String> files = new ArrayList<>();

  @Mixin
  LookupOptions lookup = new LookupOptions();

  @Parameters(paramLabel = "ADDR|FILE", arity = "0..*", // checked in call(), after unknown options
      description = "Addresses and GSYM files, in any order (\"-\" reads a GSYM file from stdin).")
  List<String> arguments = new ArrayList<>();

  LookupCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = lookup.verbose;
    List<Long> addrs = new ArrayList<>();
    List<String> gsyms = new ArrayList<>(files);
    for (String a : arguments) {
      Long addr = Addresses.parse(a);
      if (addr != null) addrs.add(addr);
      else gsyms.add(a);
    }
    if (gsyms.isEmpty() || addrs.isEmpty()) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + " lookup: no " + (gsyms.isEmpty() ? "GSYM file" : "address")
          + " given; usage: gsymutil lookup FILE... ADDR... (see 'gsymutil lookup --help')");
    }
    Modes.checkFilters(lookup, true);
    return Modes.lookup(session, gsyms, addrs, new Symbolicator(lookup), lookup.threads());
  }
}
