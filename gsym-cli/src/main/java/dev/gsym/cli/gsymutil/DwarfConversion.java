package dev.gsym.cli.gsymutil;

import static dev.gsym.cli.gsymutil.Conversions.segmentSize;
import static dev.gsym.cli.OutputFiles.STDOUT;
import static dev.gsym.cli.OutputFiles.checkWritable;
import static dev.gsym.cli.OutputFiles.checkStdout;
import static dev.gsym.cli.OutputFiles.inputPath;
import static dev.gsym.cli.OutputFiles.ioError;
import static dev.gsym.cli.OutputFiles.notToStdout;
import static dev.gsym.cli.OutputFiles.outputPath;
import static dev.gsym.cli.OutputFiles.reason;
import static dev.gsym.cli.OutputFiles.refuseOverwriting;
import static dev.gsym.cli.OutputFiles.unwritable;

import dev.gsym.cli.Addresses;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.ProgressBar;
import dev.gsym.cli.Session;
import dev.gsym.convert.ConvertException;
import dev.gsym.convert.ConvertOptions;
import dev.gsym.convert.Converter;
import dev.gsym.convert.Input;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.macho.DsymBundle;
import dev.gsym.object.ObjectFile;
import dev.gsym.io.AtomicFile;
import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --dwarf FILE} / {@code --convert FILE}: ELF or Mach-O + DWARF → GSYM as {@code llvm-gsymutil
 * --convert --num-threads=1} does (universal files by their slices, {@code --arch} choosing them;
 * {@code .dSYM} bundles by their DWARF files), with its log, {@code --callsites-yaml-file},
 * {@code --verify} and {@code --json-summary-file}.
 */
final class DwarfConversion {
  private DwarfConversion() {}

  /** Runs the mode: options checked first, then "Input file", "Output file (ARCH)", the converter's log, the save. */
  static int run(Session s, Args o) {
    if (o.flag(Opt.LENIENT) || o.value(Opt.LOAD_ADDRESS) != null) {
      throw CliException.tool("--lenient and --load-address only apply to --breakpad");
    }
    long segment = segmentSize(o);
    llvmCompat(o); // checked with the other options, before anything is printed
    int threads = 0;
    if (o.value(Opt.NUM_THREADS) != null) {
      Long v = Addresses.parse(o.value(Opt.NUM_THREADS));
      if (v == null || v < 0 || v > 0xffffffffL) {
        throw CliException.tool("for the --num-threads option: '" + o.value(Opt.NUM_THREADS)
            + "' value invalid for uint argument!");
      }
      threads = (int) Math.min(v, 1024);
    }
    if (o.value(Opt.CALLSITES_YAML) != null && o.value(Opt.CALLSITES_YAML).isEmpty()) {
      throw CliException.tool("--callsites-yaml-file option requires a non-empty argument.");
    }
    if (o.flag(Opt.VERIFY) && segment > 0) {
      throw CliException.tool("--verify cannot be used with --segment-size");
    }
    String in = o.value(Opt.DWARF);
    boolean embed = o.flag(Opt.EMBED);
    if (!embed && o.flag(Opt.IN_PLACE)) throw CliException.tool("--in-place only applies to --embed");
    if (embed && segment > 0) throw CliException.tool("--embed cannot be used with --segment-size");
    String out = embed ? EmbedConversion.output(o, in) : o.value(Opt.OUT_FILE) != null ? o.value(Opt.OUT_FILE) : in + ".gsym";
    boolean toStdout = out.equals(STDOUT);
    if (toStdout && segment > 0) throw notToStdout("--segment-size (it writes several files)");
    if (toStdout && o.flag(Opt.VERIFY)) throw notToStdout("--verify (it reads the output back)");
    if (toStdout && STDOUT.equals(o.value(Opt.JSON_SUMMARY))) {
      throw CliException.tool("-o - and --json-summary-file - cannot both write to"
          + " standard output");
    }
    if (!embed) refuseOverwriting(out, segment > 0, "input file", in);
    refuseOverwriting(out, segment > 0, "--callsites-yaml-file", o.value(Opt.CALLSITES_YAML));
    refuseOverwriting(out, segment > 0, "--symtab-file", o.value(Opt.SYMTAB_FILE));
    refuseOverwriting(o.value(Opt.JSON_SUMMARY), false, "input file", in);
    refuseOverwriting(o.value(Opt.JSON_SUMMARY), false, "--callsites-yaml-file", o.value(Opt.CALLSITES_YAML));
    if (segment == 0) refuseOverwriting(o.value(Opt.JSON_SUMMARY), false, "output file", out);
    // the outputs must be writable before the (maybe long) conversion starts
    checkWritable(out, segment > 0, in);
    String json = o.value(Opt.JSON_SUMMARY);
    String jsonProblem = unwritable(json, false, in);
    if (jsonProblem != null) {
      throw CliException.stderr("error opening aggregate error json file '" + json + "' for writing: " + jsonProblem);
    }
    OutputStream data = toStdout ? s.stdoutForData() : null;
    StringBuilder sb = s.sb;
    sb.append("Input file: ").append(in).append('\n');
    s.emit();
    List<String> objects = objects(in);
    // llvm-gsymutil prints its conversion log even with --quiet; --quiet only silences some warnings.
    // One log for every object: the error-category summary comes once, after the last.
    Diagnostics diag = new Diagnostics(sb);
    int mismatches = 0;
    ConvertOptions options = ConvertOptions.builder().outputVersion(Conversions.outputVersion(o)).quiet(o.flag(Opt.QUIET))
        .mergedFunctions(o.flag(Opt.MERGED_FUNCTIONS)).dwarfCallSites(o.flag(Opt.DWARF_CALLSITES)).threads(threads)
        .callSitesYaml(o.value(Opt.CALLSITES_YAML)).symtabFile(o.value(Opt.SYMTAB_FILE))
        .llvmCompat(o.value(Opt.LLVM_COMPAT) == null ? 0 : llvmCompat(o)).unwind(o.flag(Opt.UNWIND)).build();
    for (String object : objects) mismatches += convertFile(s, o, object, out, data, embed, segment, options, diag);
    sb.append(diag.summary());
    s.emit();
    if (o.value(Opt.JSON_SUMMARY) != null) writeJsonSummary(s, o.value(Opt.JSON_SUMMARY), diag);
    // llvm-gsymutil exits 0 after a failed verification; we exit 1 (the reports are llvm's).
    return mismatches == 0 ? 0 : 1;
  }

  /**
   * The files to convert for the input {@code in}: the DWARF files of a {@code .dSYM} bundle (llvm's
   * findDsymObjectMembers), else {@code in} itself.
   */
  private static List<String> objects(String in) {
    try {
      List<Path> members = DsymBundle.members(in);
      if (members.isEmpty()) return List.of(in);
      return members.stream().map(Path::toString).toList();
    } catch (GsymFormatException e) {
      throw CliException.stderr("error: " + e.detail());
    } catch (IOException e) {
      throw ioError(in, e);
    }
  }

  /**
   * One file of the input ({@link Converter}): an ELF, Mach-O or PE file converted to {@code out}; a
   * universal file's slices that {@code --arch} selects (all without it) each converted, to {@code
   * out.ARCH} when there are several. Errors name {@code in} as given. Returns the --verify
   * mismatches.
   */
  private static int convertFile(Session s, Args o, String in, String out, OutputStream data, boolean embed, long segment,
      ConvertOptions options, Diagnostics diag) {
    Path inPath = inputPath(in);
    int[] mismatches = {0};
    ProgressBar[] bar = {null};
    ConvertOptions withListener = options.withListener(new Converter.Listener() {
      @Override
      public void objectStarted(Converter.Unit unit) {
        String shown = unit.oneOfSeveral() ? out + "." + unit.arch() : out;
        s.sb.append("Output file (").append(unit.arch()).append("): ").append(shown).append('\n');
        s.emit();
        if (embed && !(unit.object() instanceof ElfFile)) {
          throw CliException.tool("--embed only applies to ELF files");
        }
        if (ProgressBar.forTerminal(s.err, "units", o.flag(Opt.QUIET)) instanceof ProgressBar b) bar[0] = b;
      }

      @Override
      public void progress(long done, long total) {
        if (bar[0] != null) bar[0].update(done, total);
      }
    });
    try {
      Converter.convert(new Input.ObjectFile(inPath, o.values(Opt.ARCH)), withListener, diag, gsym -> {
        closeBar(bar);
        Converter.Unit unit = gsym.unit();
        mismatches[0] += save(s, o, gsym, unit.oneOfSeveral() ? out + "." + unit.arch() : out, data, embed, segment);
      });
      return mismatches[0];
    } catch (ConvertException e) {
      s.emit();
      throw new CliException(e.diagnostics() + "DWARF conversion failed: : " + e.getMessage(), 1, false, e);
    } catch (IOException e) {
      throw ioError(in, e);
    } catch (GsymFormatException e) {
      s.sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
    } finally {
      closeBar(bar);
    }
  }

  private static void closeBar(ProgressBar[] bar) {
    if (bar[0] != null) bar[0].close();
    bar[0] = null;
  }

  /** llvm-gsymutil's handleObjectFile after the conversion: save, --verify. */
  private static int save(Session s, Args o, Converter.Converted gsym, String out, OutputStream data, boolean embed,
      long segment) throws IOException {
    StringBuilder sb = s.sb;
    ObjectFile file = gsym.unit().object();
    GsymCreator creator = gsym.creator();
    boolean toStdout = out.equals(STDOUT);
    s.emit();
    long embedded = -1;
    long embeddedSize = 0;
    try {
      if (embed) {
        long[] written = embed(s, (ElfFile) file, creator, gsym.summary(), out);
        embedded = written[0];
        embeddedSize = written[1];
      } else if (segment > 0) {
        creator.saveSegments(outputPath(out), gsym.byteOrder(), segment);
      } else if (toStdout) {
        creator.save(data, gsym.byteOrder());
        checkStdout(data);
      } else {
        creator.save(outputPath(out), gsym.byteOrder());
      }
    } catch (GsymFormatException | IllegalArgumentException e) {
      s.emit();
      String detail = e instanceof GsymFormatException g ? g.detail() : e.getMessage();
      String hint = creator.numFunctionInfos() == 0 ? nothingToConvert(file, o) : "";
      throw new CliException("DWARF conversion failed: : " + detail + hint, 1, false, e);
    } catch (IOException e) {
      s.emit();
      throw ioError(out, e);
    }
    int mismatches = 0;
    if (o.flag(Opt.VERIFY)) {
      try (GsymReader written = embed ? openEmbedded(out) : GsymReader.open(Path.of(out))) {
        mismatches = DwarfConverter.verify(file, written, out, sb);
      } catch (dev.gsym.read.LookupException | GsymFormatException e) {
        // llvm's verify stops at the first address the GSYM does not resolve (seen with the
        // overlapping functions of relocatable objects) and the conversion fails
        s.emit();
        String detail = e instanceof GsymFormatException g ? g.detail() : e.getMessage();
        throw new CliException("DWARF conversion failed: : " + detail, 1, false, e);
      }
    }
    if (embed) sb.append(EmbedConversion.summary(embeddedSize, embedded, out));
    s.emit();
    return mismatches;
  }

  /**
   * After llvm's "no functions to encode": a second line saying why (no DWARF and no function
   * symbols: a stripped file) and what has them.
   */
  private static String nothingToConvert(ObjectFile file, Args o) {
    StringBuilder sb = new StringBuilder("\n").append(CliException.TOOL_NAME).append(": no functions in the debug info or")
        .append(" the symbol table of ").append(file.source());
    if (o.value(Opt.SYMTAB_FILE) != null) sb.append(" or of the --symtab-file");
    sb.append(" (stripped?): convert the unstripped binary or its separate debug file");
    byte[] id = file instanceof ElfFile elf ? elf.buildId() : null;
    if (id != null && id.length > 1) {
      String hex = java.util.HexFormat.of().formatHex(id);
      Path debug = Path.of("/usr/lib/debug/.build-id", hex.substring(0, 2), hex.substring(2) + ".debug");
      sb.append(" (").append(debug).append(Files.exists(debug) ? ", which is installed here" :
          ", from the distribution's debug package or a debuginfod server").append(')');
    }
    if (o.value(Opt.SYMTAB_FILE) == null) {
      sb.append(", or take the symbols of the unstripped binary with --symtab-file FILE");
    }
    return sb.toString();
  }

  /**
   * --llvm-compat: the LLVM release whose behaviour to follow where releases differ (today
   * .gnu_debugdata: 22 ignores it, 23 and llvm main read it; a thin Mach-O file's "Output file" name:
   * 22's triple name, llvm main's slice name). Default 23, except for that name, which is 22's
   * unless 23 is asked for or --symtab-file, which 22 lacks, is given.
   */
  static int llvmCompat(Args o) {
    String text = o.value(Opt.LLVM_COMPAT);
    if (text == null) return 23;
    if (!text.equals("22") && !text.equals("23")) {
      throw CliException.tool("for the --llvm-compat option: '" + text
          + "' is invalid. Use '22' or '23'.");
    }
    return Integer.parseInt(text);
  }

  /**
   * --embed: the GSYM goes to an unlinked scratch file (beside the output, or in the system
   * temporary directory for stdout), then into OUT as the input's {@code .gsym} section, the same
   * bytes as the standalone file; returns the section's offset in OUT.
   */
  private static long[] embed(Session s, ElfFile elf, GsymCreator creator, DwarfConverter.Summary summary, String out)
      throws IOException {
    Path dir = out.equals(STDOUT) ? AtomicFile.systemTemporaryDirectory() : AtomicFile.temporaryDirectory(outputPath(out));
    try (FileChannel gsym = AtomicFile.scratch(dir); Arena arena = Arena.ofConfined()) {
      creator.save(gsym, summary.byteOrder());
      MemorySegment bytes = gsym.map(FileChannel.MapMode.READ_ONLY, 0, gsym.size(), arena);
      return new long[] {EmbedConversion.write(s, elf, bytes, out), bytes.byteSize()};
    }
  }

  /** The GSYM embedded in {@code out} (for --verify). */
  private static GsymReader openEmbedded(String out) throws IOException {
    Path p = Path.of(out);
    EmbeddedGsym.Location at = EmbeddedGsym.find(p).orElseThrow(() -> new IOException("no " + EmbeddedGsym.SECTION
        + " section written"));
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      return GsymReader.open(ch, at.offset(), at.size(), at.source(out));
    }
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
}
