package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Addresses;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
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
    for (String g : gsyms.subList(args.values(Opt.FILE).size(), gsyms.size())) {
      if (looksLikeAddress(g) && (addrs.isEmpty() || !exists(g))) {
        throw CliException.stderr(CliException.TOOL_NAME + " lookup: '" + g + "' is not a valid address (0x/0X hex, 0b"
            + " binary, leading 0 octal, otherwise decimal; at most 64 bits); a file named so is given as ./" + g
            + " or with -f");
      }
    }
    if (gsyms.isEmpty() || addrs.isEmpty()) {
      throw CliException.stderr(CliException.TOOL_NAME + " lookup: no " + (gsyms.isEmpty() ? "GSYM file" : "address")
          + " given; usage: gsymutil lookup FILE... ADDR... (see 'gsymutil lookup --help')");
    }
    Modes.checkFilters(args, true);
    return Modes.lookup(session, gsyms, addrs, new Symbolicator(args), args.threads());
  }

  /**
   * An argument meant as an address that does not parse as one: a digit, then only letters and
   * digits ({@code 0xzz}, {@code 12g}, a number over 64 bits). A file name usually has a dot.
   */
  static boolean looksLikeAddress(String a) {
    if (a.isEmpty() || a.charAt(0) < '0' || a.charAt(0) > '9') return false;
    for (int i = 1; i < a.length(); i++) {
      char c = a.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) return false;
    }
    return true;
  }

  private static boolean exists(String file) {
    try {
      return Files.exists(Path.of(file));
    } catch (InvalidPathException e) {
      return false;
    }
  }
}
