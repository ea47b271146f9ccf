package dev.gsym.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gsymutil dump FILE...}: the same as {@code gsymutil FILE...}. */
@Command(name = "dump",
    description = "Dump GSYM files (header, tables, strings and every FunctionInfo), as llvm-gsymutil"
        + " FILE... does.")
final class DumpCommand implements Callable<Integer> {
  private final Session session;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
  boolean help;

  @Option(names = "--verbose", description = "On errors, also print the stack trace.")
  boolean verbose;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "GSYM files (\"-\" reads stdin).")
  List<String> files = new ArrayList<>();

  DumpCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = verbose;
    return Modes.dump(session, files.stream().filter(f -> !f.isEmpty()).toList());
  }
}
