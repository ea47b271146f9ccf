package dev.gsym.cli.gsymutil;

import static dev.gsym.cli.gsymutil.Conversions.loadAddress;
import static dev.gsym.cli.OutputFiles.STDOUT;
import static dev.gsym.cli.OutputFiles.checkStdout;
import static dev.gsym.cli.OutputFiles.defaultOutput;
import static dev.gsym.cli.OutputFiles.inputPath;
import static dev.gsym.cli.OutputFiles.ioError;
import static dev.gsym.cli.OutputFiles.outputPath;
import static dev.gsym.cli.OutputFiles.refuseOverwriting;

import dev.gsym.breakpad.BreakpadWriter;
import dev.gsym.breakpad.ElfModule;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.OutputFiles;
import dev.gsym.cli.ProgressBar;
import dev.gsym.cli.Session;
import dev.gsym.convert.DumpSyms;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.format.Hex;
import dev.gsym.io.AtomicFile;
import dev.gsym.GsymFormatException;
import dev.gsym.Progress;
import dev.gsym.object.FileKind;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --to-breakpad GSYM|ELF}: a GSYM file, or the DWARF and symbols of an ELF file (as Breakpad's
 * dump_syms), → a Breakpad symbol file.
 */
final class ToBreakpadConversion {
  private ToBreakpadConversion() {}

  /** Runs the mode: a GSYM file, or an ELF file by its magic ({@link #isElf}). */
  static int run(Session s, Args o) {
    if (o.value(Opt.SEGMENT_SIZE) != null) {
      throw CliException.tool("--segment-size can only be used with --breakpad");
    }
    long load = loadAddress(o);
    String in = o.value(Opt.TO_BREAKPAD);
    String out = o.value(Opt.OUT_FILE) != null ? o.value(Opt.OUT_FILE) : defaultOutput(in, ".gsym", ".sym");
    refuseOverwriting(out, false, "input file", in);
    OutputFiles.checkWritable(out, false, in);
    boolean elf = !in.equals("-") && isElf(in, inputPath(in));
    OutputStream data = out.equals(STDOUT) ? s.stdoutForData() : null;
    if (elf) return elfToBreakpad(s, o, in, out, data);
    // GSYM records neither OS nor architecture nor module name: say which MODULE fields are guesses
    List<String> guessed = new ArrayList<>();
    String os = o.value(Opt.MODULE_OS);
    if (os == null) guessed.add("OS " + (os = "Linux") + " (--module-os)");
    String arch = o.value(Opt.MODULE_ARCH);
    if (arch == null) guessed.add("architecture " + (arch = "x86_64") + " (--module-arch)");
    String name = o.value(Opt.MODULE_NAME);
    if (name == null) {
      name = defaultOutput(inputPath(in).getFileName().toString(), ".gsym", "");
      guessed.add("name " + name + " (--module-name)");
    }
    StringBuilder sb = s.sb;
    sb.append("Input file: ").append(in).append('\n').append("Output file: ").append(out).append('\n');
    s.emit();
    try (GsymReader r = s.open(in)) {
      BreakpadWriter.Options options = new BreakpadWriter.Options(os, arch, name, load).withCfi(!o.flag(Opt.NO_CFI));
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
    if (!guessed.isEmpty() && !o.flag(Opt.QUIET)) {
      s.flush(); // after the summary, also when the summary goes to stderr (-o -)
      s.err.println("warning: " + in + ": guessed the MODULE fields GSYM does not record: " + String.join(", ", guessed));
    }
    return 0;
  }

  private static void appendWritten(StringBuilder sb, BreakpadWriter.Result res) {
    sb.append("Wrote ").append(res.functions()).append(" FUNC, ").append(res.publics()).append(" PUBLIC, ")
        .append(res.files()).append(res.stackRecords() > 0 ? " FILE, " : " FILE and ").append(res.inlineOrigins())
        .append(" INLINE_ORIGIN");
    if (res.stackRecords() > 0) sb.append(" and ").append(res.stackRecords()).append(" STACK");
    sb.append(" records.\n");
  }

  /**
   * ELF → .sym as Breakpad's dump_syms: the MODULE identity from the ELF ({@link ElfModule}), the
   * functions from its DWARF and symbol table through the DWARF converter into a GSYM in an
   * unlinked scratch file ({@link AtomicFile#scratch}), written by the same {@link BreakpadWriter} (symbol-table-only functions as
   * PUBLIC records). The summary is --dwarf's log followed by the record counts.
   */
  private static int elfToBreakpad(Session s, Args o, String in, String out, OutputStream data) {
    StringBuilder sb = s.sb;
    sb.append("Input file: ").append(in).append('\n').append("Output file: ").append(out).append('\n');
    s.emit();
    Path inPath = inputPath(in);
    Diagnostics diag = new Diagnostics(sb);
    GsymCreator creator = new GsymCreator();
    BreakpadWriter.Options options;
    EmbeddedGsym.Location embedded;
    try (ElfFile elf = ElfFile.open(inPath)) {
      ElfModule m = ElfModule.of(elf, inPath.getFileName().toString());
      String arch = o.value(Opt.MODULE_ARCH) != null ? o.value(Opt.MODULE_ARCH) : m.arch();
      if (arch == null) {
        throw Session.fileError(in, "unrecognized ELF machine architecture " + elf.machine()
            + " (name it with --module-arch)", null);
      }
      options = new BreakpadWriter.Options(o.value(Opt.MODULE_OS) != null ? o.value(Opt.MODULE_OS) : m.os(), arch,
          o.value(Opt.MODULE_NAME) != null ? o.value(Opt.MODULE_NAME) : m.name(), o.value(Opt.LOAD_ADDRESS) != null ? loadAddress(o) : m.loadAddress(),
          m.debugId(), m.codeId(), true, true, !o.flag(Opt.NO_CFI));
      embedded = EmbeddedGsym.find(elf).orElse(null);
      if (embedded != null) {
        sb.append("Using the GSYM in section ").append(EmbeddedGsym.SECTION).append(" at offset ")
            .append(Hex.hex(embedded.offset())).append(" (").append(embedded.size()).append(" bytes).\n");
        s.emit();
      }
      if (embedded == null) {
        DumpSyms.DebugFileSearch search = DumpSyms.debugFile(elf, o.values(Opt.DEBUG_FILE_DIRECTORY));
        Path debugFile = search == null ? null : search.found();
        if (search != null && debugFile == null) {
          throw CliException.stderr(inPath + ": no DWARF and no debug file found; tried " + String.join(", ", search.tried()));
        }
        if (debugFile != null) {
          sb.append("Using the debug file ").append(debugFile).append(".\n");
          s.emit();
        }
        Progress progress = ProgressBar.forTerminal(s.err, "units", o.flag(Opt.QUIET));
        try (ElfFile debug = debugFile == null ? null : ElfFile.open(debugFile)) {
          DumpSyms.convert(elf, debug, creator, !o.flag(Opt.NO_CFI), o.flag(Opt.QUIET), diag, progress);
        } finally {
          if (progress instanceof ProgressBar bar) bar.close();
        }
      }
    } catch (IOException e) {
      throw ioError(in, e);
    } catch (GsymFormatException e) {
      sb.setLength(0);
      throw Session.fileError(in, e.detail(), e);
    }
    s.emit();
    if (embedded != null) {
      // a GSYM carried by the binary (gsymutil embed): written as it is, no DWARF read; its STACK
      // records from the binary's CFI when the GSYM carries none
      try (GsymReader embeddedGsym = s.open(in)) {
        GsymCreator withCfi = options.cfi() ? DumpSyms.withUnwind(embeddedGsym, inPath, diag) : null;
        try (withCfi) {
          if (options.cfi()) s.emit();
          BreakpadWriter.Result res = withCfi == null ? write(embeddedGsym, options, data, out)
              : DumpSyms.throughScratch(withCfi, embeddedGsym.byteOrder(), scratchDirectory(data, out), in,
                  r -> write(r, options, data, out));
          appendWritten(sb, res);
        }
      } catch (IOException e) {
        throw ioError(out, e);
      } catch (GsymFormatException e) {
        sb.setLength(0);
        throw Session.fileError(in, e.getMessage(), e);
      }
      s.emit();
      return 0;
    }
    if (creator.numFunctionInfos() == 0) throw Session.fileError(in, "no functions to encode", null);
    // the GSYM goes to an unlinked scratch file (beside the output, or in java.io.tmpdir for stdout,
    // a device or a FIFO), mapped by the reader: no name is ever left behind
    try {
      appendWritten(sb, DumpSyms.throughScratch(creator, ByteOrder.LITTLE_ENDIAN, scratchDirectory(data, out), in,
          r -> write(r, options, data, out)));
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

  /** Where a scratch GSYM goes: beside the output, or in the system temporary directory for stdout. */
  private static Path scratchDirectory(OutputStream data, String out) throws IOException {
    return data != null ? AtomicFile.systemTemporaryDirectory() : AtomicFile.temporaryDirectory(outputPath(out));
  }

  /** Writes {@code r} as a Breakpad symbol file to standard output ({@code data}) or to {@code out}. */
  private static BreakpadWriter.Result write(GsymReader r, BreakpadWriter.Options options, OutputStream data, String out)
      throws IOException {
    if (data == null) return BreakpadWriter.write(r, options, outputPath(out));
    BreakpadWriter.Result res = BreakpadWriter.write(r, options, data);
    checkStdout(data);
    return res;
  }

  /** True if {@code --to-breakpad} was given an ELF file, false for a GSYM file, by its first bytes (not its name). */
  private static boolean isElf(String in, Path p) {
    FileKind kind;
    try {
      kind = FileKind.sniff(p);
    } catch (IOException e) {
      throw ioError(in, e);
    }
    if (kind == FileKind.ELF) return true;
    if (kind.isGsym()) return false;
    throw Session.fileError(in, "not a GSYM file or an ELF file"
        + (kind == FileKind.BREAKPAD ? " (a Breakpad symbol file? --breakpad converts those to GSYM)" : ""), null);
  }
}
