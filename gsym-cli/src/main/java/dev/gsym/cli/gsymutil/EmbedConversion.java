package dev.gsym.cli.gsymutil;

import static dev.gsym.cli.OutputFiles.STDOUT;
import static dev.gsym.cli.OutputFiles.checkStdout;
import static dev.gsym.cli.OutputFiles.inputPath;
import static dev.gsym.cli.OutputFiles.ioError;
import static dev.gsym.cli.OutputFiles.outputPath;
import static dev.gsym.cli.OutputFiles.refuseOverwriting;

import dev.gsym.GsymFormatException;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliException;
import dev.gsym.cli.ForeignFile;
import dev.gsym.cli.Opt;
import dev.gsym.cli.OutputFiles;
import dev.gsym.cli.Session;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.ElfSectionWriter;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.format.Hex;
import dev.gsym.io.AtomicFile;
import dev.gsym.object.FileKind;
import dev.gsym.read.GsymReader;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code gsymutil embed BINARY GSYM -o OUT} and the output of {@code --dwarf FILE --embed}: a copy
 * of an ELF file with a GSYM in its {@code .gsym} section, written by {@link ElfSectionWriter}
 * through {@link AtomicFile} like every output (OUT naming the input needs {@code --in-place}).
 */
final class EmbedConversion {
  private EmbedConversion() {}

  /** {@code embed}: checks the arguments and the UUID, then writes OUT. */
  static int run(Session s, Args o) {
    List<String> args = o.values(Opt.EMBED_ARGS);
    if (args.size() != 2) {
      throw CliException.tool("embed takes a BINARY and a GSYM file (gsymutil embed BINARY GSYM"
          + " -o OUT); got " + args.size() + " argument" + (args.size() == 1 ? "" : "s"));
    }
    String bin = args.get(0);
    String gsym = args.get(1);
    String out = output(o, bin);
    refuseOverwriting(out, false, "GSYM file", gsym);
    OutputFiles.checkWritable(out, false, bin);
    Path binPath = inputPath(bin);
    Path gsymPath = inputPath(gsym);
    try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(gsymPath, StandardOpenOption.READ)) {
      MemorySegment bytes = gsymBytes(s, gsym, gsymPath, ch, arena);
      try (ElfFile elf = openElf(bin, binPath)) {
        checkUuid(o, s, bin, gsym, elf, bytes);
        long at = write(s, elf, bytes, out);
        if (!o.flag(Opt.QUIET)) {
          s.sb.append(summary(bytes.byteSize(), at, out));
          s.emit();
        }
      }
    } catch (IOException e) {
      throw ioError(gsym, e);
    }
    return 0;
  }

  /** OUT: {@code -o}, or the input itself with {@code --in-place}; the input only with {@code --in-place}. */
  static String output(Args o, String in) {
    String out = o.value(Opt.OUT_FILE);
    if (out == null) {
      if (!o.flag(Opt.IN_PLACE)) {
        throw CliException.tool("embedding needs an output: -o OUT (or --in-place to replace "
            + in + ")");
      }
      return in;
    }
    if (!o.flag(Opt.IN_PLACE)) {
      try {
        refuseOverwriting(out, false, "input file", in);
      } catch (CliException e) {
        throw CliException.stderr(e.getMessage() + " (--in-place replaces it)");
      }
    }
    return out;
  }

  static String summary(long size, long offset, String out) {
    return "Embedded " + size + " bytes of GSYM in section " + EmbeddedGsym.SECTION + " of " + out + " at offset "
        + Hex.hex(offset) + ".\n";
  }

  /**
   * Writes OUT: the ELF {@code elf} with {@code gsym} as its {@code .gsym} section ({@link
   * EmbeddedGsym#write}); returns the section's file offset.
   */
  static long write(Session s, ElfFile elf, MemorySegment gsym, String out) {
    try {
      if (!out.equals(STDOUT)) return EmbeddedGsym.write(elf, gsym, outputPath(out));
      OutputStream data = s.stdoutForData();
      long at = EmbeddedGsym.write(elf, gsym, data);
      checkStdout(data);
      return at;
    } catch (GsymFormatException e) {
      throw Session.fileError(elf.source(), e.detail(), e);
    } catch (IOException e) {
      throw ioError(out, e);
    }
  }

  /** The ELF file to copy; a Mach-O or any other file is refused with what it is. */
  static ElfFile openElf(String in, Path p) {
    FileKind kind = ForeignFile.of(p);
    if (kind == FileKind.MACH_O || kind == FileKind.MACH_O_UNIVERSAL) {
      throw Session.fileError(in, "is " + ForeignFile.description(kind) + ": gsymutil embeds GSYM in ELF files only (a Mach-O"
          + " __gsym section needs a Mach-O writer, which gsymutil does not have yet)", null);
    }
    if (kind != FileKind.ELF) throw Session.fileError(in, "not an ELF file: GSYM can only be embedded in ELF files", null);
    try {
      return ElfFile.open(p);
    } catch (IOException e) {
      throw ioError(in, e);
    } catch (GsymFormatException e) {
      throw Session.fileError(in, e.getMessage().startsWith(in) ? e.getMessage().substring(in.length() + 2) : e.detail(), e);
    }
  }

  /**
   * The GSYM bytes to embed, validated by opening them: the whole file, or the {@code .gsym}
   * section of an ELF file that carries one. Anything else gets the error a dump would give.
   */
  private static MemorySegment gsymBytes(Session s, String name, Path p, FileChannel ch, Arena arena) throws IOException {
    long offset = 0;
    long size = ch.size();
    try (GsymReader r = GsymReader.open(ch, name)) {
      // validated
    } catch (GsymFormatException e) {
      Optional<EmbeddedGsym.Location> at;
      try {
        at = EmbeddedGsym.find(p);
      } catch (GsymFormatException bad) {
        throw new CliException(bad.getMessage(), 1, false, bad);
      }
      if (at.isEmpty()) {
        s.open(name).close(); // throws the dump's error for this file
        throw Session.fileError(name, e.detail(), e);
      }
      offset = at.get().offset();
      size = at.get().size();
      try (GsymReader r = GsymReader.open(ch, offset, size, at.get().source(name))) {
        // validated
      } catch (GsymFormatException bad) {
        throw new CliException(bad.getMessage(), 1, false, bad);
      }
    }
    return ch.map(FileChannel.MapMode.READ_ONLY, offset, size, arena);
  }

  private static void checkUuid(Args o, Session s, String bin, String gsym, ElfFile elf, MemorySegment bytes) {
    if (EmbeddedGsym.matchesBuildId(elf, bytes)) return;
    byte[] uuid = EmbeddedGsym.uuid(bytes);
    byte[] id = elf.buildId();
    HexFormat hex = HexFormat.of();
    String message = CliException.TOOL_NAME + ": the UUID of " + gsym + " (" + (uuid.length == 0 ? "none" : hex.formatHex(uuid))
        + ") is not the GNU build-id of " + bin + " (" + (id == null ? "none" : hex.formatHex(id)) + ")";
    if (!o.flag(Opt.FORCE)) throw CliException.stderr(message + "; --force embeds it anyway");
    if (!o.flag(Opt.QUIET)) {
      s.flush();
      s.err.println("warning: " + message.substring(CliException.TOOL_NAME.length() + 2) + "; embedding it anyway (--force)");
    }
  }
}
