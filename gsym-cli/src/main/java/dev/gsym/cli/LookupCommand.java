package dev.gsym.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gsymutil lookup -f FILE ADDR...}: the same output as
 * {@code gsymutil --address ADDR... FILE}.
 */
@Command(name = "lookup",
    sortOptions = false,
    description = "Look addresses up in GSYM files; prints what llvm-gsymutil --address ADDR... FILE"
        + " prints (a 'Looking up addresses in' header per file).")
final class LookupCommand implements Callable<Integer> {
  private final Session session;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
  boolean help;

  @Option(names = {"-f", "--file"}, paramLabel = "FILE", required = true,
      description = "GSYM file to look the addresses up in. Repeatable.")
  List<String> files = new ArrayList<>();

  @Mixin
  LookupOptions lookup = new LookupOptions();

  @Parameters(paramLabel = "ADDR", arity = "1..*",
      description = "Addresses: 0x/0X hex, 0b binary, leading 0 octal, otherwise decimal.")
  List<String> addresses = new ArrayList<>();

  LookupCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = lookup.verbose;
    List<Long> addrs = Modes.parseAddresses(addresses, "ADDR");
    Modes.checkFilters(lookup, true);
    return Modes.lookup(session, files, addrs, new Symbolicator(lookup), lookup.threads());
  }
}
