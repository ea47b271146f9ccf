package dev.gsym.cli;

import picocli.CommandLine.Option;

/**
 * Options of the conversion modes, shared by the top-level command and {@code convert}. Each input
 * format is one option naming the input file ({@code --dwarf}/{@code --convert}, {@code --breakpad},
 * {@code --to-breakpad}), the rest shape the output.
 */
final class ConvertOptions {
  @Option(names = {"--dwarf", "--convert"}, paramLabel = "FILE",
      description = "Convert the DWARF debug info and symbol table of the ELF file FILE to GSYM, as"
          + " llvm-gsymutil --convert --num-threads=1 does (default output: FILE.gsym).")
  String dwarf;

  @Option(names = "--breakpad", paramLabel = "SYM",
      description = "Convert the Breakpad symbol file SYM to GSYM (default output: SYM with .gsym in place of .sym).")
  String breakpad;

  @Option(names = "--to-breakpad", paramLabel = "GSYM|ELF",
      description = "Write a GSYM file, or the DWARF and symbols of an ELF file (as dump_syms does), as a Breakpad"
          + " symbol file (default output: the input with .sym in place of .gsym, or with .sym appended).")
  String toBreakpad;

  @Option(names = {"-o", "--out-file"}, paramLabel = "OUT",
      description = "Output file of a conversion; \"-\" writes it to standard output (the summary then goes to"
          + " stderr).")
  String outFile;

  @Option(names = "--quiet", description = "Do not print conversion warnings.")
  boolean quiet;

  @Option(names = "--lenient",
      description = "Skip bad Breakpad records (counting them) instead of failing at the first one.")
  boolean lenient;

  @Option(names = "--segment-size", paramLabel = "N",
      description = "Split the GSYM output into files of about N bytes named OUT-0x<first address>.")
  String segmentSize;

  @Option(names = "--load-address", paramLabel = "ADDR",
      description = "Breakpad addresses are relative to this module load address: --breakpad adds it to every"
          + " address (and makes it the GSYM base address), --to-breakpad subtracts it. Default 0, and for"
          + " --to-breakpad of an ELF file the first PT_LOAD's address, as dump_syms.")
  String loadAddress;

  @Option(names = "--module-os", paramLabel = "OS",
      description = "With --to-breakpad: the MODULE record's OS (default Linux).")
  String moduleOs;

  @Option(names = "--module-arch", paramLabel = "ARCH",
      description = "With --to-breakpad: the MODULE record's architecture (default: from the ELF header; x86_64"
          + " for a GSYM file, which does not record it).")
  String moduleArch;

  @Option(names = "--module-name", paramLabel = "NAME",
      description = "With --to-breakpad: the MODULE record's name (default: the ELF file's SONAME or file name;"
          + " the GSYM file name without .gsym).")
  String moduleName;

  @Option(names = "--dwarf-callsites",
      description = "With --dwarf: record the DW_TAG_call_site entries of each function as call-site info.")
  boolean dwarfCallSites;

  @Option(names = "--callsites-yaml-file", paramLabel = "FILE",
      description = "With --dwarf: attach the call sites listed in the YAML file FILE to the functions it names"
          + " (llvm-gsymutil's format: functions: [{name, callsites: [{return_offset, match_regex: [...],"
          + " flags: [InternalCall|ExternalCall]}]}]).")
  String callSitesYamlFile;

  @Option(names = "--verify",
      description = "With --dwarf: look every address of every function up in the new GSYM file and"
          + " compare with the DWARF (exit status 1 on a mismatch).")
  boolean verify;

  @Option(names = "--num-threads", paramLabel = "N",
      description = "With --dwarf: number of threads converting compile units (default: the number of"
          + " cores). The output does not depend on it.")
  String numThreads;

  @Option(names = "--json-summary-file", paramLabel = "FILE",
      description = "With --dwarf: write the counts of the warning and error categories to FILE as JSON"
          + " (\"-\": standard output, after the summary).")
  String jsonSummaryFile;

  /**
   * --merged-functions: declared by the lookup options of the top-level command (llvm uses one flag
   * for both) and by the convert subcommand, which copy it here.
   */
  boolean mergedFunctions;

  /** True if a conversion was asked for. */
  boolean requested() {
    return dwarf != null || breakpad != null || toBreakpad != null;
  }

  /**
   * True if an option that only makes sense for a conversion was given. {@code --verify} alone does
   * not count: llvm-gsymutil-22 ignores it without {@code --convert}, so {@code --verify X.gsym}
   * dumps X.gsym and {@code --verify --address A X.gsym} looks A up.
   */
  boolean anyGiven() {
    return requested() || outFile != null || quiet || lenient || segmentSize != null || moduleName != null
        || moduleOs != null || moduleArch != null || loadAddress != null || dwarfCallSites || numThreads != null
        || jsonSummaryFile != null || callSitesYamlFile != null;
  }
}
