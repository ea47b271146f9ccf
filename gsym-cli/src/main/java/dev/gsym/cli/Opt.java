package dev.gsym.cli;

import java.util.List;

/**
 * Every option and positional parameter of gsymutil, spelled once: its names, value label, help
 * text and how it takes values. {@link dev.gsym.cli.gsymutil.CommandModel} builds picocli's model
 * of each command from these entries (programmatically: picocli never scans annotations), and
 * {@link dev.gsym.cli.gsymutil.QuickArgs} parses the everyday command lines with the same entries
 * without building that model; both fill an {@link Args}. A command may give an entry its own help
 * text where the option means more there (see {@link dev.gsym.cli.gsymutil.CommandModel}).
 */
public enum Opt {
  HELP(Kind.USAGE_HELP, null, "Print this help and exit.", "-h", "--help"),
  VERSION(Kind.VERSION_HELP, null, "Print the version and exit.", "-v", "--version"),
  DUMP(Kind.FLAG, null, "Dump every FILE (the default when no address is given).", "--dump"),
  ADDRESS(Kind.LIST, "ADDR", "Look ADDR up in every FILE. Repeatable.", "--address", "--lookup"),
  FROM_STDIN(Kind.FLAG, null, "Read lines '<addr> <gsym-path>' from stdin and look each address up in its file;"
      + " each result is followed by an empty line.", "--addresses-from-stdin"),
  VERBOSE(Kind.FLAG, null,
      "Print the decoded FunctionInfo before each lookup result; on errors, print the stack trace.", "--verbose"),
  MERGED_FUNCTIONS(Kind.FLAG, null,
      "Show every merged function at each address (\"Found N functions at address ...\").", "--merged-functions"),
  MERGED_FILTER(Kind.LIST, "REGEX", "With --merged-functions: only show functions whose name matches one of these"
      + " POSIX extended regular expressions. Repeatable.", "--merged-functions-filter"),
  STATISTICS(Kind.OPTIONAL_VALUE, "FORMAT", "Print where the bytes of each FILE go (header, tables, sections,"
      + " FunctionInfo parts) instead of dumping it, as llvm main's --statistics; FORMAT is text (the default), json"
      + " or pretty-json, attached as --statistics=FORMAT.", "--statistics"),
  THREADS(Kind.INT, "N", "Look addresses up on N threads (default: the number of processors). Output is"
      + " the same for every N. Not an llvm-gsymutil option.", "--threads"),

  // the conversion modes: an exclusive group, one input file each
  DWARF(Kind.MODE, "FILE", "Convert the DWARF debug info and symbol table of the ELF, Mach-O or PE/COFF file FILE (a"
      + " universal file: each slice; a .dSYM bundle: its DWARF file) to GSYM, as llvm-gsymutil --convert"
      + " --num-threads=1 does (default output: FILE.gsym).", "--dwarf", "--convert"),
  BREAKPAD(Kind.MODE, "SYM", "Convert the Breakpad symbol file SYM to GSYM (default output: SYM with .gsym in place"
      + " of .sym).", "--breakpad"),
  TO_BREAKPAD(Kind.MODE, "GSYM|ELF", "Write a GSYM file, or the DWARF and symbols of an ELF file (as dump_syms"
      + " does), as a Breakpad symbol file (default output: the input with .sym in place of .gsym, or with .sym"
      + " appended).", "--to-breakpad"),
  // what shapes a conversion's output
  OUT_FILE(Kind.VALUE, "OUT", "Output file of a conversion; \"-\" writes it to standard output (the summary then"
      + " goes to stderr).", "-o", "--out-file"),
  QUIET(Kind.FLAG, null, "Fewer conversion messages and no progress bar. With --dwarf, as llvm-gsymutil's --quiet:"
      + " no warnings about address ranges outside executable sections; the other DWARF warnings (such as 'same"
      + " address range contains different debug info') are still printed, as llvm-gsymutil prints them. With"
      + " --breakpad: no warnings. With --to-breakpad: no warning about guessed MODULE fields. With --output-version"
      + " (rewriting a GSYM file): nothing on success.", "--quiet"),
  OUTPUT_VERSION(Kind.VALUE, "N", "GSYM version to write: 1 (the default; what LLVM 22 reads and writes) or 2 (LLVM"
      + " main's format: section directory, 64-bit offsets, files over 4 GiB). With convert and a GSYM file:"
      + " rewrite that file in version N.", "--output-version"),
  SYMTAB_FILE(Kind.VALUE, "FILE", "With --dwarf: take the symbol table (and the UUID) from FILE instead of the"
      + " input, e.g. the unstripped binary of a stripped one, as llvm main's --symtab-file.", "--symtab-file"),
  LLVM_COMPAT(Kind.VALUE, "VERSION", "With --dwarf: behave as llvm-gsymutil VERSION where LLVM releases differ:"
      + " 22 ignores .gnu_debugdata (MiniDebugInfo) symbols; 23 (the default, llvm main) reads them."
      + " Thin Mach-O files are named by their triple (aarch64) as 22 does unless 23 is given here or"
      + " --symtab-file is used (then as slices: arm64).",
      "--llvm-compat"),
  LENIENT(Kind.FLAG, null, "Skip bad Breakpad records (counting them) instead of failing at the first one.",
      "--lenient"),
  SEGMENT_SIZE(Kind.VALUE, "N", "Split the GSYM output into files of about N bytes named OUT-0x<first address>.",
      "--segment-size"),
  LOAD_ADDRESS(Kind.VALUE, "ADDR", "Breakpad addresses are relative to this module load address: --breakpad adds it"
      + " to every address (and makes it the GSYM base address), --to-breakpad subtracts it. Default 0, and for"
      + " --to-breakpad of an ELF file the first PT_LOAD's address, as dump_syms.", "--load-address"),
  MODULE_OS(Kind.VALUE, "OS", "With --to-breakpad: the MODULE record's OS (default Linux).", "--module-os"),
  MODULE_ARCH(Kind.VALUE, "ARCH", "With --to-breakpad: the MODULE record's architecture (default: from the ELF"
      + " header; x86_64 for a GSYM file, which does not record it).", "--module-arch"),
  MODULE_NAME(Kind.VALUE, "NAME", "With --to-breakpad: the MODULE record's name (default: the ELF file's SONAME or"
      + " file name; the GSYM file name without .gsym).", "--module-name"),
  DWARF_CALLSITES(Kind.FLAG, null, "With --dwarf: record the DW_TAG_call_site entries of each function as call-site"
      + " info.", "--dwarf-callsites"),
  CALLSITES_YAML(Kind.VALUE, "FILE", "With --dwarf: attach the call sites listed in the YAML file FILE to the"
      + " functions it names (llvm-gsymutil's format: functions: [{name, callsites: [{return_offset, match_regex:"
      + " [...], flags: [InternalCall|ExternalCall]}]}]).", "--callsites-yaml-file"),
  ARCH(Kind.LIST, "ARCH", "With --dwarf of a universal Mach-O file: convert only the slices of this architecture"
      + " (arm64, x86_64, armv7, ...) or CPU type number; with several slices, OUT gets .ARCH appended. Repeatable.",
      "--arch"),
  VERIFY(Kind.FLAG, null, "With --dwarf: look every address of every function up in the new GSYM file and"
      + " compare with the DWARF (exit status 1 on a mismatch).", "--verify"),
  UNWIND(Kind.FLAG, null, "With --dwarf and --breakpad: also carry the unwind information (the CFI of"
      + " .eh_frame/.debug_frame; STACK CFI/STACK WIN records) in each function, for stack walkers (InfoType 0x10000,"
      + " docs/unwind.md). Not an llvm-gsymutil option: llvm-gsymutil's lookups of the file are unchanged, but its"
      + " dump shows an error line instead of each function that carries unwind information.", "--unwind"),
  NO_CFI(Kind.FLAG, null, "With --to-breakpad of an object file: write no STACK CFI records, as dump_syms -c.",
      "--no-cfi"),
  NUM_THREADS(Kind.VALUE, "N", "With --dwarf: number of threads converting compile units (default: the number of"
      + " cores). The output does not depend on it.", "--num-threads"),
  JSON_SUMMARY(Kind.VALUE, "FILE", "With --dwarf: write the counts of the warning and error categories to FILE as"
      + " JSON (\"-\": standard output, after the summary).", "--json-summary-file"),

  EMBED(Kind.FLAG, null, "With --dwarf: write a copy of the ELF input with the GSYM in a .gsym section"
      + " (docs/embedding.md) to OUT instead of a GSYM file.", "--embed"),
  IN_PLACE(Kind.FLAG, null, "With --embed or embed: allow OUT to be the input binary (replaced through a"
      + " temporary file; without -o, the input is the output).", "--in-place"),
  FORCE(Kind.FLAG, null, "With embed: embed even when the GSYM's UUID is not the binary's build-id.", "--force"),

  // lookup's
  FILE(Kind.LIST, "FILE", "GSYM file to look the addresses up in. Repeatable.", "-f", "--file"),

  // serve's
  STORE(Kind.VALUE, "DIR", "GSYM store shared with other processes and hosts (required): modules are converted"
      + " into it once.", "--store"),
  LISTEN(Kind.VALUE, "HOST:PORT", "Address to listen on (default 127.0.0.1:8080; port 0 picks a free port, printed"
      + " at start-up; [::1]:PORT for IPv6).", "--listen"),
  DEBUG_FILE_DIRECTORY(Kind.LIST, "DIR", "Debug file directory searched by build-id (.build-id/xx/rest.debug)."
      + " Repeatable; default /usr/lib/debug. With --to-breakpad of a binary without DWARF: where to find its debug"
      + " file (also by its .gnu_debuglink name, CRC-checked), as dump_syms' debug directories.",
      "--debug-file-directory"),
  DEBUGINFOD_URL(Kind.LIST, "URL", "debuginfod server. Repeatable; default: the servers of DEBUGINFOD_URLS.",
      "--debuginfod"),
  NO_DEBUGINFOD(Kind.FLAG, null, "Ask no debuginfod server, also not those of DEBUGINFOD_URLS.", "--no-debuginfod"),
  CONVERT_IN_PROCESS(Kind.FLAG, null, "Convert debug files in the server's own JVM instead of a child JVM with the"
      + " conversion's JIT settings (same bytes; the conversion's memory then counts in the server's heap).",
      "--convert-in-process"),
  NO_WARM_UP(Kind.FLAG, null, "Start listening without first running the request path on a generated module"
      + " (saves ~0.5 s of start-up; the first requests then wait for the JIT).", "--no-warm-up"),
  BREAKPAD_SYMBOLS(Kind.LIST, "DIR|URL", "Breakpad symbol store (directory or http(s) symbol server). Repeatable.",
      "--breakpad-symbols"),
  MAX_STORE_SIZE(Kind.VALUE, "SIZE", "Bound the store's .gsym files (suffix K, M, G or T); the least recently used"
      + " are removed.", "--max-store-size"),
  MAX_OPEN_MODULES(Kind.VALUE, "N", "Modules kept mapped at once (default 256); the least recently used are"
      + " unmapped.", "--max-open-modules"),
  MAX_REQUEST_BYTES(Kind.VALUE, "SIZE", "Largest request body (default 16M); larger ones get 413.",
      "--max-request-bytes"),
  MAX_FRAMES(Kind.VALUE, "N", "Most frames in one request, all stacks together (default 100000); more get 413.",
      "--max-frames"),
  MAX_MINIDUMP_BYTES(Kind.VALUE, "SIZE", "Largest minidump upload of POST /minidump, as sent and as decoded"
      + " (default 64M); larger ones get 413.", "--max-minidump-bytes"),
  SYMBOL_CACHE(Kind.VALUE, "DIR", "Where POST /minidump keeps the .sym files of --breakpad-symbols directories once"
      + " converted to GSYM (default: in memory).", "--symbol-cache"),
  IDLE_TIMEOUT(Kind.VALUE, "SECONDS", "Close a connection silent this long, also in the middle of a request body"
      + " (default 30).", "--idle-timeout"),

  // positional parameters
  FILES(Kind.POSITIONAL, "FILE", "GSYM files (\"-\" reads stdin)."),
  ADDRESSES_AND_FILES(Kind.POSITIONAL, "ADDR|FILE",
      "Addresses and GSYM files, in any order (\"-\" reads a GSYM file from stdin)."),
  EMBED_ARGS(Kind.POSITIONAL, "BINARY GSYM", "The ELF file to copy, then the GSYM file to put into its .gsym"
      + " section."),
  SYMBOLIZE_ARGS(Kind.POSITIONAL, "ARG", "llvm-symbolizer's options, addresses and input lines (SymbolizeOpt)."),
  STACKWALK_ARGS(Kind.POSITIONAL, "ARG", "minidump_stackwalk's options, minidumps and symbol paths.");

  /** How an entry takes its values (and so what {@link Args} holds for it). */
  public enum Kind {
    /** {@code -h}/{@code --help}: picocli prints the usage help. */
    USAGE_HELP,
    /** {@code -v}/{@code --version}: picocli prints the version. */
    VERSION_HELP,
    /** No value; {@code true} when given. */
    FLAG,
    /** One value; given again, the last one wins (as llvm's options). */
    VALUE,
    /** A value each time it is given; all are kept. */
    LIST,
    /**
     * A value attached with {@code =} ({@code --statistics=json}), or none ({@code --statistics}: the
     * entry holds {@link #FALLBACK}); the next argument is never taken as its value.
     */
    OPTIONAL_VALUE,
    /** An {@code int} value, converted (and refused) by picocli. */
    INT,
    /**
     * One value, and at most one {@code MODE} entry per command line (picocli's exclusive argument
     * group); given again, the last value wins.
     */
    MODE,
    /** The positional parameters. */
    POSITIONAL,
  }

  /** What an {@link Kind#OPTIONAL_VALUE} entry holds when given without a value. */
  public static final String FALLBACK = "";

  /**
   * The top-level command's entries, in help order (also all that {@link
   * dev.gsym.cli.gsymutil.QuickArgs} knows).
   */
  public static final List<Opt> TOP = List.of(HELP, VERSION, DUMP, ADDRESS, FROM_STDIN, VERBOSE, MERGED_FUNCTIONS,
      MERGED_FILTER, STATISTICS, THREADS, DWARF, BREAKPAD, TO_BREAKPAD, OUT_FILE, QUIET, OUTPUT_VERSION, LENIENT,
      SEGMENT_SIZE, LOAD_ADDRESS, MODULE_OS, MODULE_ARCH, MODULE_NAME, DWARF_CALLSITES, CALLSITES_YAML, ARCH, SYMTAB_FILE,
      LLVM_COMPAT, VERIFY, UNWIND, NO_CFI, DEBUG_FILE_DIRECTORY, NUM_THREADS, JSON_SUMMARY, EMBED, IN_PLACE, FILES);

  /** The subcommand names: an argument spelled so is a subcommand, not a file. */
  public static final List<String> SUBCOMMANDS = List.of("dump", "lookup", "convert", "embed", "symbolize", "serve", "stackwalk",
      "help");

  /**
   * The entries that only make sense in a conversion: one of them with dump or lookup arguments is
   * an error. {@link #VERIFY} is not one: llvm-gsymutil-22 ignores it without {@code --convert}, so
   * {@code --verify X.gsym} dumps X.gsym.
   */
  public static final List<Opt> CONVERSION_ONLY = List.of(DWARF, BREAKPAD, TO_BREAKPAD, OUT_FILE, QUIET, OUTPUT_VERSION,
      LENIENT, SEGMENT_SIZE, LOAD_ADDRESS, MODULE_OS, MODULE_ARCH, MODULE_NAME, DWARF_CALLSITES, CALLSITES_YAML,
      ARCH, SYMTAB_FILE, LLVM_COMPAT, UNWIND, NO_CFI, DEBUG_FILE_DIRECTORY, NUM_THREADS, JSON_SUMMARY, EMBED, IN_PLACE);

  /** The number of entries. */
  static final int COUNT = values().length;

  public final Kind kind;
  /** The value's name in the help ({@code --dwarf=FILE}), null for a flag. */
  public final String label;
  public final String description;
  public final List<String> names;

  Opt(Kind kind, String label, String description, String... names) {
    this.kind = kind;
    this.label = label;
    this.description = description;
    this.names = List.of(names);
  }

  /** True if the option takes a value: the argument after it is that value, whatever it looks like. */
  public boolean takesValue() {
    return kind == Kind.VALUE || kind == Kind.LIST || kind == Kind.INT || kind == Kind.MODE;
    // (an OPTIONAL_VALUE entry's value is attached, never the next argument)
  }
}
