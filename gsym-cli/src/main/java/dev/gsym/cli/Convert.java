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
import dev.gsym.io.AtomicFile;
import dev.gsym.io.GsymFormatException;
import dev.gsym.io.Progress;
import dev.gsym.read.GsymReader;
import dev.gsym.cli.yaml.CallSiteYaml;
import dev.gsym.write.FunctionCallSites;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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
    boolean toStdout = out.equals(STDOUT);
    if (toStdout && segment > 0) throw notToStdout("--segment-size (it writes several files)");
    if (toStdout && o.verify) throw notToStdout("--verify (it reads the output back)");
    if (toStdout && STDOUT.equals(o.jsonSummaryFile)) {
      throw CliException.stderr(GsymUtil.TOOL_NAME + ": -o - and --json-summary-file - cannot both write to"
          + " standard output");
    }
    refuseOverwriting(out, segment > 0, "input file", in);
    refuseOverwriting(out, segment > 0, "--callsites-yaml-file", o.callSitesYamlFile);
    refuseOverwriting(o.jsonSummaryFile, false, "input file", in);
    refuseOverwriting(o.jsonSummaryFile, false, "--callsites-yaml-file", o.callSitesYamlFile);
    if (segment == 0) refuseOverwriting(o.jsonSummaryFile, false, "output file", out);
    OutputStream data = toStdout ? s.stdoutForData() : null;
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
          creator.saveSegments(outputPath(out), summary.byteOrder(), segment);
        } else if (toStdout) {
          creator.save(data, summary.byteOrder());
          checkStdout(data);
        } else {
          creator.save(outputPath(out), summary.byteOrder());
        }
      } catch (GsymFormatException | IllegalArgumentException e) {
        s.emit();
        String detail = e instanceof GsymFormatException g ? g.detail() : e.getMessage();
        throw new CliException("DWARF conversion failed: : " + detail, 1, false, e);
      } catch (IOException e) {
        s.emit();
        throw ioError(out, e);
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
    // llvm reads each entry's flags after looking its name up: an unknown flag is reported only if
    // no name up to and including its entry is unknown
    List<FunctionCallSites> resolved = new ArrayList<>(functions.size());
    CallSiteYaml.UnknownFlagException badFlag = null;
    for (CallSiteYaml.Function f : functions) {
      try {
        resolved.add(f.resolve());
      } catch (CallSiteYaml.UnknownFlagException e) {
        resolved.add(new FunctionCallSites(f.name(), List.of()));
        badFlag = e;
        break;
      }
    }
    try {
      creator.loadCallSites(resolved);
    } catch (IllegalArgumentException e) {
      throw conversionFailed(s, "", e.getMessage() + "\n", e); // llvm's message ends in a newline
    }
    if (badFlag != null) throw conversionFailed(s, "", badFlag.getMessage() + "\n", badFlag);
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

  /** llvm's --json-summary-file ({@link JsonSummary}): to {@code file}, or after the summary on stdout. */
  private static void writeJsonSummary(Session s, String file, Diagnostics diag) {
    String json = JsonSummary.of(diag.categories());
    if (file.equals(STDOUT)) { // as llvm's raw_fd_ostream
      s.sb.append(json);
      s.emit();
      return;
    }
    ByteBuffer bytes = ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8));
    String reason;
    try {
      AtomicFile.write(Path.of(file), ch -> {
        while (bytes.hasRemaining()) ch.write(bytes);
        return null;
      });
      return;
    } catch (IOException e) {
      reason = reason(e);
    } catch (InvalidPathException e) {
      reason = "No such file or directory";
    }
    throw CliException.stdout("error opening aggregate error json file '" + file + "' for writing: " + reason);
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
    boolean toStdout = out.equals(STDOUT);
    if (toStdout && segment > 0) throw notToStdout("--segment-size (it writes several files)");
    refuseOverwriting(out, segment > 0, "input file", in);
    OutputStream data = toStdout ? s.stdoutForData() : null;
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
        List<Path> written = creator.saveSegments(outputPath(out), ByteOrder.LITTLE_ENDIAN, segment);
        for (Path p : written) sb.append("Wrote segment ").append(p).append('\n');
      } else if (toStdout) {
        creator.save(data, ByteOrder.LITTLE_ENDIAN);
        checkStdout(data);
      } else {
        creator.save(outputPath(out), ByteOrder.LITTLE_ENDIAN);
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
    refuseOverwriting(out, false, "input file", in);
    boolean elf = !in.equals("-") && InputKind.of(in, inputPath(in)) == InputKind.ELF;
    OutputStream data = out.equals(STDOUT) ? s.stdoutForData() : null;
    if (elf) return elfToBreakpad(s, o, in, out, data);
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
      BreakpadWriter.Options options = new BreakpadWriter.Options(os, arch, name, load);
      BreakpadWriter.Result res;
      if (data != null) {
        res = BreakpadWriter.write(r, options, data);
        checkStdout(data);
      } else {
        res = BreakpadWriter.write(r, options, outputPath(out));
      }
      appendWritten(sb, res);
      s.emit();
    } catch (IOException e) {
      throw ioError(out, e);
    } catch (GsymFormatException e) {
      s.sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
    }
    if (!guessed.isEmpty() && !o.quiet) {
      s.flush(); // after the summary, also when the summary goes to stderr (-o -)
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
   * functions from its DWARF and symbol table through the DWARF converter into a GSYM in an
   * unlinked scratch file ({@link AtomicFile#scratch}), written by the same {@link BreakpadWriter} (symbol-table-only functions as
   * PUBLIC records). The summary is --dwarf's log followed by the record counts.
   */
  private static int elfToBreakpad(Session s, ConvertOptions o, String in, String out, OutputStream data) {
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
    // the GSYM goes to an unlinked scratch file (beside the output, or in java.io.tmpdir for stdout,
    // a device or a FIFO), mapped by the reader: no name is ever left behind
    try {
      Path target = data != null ? null : outputPath(out);
      Path dir = target != null ? AtomicFile.temporaryDirectory(target) : AtomicFile.systemTemporaryDirectory();
      try (FileChannel gsym = AtomicFile.scratch(dir)) {
        creator.save(gsym, ByteOrder.LITTLE_ENDIAN);
        try (GsymReader r = GsymReader.open(gsym, in)) {
          if (data != null) {
            appendWritten(sb, BreakpadWriter.write(r, options, data));
            checkStdout(data);
          } else {
            appendWritten(sb, BreakpadWriter.write(r, options, target));
          }
        }
      }
    } catch (IOException e) {
      throw ioError(out, e);
    } catch (GsymFormatException e) {
      // e.g. a function below --load-address
      sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
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

  /** The output name that means standard output. */
  private static final String STDOUT = "-";

  private static CliException notToStdout(String option) {
    return CliException.stderr(GsymUtil.TOOL_NAME + ": -o - (standard output) cannot be used with " + option);
  }

  /** PrintStream (our stdout) records write errors instead of throwing them. */
  private static void checkStdout(OutputStream data) throws IOException {
    if (data instanceof PrintStream ps && ps.checkError()) throw new IOException("error writing standard output");
  }

  private static Path outputPath(String out) {
    try {
      return Path.of(out);
    } catch (InvalidPathException e) {
      throw Session.fileError(out, "No such file or directory", e);
    }
  }

  /**
   * Refuses, before anything is read or written, an {@code output} that is the same file as {@code
   * other} by identity (device and inode: through symbolic and hard links, however spelled). With
   * {@code segments}, the existing files {@code OUTPUT-0x...} that --segment-size could replace are
   * checked instead of {@code output} itself.
   */
  private static void refuseOverwriting(String output, boolean segments, String role, String other) {
    if (output == null || other == null || output.equals(STDOUT) || other.equals(STDOUT)) return;
    Path out;
    Path in;
    try {
      out = Path.of(output);
      in = Path.of(other);
    } catch (InvalidPathException e) {
      return; // reported when the file is opened
    }
    if (!Files.exists(in)) {
      // two outputs, neither written yet: the same name, however spelled
      if (!segments && out.toAbsolutePath().normalize().equals(in.toAbsolutePath().normalize())) {
        throw CliException.stderr(GsymUtil.TOOL_NAME + ": output file '" + output + "' is the " + role + " '"
            + other + "'; refusing to overwrite it");
      }
      return;
    }
    List<Path> candidates = List.of(out);
    if (segments) {
      Path dir = out.toAbsolutePath().getParent();
      String prefix = out.getFileName() + "-0x";
      try (Stream<Path> list = Files.list(dir)) {
        candidates = list.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
      } catch (IOException | UncheckedIOException e) {
        return; // no directory to write into: reported when saving
      }
    }
    for (Path c : candidates) {
      boolean same;
      try {
        same = Files.exists(c) && Files.isSameFile(c, in);
      } catch (IOException e) {
        same = false;
      }
      if (same) {
        throw CliException.stderr(GsymUtil.TOOL_NAME + ": output file '" + (segments ? c : output) + "' is the "
            + role + " '" + other + "'; refusing to overwrite it");
      }
    }
  }

  private static CliException ioError(String path, IOException e) {
    return Session.fileError(path, reason(e), e);
  }
}
