package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;
import dev.gsym.cli.Version;
import dev.gsym.cli.serve.ServeCommand;
import dev.gsym.cli.stackwalk.StackwalkCommand;
import dev.gsym.cli.stackwalk.StackwalkSubcommand;
import dev.gsym.cli.symbolize.SymbolizeSubcommand;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * picocli's model of gsymutil and its subcommands, built from the {@link Opt} table with picocli's
 * programmatic API: no annotation is read, so nothing is reflected over (faster than annotations:
 * docs/performance.md, "One-shot lookups"). Each command lists its entries here, in help order; the
 * values go to the command's {@link Args}. The conversion modes ({@link Opt.Kind#MODE}) form an
 * exclusive argument group: picocli refuses two of them.
 */
public final class CommandModel {
  private CommandModel() {}

  /** The conversion options after the mode group, shared by the top level and {@code convert}. */
  private static final List<Opt> CONVERSION = List.of(Opt.OUT_FILE, Opt.QUIET, Opt.OUTPUT_VERSION, Opt.LENIENT,
      Opt.SEGMENT_SIZE, Opt.LOAD_ADDRESS, Opt.MODULE_OS, Opt.MODULE_ARCH, Opt.MODULE_NAME, Opt.DWARF_CALLSITES,
      Opt.CALLSITES_YAML, Opt.ARCH, Opt.SYMTAB_FILE, Opt.LLVM_COMPAT, Opt.VERIFY, Opt.UNWIND, Opt.NO_CFI, Opt.DEBUG_FILE_DIRECTORY, Opt.NUM_THREADS,
      Opt.JSON_SUMMARY, Opt.EMBED, Opt.IN_PLACE);

  /** {@code --verbose} where it only adds stack traces. */
  private static final String STACK_TRACES = "On errors, also print the stack trace.";

  /** The whole command line: the top-level command, its subcommands and the help texts. */
  public static CommandLine commandLine(Session session) {
    GsymUtilCommand top = new GsymUtilCommand(session);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(top);
    spec.name(CliException.TOOL_NAME).version(Version.lines());
    UsageMessageSpec usage = spec.usageMessage();
    usage.sortOptions(false).autoWidth(true)
        .header("gsymutil - symbolicate addresses with GSYM files, dump them, and create them")
        .synopsisHeading("%nUsage:%n")
        // one line each: HelpText wraps them at the terminal's width
        .customSynopsis(
            "  gsymutil [--dump] [--verbose] FILE...",
            "  gsymutil --address=ADDR... [--verbose] [--threads N] [--merged-functions"
                + " [--merged-functions-filter=REGEX]...] FILE...",
            "  gsymutil --addresses-from-stdin [--verbose] [--threads N] [--merged-functions ...]",
            "  gsymutil dump [--verbose] FILE...",
            "  gsymutil lookup [--verbose] [--threads N] [--merged-functions ...] FILE... ADDR..."
                + " (or ADDR... FILE..., or -f FILE... ADDR...)",
            "  gsymutil --dwarf FILE [-o OUT] [--quiet] [--segment-size N] [--merged-functions]"
                + " [--dwarf-callsites] [--verify] [--num-threads N] [--json-summary-file F]",
            "  gsymutil --convert FILE [--out-file OUT] (llvm-gsymutil's spelling of --dwarf)",
            "  gsymutil --breakpad SYM [-o OUT] [--lenient] [--quiet] [--segment-size N]",
            "  gsymutil --to-breakpad GSYM|ELF [-o OUT] [--module-os OS] [--module-arch ARCH]"
                + " [--module-name NAME] [--load-address ADDR] [--quiet]",
            "  gsymutil convert (--dwarf FILE | --breakpad SYM | --to-breakpad GSYM|ELF) [options]",
            "  gsymutil --dwarf FILE --embed -o OUT [--in-place] (the ELF file with its GSYM in a .gsym section)",
            "  gsymutil embed BINARY GSYM -o OUT [--force] [--in-place]",
            "  gsymutil symbolize [llvm-symbolizer options] [--store DIR] [ADDR...] (see gsymutil symbolize --help)",
            "  gsymutil stackwalk [-m] [-s] [-c] [-b] [--json [--pretty]] MINIDUMP|CORE... [SYMBOL_PATH...] [--symbol-cache DIR]"
                + " (see gsymutil stackwalk --help)",
            "  gsymutil serve --store DIR [--listen HOST:PORT] [--debuginfod URL...] [--breakpad-symbols DIR|URL...]"
                + " [options] (see gsymutil serve --help)",
            "  gsymutil help [COMMAND]",
            "  gsymutil -h | --help | -v | --version")
        .description(
            "",
            "Dumps GSYM files and symbolicates addresses with them, with the output of"
                + " llvm-gsymutil (LLVM 22). Files given without an address are dumped;"
                + " --address (alias --lookup) looks every address up in every FILE;"
                + " --addresses-from-stdin reads '<addr> <gsym-path>' lines and prints each result"
                + " followed by an empty line. The dump and lookup commands are the same as"
                + " the first two forms (name a file called dump, lookup, convert, embed, symbolize, serve, stackwalk or help as ./dump);"
                + " lookup takes addresses and files in any order: an argument that parses as an"
                + " address is an address, any other is a file.",
            "Addresses use C notation: 0x/0X hex, 0b binary, leading 0 octal, otherwise decimal.",
            "Lookups that fail print an 'error:' line and do not change the exit status; unreadable or"
                + " invalid files and bad arguments exit with status 1.",
            "Conversions write OUT through a temporary file renamed into place (a symbolic link stays a"
                + " link and its target is replaced; a device or FIFO is written in place); -o - writes to"
                + " standard output and the summary to stderr; an output that is the input is refused.")
        .parameterListHeading("%nArguments:%n")
        .optionListHeading("%nOptions:%n")
        .commandListHeading("%nCommands:%n");
    for (Opt o : Opt.TOP) {
      if (o.kind == Opt.Kind.MODE) {
        if (o == Opt.DWARF) spec.addArgGroup(modes());
      } else {
        add(spec, o, o.description, "0..*");
      }
    }
    CommandLine cl = new CommandLine(spec);
    cl.addSubcommand("dump", new CommandLine(dump(session)));
    cl.addSubcommand("lookup", new CommandLine(lookup(session)));
    cl.addSubcommand("convert", new CommandLine(convert(session)));
    cl.addSubcommand("embed", new CommandLine(embed(session)));
    cl.addSubcommand("symbolize", new CommandLine(symbolize(session)));
    cl.addSubcommand("serve", new CommandLine(serve(session)));
    cl.addSubcommand(StackwalkCommand.NAME, new CommandLine(stackwalk(session)));
    cl.addSubcommand("help", new CommandLine(new CommandLine.HelpCommand()));
    cl.setExecutionStrategy(parsed -> {
      for (CommandLine c : parsed.asCommandLineList()) collect(c);
      return new CommandLine.RunLast().execute(parsed);
    });
    return cl;
  }

  /**
   * Copies what picocli parsed for {@code cl}'s command into its {@link Args}: each option and
   * positional carries its {@link Opt} as picocli's user object. (Values are not bound through
   * picocli setters: a class of ours implementing picocli's interfaces would, once in the JDK AOT
   * cache, make every run load picocli classes at start-up, also the lookups that never use picocli.)
   */
  public static void collect(CommandLine cl) {
    if (!(cl.getCommand() instanceof CliCommand command)) return;
    for (ArgSpec a : cl.getCommandSpec().args()) {
      if (a.userObject() instanceof Opt o) command.args().set(o, a.getValue());
    }
  }

  private static CommandSpec dump(Session session) {
    DumpCommand c = new DumpCommand(session);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.usageMessage().description("Dump GSYM files (header, tables, strings and every FunctionInfo), as"
        + " llvm-gsymutil FILE... does.");
    add(spec, Opt.HELP, Opt.HELP.description, null);
    add(spec, Opt.VERBOSE, STACK_TRACES, null);
    add(spec, Opt.FILES, Opt.FILES.description, "1..*");
    return spec;
  }

  private static CommandSpec lookup(Session session) {
    LookupCommand c = new LookupCommand(session);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.usageMessage().sortOptions(false)
        .customSynopsis(
            "  gsymutil lookup [options] FILE... ADDR...",
            "  gsymutil lookup [options] ADDR... FILE...",
            "  gsymutil lookup [options] -f FILE... ADDR...")
        .header("Look addresses up in GSYM files, as gsymutil --address ADDR... FILE... does.")
        .synopsisHeading("%nUsage:%n")
        .descriptionHeading("%n")
        .description("An argument that parses as an address (0x/0X hex, 0b binary, leading 0 octal, otherwise"
            + " decimal) is an address; any other argument is a GSYM file (\"-\" reads one from"
            + " stdin). Name a file whose name looks like an address as ./NAME or with -f. Each"
            + " file gets a 'Looking up addresses in' header, in the order given (-f files first).")
        .parameterListHeading("%nArguments:%n")
        .optionListHeading("%nOptions:%n");
    for (Opt o : List.of(Opt.HELP, Opt.FILE, Opt.VERBOSE, Opt.MERGED_FUNCTIONS, Opt.MERGED_FILTER, Opt.THREADS)) {
      add(spec, o, o.description, null);
    }
    // checked in call(), after unknown options
    add(spec, Opt.ADDRESSES_AND_FILES, Opt.ADDRESSES_AND_FILES.description, "0..*");
    return spec;
  }

  /**
   * {@code symbolize} is parsed by {@link dev.gsym.cli.symbolize.SymbolizeArgs} ({@link
   * dev.gsym.cli.GsymUtil#symbolizeArguments} hands it over before picocli sees it); picocli only
   * lists it, and passes its arguments through as they are when other options come first.
   */
  private static CommandSpec symbolize(Session session) {
    SymbolizeSubcommand c = new SymbolizeSubcommand(session);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.usageMessage().description("Symbolize addresses by file or build-id with llvm-symbolizer's options and"
        + " output (LLVM, GNU, JSON); see 'gsymutil symbolize --help'.");
    spec.parser().unmatchedOptionsArePositionalParams(true);
    add(spec, Opt.SYMBOLIZE_ARGS, Opt.SYMBOLIZE_ARGS.description, "0..*");
    return spec;
  }

  /**
   * {@code stackwalk} is parsed by {@link StackwalkCommand} ({@link
   * dev.gsym.cli.GsymUtil#stackwalkArguments} hands it over before picocli sees it); picocli only
   * lists it.
   */
  private static CommandSpec stackwalk(Session session) {
    StackwalkSubcommand c = new StackwalkSubcommand(session);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.usageMessage().description("Walk the stacks of minidumps and print them as Breakpad's minidump_stackwalk"
        + " does; see 'gsymutil stackwalk --help'.");
    spec.parser().unmatchedOptionsArePositionalParams(true);
    add(spec, Opt.STACKWALK_ARGS, Opt.STACKWALK_ARGS.description, "0..*");
    return spec;
  }

  /** {@code serve}'s options, in help order (the usage line lists them all, in this order). */
  private static final List<Opt> SERVE = List.of(Opt.STORE, Opt.LISTEN, Opt.DEBUG_FILE_DIRECTORY, Opt.DEBUGINFOD_URL,
      Opt.NO_DEBUGINFOD, Opt.BREAKPAD_SYMBOLS, Opt.MAX_STORE_SIZE, Opt.MAX_OPEN_MODULES, Opt.MAX_REQUEST_BYTES,
      Opt.MAX_FRAMES, Opt.MAX_MINIDUMP_BYTES, Opt.SYMBOL_CACHE, Opt.IDLE_TIMEOUT, Opt.CONVERT_IN_PROCESS, Opt.NO_WARM_UP, Opt.MERGED_FUNCTIONS, Opt.THREADS,
      Opt.VERBOSE);

  private static CommandSpec serve(Session session) {
    ServeCommand c = new ServeCommand(session, System.getenv());
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.version(Version.lines());
    // the usage line is made from the option list, so that no option is left out of it
    StringBuilder synopsis = new StringBuilder("  gsymutil serve");
    for (Opt o : SERVE) {
      String usage = o.names.getLast() + (o.label == null ? "" : " " + o.label + (o.kind == Opt.Kind.LIST ? "..." : ""));
      synopsis.append(o == Opt.STORE ? " " + usage : " [" + usage + "]");
    }
    spec.usageMessage().sortOptions(false)
        .header("Serve symbolication over HTTP: POST /symbolicate, POST /symbolicate/pprof, GET /healthz, GET /metrics"
            + " (docs/serve.md).")
        .synopsisHeading("%nUsage:%n")
        .customSynopsis(synopsis.toString())
        .descriptionHeading("%n")
        .description("Runs until stopped. SIGTERM or Ctrl-C: stops accepting connections, lets the requests in"
            + " progress finish (up to 5 s) and exits with status 0 (1 if some did not finish). Several servers may"
            + " share one --store: each module is converted once. Access log lines go to stderr.")
        .optionListHeading("%nOptions:%n");
    add(spec, Opt.HELP, Opt.HELP.description, null);
    add(spec, Opt.VERSION, Opt.VERSION.description, null);
    for (Opt o : SERVE) {
      String description = switch (o) {
        case MERGED_FUNCTIONS -> "Convert DWARF with merged functions and call sites (as --dwarf --merged-functions"
            + " --dwarf-callsites), so that stacks choose among identical-code-folded functions by their callers'"
            + " call sites; such GSYMs are kept in the store's merged/ subdirectory.";
        case THREADS -> "Threads that resolve the modules and look the addresses up of one request (default:"
            + " the number of processors).";
        case VERBOSE -> STACK_TRACES;
        default -> o.description;
      };
      add(spec, o, description, o.kind == Opt.Kind.LIST ? "0..*" : null);
    }
    return spec;
  }

  private static CommandSpec embed(Session session) {
    EmbedCommand c = new EmbedCommand(session);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.usageMessage().sortOptions(false)
        .header("Put a GSYM file into a copy of the ELF binary it describes, as a .gsym section.")
        .customSynopsis("  gsymutil embed BINARY GSYM -o OUT [--force] [--in-place] [--quiet]")
        .synopsisHeading("%nUsage:%n")
        .descriptionHeading("%n")
        .description("Write a copy of the ELF file BINARY with the GSYM file GSYM in a .gsym section (non-allocated,"
            + " after everything the loader uses; an existing .gsym is replaced). GSYM's UUID must be BINARY's"
            + " GNU build-id unless --force. gsymutil reads such binaries as GSYM files (dump, lookup,"
            + " --to-breakpad, symbolize). OUT is written through a temporary file; OUT naming BINARY is refused"
            + " unless --in-place.")
        .parameterListHeading("%nArguments:%n")
        .optionListHeading("%nOptions:%n");
    add(spec, Opt.HELP, Opt.HELP.description, null);
    add(spec, Opt.VERBOSE, STACK_TRACES, null);
    add(spec, Opt.OUT_FILE, "Output file (the copy of BINARY with the .gsym section).", null);
    add(spec, Opt.FORCE, Opt.FORCE.description, null);
    add(spec, Opt.IN_PLACE, "Allow OUT to be BINARY (without -o: replace BINARY).", null);
    add(spec, Opt.QUIET, "Print nothing on success.", null);
    add(spec, Opt.EMBED_ARGS, Opt.EMBED_ARGS.description, "0..*");
    return spec;
  }

  private static CommandSpec convert(Session session) {
    ConvertCommand c = new ConvertCommand(session);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);
    spec.usageMessage().sortOptions(false)
        .header("Convert DWARF or Breakpad symbols to GSYM, GSYM or DWARF to Breakpad symbols, or GSYM to another"
            + " GSYM version.")
        .synopsisHeading("%nUsage:%n")
        // one line each: HelpText wraps them at the terminal's width
        .customSynopsis(
            "  gsymutil convert --dwarf FILE [-o OUT] [--quiet] [--segment-size N] [--merged-functions]"
                + " [--dwarf-callsites] [--callsites-yaml-file FILE] [--verify] [--num-threads N]"
                + " [--json-summary-file FILE]",
            "  gsymutil convert --breakpad SYM [-o OUT] [--lenient] [--quiet] [--segment-size N]"
                + " [--load-address ADDR]",
            "  gsymutil convert --to-breakpad GSYM|ELF [-o OUT] [--module-os OS] [--module-arch ARCH]"
                + " [--module-name NAME] [--load-address ADDR] [--quiet]",
            "  gsymutil convert --output-version N GSYM -o OUT")
        .descriptionHeading("%n")
        .description("Convert the DWARF of an ELF file to GSYM (--dwarf, as llvm-gsymutil --convert), a"
            + " Breakpad symbol file to GSYM (--breakpad) or a GSYM file or the DWARF of an ELF file to a"
            + " Breakpad symbol file (--to-breakpad), or rewrite a GSYM file in GSYM version N (--output-version"
            + " N GSYM -o OUT). Prints a summary; a bad Breakpad record is reported as"
            + " FILE:LINE: problem (exit status 1, no output file) unless --lenient.");
    add(spec, Opt.HELP, Opt.HELP.description, null);
    add(spec, Opt.VERBOSE, STACK_TRACES, null);
    add(spec, Opt.MERGED_FUNCTIONS, "With --dwarf: keep functions that share an address range (identical"
        + " code folding) as merged functions of the first one.", null);
    spec.addArgGroup(modes());
    for (Opt o : CONVERSION) add(spec, o, o.description, null);
    add(spec, Opt.FILES, "With --output-version and no mode: the GSYM file to rewrite in that version.", "0..*");
    return spec;
  }

  /**
   * The conversion modes, at most one per command line. Each takes a list internally: picocli would
   * report a repeated single-valued member of a group as a second group ("expected only one match"),
   * where llvm's {@code --convert a --convert b} converts b.
   */
  private static ArgGroupSpec modes() {
    ArgGroupSpec.Builder group = ArgGroupSpec.builder().exclusive(true).multiplicity("0..1");
    // through args(), not addArg(ArgSpec): passing an OptionSpec where an ArgSpec is declared is a
    // verification constraint that the AOT cache checks when it loads this class at start-up, which
    // would load picocli's OptionSpec and ArgSpec in every run
    for (Opt o : List.of(Opt.DWARF, Opt.BREAKPAD, Opt.TO_BREAKPAD)) group.args().add(option(o, o.description));
    return group.build();
  }

  private static void add(CommandSpec spec, Opt o, String description, String arity) {
    if (o.kind == Opt.Kind.POSITIONAL) {
      spec.addPositional(PositionalParamSpec.builder().paramLabel(o.label).arity(arity).index("0+")
          .required(arity.startsWith("1"))
          .type(List.class).auxiliaryTypes(String.class).description(description).userObject(o).build());
    } else {
      spec.addOption(option(o, description));
    }
  }

  private static OptionSpec option(Opt o, String description) {
    OptionSpec.Builder b = OptionSpec.builder(o.names.toArray(String[]::new)).description(description);
    switch (o.kind) {
      case USAGE_HELP -> b.usageHelp(true).type(boolean.class);
      case VERSION_HELP -> b.versionHelp(true).type(boolean.class);
      case FLAG -> b.type(boolean.class).arity("0");
      case VALUE -> b.type(String.class).arity("1");
      // the value only when attached with '=': picocli pushes an attached value on the stack and
      // reports separator "=" (" " for the next argument); otherwise the fallback is stored and
      // nothing is consumed
      case OPTIONAL_VALUE -> b.type(String.class).arity("1").preprocessor((args, cmd, arg, info) -> {
        if ("=".equals(info.get("separator"))) return false;
        arg.setValue(Opt.FALLBACK);
        return true;
      });
      case INT -> b.type(int.class).arity("1");
      case LIST, MODE -> b.type(List.class).auxiliaryTypes(String.class).arity("1");
      case POSITIONAL -> throw new IllegalArgumentException(o + " is positional");
    }
    if (o.label != null) b.paramLabel(o.label);
    return b.userObject(o).build();
  }
}
