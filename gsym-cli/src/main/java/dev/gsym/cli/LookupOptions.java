package dev.gsym.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Options that shape lookup output; shared by the top-level command and {@code lookup}. */
final class LookupOptions {
  @Option(names = "--verbose",
      description = "Print the decoded FunctionInfo before each lookup result; on errors, print the stack trace.")
  boolean verbose;

  @Option(names = "--merged-functions",
      description = "Show every merged function at each address (\"Found N functions at address ...\").")
  boolean mergedFunctions;

  @Option(names = "--merged-functions-filter", paramLabel = "REGEX",
      description = "With --merged-functions: only show functions whose name matches one of these POSIX"
          + " extended regular expressions. Repeatable.")
  List<String> filters = new ArrayList<>();

  @Option(names = "--threads", paramLabel = "N",
      description = "Look addresses up on N threads (default: the number of processors). Output is"
          + " the same for every N. Not an llvm-gsymutil option.")
  int threads = Runtime.getRuntime().availableProcessors();

  /** The --threads value, checked. */
  int threads() {
    if (threads < 1) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --threads must be at least 1, got " + threads);
    }
    return threads;
  }
}
