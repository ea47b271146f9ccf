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
}
