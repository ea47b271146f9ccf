package dev.gsym.elf;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.io.ByteView;
import dev.gsym.object.internal.MappedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A read-only ELF (32/64-bit, either byte order) over a memory-mapped file. Section contents are
 * {@link ByteView} slices of the mapping (no copies). Header fields are validated against the file
 * size; errors are {@link GsymFormatException}s naming the ELF and the offset.
 */
public final class ElfFile implements dev.gsym.object.ObjectFile {
  /** sh_type of a section without file contents ({@code .bss}). */
  public static final int SHT_NOBITS = 8;
  /** sh_type of a symbol table. */
  public static final int SHT_SYMTAB = 2;
  /** sh_flags bit of executable sections. */
  public static final long SHF_EXECINSTR = 0x4;
  /** sh_flags bit of compressed sections (zlib, zstd). */
  public static final long SHF_COMPRESSED = 0x800;
  /** p_type of a loadable segment. */
  public static final int PT_LOAD = 1;
  /** e_type of a relocatable object ({@code .o}). */
  public static final int ET_REL = 1;
  /** Symbol type of a function. */
  public static final int STT_FUNC = 2;
  /** Hard limits on header counts, so corrupt files cannot make us allocate without bound. */
  private static final int MAX_SECTIONS = 1 << 20;
  private static final int MAX_PROGRAM_HEADERS = 1 << 22;
  /** e_phnum of a file with more program headers than e_phnum holds (the real count is section 0's sh_info). */
  public static final int PN_XNUM = 0xffff;

  /**
   * One section header ({@code info} is sh_info: the target section of a relocation section;
   * {@code entrySize} is sh_entsize).
   */
  public record Section(int index, String name, int type, long flags, long addr, long offset, long size, int link, int info,
      long entrySize) {
    /** True for an executable section. */
    public boolean isExecutable() {
      return (flags & SHF_EXECINSTR) != 0;
    }
  }

  /** One program header ({@code flags}: {@code p_flags}, {@link #PF_X} and the others). */
  public record ProgramHeader(int type, long offset, long vaddr, long filesz, long memsz, int flags) {}

  /** {@code p_flags}: the segment is executable. */
  public static final int PF_X = 1;

  /** One symbol-table entry. */
  public record Symbol(String name, long value, long size, int type, int bind, int shndx) {}

  private final Arena arena;
  private final ByteView file;
  private final boolean is64;
  private final int machine;
  private final int elfType;
  private final List<Section> sections;
  private final List<ProgramHeader> programHeaders;
  /** Inflated compressed sections by section index, and the arena that owns their memory. */
  private final java.util.Map<Integer, ByteView> inflated = new java.util.HashMap<>();
  /** Per-section locks for inflation in progress (guarded by {@code inflated}). */
  private final java.util.Map<Integer, Object> inflating = new java.util.HashMap<>();
  /** Relocated copies of sections by section index (ET_REL only). */
  private final java.util.Map<Integer, ByteView> relocated = new java.util.HashMap<>();
  private final List<String> relocationWarnings = new ArrayList<>();
  /** Per relocated section: offset → section index of the symbol a relocation there used. */
  private final java.util.Map<Integer, java.util.Map<Long, Integer>> relocationSections = new java.util.HashMap<>();
  private Arena decompressed;
  /** e_shoff and e_shentsize, for error offsets. */
  private final long sectionHeaders;
  private final int sectionHeaderSize;

  private ElfFile(Arena arena, ByteView file) {
    this.arena = arena;
    if (file.size() < 16 || file.u8(0) != 0x7f || file.u8(1) != 'E' || file.u8(2) != 'L' || file.u8(3) != 'F') {
      // llvm-gsymutil's wording for a file that is no object file at all
      throw new GsymFormatException(file.source(), 0, "The file was not recognized as a valid object file");
    }
    int cls = file.u8(4);
    int data = file.u8(5);
    if (cls != 1 && cls != 2) throw file.error(4, "bad ELF class " + cls);
    if (data != 1 && data != 2) throw file.error(5, "bad ELF data encoding " + data);
    this.is64 = cls == 2;
    ByteOrder order = data == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    this.file = new ByteView(file.segment(), 0, order, file.source());
    ByteView f = this.file;
    this.elfType = f.u16(16);
    this.machine = f.u16(18);
    long phoff, shoff;
    int phentsize, phnum, shentsize, shnum, shstrndx;
    if (is64) {
      phoff = f.u64(32);
      shoff = f.u64(40);
      phentsize = f.u16(54);
      phnum = f.u16(56);
      shentsize = f.u16(58);
      shnum = f.u16(60);
      shstrndx = f.u16(62);
    } else {
      phoff = f.u32(28);
      shoff = f.u32(32);
      phentsize = f.u16(42);
      phnum = f.u16(44);
      shentsize = f.u16(46);
      shnum = f.u16(48);
      shstrndx = f.u16(50);
    }
    // PN_XNUM: more than 0xfffe program headers (a core of a process with that many mappings); the
    // real count is sh_info of section header 0
    if (phnum == PN_XNUM && shoff != 0 && shentsize >= (is64 ? 64 : 40) && shoff > 0 && f.has(shoff, shentsize)) {
      long count = f.u32(shoff + (is64 ? 44 : 28));
      if (count > MAX_PROGRAM_HEADERS) {
        throw f.error(shoff + (is64 ? 44 : 28), "PN_XNUM program header count " + count + " is more than " + MAX_PROGRAM_HEADERS);
      }
      phnum = (int) count;
    }
    // Program headers.
    List<ProgramHeader> phs = new ArrayList<>();
    if (phnum > 0) {
      if (phentsize < (is64 ? 56 : 32)) throw f.error(is64 ? 54 : 42, "bad program header size " + phentsize);
      if (phoff < 0 || !f.has(phoff, (long) phnum * phentsize)) throw f.error(is64 ? 32 : 28, "program headers past end of file");
      for (int i = 0; i < phnum; i++) {
        long p = phoff + (long) i * phentsize;
        if (is64) {
          phs.add(new ProgramHeader(f.s32(p), f.u64(p + 8), f.u64(p + 16), f.u64(p + 32), f.u64(p + 40), f.s32(p + 4)));
        } else {
          phs.add(new ProgramHeader(f.s32(p), f.u32(p + 4), f.u32(p + 8), f.u32(p + 16), f.u32(p + 20), f.s32(p + 24)));
        }
      }
    }
    this.programHeaders = Collections.unmodifiableList(phs);
    // Section headers.
    List<Section> secs = new ArrayList<>();
    if (shoff != 0) {
      if (shentsize < (is64 ? 64 : 40)) throw f.error(is64 ? 58 : 46, "bad section header size " + shentsize);
      long count = shnum;
      if (count == 0) {
        // Extended numbering: the real count is sh_size of section 0.
        if (!f.has(shoff, shentsize)) throw f.error(is64 ? 40 : 32, "section headers past end of file");
        count = is64 ? f.u64(shoff + 32) : f.u32(shoff + 20);
      }
      if (count > MAX_SECTIONS || shoff < 0 || !f.has(shoff, count * shentsize)) {
        throw f.error(is64 ? 40 : 32, "section headers past end of file");
      }
      long[][] raw = new long[(int) count][];
      for (int i = 0; i < count; i++) {
        long p = shoff + (long) i * shentsize;
        raw[i] = is64
            ? new long[] {f.u32(p), f.u32(p + 4), f.u64(p + 8), f.u64(p + 16), f.u64(p + 24), f.u64(p + 32), f.u32(p + 40), f.u32(p + 44),
                f.u64(p + 56)}
            : new long[] {f.u32(p), f.u32(p + 4), f.u32(p + 8), f.u32(p + 12), f.u32(p + 16), f.u32(p + 20), f.u32(p + 24), f.u32(p + 28),
                f.u32(p + 36)};
      }
      if (shstrndx == 0xffff && count > 0) shstrndx = (int) (is64 ? f.u32(shoff + 40) : f.u32(shoff + 24));
      ByteView names = null;
      if (shstrndx > 0 && shstrndx < count) {
        long[] s = raw[shstrndx];
        names = f.slice(checkRange(f, s[4], s[5], shoff), s[5]);
      }
      for (int i = 0; i < count; i++) {
        long[] s = raw[i];
        String name = "";
        if (names != null && s[0] < names.size()) name = names.cString(s[0]);
        secs.add(new Section(i, name, (int) s[1], s[2], s[3], s[4], s[5], (int) s[6], (int) s[7], s[8]));
      }
    }
    this.sections = Collections.unmodifiableList(secs);
    this.sectionHeaders = shoff;
    this.sectionHeaderSize = shentsize;
  }

  private static long checkRange(ByteView f, long off, long size, long where) {
    if (off < 0 || size < 0 || !f.has(off, size)) throw f.error(where, "section data at 0x" + Long.toHexString(off) + " past end of file");
    return off;
  }

  /** Maps {@code path} read-only. Close the ElfFile to unmap. */
  public static ElfFile open(Path path) throws IOException {
    Arena arena = Arena.ofShared();
    try {
      MemorySegment seg = MappedFiles.map(path, arena);
      return new ElfFile(arena, new ByteView(seg, 0, ByteOrder.LITTLE_ENDIAN, path.toString()));
    } catch (RuntimeException | IOException e) {
      arena.close();
      throw e;
    }
  }

  /** An ELF over bytes already in memory (tests). */
  public static ElfFile of(byte[] bytes, String source) {
    return new ElfFile(null, ByteView.of(bytes, ByteOrder.LITTLE_ENDIAN, source));
  }

  @Override
  public ByteOrder byteOrder() {
    return file.order();
  }

  @Override
  public boolean is64() {
    return is64;
  }

  /** e_machine. */
  public int machine() {
    return machine;
  }

  /** e_type. */
  public int type() {
    return elfType;
  }

  @Override
  public String source() {
    return file.source();
  }

  /** The whole file in its byte order (offsets are file offsets), for reads outside sections. */
  public ByteView bytes() {
    return file;
  }

  /** The section headers, in file order. */
  public List<Section> sections() {
    return sections;
  }

  /** The program headers, in file order. */
  public List<ProgramHeader> programHeaders() {
    return programHeaders;
  }

  /** The first section named {@code name}, or null. */
  public Section section(String name) {
    for (Section s : sections) if (s.name().equals(name)) return s;
    return null;
  }

  /** The raw bytes of a section as stored in the file (empty for SHT_NOBITS). */
  public ByteView rawData(Section s) {
    if (s.type() == SHT_NOBITS) return file.slice(0, 0);
    checkRange(file, s.offset(), s.size(), s.offset());
    return file.slice(s.offset(), s.size());
  }

  /**
   * The bytes of a section (empty for SHT_NOBITS). SHF_COMPRESSED sections (zlib, zstd) and GNU
   * {@code .zdebug_*} sections ("ZLIB" + 8-byte big-endian size + zlib) are inflated once into
   * off-heap memory owned by this ElfFile; everything else is a view of the mapping.
   */
  public ByteView data(Section s) {
    ByteView raw = rawData(s);
    if (s.type() == SHT_NOBITS) return raw;
    boolean zdebug = s.name().startsWith(".zdebug") && raw.size() >= 12 && raw.u8(0) == 'Z' && raw.u8(1) == 'L'
        && raw.u8(2) == 'I' && raw.u8(3) == 'B';
    if ((s.flags() & SHF_COMPRESSED) == 0 && !zdebug) return raw;
    Object sectionLock;
    synchronized (inflated) {
      ByteView v = inflated.get(s.index());
      if (v != null) return v;
      sectionLock = inflating.computeIfAbsent(s.index(), k -> new Object());
    }
    // One section inflates at a time, but different sections on different threads in parallel
    // (see inflateInParallel); a failure stores nothing, so the next caller gets the same error.
    synchronized (sectionLock) {
      synchronized (inflated) {
        ByteView v = inflated.get(s.index());
        if (v != null) return v;
      }
      ByteView v = inflate(s, raw, zdebug);
      synchronized (inflated) {
        inflated.put(s.index(), v);
      }
      return v;
    }
  }

  private ByteView inflate(Section s, ByteView raw, boolean zdebug) {
    SectionDecompressor.Kind kind;
    long declared;
    long hdr;
    if (zdebug) {
      kind = SectionDecompressor.Kind.ZLIB;
      declared = 0;
      for (int i = 4; i < 12; i++) declared = declared << 8 | raw.u8(i);
      hdr = 12;
    } else {
      hdr = is64 ? 24 : 12;
      if (raw.size() < hdr) throw raw.error(0, "compressed section " + s.name() + ": too small for its compression header");
      long type = raw.u32(0);
      declared = is64 ? raw.u64(8) : raw.u32(4);
      if (type == SectionDecompressor.ELFCOMPRESS_ZLIB) kind = SectionDecompressor.Kind.ZLIB;
      else if (type == SectionDecompressor.ELFCOMPRESS_ZSTD) kind = SectionDecompressor.Kind.ZSTD;
      else throw raw.error(0, "compressed section " + s.name() + ": unsupported compression type " + type);
    }
    long compressed = raw.size() - hdr;
    // zlib cannot expand more than ~1032:1; zstd's hard limit is far higher, so for it only the
    // incremental growth protects us.
    if (declared < 0 || (kind == SectionDecompressor.Kind.ZLIB && declared > compressed * 1032 + 1024)) {
      throw raw.error(zdebug ? 4 : is64 ? 8 : 4, "compressed section " + s.name() + ": implausible uncompressed size " + Long.toUnsignedString(declared)
          + " for " + compressed + " compressed bytes");
    }
    MemorySegment out = SectionDecompressor.decompress(kind, raw.slice(hdr, compressed), declared, decompressionArena(), source(),
        s.name(), s.offset());
    return new ByteView(out, 0, file.order(), source() + " (" + s.name() + ", decompressed)");
  }

  /**
   * The embedded ELF of {@code .gnu_debugdata} (xz-compressed "MiniDebugInfo", usually a
   * {@code .symtab} of local functions), or null without that section. Its memory belongs to this
   * ElfFile. Not used by the DWARF converter: llvm-gsymutil-22 ignores the section
   * (docs/dwarf-differences.md).
   */
  public ElfFile miniDebugInfo() {
    Section s = section(".gnu_debugdata");
    if (s == null || s.type() == SHT_NOBITS) return null;
    MemorySegment out = SectionDecompressor.decompress(SectionDecompressor.Kind.XZ, rawData(s), -1, decompressionArena(), source(),
        s.name(), s.offset());
    return new ElfFile(null, new ByteView(out, 0, ByteOrder.LITTLE_ENDIAN, source() + " (.gnu_debugdata)"));
  }

  private Arena decompressionArena() {
    synchronized (inflated) {
      if (decompressed == null) decompressed = Arena.ofShared();
      return decompressed;
    }
  }

  /**
   * The bytes of a section with the relocations that apply to it resolved, as llvm's DWARFContext
   * reads the debug sections of a relocatable object: for an {@code ET_REL} file with
   * {@code SHT_REL}/{@code SHT_RELA} sections targeting {@code s}, a copy in off-heap memory owned by
   * this ElfFile (made once); otherwise the same as {@link #data(Section)}. Relocations llvm skips
   * (unsupported types) are skipped and listed in {@link #relocationWarnings()}.
   */
  public ByteView relocatedData(Section s) {
    ByteView v = data(s);
    if (elfType != ET_REL || s.type() == SHT_NOBITS) return v;
    synchronized (inflated) {
      ByteView r = relocated.get(s.index());
      if (r == null) {
        java.util.Map<Long, Integer> secs = new java.util.HashMap<>();
        r = Relocations.apply(this, s, v, decompressionArena(), relocationWarnings::add, secs);
        relocationSections.put(s.index(), secs);
        relocated.put(s.index(), r);
      }
      return r;
    }
  }

  /**
   * The index of the section of the symbol that the relocation at {@code offset} of {@code s} (after
   * {@link #relocatedData(Section)}) resolved against, or -1 if none or the symbol is in no section.
   */
  public int relocationSection(Section s, long offset) {
    synchronized (inflated) {
      java.util.Map<Long, Integer> m = relocationSections.get(s.index());
      Integer i = m == null ? null : m.get(offset);
      return i == null ? -1 : i;
    }
  }

  /** llvm's "failed to compute relocation" warnings for the sections relocated so far. */
  @Override
  public List<String> relocationWarnings() {
    synchronized (inflated) {
      return List.copyOf(relocationWarnings);
    }
  }

  /** The bytes of the section named {@code name}, or null if absent. */
  public ByteView data(String name) {
    Section s = section(name);
    return s == null ? null : data(s);
  }

  /** p_vaddr of the first PT_LOAD program header, or null without one. */
  @Override
  public Long baseAddress() {
    for (ProgramHeader p : programHeaders) if (p.type() == PT_LOAD) return p.vaddr();
    return null;
  }

  /** The executable sections with non-zero size, merged. */
  @Override
  public AddressRanges textRanges() {
    AddressRanges r = new AddressRanges();
    for (Section s : sections) {
      if (s.isExecutable() && s.size() != 0) r.insert(new AddressRange(s.addr(), s.addr() + s.size()));
    }
    return r;
  }

  /**
   * The entries of the first SHT_SYMTAB section as llvm lists them ({@link SymbolTable}): without
   * the null entry 0, values as stored ({@code st_value}), names "" where llvm has none; empty
   * without a symbol table or when llvm cannot read its entries.
   */
  public List<Symbol> symbols() {
    SymbolTable t = SymbolTable.of(this);
    if (t == null || !t.readable()) return List.of();
    List<Symbol> out = new ArrayList<>((int) Math.min(t.count(), 1 << 16));
    for (long i = 1; i < t.count(); i++) {
      out.add(new Symbol(t.name(i), t.rawValue(i), t.size(i), t.type(i), t.binding(i), t.sectionIndex(i)));
    }
    return out;
  }

  /** The file's bytes at {@code offset} (checked to lie inside the file). */
  ByteView fileBytes(long offset, long size) {
    checkRange(file, offset, size, offset);
    return file.slice(offset, size);
  }

  /** The file's size in bytes. */
  public long fileSize() {
    return file.size();
  }

  /** The file offset of section {@code index}'s header (where errors about it point). */
  public long sectionHeaderOffset(int index) {
    return sectionHeaders + (long) index * sectionHeaderSize;
  }

  /**
   * The GNU build ID, as llvm's ObjectFileTransformer reads it: from every section named
   * {@code .note.gnu.build-id} (its bytes as stored), the first note's descriptor if its name is
   * "GNU" and its type NT_GNU_BUILD_ID; a later such section wins. Null if none has one.
   */
  public byte[] buildId() {
    byte[] id = null;
    for (Section s : sections) {
      if (!s.name().equals(".note.gnu.build-id")) continue;
      ByteView note;
      try {
        note = rawData(s);
      } catch (GsymFormatException e) {
        continue; // llvm skips a section whose contents it cannot read
      }
      if (note.size() < 12) continue;
      long namesz = note.u32(0);
      long descsz = note.u32(4);
      long type = note.u32(8);
      if (!note.has(12, namesz)) continue;
      String name = new String(note.bytes(12, (int) namesz), java.nio.charset.StandardCharsets.UTF_8);
      while (name.endsWith("\0")) name = name.substring(0, name.length() - 1);
      long desc = (12 + namesz + 3) & ~3L;
      if (!name.equals("GNU") || type != 3 || descsz == 0 || !note.has(desc, descsz)) continue;
      id = note.bytes(desc, (int) descsz);
    }
    return id;
  }

  /** The GNU build ID ({@link #buildId()}). */
  @Override
  public byte[] uuid() {
    return buildId();
  }

  /**
   * llvm's architecture name for the "Output file (ARCH): …" message: the first component of
   * {@code ObjectFile::makeTriple()} (ELFObjectFile::getArch by e_machine, class and byte order).
   * ARM gives "arm": llvm refines it from the .ARM.attributes CPU architecture ("armv7", ...),
   * which is not read here (docs/dwarf-differences.md).
   */
  @Override
  public String archName() {
    boolean le = byteOrder() == ByteOrder.LITTLE_ENDIAN;
    return switch (machine) {
      case 62 -> "x86_64";
      case 3, 6 -> "i386"; // EM_386, EM_IAMCU
      case 183 -> le ? "aarch64" : "aarch64_be";
      case 40 -> "arm";
      case 243 -> is64 ? "riscv64" : "riscv32";
      case 8 -> is64 ? (le ? "mips64el" : "mips64") : (le ? "mipsel" : "mips");
      case 20 -> le ? "powerpcle" : "powerpc";
      case 21 -> le ? "powerpc64le" : "powerpc64";
      case 22 -> "s390x";
      case 2, 18 -> le ? "sparcel" : "sparc"; // EM_SPARC, EM_SPARC32PLUS
      case 43 -> "sparcv9";
      case 258 -> is64 ? "loongarch64" : "loongarch32";
      case 247 -> le ? "bpfel" : "bpfeb";
      case 4 -> "m68k";
      case 164 -> "hexagon";
      case 105 -> "msp430";
      case 83 -> "avr";
      case 252 -> "csky";
      case 251 -> "ve";
      case 244 -> "lanai";
      case 94 -> "xtensa";
      default -> "unknown";
    };
  }

  @Override
  public boolean hasDwarfSection(String name) {
    return section(name) != null;
  }

  /** The section of this name, inflated (SHF_COMPRESSED), or null ({@link #data(String)}). */
  @Override
  public ByteView dwarfSection(String name) {
    return data(name);
  }

  @Override
  public ByteView relocatedDwarfSection(String name) {
    Section s = section(name);
    return s == null ? null : relocatedData(s);
  }

  @Override
  public boolean compressedDwarfSection(String name) {
    Section s = section(name);
    return s != null && (s.flags() & SHF_COMPRESSED) != 0;
  }

  /** True for relocatable objects ({@code ET_REL}), whose debug sections llvm relocates. */
  @Override
  public boolean relocatesDwarf() {
    return elfType == ET_REL;
  }

  @Override
  public int lineRelocationSection(long offset) {
    Section line = section(".debug_line");
    if (line == null || elfType != ET_REL) return -1;
    return relocationSection(line, offset);
  }

  @Override
  public void close() {
    synchronized (inflated) {
      inflated.clear();
      relocated.clear();
      relocationSections.clear();
      if (decompressed != null) decompressed.close();
      decompressed = null;
    }
    if (arena != null) arena.close();
  }
}
