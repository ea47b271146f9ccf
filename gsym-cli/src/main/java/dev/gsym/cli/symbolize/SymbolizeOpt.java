package dev.gsym.cli.symbolize;

import dev.gsym.cli.Opt;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Every option of {@code gsymutil symbolize}, spelled once: llvm-symbolizer-22's options (its
 * {@code Opts.td}, with the same spellings, aliases and kinds, so that a script calling
 * llvm-symbolizer works by changing the command name) and ours. {@link SymbolizeArgs} parses a
 * command line with these spellings as llvm's {@code OptTable} does; {@link #help()} prints them as
 * llvm's {@code --help} does.
 *
 * <p>This is a sibling of {@link Opt} rather than part of it: llvm's option syntax is not
 * picocli's (grouped short flags such as {@code -Cfi}, {@code -e FILE}/{@code -eFILE}/{@code
 * -e=FILE}, flags spelled with an {@code =} such as {@code -demangle=false}, the last of
 * {@code --functions} and {@code --functions=} winning), so this command never goes through
 * picocli.
 */
enum SymbolizeOpt {
  ADDRESSES(Group.LLVM, null, flag("--", "addresses", "Show address before line information"),
      flag("-", "a", "Alias for --addresses"), flag("--", "print-address", "Alias for --addresses")),
  ADJUST_VMA(Group.LLVM, "<offset>", eq("adjust-vma", "Add specified offset to object file addresses")),
  BASENAMES(Group.LLVM, null, flag("--", "basenames", "Strip directory names from paths"),
      flag("-", "s", "Alias for --basenames")),
  BUILD_ID(Group.LLVM, null, eq("build-id", "Build ID used to look up the object file")),
  CACHE_SIZE(Group.LLVM, null, eq("cache-size", "Max size in bytes of the in-memory binary cache (accepted;"
      + " modules are kept open by count, see --max-open-modules)")),
  COLOR(Group.LLVM, null, flag("--", "color", "Use color when symbolizing log markup (not supported)")),
  COLOR_EQ(Group.LLVM, null, joined("--", "color=", "Whether to use color when symbolizing log markup: always,"
      + " auto, never (not supported)")),
  DEBUG_FILE_DIRECTORY(Group.LLVM, "<dir>", eq("debug-file-directory", "Path to directory where to look for debug"
      + " files (repeatable; default /usr/lib/debug)")),
  DEBUGINFOD(Group.LLVM, null, flag("--", "debuginfod", "Use debuginfod to find debug binaries (default: when"
      + " DEBUGINFOD_URLS is set)")),
  NO_DEBUGINFOD(Group.LLVM, null, flag("--", "no-debuginfod", "Don't use debuginfod to find debug binaries")),
  DEFAULT_ARCH(Group.LLVM, null, eq("default-arch", "Default architecture for multi-arch containers (accepted;"
      + " ELF files hold one architecture)")),
  DEMANGLE(Group.LLVM, null, flag("--", "demangle", "Demangle function names (default)"),
      flag("-", "C", "Alias for --demangle"), flag("-", "demangle=true", "Alias for --demangle")),
  NO_DEMANGLE(Group.LLVM, null, flag("--", "no-demangle", "Don't demangle function names"),
      flag("-", "demangle=false", "Alias for --no-demangle")),
  DIA(Group.LLVM, null, flag("--", "dia", "Use the DIA library to access symbols (Windows only; ignored)")),
  DWP(Group.LLVM, "<file>", eq("dwp", "Path to DWP file to be use for any split CUs (not supported: X.dwp"
      + " beside X is used)")),
  FALLBACK_DEBUG_PATH(Group.LLVM, "<dir>", eq("fallback-debug-path", "Fallback path for debug binaries (searched"
      + " as one more debug file directory)")),
  FILTER_MARKUP(Group.LLVM, null, flag("--", "filter-markup", "Filter symbolizer markup from stdin (not"
      + " supported)")),
  FUNCTIONS(Group.LLVM, null, flag("--", "functions", "Print function name for a given address"),
      flag("-", "f", "Alias for --functions")),
  FUNCTIONS_EQ(Group.LLVM, null, joined("--", "functions=", "Print function name for a given address: none,"
      + " short, linkage"), joined("-", "f=", "Alias for --functions=")),
  HELP(Group.LLVM, null, flag("--", "help", "Display this help"), flag("-", "h", null)),
  INLINES(Group.LLVM, null, flag("--", "inlines", "Print all inlined frames for a given address (default)"),
      flag("-", "i", "Alias for --inlines"), flag("--", "inlining", "Alias for --inlines"),
      flag("--", "inlining=true", "Alias for --inlines")),
  NO_INLINES(Group.LLVM, null, flag("--", "no-inlines", "Do not print inlined frames"),
      flag("--", "inlining=false", "Alias for --no-inlines")),
  OBJ(Group.LLVM, "<file>", eq("obj", "Path to object file to be symbolized (if not provided, object file should"
      + " be specified for each input line)"), joined("--", "exe=", "Alias for --obj"),
      separate("--", "exe", "Alias for --obj"), joinedOrSeparate("-", "e", "Alias for --obj"),
      joined("-", "e=", "Alias for --obj")),
  OUTPUT_STYLE(Group.LLVM, "style", eq("output-style", "Specify print style. Supported styles: LLVM, GNU, JSON")),
  PRETTY_PRINT(Group.LLVM, null, flag("--", "pretty-print", "Make the output more human friendly"),
      flag("-", "p", "Alias for --pretty-print")),
  PRINT_SOURCE_CONTEXT_LINES(Group.LLVM, null, eq("print-source-context-lines", "Print N lines of source file"
      + " context")),
  RELATIVE_ADDRESS(Group.LLVM, null, flag("--", "relative-address", "Interpret addresses as addresses relative to"
      + " the image base (the image base of an ELF file is 0 here, as in llvm-symbolizer)")),
  RELATIVENAMES(Group.LLVM, null, flag("--", "relativenames", "Strip the compilation directory from paths (GSYM"
      + " does not record it: paths stay absolute)")),
  SKIP_LINE_ZERO(Group.LLVM, null, flag("--", "skip-line-zero", "If an address does not have an associated line"
      + " number, use the last line number from the current sequence in the line-table (GSYM has no line 0"
      + " rows)")),
  UNTAG_ADDRESSES(Group.LLVM, null, flag("--", "untag-addresses", null)),
  NO_UNTAG_ADDRESSES(Group.LLVM, null, flag("--", "no-untag-addresses", "Remove memory tags from addresses"
      + " before symbolization")),
  VERBOSE(Group.LLVM, null, flag("--", "verbose", "Print verbose line info")),
  VERSION(Group.LLVM, null, flag("--", "version", "Display the version"), flag("-", "v", "Alias for --version")),

  DISABLE_GSYM(Group.GSYM, null, flag("--", "disable-gsym", "Don't consider GSYM files beside the object file"
      + " or in --gsym-file-directory (the object file is converted)")),
  GSYM_FILE_DIRECTORY(Group.GSYM, "<dir>", eq("gsym-file-directory", "Path to directory where to look for GSYM"
      + " files (FILE.gsym for an object file FILE)")),

  DSYM_HINT(Group.MACH_O, "<dir>", eq("dsym-hint", "Path to .dSYM bundles to search for debug info for the object"
      + " files (not supported: Mach-O)")),

  STORE(Group.OURS, "<dir>", eq("store", "GSYM store: modules converted once are kept there, shared by processes"
      + " (default: none, conversions last as long as the process)")),
  MAX_STORE_SIZE(Group.OURS, "<bytes>", eq("max-store-size", "Bound of the store in bytes (suffixes K, M, G, T);"
      + " least recently used modules are removed")),
  BREAKPAD_SYMBOLS(Group.OURS, "<dir|url>", eq("breakpad-symbols", "Breakpad symbol store, a directory or an"
      + " http(s) URL in the symbol-server layout (repeatable)")),
  STACK(Group.OURS, null, flag("--", "stack", "Inputs are call stacks, innermost frame first, one frame per line"
      + " (MODULE ADDRESS), an empty line between stacks; functions merged by identical code folding are"
      + " chosen with the callers' call sites")),
  ADJUST_ADDRESSES(Group.OURS, "<frames>", eq("adjust-addresses", "With --stack: the frames holding return"
      + " addresses, looked up inside their call: all_but_first (default), all, none")),
  THREADS(Group.OURS, "<n>", eq("threads", "Threads looking addresses up (default: the number of processors);"
      + " the output is the same for any number")),
  MAX_OPEN_MODULES(Group.OURS, "<n>", eq("max-open-modules", "Modules kept open at once (default 256)")),
  PPROF(Group.OURS, "<file>", eq("pprof", "Symbolize a pprof profile (gzipped or not) by its mappings' build-ids"
      + " and file names; the result goes to -o (docs/profiles.md)")),
  PERF_SCRIPT(Group.OURS, "<file>", eq("perf-script", "Symbolize the samples of perf script output (perf script -F"
      + " comm,pid,tid,period,ip,dso --show-mmap-events) into a pprof profile written to -o")),
  PERF_BUILDIDS(Group.OURS, "<file>", eq("perf-buildids", "The build-ids of the files of --perf-script (perf"
      + " buildid-list output); without it modules are found by path")),
  OUTPUT(Group.OURS, "<file>", separate("-", "o", "Where a profile, collapsed stacks or a flame graph is written"
      + " (- for stdout)"), joined("--", "output=", "Alias for -o")),
  COLLAPSED(Group.OURS, null, flag("--", "collapsed", "With --pprof: write collapsed stacks (root;...;leaf count,"
      + " Brendan Gregg's folded format) instead of a profile")),
  FLAMEGRAPH(Group.OURS, null, flag("--", "flamegraph", "Draw a flame graph (an HTML page) of the profile of --pprof"
      + " or --perf-script, or of the one input file (a pprof profile, perf script output or collapsed stacks); as"
      + " 'gsymutil flamegraph IN -o OUT'")),
  SVG(Group.OURS, null, flag("--", "svg", "With --flamegraph: a static SVG picture instead of an HTML page")),
  SAMPLE_INDEX(Group.OURS, "<n>", eq("sample-index", "The sample value collapsed stacks and flame graphs count (0 is"
      + " the first; default: the last, as pprof)"));

  /** Where an option is listed in the help. */
  enum Group {
    LLVM("OPTIONS:"),
    GSYM("llvm-symbolizer GSYM Related Options:"),
    MACH_O("llvm-symbolizer Mach-O Specific Options:"),
    OURS("gsymutil Options (not in llvm-symbolizer):");

    final String heading;

    Group(String heading) {
      this.heading = heading;
    }
  }

  /** llvm's {@code Option::OptionClass} for the kinds llvm-symbolizer uses. */
  enum Kind {
    /** No value; the whole argument must be the spelling. */
    FLAG,
    /** The value is the rest of the argument ({@code --obj=FILE}; may be empty). */
    JOINED,
    /** The value is the next argument ({@code --obj FILE}). */
    SEPARATE,
    /** The rest of the argument, or the next argument if nothing follows ({@code -eFILE}, {@code -e FILE}). */
    JOINED_OR_SEPARATE,
  }

  /**
   * One way to write an option.
   *
   * @param prefix {@code -} or {@code --}
   * @param name what follows the prefix ({@code obj=} for a joined {@code --obj=})
   * @param help the help line, null to leave the spelling out of the help (as llvm's aliases
   *     without help text)
   */
  record Spelling(String prefix, String name, Kind kind, String help) {
    String text() {
      return prefix + name;
    }
  }

  final Group group;
  /** The value's name in the help; llvm's default {@code <value>} if null. */
  private final String metaVar;
  final List<Spelling> spellings;

  SymbolizeOpt(Group group, String metaVar, Object... spellings) {
    this.group = group;
    this.metaVar = metaVar == null ? "<value>" : metaVar;
    List<Spelling> list = new ArrayList<>();
    for (Object s : spellings) {
      if (s instanceof Spelling one) list.add(one);
      else if (s instanceof Spelling[] several) list.addAll(List.of(several));
    }
    this.spellings = List.copyOf(list);
  }

  /** True if the option takes a value (from whichever spelling). */
  boolean takesValue() {
    return spellings.getFirst().kind != Kind.FLAG;
  }

  private static Spelling flag(String prefix, String name, String help) {
    return new Spelling(prefix, name, Kind.FLAG, help);
  }

  private static Spelling joined(String prefix, String name, String help) {
    return new Spelling(prefix, name, Kind.JOINED, help);
  }

  private static Spelling separate(String prefix, String name, String help) {
    return new Spelling(prefix, name, Kind.SEPARATE, help);
  }

  private static Spelling joinedOrSeparate(String prefix, String name, String help) {
    return new Spelling(prefix, name, Kind.JOINED_OR_SEPARATE, help);
  }

  /** llvm's {@code Eq} multiclass: {@code --name=VALUE} (with the help) and {@code --name VALUE}. */
  private static Spelling[] eq(String name, String help) {
    return new Spelling[] {joined("--", name + "=", help), separate("--", name, null)};
  }

  /** An option with its spelling, in llvm's table order. */
  record Entry(SymbolizeOpt opt, Spelling spelling) {}

  /**
   * Every spelling, sorted as llvm's option tables are ({@code StrCmpOptionName}: names compared
   * without case, a name sorting after the longer names it is a prefix of), which is also the order
   * llvm tries them in and lists them in the help.
   */
  static final List<Entry> TABLE = table();

  private static List<Entry> table() {
    List<Entry> all = new ArrayList<>();
    for (SymbolizeOpt o : values()) for (Spelling s : o.spellings) all.add(new Entry(o, s));
    all.sort(Comparator.comparing((Entry e) -> e.spelling.name, SymbolizeOpt::compareNames)
        .thenComparing(e -> e.spelling.prefix));
    return List.copyOf(all);
  }

  /** llvm's {@code StrCmpOptionName}: case-insensitive, and a prefix sorts after the longer name. */
  static int compareNames(String a, String b) {
    int min = Math.min(a.length(), b.length());
    int c = a.substring(0, min).toLowerCase(Locale.ROOT).compareTo(b.substring(0, min).toLowerCase(Locale.ROOT));
    if (c != 0) return c;
    if (a.length() == b.length()) return 0;
    return a.length() == min ? 1 : -1;
  }

  /** The help text, laid out as llvm's {@code OptTable::printHelp}. */
  static String help() {
    StringBuilder sb = new StringBuilder();
    sb.append("OVERVIEW: gsymutil symbolize - llvm-symbolizer's command line over GSYM: modules are found by")
        .append(" path or build-id, converted to GSYM once, and answered in llvm-symbolizer's LLVM, GNU and")
        .append(" JSON styles\n\n");
    sb.append("USAGE: gsymutil symbolize [options] addresses...\n");
    for (Group g : Group.values()) {
      List<String[]> rows = new ArrayList<>();
      for (Entry e : TABLE) {
        if (e.opt.group != g || e.spelling.help == null) continue;
        Spelling s = e.spelling;
        String shown = switch (s.kind) {
          case FLAG -> s.text();
          case JOINED -> s.text() + e.opt.metaVar;
          case SEPARATE, JOINED_OR_SEPARATE -> s.text() + " " + e.opt.metaVar;
        };
        rows.add(new String[] {shown, s.help});
      }
      if (rows.isEmpty()) continue;
      // llvm aligns the help column on the longest name of at most 23 characters
      int width = 0;
      for (String[] r : rows) if (r[0].length() <= 23) width = Math.max(width, r[0].length());
      sb.append('\n').append(g.heading).append('\n');
      for (String[] r : rows) {
        sb.append("  ").append(r[0]);
        if (r[0].length() > width) sb.append('\n').append(" ".repeat(width + 3));
        else sb.append(" ".repeat(width - r[0].length() + 1));
        sb.append(r[1]).append('\n');
      }
    }
    sb.append("\nInput lines (stdin, when no address is given): [CODE |DATA |FRAME ]FILE ADDR,")
        .append(" [CODE ...]BUILDID:HEX ADDR, or ADDR alone with --obj/--build-id; FILE may be quoted.\n");
    sb.append("\nPass @FILE as argument to read options from FILE.\n");
    return sb.toString();
  }
}
