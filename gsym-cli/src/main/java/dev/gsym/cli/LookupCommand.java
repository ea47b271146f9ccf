package dev.gsym.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code gsymutil lookup ADDR... FILE}, {@code gsymutil lookup FILE ADDR...} and {@code gsymutil
 * lookup -f FILE ADDR...}: the same output as {@code gsymutil --address ADDR... FILE}. A positional
 * argument that parses as an address is an address, anything else a file (a file whose name parses
 * as an address is given as {@code -f NAME} or {@code ./NAME}); the rule does not depend on which
 * files exist.
 */
final class LookupCommand implements CliCommand {
  private final Session session;

  final Args args = new Args();

  @Override
  public Args args() {
    return args;
  }

  LookupCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = args.flag(Opt.VERBOSE);
    List<Long> addrs = new ArrayList<>();
    List<String> gsyms = new ArrayList<>(args.values(Opt.FILE));
    for (String a : args.values(Opt.ADDRESSES_AND_FILES)) {
      Long addr = Addresses.parse(a);
      if (addr != null) addrs.add(addr);
      else gsyms.add(a);
    }
    if (gsyms.isEmpty() || addrs.isEmpty()) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + " lookup: no " + (gsyms.isEmpty() ? "GSYM file" : "address")
          + " given; usage: gsymutil lookup FILE... ADDR... (see 'gsymutil lookup --help')");
    }
    Modes.checkFilters(args, true);
    return Modes.lookup(session, gsyms, addrs, new Symbolicator(args), Modes.threads(args));
  }
}
