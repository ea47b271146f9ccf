package dev.gsym.macho;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.io.ByteView;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.internal.MappedFiles;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One Mach-O file (32/64-bit, either byte order), a whole file or a slice of a universal one, read
 * as llvm's MachOObjectFile reads it for llvm-gsymutil: the header and every load command checked
 * as llvm 22 checks them (the same "truncated or malformed object (...)" descriptions, with the
 * offset; the commands not otherwise read by {@link LoadCommandChecks}), the sections of every
 * segment (their offsets past 4 GB reconstructed as llvm does), the {@code LC_SYMTAB} symbol table
 * and {@code LC_UUID}.
 *
 * <p>DWARF comes from the sections named {@code __debug_*} of any segment (the {@code __DWARF}
 * segment of objects and dSYM companions), never relocated: llvm applies no relocations to Mach-O
 * debug sections (the values in place already include the section addresses).
 */
public final class MachOFile implements ObjectFile {
  private final Arena arena;
  /** The Mach-O's bytes (a slice of a universal file starts at 0 here), in its byte order. */
  private final ByteView file;
  private final String source;
  private final MachHeader header;
  private final List<LoadCommand> commands;
  private final List<MachSegment> segments;
  private final List<MachSection> sections;
  private final NlistTable symbols;
  private final byte[] uuid;

  private MachOFile(Arena arena, ByteView bytes, String source, FatArch slice) {
    this.arena = arena;
    this.source = source;
    if (bytes.size() < 4) throw notMachO(bytes, source);
    int magic = new ByteView(bytes.segment(), bytes.fileOffset(), ByteOrder.BIG_ENDIAN, source).s32(0);
    ByteOrder order;
    boolean is64;
    switch (magic) {
      case MachHeader.MH_MAGIC -> { order = ByteOrder.BIG_ENDIAN; is64 = false; }
      case MachHeader.MH_MAGIC_64 -> { order = ByteOrder.BIG_ENDIAN; is64 = true; }
      case 0xcefaedfe -> { order = ByteOrder.LITTLE_ENDIAN; is64 = false; }
      case 0xcffaedfe -> { order = ByteOrder.LITTLE_ENDIAN; is64 = true; }
      default -> throw notMachO(bytes, source);
    }
    this.file = new ByteView(bytes.segment(), bytes.fileOffset(), order, source);
    this.header = MachHeader.read(file, is64);
    if (slice != null) {
      if (header.cpuType() != slice.cpuType()) {
        throw malformed(file, 4, "universal header architecture: " + slice.index() + "'s cputype does not match object file's mach header");
      }
      if ((header.cpuSubtype() & ~FatArch.CPU_SUBTYPE_MASK) != (slice.cpuSubtype() & ~FatArch.CPU_SUBTYPE_MASK)) {
        throw malformed(file, 8, "universal header architecture: " + slice.index() + "'s cpusubtype does not match object file's mach header");
      }
    }
    long headersEnd = header.size() + header.sizeofcmds();
    if (headersEnd > file.size()) throw malformed(file, 20, "load commands extend past the end of the file");
    List<LoadCommand> cmds = new ArrayList<>();
    List<MachSegment> segs = new ArrayList<>();
    List<MachSection> secs = new ArrayList<>();
    FileElements elements = new FileElements(file, headersEnd);
    LoadCommandChecks checks = new LoadCommandChecks(file, header, elements);
    NlistTable symtab = null;
    byte[] id = null;
    WrappedOffsets wraps = new WrappedOffsets();
    long ncmds = header.ncmds();
    long at = header.size();
    commands:
    for (long i = 0; i < ncmds; i++) {
      // each command must lie inside sizeofcmds (so an absurd ncmds ends here) and the file
      if (i == 0 ? header.sizeofcmds() < 8 : at + 8 > headersEnd) {
        throw malformed(file, at, "load command " + i + " extends past the end all load commands in the file");
      }
      if (at + 8 > file.size()) throw malformed(file, at, "Structure read out-of-range");
      int cmd = file.s32(at);
      long cmdsize = file.u32(at + 4);
      if (at + cmdsize > file.size()) throw malformed(file, at, "load command " + i + " extends past end of file");
      if (cmdsize < 8) throw malformed(file, at + 4, "load command " + i + " with size less than 8 bytes");
      // (llvm lets a 64-bit core file's LC_THREAD be a multiple of 4: the macOS kernel writes them so)
      if (cmdsize % (is64 ? 8 : 4) != 0
          && !(is64 && header.fileType() == MachHeader.MH_CORE && cmd == LoadCommandChecks.LC_THREAD && cmdsize % 4 == 0)) {
        throw malformed(file, at + 4, "load command " + i + " cmdsize not a multiple of " + (is64 ? 8 : 4));
      }
      LoadCommand lc = new LoadCommand((int) i, cmd, at, cmdsize);
      cmds.add(lc);
      switch (cmd) {
        case LoadCommand.LC_SEGMENT, LoadCommand.LC_SEGMENT_64 -> segs.add(readSegment(lc, secs, headersEnd, elements, wraps));
        case LoadCommand.LC_SYMTAB -> {
          if (cmdsize < 24) throw malformed(file, at, "load command " + i + " LC_SYMTAB cmdsize too small");
          if (symtab != null) throw malformed(file, at, "more than one LC_SYMTAB command");
          symtab = readSymtab(lc, elements);
        }
        case LoadCommand.LC_UUID -> {
          if (cmdsize != 24) throw malformed(file, at + 4, "LC_UUID command " + i + " has incorrect cmdsize");
          if (id != null) throw malformed(file, at, "more than one LC_UUID command");
          id = file.bytes(at + 8, 16);
        }
        // llvm "ignores" LC_IDENT with a `continue` that skips reading the next command: every
        // later iteration sees this LC_IDENT again, so no command after it is read or checked
        case LoadCommandChecks.LC_IDENT -> {
          break commands;
        }
        default -> checks.check(lc);
      }
      at += cmdsize;
    }
    checks.finish(symtab);
    this.commands = Collections.unmodifiableList(cmds);
    this.segments = Collections.unmodifiableList(segs);
    this.sections = Collections.unmodifiableList(secs);
    this.symbols = symtab;
    this.uuid = id;
  }

  private static GsymFormatException notMachO(ByteView bytes, String source) {
    return new GsymFormatException(source, bytes.fileOffset(), "The file was not recognized as a valid object file");
  }

  /** llvm's malformedError: "truncated or malformed object (DETAIL)", at {@code offset} of {@code file}. */
  static GsymFormatException malformed(ByteView file, long offset, String detail) {
    return file.error(offset, "truncated or malformed object (" + detail + ") at offset 0x" + Long.toHexString(file.fileOffset() + offset));
  }

  /**
   * An LC_SEGMENT or LC_SEGMENT_64 command, of either kind in either kind of file, as llvm's
   * parseSegmentLoadCommand checks it: the segment and section structures of the command's kind,
   * the sections where the file's kind puts them (llvm's getSectionPtr), each kept as the file's
   * kind reads it there (llvm's getSection/getSection64, what every later use reads).
   */
  private MachSegment readSegment(LoadCommand lc, List<MachSection> secs, long headersEnd, FileElements elements,
      WrappedOffsets wraps) {
    boolean is64 = lc.cmd() == LoadCommand.LC_SEGMENT_64;
    boolean fileIs64 = header.is64();
    String cmdName = is64 ? "LC_SEGMENT_64" : "LC_SEGMENT";
    int segSize = is64 ? 72 : 56;
    int secSize = is64 ? 80 : 68;
    long p = lc.offset();
    if (lc.size() < segSize) throw malformed(file, p, "load command " + lc.index() + " " + cmdName + " cmdsize too small");
    String name = fixedName(p + 8);
    long vmaddr, vmsize, fileoff, filesize, nsects;
    if (is64) {
      vmaddr = file.u64(p + 24);
      vmsize = file.u64(p + 32);
      fileoff = file.u64(p + 40);
      filesize = file.u64(p + 48);
      nsects = file.u32(p + 64);
    } else {
      vmaddr = file.u32(p + 24);
      vmsize = file.u32(p + 28);
      fileoff = file.u32(p + 32);
      filesize = file.u32(p + 36);
      nsects = file.u32(p + 48);
    }
    if (nsects * secSize > lc.size() - segSize) {
      throw malformed(file, p, "load command " + lc.index() + " inconsistent cmdsize in " + cmdName + " for the number of sections");
    }
    long fileSize = file.size();
    boolean checked = header.fileType() != MachHeader.MH_DYLIB_STUB && header.fileType() != MachHeader.MH_DSYM;
    for (int j = 0; j < nsects; j++) {
      long s = p + (fileIs64 ? 72 : 56) + (long) j * (fileIs64 ? 80 : 68);
      if (!file.has(s, secSize)) throw malformed(file, s, "Structure read out-of-range");
      long addr = is64 ? file.u64(s + 32) : file.u32(s + 32);
      long size = is64 ? file.u64(s + 40) : file.u32(s + 36);
      long q = s + (is64 ? 48 : 40);
      long offset = file.u32(q);
      long reloff = file.u32(q + 8);
      long nreloc = file.u32(q + 12);
      int flags = file.s32(q + 16);
      String where = " of section " + j + " in " + cmdName + " command " + lc.index();
      boolean zeroFill = flags == MachSection.S_ZEROFILL || flags == MachSection.S_THREAD_LOCAL_ZEROFILL;
      if (checked && !zeroFill && offset > fileSize) throw malformed(file, q, "offset field" + where + " extends past the end of the file");
      if (checked && !zeroFill && fileoff == 0 && offset < headersEnd && size != 0) {
        throw malformed(file, q, "offset field" + where + " not past the headers of the file");
      }
      if (checked && !zeroFill && Long.compareUnsigned(offset + size, fileSize) > 0 || checked && !zeroFill && size < 0) {
        throw malformed(file, q, "offset field plus size field" + where + " extends past the end of the file");
      }
      if (checked && !zeroFill && Long.compareUnsigned(size, filesize) > 0) {
        throw malformed(file, s + 40, "size field" + where + " greater than the segment");
      }
      if (checked && size != 0 && Long.compareUnsigned(addr, vmaddr) < 0) {
        throw malformed(file, s + 32, "addr field" + where + " less than the segment's vmaddr");
      }
      if (vmsize != 0 && size != 0 && Long.compareUnsigned(addr + size, vmaddr + vmsize) > 0) {
        throw malformed(file, s + 32, "addr field plus size" + where + " greater than than the segment's vmaddr plus vmsize");
      }
      if (checked && !zeroFill) elements.add(offset, size, "section contents", q);
      if (reloff > fileSize) throw malformed(file, q + 8, "reloff field" + where + " extends past the end of the file");
      if (reloff + nreloc * 8 > fileSize) {
        throw malformed(file, q + 8, "reloff field plus nreloc field times sizeof(struct relocation_info)" + where
            + " extends past the end of the file");
      }
      elements.add(reloff, nreloc * 8, "section relocation entries", q + 8);
      secs.add(is64 == fileIs64 ? new MachSection(secs.size(), fixedName(s), fixedName(s + 16), addr, size, offset, reloff, nreloc,
          flags, s, fileIs64 ? wraps.next(offset, size) : offset) : sectionAsFileKind(secs.size(), s, wraps));
    }
    if (Long.compareUnsigned(fileoff, fileSize) > 0) {
      throw malformed(file, p, "load command " + lc.index() + " fileoff field in " + cmdName + " extends past the end of the file");
    }
    if (Long.compareUnsigned(fileoff + filesize, fileSize) > 0 || filesize < 0) {
      throw malformed(file, p, "load command " + lc.index() + " fileoff field plus filesize field in " + cmdName
          + " extends past the end of the file");
    }
    if (vmsize != 0 && Long.compareUnsigned(filesize, vmsize) > 0) {
      throw malformed(file, p, "load command " + lc.index() + " filesize field in " + cmdName + " greater than vmsize field");
    }
    return new MachSegment(name, vmaddr, vmsize, fileoff, filesize, nsects, lc.index());
  }

  /**
   * The section at {@code s} of a segment command of the other kind than the file's, read as the
   * file's kind reads every section (llvm's getSection64 in a 64-bit file, getSection in a 32-bit
   * one); the bytes must be in the file (llvm's getStruct fails hard otherwise).
   */
  private MachSection sectionAsFileKind(int index, long s, WrappedOffsets wraps) {
    boolean is64 = header.is64();
    if (!file.has(s, is64 ? 80 : 68)) throw malformed(file, s, "Structure read out-of-range");
    long addr = is64 ? file.u64(s + 32) : file.u32(s + 32);
    long size = is64 ? file.u64(s + 40) : file.u32(s + 36);
    long q = s + (is64 ? 48 : 40);
    long offset = file.u32(q);
    return new MachSection(index, fixedName(s), fixedName(s + 16), addr, size, offset, file.u32(q + 8), file.u32(q + 12),
        file.s32(q + 16), s, is64 ? wraps.next(offset, size) : offset);
  }

  private NlistTable readSymtab(LoadCommand lc, FileElements elements) {
    long p = lc.offset();
    int i = lc.index();
    if (lc.size() != 24) throw malformed(file, p + 4, "LC_SYMTAB command " + i + " has incorrect cmdsize");
    long symoff = file.u32(p + 8);
    long nsyms = file.u32(p + 12);
    long stroff = file.u32(p + 16);
    long strsize = file.u32(p + 20);
    long fileSize = file.size();
    if (symoff > fileSize) throw malformed(file, p + 8, "symoff field of LC_SYMTAB command " + i + " extends past the end of the file");
    long tableSize = nsyms * (header.is64() ? 16 : 12);
    if (symoff + tableSize > fileSize) {
      throw malformed(file, p + 12, "symoff field plus nsyms field times sizeof(struct nlist" + (header.is64() ? "_64" : "")
          + ") of LC_SYMTAB command " + i + " extends past the end of the file");
    }
    elements.add(symoff, tableSize, "symbol table", p + 8);
    if (stroff > fileSize) throw malformed(file, p + 16, "stroff field of LC_SYMTAB command " + i + " extends past the end of the file");
    if (stroff + strsize > fileSize) {
      throw malformed(file, p + 20, "stroff field plus strsize field of LC_SYMTAB command " + i + " extends past the end of the file");
    }
    elements.add(stroff, strsize, "string table", p + 16);
    return new NlistTable(file, header.is64(), symoff, nsyms, stroff, strsize);
  }

  /**
   * The file offsets of a 64-bit file's sections as llvm 22's MachOObjectFile::getSectionContents
   * computes them (llvm-project PR 165940, "Fix getting section info in large mach-o files"): a
   * {@code section_64} has a 32-bit {@code offset}, which wraps in a dSYM larger than 4 GB (dsymutil
   * writes it truncated). llvm adds to a section's stored offset the bits above the low 32 of
   * {@code offset + size} of every section before it in load-command order (all segments), and
   * refuses the contents ("section data exceeds 4GB and section file offsets are not ordered", an
   * error DWARFContext drops, leaving the section empty) when, once such an addition is in force,
   * one of those earlier sections starts before the one before it. Sections are fed in order.
   */
  private static final class WrappedOffsets {
    private long adjust;
    private long previousStart;
    private boolean unordered;

    /** The file offset of the next section, from its stored {@code offset} and {@code size}; -1 if refused. */
    long next(long offset, long size) {
      long at = unordered ? -1 : offset + adjust;
      long start = adjust | offset;
      if (adjust != 0 && Long.compareUnsigned(previousStart, start) > 0) unordered = true;
      adjust += (offset + size) & 0xFFFF_FFFF_0000_0000L;
      previousStart = start;
      return at;
    }
  }

  /** A 16-byte segment or section name: NUL-terminated, or all 16 bytes. */
  private String fixedName(long at) {
    byte[] b = file.bytes(at, 16);
    int n = 0;
    while (n < 16 && b[n] != 0) n++;
    return new String(b, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** Maps {@code path} read-only and reads it as a (thin) Mach-O file. Close the MachOFile to unmap. */
  public static MachOFile open(java.nio.file.Path path) throws java.io.IOException {
    Arena arena = Arena.ofShared();
    try {
      MemorySegment seg = MappedFiles.map(path, arena);
      return new MachOFile(arena, new ByteView(seg, 0, ByteOrder.LITTLE_ENDIAN, path.toString()), path.toString(), null);
    } catch (RuntimeException | java.io.IOException e) {
      arena.close();
      throw e;
    }
  }

  /** Reads slice {@code arch} of a universal file whose bytes are {@code fat}. */
  static MachOFile ofSlice(ByteView fat, FatArch arch, String source) {
    return new MachOFile(null, fat.slice(arch.offset(), arch.size()), source, arch);
  }

  /** A Mach-O over bytes already in memory (tests). */
  public static MachOFile of(byte[] bytes, String source) {
    return new MachOFile(null, ByteView.of(bytes, ByteOrder.LITTLE_ENDIAN, source), source, null);
  }

  /** The Mach header. */
  public MachHeader header() {
    return header;
  }

  /** The load commands, in file order. */
  public List<LoadCommand> loadCommands() {
    return commands;
  }

  /** The segments, in load-command order. */
  public List<MachSegment> segments() {
    return segments;
  }

  /** The sections of every segment, in load-command order. */
  public List<MachSection> sections() {
    return sections;
  }

  /** The {@code LC_SYMTAB} symbol table, or null without one. */
  public NlistTable symbols() {
    return symbols;
  }

  @Override
  public String source() {
    return source;
  }

  @Override
  public ByteOrder byteOrder() {
    return file.order();
  }

  @Override
  public boolean is64() {
    return header.is64();
  }

  /** As llvm's ObjectFile::makeTriple for a Mach-O: the {@code Triple::ArchType} name of the CPU type. */
  @Override
  public String archName() {
    return MachOArch.tripleArch(header.cpuType());
  }

  /** The name llvm gives this file's architecture in a universal file and matches --arch against (getArchTriple). */
  public String universalArchName() {
    return MachOArch.archTripleName(header.cpuType(), header.cpuSubtype());
  }

  /** The {@code vmaddr} of the first segment named {@code __TEXT}, as llvm-gsymutil's getImageBaseAddress. */
  @Override
  public Long baseAddress() {
    for (MachSegment s : segments) if (s.name().equals("__TEXT")) return s.vmaddr();
    return null;
  }

  @Override
  public AddressRanges textRanges() {
    AddressRanges r = new AddressRanges();
    for (MachSection s : sections) {
      if (s.isText() && s.size() != 0) r.insert(new AddressRange(s.addr(), s.addr() + s.size()));
    }
    return r;
  }

  /** The 16 bytes of the {@code LC_UUID} command, or null without one. */
  @Override
  public byte[] uuid() {
    return uuid == null ? null : uuid.clone();
  }

  /**
   * The section llvm's DWARFContext maps to DWARF section {@code name} (".debug_info"): the last
   * non-zero-fill, non-stripped section whose name, without its leading '_' and '.' characters, is
   * the name without its '.' ("__debug_str_offs" standing for debug_str_offsets); null if none.
   */
  public MachSection dwarfSectionHeader(String name) {
    String want = name.startsWith(".") ? name.substring(1) : name;
    MachSection found = null;
    for (MachSection s : sections) {
      if (s.isBss() || s.isStripped()) continue;
      String n = s.name();
      int k = 0;
      while (k < n.length() && (n.charAt(k) == '_' || n.charAt(k) == '.')) k++;
      n = n.substring(k);
      if (n.equals("debug_str_offs")) n = "debug_str_offsets";
      if (!n.equals(want)) continue;
      // .debug_info may come in several sections for llvm (comdat groups); Mach-O has one
      if (want.equals("debug_info") && found != null) continue;
      found = s;
    }
    return found;
  }

  /**
   * The bytes of section {@code s}: {@code size} bytes at its {@link MachSection#fileOffset} (llvm's
   * getSectionContents), empty where llvm refuses that offset.
   */
  public ByteView data(MachSection s) {
    if (s.fileOffset() < 0) return file.slice(0, 0);
    if (!file.has(s.fileOffset(), s.size())) {
      throw malformed(file, s.headerOffset(), "section " + s.segment() + "," + s.name() + " contents at offset " + s.fileOffset()
          + " with a size of " + s.size() + " extend past the end of the file");
    }
    return file.slice(s.fileOffset(), s.size());
  }

  @Override
  public boolean hasDwarfSection(String name) {
    return dwarfSectionHeader(name) != null;
  }

  @Override
  public ByteView dwarfSection(String name) {
    MachSection s = dwarfSectionHeader(name);
    return s == null ? null : data(s);
  }

  @Override
  public ByteView relocatedDwarfSection(String name) {
    return dwarfSection(name);
  }

  @Override
  public boolean compressedDwarfSection(String name) {
    return false;
  }

  @Override
  public boolean relocatesDwarf() {
    return false;
  }

  @Override
  public int lineRelocationSection(long offset) {
    return -1;
  }

  @Override
  public List<String> relocationWarnings() {
    return List.of();
  }

  @Override
  public void close() {
    if (arena != null) arena.close();
  }

  /** The whole file's view (for tests and tools). */
  public ByteView bytes() {
    return file;
  }
}
