package dev.gsym.symbolize;

import dev.gsym.breakpad.BreakpadIds;
import dev.gsym.breakpad.ElfModule;
import dev.gsym.convert.ConvertOptions;
import dev.gsym.convert.Converter;
import dev.gsym.convert.Input;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.macho.MachOFile;
import dev.gsym.object.FileKind;
import dev.gsym.io.ByteView;
import dev.gsym.GsymFormatException;
import dev.gsym.write.Diagnostics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;

/**
 * Everything this module uses of gsym-convert, gsym-breakpad and gsym-object, in one place:
 * recognising files, the facts of an ELF file that the search needs (build-id, debuglink, DWARF
 * presence, base, dump_syms' Breakpad identity), and the store's conversion through gsym-convert's
 * front door.
 *
 * <p>Every GSYM written here has the module's base as its header BaseAddress: the first {@code
 * PT_LOAD}'s {@code p_vaddr} for ELF (as llvm-gsymutil sets it), 0 for ELF files without program
 * headers and for Breakpad symbols (whose addresses are already relative to the module's load
 * address). So a store file's BaseAddress is always the base that {@link AddressMode#RELATIVE}
 * adds.
 */
final class ConverterAdapter {
  private ConverterAdapter() {}

  /** What a file holds for the symbolizer, from {@link FileKind}: OBJECT is an ELF or (thin) Mach-O file. */
  enum Kind { GSYM, OBJECT, BREAKPAD, OTHER }

  /** Bytes read for a Breakpad file's MODULE record. */
  private static final int SNIFF = FileKind.HEAD;

  static Kind sniff(Path p) throws IOException {
    return kind(FileKind.sniff(p));
  }

  static Kind kind(FileKind k) {
    if (k.isGsym()) return Kind.GSYM;
    return switch (k) {
      case ELF, MACH_O -> Kind.OBJECT;
      case BREAKPAD -> Kind.BREAKPAD;
      default -> Kind.OTHER;
    };
  }

  /**
   * The facts of an object file (ELF or Mach-O) the search needs.
   *
   * @param buildId the GNU build-id (a Mach-O's LC_UUID) as lower-case hex, or null
   * @param debuglink the {@code .gnu_debuglink} file name, or null
   * @param debuglinkCrc its CRC-32 (unsigned), if {@code debuglink} is not null
   * @param hasDwarf true if the file has a non-empty {@code .debug_info} with contents
   * @param hasGsym true if the file carries a GSYM in a {@code .gsym} section (gsymutil embed)
   * @param base the first {@code PT_LOAD}'s {@code p_vaddr} (a Mach-O's {@code __TEXT} vmaddr), 0 without one
   * @param breakpadName the MODULE name {@code dump_syms} gives it (its SONAME, else its file
   *     name), or null
   * @param breakpadId the MODULE debug id {@code dump_syms} gives it (from the build-id, else from
   *     a hash of {@code .text}), or null
   */
  record ObjectFacts(String buildId, String debuglink, long debuglinkCrc, boolean hasDwarf, boolean hasGsym, long base,
      String breakpadName, String breakpadId) {
    /** True if the file has symbols of its own beyond its symbol table: DWARF or an embedded GSYM. */
    boolean hasDebugInfo() {
      return hasDwarf || hasGsym;
    }
  }

  /**
   * Reads an object file's facts. A Mach-O file is identified by its LC_UUID (as llvm-gsymutil
   * sets the GSYM UUID) and has no debuglink or Breakpad identity.
   *
   * @throws GsymFormatException if it is not a readable ELF or Mach-O file
   */
  static ObjectFacts probe(Path p) throws IOException {
    if (FileKind.sniff(p) == FileKind.MACH_O) {
      try (MachOFile m = MachOFile.open(p)) {
        byte[] id = m.uuid();
        Long base = m.baseAddress();
        boolean dwarf = m.hasDwarfSection(".debug_info") && m.dwarfSectionHeader(".debug_info").size() > 0;
        return new ObjectFacts(id == null ? null : HexFormat.of().formatHex(id), null, 0, dwarf, false, base == null ? 0 : base,
            null, null);
      }
    }
    try (ElfFile elf = ElfFile.open(p)) {
      byte[] id = elf.buildId();
      String bpName = null;
      String bpId = null;
      try {
        // dump_syms' identity; it also finds a build-id that only a PT_NOTE segment holds
        ElfModule m = ElfModule.of(elf, p.getFileName() == null ? p.toString() : p.getFileName().toString());
        bpName = m.name();
        bpId = m.debugId();
        if (id == null && m.fromBuildId()) id = HexFormat.of().parseHex(m.codeId());
      } catch (GsymFormatException e) {
        // neither a build-id nor .text: no Breakpad identity
      }
      String link = null;
      long crc = 0;
      ElfFile.Section s = elf.section(".gnu_debuglink");
      if (s != null && s.type() != ElfFile.SHT_NOBITS) {
        ByteView v = elf.rawData(s);
        byte[] name = v.cStringBytes(0);
        long at = (name.length + 1 + 3) & ~3L;
        if (name.length > 0 && v.has(at, 4)) {
          link = new String(name, StandardCharsets.UTF_8);
          crc = v.u32(at);
        }
      }
      ElfFile.Section info = elf.section(".debug_info");
      boolean dwarf = info != null && info.type() != ElfFile.SHT_NOBITS && info.size() > 0;
      Long base = elf.baseAddress();
      ElfFile.Section gsym = elf.section(EmbeddedGsym.SECTION);
      boolean embedded = gsym != null && gsym.type() != ElfFile.SHT_NOBITS && gsym.size() > 0;
      return new ObjectFacts(id == null ? null : HexFormat.of().formatHex(id), link, crc, dwarf, embedded, base == null ? 0 : base,
          bpName, bpId);
    }
  }

  /**
   * The Breakpad debug id {@code dump_syms} gives an ELF file with this build-id: its first 16 bytes
   * (zero-padded) as a GUID with the first three fields byte-swapped, in upper case, plus age 0.
   */
  static String breakpadIdOfBuildId(String buildIdHex) {
    return BreakpadIds.moduleId(HexFormat.of().parseHex(buildIdHex), true);
  }

  /**
   * A Breakpad file's MODULE record: {@code MODULE <os> <arch> <id> <name>}.
   *
   * @param debugId the id field as written
   * @param name the rest of the line (the debug file name)
   */
  record BreakpadModule(String os, String arch, String debugId, String name) {}

  /** The MODULE record on the first line, or null if the first line is not one. */
  static BreakpadModule breakpadModule(Path p) throws IOException {
    String line = firstLine(head(p, SNIFF));
    if (!line.startsWith("MODULE ")) return null;
    String[] f = line.split(" ", 5);
    if (f.length < 5 || f[4].isEmpty()) return null;
    return new BreakpadModule(f[1], f[2], f[3], f[4]);
  }

  /**
   * Writes the GSYM of {@code in} to {@code out} (empty) through the conversion front door
   * ({@link Converter#write}), as a store keeps it: the module's base as BaseAddress (0 without
   * one); an object file as {@code llvm-gsymutil --convert} converts it (with {@code
   * --merged-functions --dwarf-callsites} if {@code mergedFunctions}), the GSYM an ELF file carries
   * copied instead unless {@code unwind}; a Breakpad file leniently (one damaged line does not lose
   * a module). With {@code unwind}, every CFI table (STACK records) is attached as unwind
   * information, read from {@code in} or, for a separate debug file whose {@code .eh_frame} is not
   * kept, from {@code unwindBinary} (null: none), and {@code .dynsym} names count (a stack walker
   * needs the names of a library with neither DWARF nor {@code .symtab}).
   *
   * @param threads threads a DWARF conversion uses, 0 for one per processor (the same bytes)
   * @throws GsymFormatException for malformed input, or if it yields no function
   * @throws Converter.OutputFailed if {@code out} cannot be written
   */
  static void convert(Kind kind, Path in, FileChannel out, boolean mergedFunctions, int threads, boolean unwind,
      Path unwindBinary) throws IOException {
    ConvertOptions.Builder b = ConvertOptions.builder().baseAddress(0L).unwind(unwind);
    Input input;
    if (kind == Kind.BREAKPAD) {
      input = new Input.BreakpadFile(in);
      b.lenient(true);
    } else {
      input = new Input.ObjectFile(in);
      b.mergedFunctions(mergedFunctions).dwarfCallSites(mergedFunctions).threads(threads).embeddedGsym(!unwind)
          .dynamicSymbols(unwind).unwindBinary(unwind ? unwindBinary : null);
    }
    Converter.write(input, b.build(), Diagnostics.silent(), out);
  }

  private static byte[] head(Path p, int n) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate((int) Math.min(n, Math.max(0, ch.size())));
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // read until full or end of file
      }
      byte[] out = new byte[b.position()];
      b.flip().get(out);
      return out;
    }
  }

  /** The first non-blank line of {@code head}, UTF-8 decoded (names in MODULE records are bytes, usually UTF-8). */
  private static String firstLine(byte[] head) {
    int i = 0;
    while (i < head.length && (head[i] == '\n' || head[i] == '\r' || head[i] == ' ' || head[i] == '\t')) i++;
    int end = i;
    while (end < head.length && head[end] != '\n' && head[end] != '\r') end++;
    return new String(head, i, end - i, StandardCharsets.UTF_8);
  }
}
