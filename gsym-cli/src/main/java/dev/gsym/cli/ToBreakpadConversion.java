package dev.gsym.cli;

import static dev.gsym.cli.Conversions.loadAddress;
import static dev.gsym.cli.OutputFiles.STDOUT;
import static dev.gsym.cli.OutputFiles.checkStdout;
import static dev.gsym.cli.OutputFiles.defaultOutput;
import static dev.gsym.cli.OutputFiles.inputPath;
import static dev.gsym.cli.OutputFiles.ioError;
import static dev.gsym.cli.OutputFiles.outputPath;
import static dev.gsym.cli.OutputFiles.refuseOverwriting;

import dev.gsym.breakpad.BreakpadWriter;
import dev.gsym.breakpad.ElfModule;
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

  /**
   * The separate debug file of a binary without DWARF, as dump_syms finds it in the directories it
   * is given: {@code DIR/.build-id/xx/rest.debug} by build-id, then {@code DIR/NAME} by the
   * {@code .gnu_debuglink} name, accepted only if its CRC-32 is the link's; null without
   * directories, for a binary with DWARF, or when none is found (then said on stderr, as dump_syms).
   */
  private static Path debugFile(ElfFile elf, Path binary, List<String> dirs) throws IOException {
    if (dirs.isEmpty()) return null;
    ElfFile.Section info = elf.section(".debug_info");
    if (info != null && info.type() != ElfFile.SHT_NOBITS && info.size() > 0) return null;
    List<String> tried = new ArrayList<>();
    byte[] id = elf.buildId();
    if (id != null && id.length >= 2) {
      String hex = java.util.HexFormat.of().formatHex(id);
      for (String d : dirs) {
        Path p = Path.of(d, ".build-id", hex.substring(0, 2), hex.substring(2) + ".debug");
        if (Files.isRegularFile(p)) return p;
        tried.add(p.toString());
      }
    }
    ElfFile.Section link = elf.section(".gnu_debuglink");
    if (link != null && link.type() != ElfFile.SHT_NOBITS) {
      dev.gsym.io.ByteView v = elf.rawData(link);
      byte[] name = v.cStringBytes(0);
      long at = (name.length + 1 + 3) & ~3L;
      String n = new String(name, StandardCharsets.UTF_8);
      if (name.length > 0 && v.has(at, 4) && n.indexOf('/') < 0) {
        long crc = v.u32(at);
        for (String d : dirs) {
          Path p = Path.of(d, n);
          if (!Files.isRegularFile(p)) continue;
          if (crc32(p) == crc) return p;
          tried.add(p + " (CRC-32 mismatch)");
        }
        for (String d : dirs) if (!Files.isRegularFile(Path.of(d, n))) tried.add(Path.of(d, n).toString());
      }
    }
    throw CliException.stderr(binary + ": no DWARF and no debug file found; tried " + String.join(", ", tried));
  }

  private static long crc32(Path p) throws IOException {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    try (FileChannel ch = FileChannel.open(p)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocateDirect(1 << 20);
      while (ch.read(buf) > 0) {
        buf.flip();
        crc.update(buf);
        buf.clear();
      }
    }
    return crc.getValue();
  }

  /** Whether any function of {@code r} carries unwind information. */
  private static boolean hasUnwind(GsymReader r) {
    for (int i = 0; i < r.numFunctions(); i++) if (r.unwindInfoAtIndex(i) != null) return true;
    return false;
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
      Progress progress = embedded != null ? null : ProgressBar.forTerminal(s.err, "units", o.flag(Opt.QUIET));
      Path debugFile = embedded != null ? null : debugFile(elf, inPath, o.values(Opt.DEBUG_FILE_DIRECTORY));
      if (debugFile != null) {
        sb.append("Using the debug file ").append(debugFile).append(".\n");
        s.emit();
      }
      if (progress != null) try (ElfFile debug = debugFile == null ? null : ElfFile.open(debugFile)) {
        // dump_syms with a debug file: its DWARF and symbols, the CFI of both (the binary's .eh_frame)
        DwarfConverter.convert(debug != null ? debug : elf, creator, diag, DwarfConverter.Options.builder()
            .quiet(o.flag(Opt.QUIET)).listener(Conversions.listener(progress, null)).unwindBinary(debug != null ? elf : null)
            .unwind(o.flag(Opt.NO_CFI) ? DwarfConverter.Unwind.NONE : DwarfConverter.Unwind.BREAKPAD).build());
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
    if (embedded != null) {
      // a GSYM carried by the binary (gsymutil embed): written as it is, no DWARF read; its STACK
      // records from the binary's CFI when the GSYM carries none
      try (GsymReader embeddedGsym = s.open(in)) {
        GsymReader r = embeddedGsym;
        GsymCreator withCfi = null;
        FileChannel scratch = null;
        try {
          if (options.cfi() && !hasUnwind(embeddedGsym)) {
            DwarfConverter.UnwindEntries u;
            try (ElfFile elf = ElfFile.open(inPath)) {
              u = DwarfConverter.unwindEntries(elf, null, DwarfConverter.Unwind.BREAKPAD, diag);
            }
            if (u != null && !u.entries().isEmpty()) {
              withCfi = GsymCreator.from(embeddedGsym);
              withCfi.finish(Diagnostics.silent());
              withCfi.attachUnwind(u.arch(), u.entries());
              scratch = AtomicFile.scratch(data != null ? AtomicFile.systemTemporaryDirectory()
                  : AtomicFile.temporaryDirectory(outputPath(out)));
              withCfi.save(scratch, embeddedGsym.byteOrder());
              r = GsymReader.open(scratch, in);
            }
            s.emit();
          }
          appendWritten(sb, data != null ? BreakpadWriter.write(r, options, data) : BreakpadWriter.write(r, options, outputPath(out)));
          if (data != null) checkStdout(data);
        } finally {
          if (r != embeddedGsym) r.close();
          if (scratch != null) scratch.close();
          if (withCfi != null) withCfi.close();
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
