package dev.gsym.cli;

import dev.gsym.breakpad.BreakpadParser;
import dev.gsym.breakpad.BreakpadTransformer;
import dev.gsym.breakpad.BreakpadWriter;
import dev.gsym.breakpad.ElfModule;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.dwarf.DwarfFile;
import dev.gsym.dwarf.DwarfSections;
import dev.gsym.dwarf.DwarfVerifier;
import dev.gsym.dwarf.ElfFile;
import dev.gsym.io.GsymFormatException;
import dev.gsym.io.Progress;
import dev.gsym.read.GsymReader;
import dev.gsym.write.CallSiteYaml;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The conversion modes: DWARF → GSYM, Breakpad → GSYM and GSYM or ELF → Breakpad. */
final class Convert {
  private Convert() {}

  static int run(Session s, ConvertOptions o) {
    int inputs = (o.dwarf != null ? 1 : 0) + (o.breakpad != null ? 1 : 0) + (o.toBreakpad != null ? 1 : 0);
    if (inputs > 1) {
      throw CliException.stderr(GsymUtil.TOOL_NAME
          + ": only one of --dwarf/--convert, --breakpad and --to-breakpad can be used at a time");
    }
    if (!o.requested()) {
      throw CliException.stderr(GsymUtil.TOOL_NAME
          + ": no input: use --dwarf FILE, --breakpad SYM or --to-breakpad GSYM");
    }
    if (o.dwarf != null) return fromDwarf(s, o);
    if (o.mergedFunctions || o.dwarfCallSites || o.verify || o.numThreads != null || o.jsonSummaryFile != null
        || o.callSitesYamlFile != null) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --merged-functions, --dwarf-callsites, --verify, --num-threads,"
          + " --json-summary-file and --callsites-yaml-file only apply to --dwarf");
    }
    return o.breakpad != null ? fromBreakpad(s, o) : toBreakpad(s, o);
  }

  /** llvm-gsymutil --convert: "Input file", "Output file (ARCH)", the converter's log, the save. */
  private static int fromDwarf(Session s, ConvertOptions o) {
    if (o.lenient || o.loadAddress != null) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --lenient and --load-address only apply to --breakpad");
    }
    long segment = segmentSize(o);
    int threads = 0;
    if (o.numThreads != null) {
      Long v = Addresses.parse(o.numThreads);
      if (v == null || v < 0 || v > 0xffffffffL) {
        throw CliException.stderr(GsymUtil.TOOL_NAME + ": for the --num-threads option: '" + o.numThreads
            + "' value invalid for uint argument!");
      }
      threads = (int) Math.min(v, 1024);
    }
    if (o.callSitesYamlFile != null && o.callSitesYamlFile.isEmpty()) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --callsites-yaml-file option requires a non-empty argument.");
    }
    if (o.verify && segment > 0) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --verify cannot be used with --segment-size");
    }
    String in = o.dwarf;
    String out = o.outFile != null ? o.outFile : in + ".gsym";
    StringBuilder sb = s.sb;
    sb.append("Input file: ").append(in).append('\n');
    s.emit();
    Path inPath = inputPath(in);
    try (ElfFile elf = ElfFile.open(inPath)) {
      sb.append("Output file (").append(DwarfConverter.arch(elf)).append("): ").append(out).append('\n');
      s.emit();
      // llvm-gsymutil prints its conversion log even with --quiet; --quiet only silences some warnings
      Diagnostics diag = new Diagnostics(sb);
      GsymCreator creator = new GsymCreator();
      DwarfConverter.Summary summary;
      Progress progress = ProgressBar.forTerminal(s.err, "units", o.quiet);
      try {
        summary = DwarfConverter.convert(elf, creator, diag,
            new DwarfConverter.Options(o.quiet, o.mergedFunctions, o.dwarfCallSites, threads, progress,
                o.callSitesYamlFile == null ? null : c -> loadCallSites(s, c, o.callSitesYamlFile)));
      } finally {
        if (progress instanceof ProgressBar bar) bar.close();
      }
      s.emit();
      try {
        if (segment > 0) {
          creator.saveSegments(Path.of(out), summary.byteOrder(), segment);
        } else {
          creator.save(Path.of(out), summary.byteOrder());
        }
      } catch (GsymFormatException | IllegalArgumentException e) {
        s.emit();
        String detail = e instanceof GsymFormatException g ? g.detail() : e.getMessage();
        throw new CliException("DWARF conversion failed: : " + detail, 1, false, e);
      }
      int mismatches = 0;
      if (o.verify) {
        try (GsymReader written = GsymReader.open(Path.of(out));
            DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf), inPath)) {
          mismatches = new DwarfVerifier(dwarf).verify(written, out, sb);
        } catch (dev.gsym.format.LookupException e) {
          // llvm's verify stops at the first address the GSYM does not resolve (seen with the
          // overlapping functions of relocatable objects) and the conversion fails
          s.emit();
          throw new CliException("DWARF conversion failed: : " + e.getMessage(), 1, false, e);
        }
      }
      sb.append(diag.summary());
      s.emit();
      if (o.jsonSummaryFile != null) writeJsonSummary(s, o.jsonSummaryFile, diag);
      // llvm-gsymutil exits 0 after a failed verification; we exit 1 (the reports are llvm's).
      return mismatches == 0 ? 0 : 1;
    } catch (IOException e) {
      throw ioError(in, e);
    } catch (GsymFormatException e) {
      sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
    }
  }

  /**
   * llvm's --callsites-yaml-file, after the symbol table: YAML diagnostics and llvm's "DWARF
   * conversion failed: : ..." on stderr (the log so far stays on stdout), exit status 1.
   */
  private static void loadCallSites(Session s, GsymCreator creator, String file) {
    List<CallSiteYaml.Function> functions;
    try {
      Path p = Path.of(file);
      if (Files.isDirectory(p)) throw conversionFailed(s, "", "Is a directory", null);
      functions = CallSiteYaml.read(p, file);
    } catch (java.nio.file.InvalidPathException e) {
      throw conversionFailed(s, "", "No such file or directory", e);
    } catch (IOException e) {
      throw conversionFailed(s, "", reason(e), e);
    } catch (CallSiteYaml.ParseException e) {
      throw conversionFailed(s, e.diagnostics(), e.getMessage(), e);
    }
    try {
      creator.loadCallSites(functions);
    } catch (IllegalArgumentException e) {
      throw conversionFailed(s, "", e.getMessage(), e);
    }
  }

  private static CliException conversionFailed(Session s, String diagnostics, String message, Throwable cause) {
    s.emit();
    return new CliException(diagnostics + "DWARF conversion failed: : " + message, 1, false, cause);
  }

  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) return "No such file or directory";
    if (e instanceof AccessDeniedException) return "Permission denied";
    if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }

  /** llvm's --json-summary-file: {"error-categories":{"CAT":{"count":N},...},"error-count":N}. */
  private static void writeJsonSummary(Session s, String file, Diagnostics diag) {
    StringBuilder j = new StringBuilder("{\"error-categories\":{");
    long total = 0;
    boolean first = true;
    for (java.util.Map.Entry<String, Long> e : diag.categories().entrySet()) {
      if (!first) j.append(',');
      first = false;
      jsonString(j, e.getKey()).append(":{\"count\":").append(e.getValue()).append('}');
      total += e.getValue();
    }
    j.append("},\"error-count\":").append(total).append('}');
    try {
      Files.writeString(Path.of(file), j, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      String reason = e instanceof NoSuchFileException ? "No such file or directory"
          : e instanceof AccessDeniedException ? "Permission denied"
          : e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
          : e.getMessage() != null ? e.getMessage() : e.toString();
      throw CliException.stdout("error opening aggregate error json file '" + file + "' for writing: " + reason);
    }
  }

  private static StringBuilder jsonString(StringBuilder sb, String v) {
    sb.append('"');
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
          else sb.append(c);
        }
      }
    }
    return sb.append('"');
  }

  private static String defaultOutput(String in, String fromExt, String toExt) {
    return in.endsWith(fromExt) && in.length() > fromExt.length()
        ? in.substring(0, in.length() - fromExt.length()) + toExt : in + toExt;
  }

  private static long segmentSize(ConvertOptions o) {
    if (o.segmentSize == null) return 0;
    Long v = Addresses.parse(o.segmentSize);
    if (v == null || v <= 0) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": for the --segment-size option: '" + o.segmentSize
          + "' value invalid for uint argument!");
    }
    return v;
  }

  private static long loadAddress(ConvertOptions o) {
    if (o.loadAddress == null) return 0;
    Long v = Addresses.parse(o.loadAddress);
    if (v == null) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": for the --load-address option: '" + o.loadAddress
          + "' value invalid for uint argument!");
    }
    return v;
  }

  private static int fromBreakpad(Session s, ConvertOptions o) {
    long segment = segmentSize(o);
    long load = loadAddress(o);
    String in = o.breakpad;
    boolean stdin = in.equals("-");
    if (stdin && o.outFile == null) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --breakpad - (stdin) needs -o OUT");
    }
    String out = o.outFile != null ? o.outFile : defaultOutput(in, ".sym", ".gsym");
    StringBuilder sb = s.sb;
    // nothing reaches stdout before the input proved usable: a bad input gives only the error
    Path inPath = stdin ? null : inputPath(in);
    sb.append("Input file: ").append(in).append('\n').append("Output file: ").append(out).append('\n');
    Diagnostics diag = o.quiet ? Diagnostics.silent() : new Diagnostics(sb);
    GsymCreator creator = new GsymCreator();
    BreakpadTransformer.Result r;
    try {
      if (stdin) {
        r = new BreakpadTransformer(creator, o.lenient, diag).loadAddress(load)
            .convert(new BreakpadParser(s.in, "-"));
      } else {
        Progress progress = ProgressBar.forTerminal(s.err, "MiB", o.quiet);
        try {
          r = BreakpadTransformer.convert(inPath, creator, o.lenient, diag, load, progress);
        } finally {
          if (progress instanceof ProgressBar bar) bar.close();
        }
      }
    } catch (IOException e) {
      sb.setLength(0);
      throw ioError(in, e);
    } catch (GsymFormatException e) {
      sb.setLength(0);
      throw new CliException(e.getMessage(), 1, false, e);
    }
    if (creator.numFunctionInfos() == 0) {
      sb.setLength(0);
      throw CliException.stderr(in + ": no FUNC or PUBLIC records: nothing to convert");
    }
    sb.append("Loaded ").append(r.functions()).append(" functions from Breakpad.\n");
    sb.append("Loaded ").append(r.publics()).append(" public symbols from Breakpad");
    if (r.publicsInsideFunctions() > 0) {
      sb.append(" (").append(r.publicsInsideFunctions()).append(" more are covered by FUNC records");
      if (r.publicTails() > 0) sb.append("; ").append(r.publicTails()).append(" of them also the bytes after the FUNC");
      sb.append(')');
    }
    sb.append(".\n");
    if (r.linesOutsideFunctions() > 0) {
      sb.append("Dropped ").append(r.linesOutsideFunctions()).append(" line records outside their FUNC.\n");
    }
    if (r.inlineRangesOutside() > 0) {
      sb.append("Skipped ").append(r.inlineRangesOutside()).append(" INLINE ranges outside their parent.\n");
    }
    if (r.stackRecords() > 0) sb.append("Skipped ").append(r.stackRecords()).append(" STACK records.\n");
    if (o.lenient) {
      sb.append("Skipped ").append(r.badRecords()).append(" bad records");
      if (r.orphanRecords() > 0) {
        sb.append(" and ").append(r.orphanRecords()).append(" line/INLINE records of bad FUNC records");
      }
      sb.append(".\n");
    }
    s.emit();
    int before = creator.numFunctionInfos();
    creator.finalize(diag);
    if (o.quiet) {
      int after = creator.numFunctionInfos();
      sb.append("Pruned ").append(before - after).append(" functions, ended with ").append(after).append(" total\n");
    }
    s.emit();
    try {
      if (segment > 0) {
        List<Path> written = creator.saveSegments(Path.of(out), ByteOrder.LITTLE_ENDIAN, segment);
        for (Path p : written) sb.append("Wrote segment ").append(p).append('\n');
      } else {
        creator.save(Path.of(out), ByteOrder.LITTLE_ENDIAN);
      }
    } catch (IOException e) {
      throw ioError(out, e);
    } catch (IllegalArgumentException e) {
      throw CliException.stderr(in + ": " + e.getMessage());
    }
    if (!o.quiet) sb.append(diag.summary());
    s.emit();
    return 0;
  }

  private static int toBreakpad(Session s, ConvertOptions o) {
    if (o.segmentSize != null) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": --segment-size can only be used with --breakpad");
    }
    long load = loadAddress(o);
    String in = o.toBreakpad;
    String out = o.outFile != null ? o.outFile : defaultOutput(in, ".gsym", ".sym");
    if (!in.equals("-") && InputKind.of(in, inputPath(in)) == InputKind.ELF) return elfToBreakpad(s, o, in, out);
    // GSYM records neither OS nor architecture nor module name: say which MODULE fields are guesses
    List<String> guessed = new ArrayList<>();
    String os = o.moduleOs;
    if (os == null) guessed.add("OS " + (os = "Linux") + " (--module-os)");
    String arch = o.moduleArch;
    if (arch == null) guessed.add("architecture " + (arch = "x86_64") + " (--module-arch)");
    String name = o.moduleName;
    if (name == null) {
      name = defaultOutput(inputPath(in).getFileName().toString(), ".gsym", "");
      guessed.add("name " + name + " (--module-name)");
    }
    StringBuilder sb = s.sb;
    sb.append("Input file: ").append(in).append('\n').append("Output file: ").append(out).append('\n');
    s.emit();
    try (GsymReader r = s.open(in)) {
      BreakpadWriter.Result res = BreakpadWriter.write(r, new BreakpadWriter.Options(os, arch, name, load), Path.of(out));
      appendWritten(sb, res);
      s.emit();
    } catch (IOException e) {
      throw ioError(out, e);
    } catch (GsymFormatException e) {
      s.sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
    }
    if (!guessed.isEmpty() && !o.quiet) {
      s.err.println("warning: " + in + ": guessed the MODULE fields GSYM does not record: " + String.join(", ", guessed));
    }
    return 0;
  }

  private static void appendWritten(StringBuilder sb, BreakpadWriter.Result res) {
    sb.append("Wrote ").append(res.functions()).append(" FUNC, ").append(res.publics()).append(" PUBLIC, ")
        .append(res.files()).append(" FILE and ").append(res.inlineOrigins()).append(" INLINE_ORIGIN records.\n");
  }

  /**
   * ELF → .sym as Breakpad's dump_syms: the MODULE identity from the ELF ({@link ElfModule}), the
   * functions from its DWARF and symbol table through the DWARF converter into a temporary GSYM
   * beside the output, written by the same {@link BreakpadWriter} (symbol-table-only functions as
   * PUBLIC records). The summary is --dwarf's log followed by the record counts.
   */
  private static int elfToBreakpad(Session s, ConvertOptions o, String in, String out) {
    StringBuilder sb = s.sb;
    sb.append("Input file: ").append(in).append('\n').append("Output file: ").append(out).append('\n');
    s.emit();
    Path inPath = inputPath(in);
    Diagnostics diag = new Diagnostics(sb);
    GsymCreator creator = new GsymCreator();
    BreakpadWriter.Options options;
    try (ElfFile elf = ElfFile.open(inPath)) {
      ElfModule m = ElfModule.of(elf, inPath.getFileName().toString());
      String arch = o.moduleArch != null ? o.moduleArch : m.arch();
      if (arch == null) {
        throw Session.fileError(in, "unrecognized ELF machine architecture " + elf.machine()
            + " (name it with --module-arch)", null);
      }
      options = new BreakpadWriter.Options(o.moduleOs != null ? o.moduleOs : m.os(), arch,
          o.moduleName != null ? o.moduleName : m.name(), o.loadAddress != null ? loadAddress(o) : m.loadAddress(),
          m.debugId(), m.codeId(), true);
      Progress progress = ProgressBar.forTerminal(s.err, "units", o.quiet);
      try {
        DwarfConverter.convert(elf, creator, diag, new DwarfConverter.Options(o.quiet, false, false, 0, progress));
      } finally {
        if (progress instanceof ProgressBar bar) bar.close();
      }
    } catch (IOException e) {
      throw ioError(in, e);
    } catch (GsymFormatException e) {
      sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
    }
    s.emit();
    if (creator.numFunctionInfos() == 0) throw Session.fileError(in, "no functions to encode", null);
    Path target = Path.of(out);
    Path gsym = null;
    try {
      Path dir = target.toAbsolutePath().getParent();
      gsym = Files.createTempFile(dir, "." + target.getFileName() + ".", ".gsym");
      creator.save(gsym);
      try (GsymReader r = GsymReader.open(gsym)) {
        appendWritten(sb, BreakpadWriter.write(r, options, target));
      }
    } catch (IOException e) {
      throw ioError(out, e);
    } catch (GsymFormatException e) {
      // e.g. a function below --load-address; the temporary GSYM is no name for the user
      sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
    } finally {
      if (gsym != null) {
        try {
          Files.deleteIfExists(gsym);
        } catch (IOException ignored) {
          // a temporary file left behind is no reason to fail a finished conversion
        }
      }
    }
    sb.append(diag.summary());
    s.emit();
    return 0;
  }

  /** What {@code --to-breakpad} was given, by the file's first bytes (not its name). */
  enum InputKind {
    ELF, GSYM;

    static InputKind of(String in, Path p) {
      byte[] m;
      try (java.io.InputStream is = Files.newInputStream(p)) {
        m = is.readNBytes(4);
      } catch (IOException e) {
        throw ioError(in, e);
      }
      String magic = new String(m, StandardCharsets.ISO_8859_1);
      if (magic.equals("\u007fELF")) return ELF;
      // GSYM's magic 0x4753594d in either byte order
      if (magic.equals("GSYM") || magic.equals("MYSG")) return GSYM;
      throw Session.fileError(in, "not a GSYM file or an ELF file"
          + (magic.equals("MODU") ? " (a Breakpad symbol file? --breakpad converts those to GSYM)" : ""), null);
    }
  }

  private static Path inputPath(String in) {
    Path p;
    try {
      p = Path.of(in);
    } catch (RuntimeException e) {
      throw Session.fileError(in, "No such file or directory", e);
    }
    if (Files.isDirectory(p)) throw Session.fileError(in, "Is a directory", null);
    return p;
  }

  private static CliException ioError(String path, IOException e) {
    String reason;
    if (e instanceof NoSuchFileException) reason = "No such file or directory";
    else if (e instanceof AccessDeniedException) reason = "Permission denied";
    else if (e instanceof FileSystemException f && f.getReason() != null) reason = f.getReason();
    else reason = e.getMessage() != null ? e.getMessage() : e.toString();
    return Session.fileError(path, reason, e);
  }
}
