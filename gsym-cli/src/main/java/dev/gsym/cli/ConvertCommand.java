package dev.gsym.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gsymutil convert --dwarf FILE [-o OUT]}, {@code --breakpad SYM [-o OUT]} and
 * {@code --to-breakpad GSYM|ELF [-o OUT]}.
 */
@Command(name = "convert",
    sortOptions = false,
    description = "Convert the DWARF of an ELF file to GSYM (--dwarf, as llvm-gsymutil --convert), a"
        + " Breakpad symbol file to GSYM (--breakpad) or a GSYM file or the DWARF of an ELF file to a"
        + " Breakpad symbol file (--to-breakpad). Prints a summary; a bad Breakpad record is reported as FILE:LINE: problem"
        + " (exit status 1, no output file) unless --lenient.")
final class ConvertCommand implements Callable<Integer> {
  private final Session session;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
  boolean help;

  @Option(names = "--verbose", description = "On errors, also print the stack trace.")
  boolean verbose;

  @Option(names = "--merged-functions",
      description = "With --dwarf: keep functions that share an address range (identical code folding)"
          + " as merged functions of the first one.")
  boolean mergedFunctions;

  @Mixin
  ConvertOptions convert = new ConvertOptions();

  ConvertCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = verbose;
    convert.mergedFunctions = mergedFunctions;
    return Convert.run(session, convert);
  }
}
