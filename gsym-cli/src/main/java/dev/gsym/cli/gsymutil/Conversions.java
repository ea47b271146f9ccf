package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Addresses;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.OutputFiles;
import dev.gsym.cli.Session;

/**
 * The conversion modes, one class each: {@link DwarfConversion} ({@code --dwarf}/{@code --convert}:
 * ELF + DWARF → GSYM), {@link BreakpadConversion} ({@code --breakpad}: Breakpad → GSYM) and {@link
 * ToBreakpadConversion} ({@code --to-breakpad}: GSYM or ELF → Breakpad). The mode options form
 * picocli's exclusive argument group ({@link CommandModel}), so at most one is given; the other
 * conversion options shape the output ({@link OutputFiles} handles the names). Run by the top-level
 * command and by {@code convert} alike.
 */
public final class Conversions {
  private Conversions() {}

  /** The message when two modes are given (picocli's exclusive group refused them). */
  public static final String ONE_MODE = CliException.TOOL_NAME
      + ": only one of --dwarf/--convert, --breakpad and --to-breakpad can be used at a time";

  /** Runs the mode given in {@code a}. */
  static int run(Session s, Args a) {
    outputVersion(a); // llvm checks it with the other arguments, before anything is read
    if (a.has(Opt.DWARF)) return DwarfConversion.run(s, a);
    if (a.has(Opt.SYMTAB_FILE) || a.has(Opt.LLVM_COMPAT)) {
      throw CliException.tool("--symtab-file and --llvm-compat only apply to --dwarf");
    }
    if (!a.has(Opt.BREAKPAD) && !a.has(Opt.TO_BREAKPAD) && !a.values(Opt.FILES).isEmpty()) {
      return TranscodeConversion.run(s, a);
    }
    if (a.has(Opt.TO_BREAKPAD) && a.has(Opt.OUTPUT_VERSION)) {
      throw CliException.tool("--output-version only applies to conversions that write GSYM");
    }
    if (!a.has(Opt.BREAKPAD) && !a.has(Opt.TO_BREAKPAD)) {
      throw CliException.tool(
          "no input: use --dwarf FILE, --breakpad SYM or --to-breakpad GSYM");
    }
    if (a.flag(Opt.MERGED_FUNCTIONS) || a.flag(Opt.DWARF_CALLSITES) || a.flag(Opt.VERIFY) || a.has(Opt.NUM_THREADS)
        || a.has(Opt.JSON_SUMMARY) || a.has(Opt.CALLSITES_YAML) || a.has(Opt.ARCH)) {
      throw CliException.tool("--merged-functions, --dwarf-callsites, --verify, --num-threads,"
          + " --json-summary-file, --callsites-yaml-file and --arch only apply to --dwarf");
    }
    if (a.flag(Opt.UNWIND) && a.has(Opt.TO_BREAKPAD)) {
      throw CliException.tool("--unwind applies to conversions that write GSYM (--to-breakpad"
          + " of an object file writes STACK CFI records unless --no-cfi)");
    }
    if (a.flag(Opt.NO_CFI) && !a.has(Opt.TO_BREAKPAD)) {
      throw CliException.tool("--no-cfi only applies to --to-breakpad");
    }
    if (a.flag(Opt.EMBED) || a.flag(Opt.IN_PLACE)) {
      throw CliException.tool("--embed and --in-place only apply to --dwarf (and to gsymutil embed)");
    }
    return a.has(Opt.BREAKPAD) ? BreakpadConversion.run(s, a) : ToBreakpadConversion.run(s, a);
  }

  /**
   * --output-version: 1 when not given (as llvm main), 1 or 2 when given, else llvm main's error.
   */
  static int outputVersion(Args o) {
    String text = o.value(Opt.OUTPUT_VERSION);
    if (text == null) return 1;
    if (!text.equals("1") && !text.equals("2")) {
      throw CliException.tool("for the --output-version option: '" + text
          + "' is invalid. Use '1' or '2'.");
    }
    return Integer.parseInt(text);
  }

  /** --segment-size: 0 when not given. */
  static long segmentSize(Args o) {
    String text = o.value(Opt.SEGMENT_SIZE);
    if (text == null) return 0;
    Long v = Addresses.parse(text);
    if (v == null || v <= 0) {
      throw CliException.tool("for the --segment-size option: '" + text
          + "' value invalid for uint argument!");
    }
    return v;
  }

  /** --load-address: 0 when not given. */
  static long loadAddress(Args o) {
    String text = o.value(Opt.LOAD_ADDRESS);
    if (text == null) return 0;
    Long v = Addresses.parse(text);
    if (v == null) {
      throw CliException.tool("for the --load-address option: '" + text
          + "' value invalid for uint argument!");
    }
    return v;
  }
}
