package dev.gsym.coff;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.io.ByteView;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.internal.MappedFiles;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A PE/COFF image or COFF object, read as llvm's COFFObjectFile reads it for llvm-gsymutil: the
 * DWARF sections by name (long names through the string table), text sections
 * ({@code IMAGE_SCN_CNT_CODE}) at VirtualAddress + ImageBase, the symbol table, and for objects the
 * DWARF relocations llvm's RelocationResolver applies (x86_64, i386, ARM64, ARM). No UUID and no
 * base address (llvm-gsymutil reads neither from PE/COFF).
 */
public final class CoffFile implements ObjectFile {
  private final Arena arena;
  private final ByteView file;
  private final CoffHeader header;
  private final List<CoffSection> sections;
  private final CoffSymbolTable symbols;
  private final Map<Integer, ByteView> relocated = new HashMap<>();
  private final Map<Integer, Map<Long, Integer>> relocationSections = new HashMap<>();
  private final List<String> warnings = new ArrayList<>();
  private Arena copies;

  private CoffFile(Arena arena, ByteView bytes) {
    this.arena = arena;
    this.file = bytes;
    ByteView f = bytes;
    long at = 0;
    boolean image = false;
    if (f.size() >= 2 && f.u8(0) == 'M' && f.u8(1) == 'Z') {
      if (f.size() < 0x40) throw f.error(0, "DOS header extends past the end of the file");
      long pe = f.u32(0x3c);
      if (!f.has(pe, 4) || f.u8(pe) != 'P' || f.u8(pe + 1) != 'E' || f.u8(pe + 2) != 0 || f.u8(pe + 3) != 0) {
        throw new GsymFormatException(f.source(), 0, "The file was not recognized as a valid object file");
      }
      at = pe + 4;
      image = true;
    }
    if (!f.has(at, CoffHeader.SIZE)) throw f.error(at, "COFF header extends past the end of the file");
    int machine = f.u16(at);
    int nsec = f.u16(at + 2);
    long symtab = f.u32(at + 8);
    long nsyms = f.u32(at + 12);
    int optSize = f.u16(at + 16);
    int characteristics = f.u16(at + 18);
    long imageBase = 0;
    boolean pe = false;
    if (optSize > 0) {
      long opt = at + CoffHeader.SIZE;
      if (!f.has(opt, optSize)) throw f.error(opt, "optional header extends past the end of the file");
      int magic = f.u16(opt);
      if (magic == 0x10b && optSize >= 96) {
        imageBase = f.u32(opt + 28);
        pe = true;
      } else if (magic == 0x20b && optSize >= 112) {
        imageBase = f.u64(opt + 24);
        pe = true;
      } else if (image) {
        throw f.error(opt, "bad PE optional header magic 0x" + Integer.toHexString(magic));
      }
    }
    this.header = new CoffHeader(machine, nsec, symtab, nsyms, optSize, characteristics, at, image, pe, imageBase);
    long table = header.sectionTable();
    if (!f.has(table, (long) nsec * CoffSection.SIZE)) throw f.error(table, "section table extends past the end of the file");
    // the symbol and string tables (an object's long section names live in the string table)
    ByteView strings = ByteView.of(new byte[0], ByteOrder.LITTLE_ENDIAN, f.source());
    long records = 0;
    if (symtab != 0) {
      if (!f.has(symtab, nsyms * CoffSymbolTable.ENTRY)) throw f.error(at + 8, "symbol table extends past the end of the file");
      records = nsyms;
      long st = symtab + nsyms * CoffSymbolTable.ENTRY;
      if (f.has(st, 4)) {
        long size = Math.max(4, f.u32(st));
        if (!f.has(st, size)) throw f.error(st, "string table extends past the end of the file");
        strings = f.slice(st, size);
      }
    }
    this.symbols = new CoffSymbolTable(f, symtab, records, strings);
    List<CoffSection> secs = new ArrayList<>(nsec);
    for (int i = 0; i < nsec; i++) {
      long h = table + (long) i * CoffSection.SIZE;
      String name = shortName(h);
      if (name.startsWith("/") && !name.startsWith("//")) {
        // llvm reads the offset with StringRef::getAsInteger(10): digits only, no sign. Anything
        // else is its "invalid section name"; the section keeps its short name.
        long off = decimalOffset(name.substring(1));
        String resolved = off < 0 ? null : symbols.string(off);
        if (resolved != null) name = resolved;
      }
      secs.add(new CoffSection(i, name, f.u32(h + 8), f.u32(h + 12), f.u32(h + 16), f.u32(h + 20), f.u32(h + 24), f.u16(h + 32),
          f.s32(h + 36), h));
    }
    this.sections = Collections.unmodifiableList(secs);
  }


  /** The decimal number of a "/NNN" long-name reference, or -1 if it is not digits only. */
  private static long decimalOffset(String digits) {
    if (digits.isEmpty() || digits.length() > 18) return -1;
    long v = 0;
    for (int k = 0; k < digits.length(); k++) {
      char c = digits.charAt(k);
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
    }
    return v;
  }
  private String shortName(long h) {
    byte[] b = file.bytes(h, 8);
    int n = 0;
    while (n < 8 && b[n] != 0) n++;
    return new String(b, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** Maps {@code path} read-only and reads it as PE/COFF. Close the CoffFile to unmap. */
  public static CoffFile open(Path path) throws java.io.IOException {
    Arena arena = Arena.ofShared();
    try {
      MemorySegment seg = MappedFiles.map(path, arena);
      return new CoffFile(arena, new ByteView(seg, 0, ByteOrder.LITTLE_ENDIAN, path.toString()));
    } catch (RuntimeException | java.io.IOException e) {
      arena.close();
      throw e;
    }
  }

  /** A PE/COFF file in memory (tests). */
  public static CoffFile of(byte[] bytes, String source) {
    return new CoffFile(null, ByteView.of(bytes, ByteOrder.LITTLE_ENDIAN, source));
  }

  /** The COFF file header. */
  public CoffHeader header() {
    return header;
  }

  /** The section headers, in file order. */
  public List<CoffSection> sections() {
    return sections;
  }

  /** The symbol table (empty when the file has none). */
  public CoffSymbolTable symbols() {
    return symbols;
  }

  /** llvm's isRelocatableObject: a file without data directories (no PE optional header: an object). */
  public boolean isRelocatable() {
    return !header.peHeader();
  }

  /** The address llvm gives a section: VirtualAddress + ImageBase. */
  public long address(CoffSection s) {
    return s.virtualAddress() + header.imageBase();
  }

  @Override
  public String source() {
    return file.source();
  }

  @Override
  public ByteOrder byteOrder() {
    return ByteOrder.LITTLE_ENDIAN;
  }

  @Override
  public boolean is64() {
    return header.is64();
  }

  @Override
  public String archName() {
    return header.archName();
  }

  /** llvm-gsymutil sets no base address for PE/COFF. */
  @Override
  public Long baseAddress() {
    return null;
  }

  @Override
  public AddressRanges textRanges() {
    AddressRanges r = new AddressRanges();
    for (CoffSection s : sections) {
      long size = s.size(header.isImage());
      if (s.isText() && size != 0) r.insert(new AddressRange(address(s), address(s) + size));
    }
    return r;
  }

  @Override
  public byte[] uuid() {
    return null;
  }

  /** The section llvm maps to DWARF section {@code name}: the last (.debug_info: the first) non-BSS, non-virtual one so named. */
  public CoffSection dwarfSectionHeader(String name) {
    String want = name.startsWith(".") ? name.substring(1) : name;
    CoffSection found = null;
    for (CoffSection s : sections) {
      if (s.isBss() || s.isVirtual()) continue;
      String n = s.name();
      int k = 0;
      while (k < n.length() && (n.charAt(k) == '_' || n.charAt(k) == '.')) k++;
      if (!n.substring(k).equals(want)) continue;
      if (want.equals("debug_info") && found != null) continue;
      found = s;
    }
    return found;
  }

  /** The bytes of section {@code s} as llvm's getSectionContents gives them. */
  public ByteView data(CoffSection s) {
    if (s.isVirtual()) return file.slice(0, 0);
    long size = s.size(header.isImage());
    if (!file.has(s.pointerToRawData(), size)) {
      throw file.error(s.headerOffset() + 20, "section " + s.name() + " contents at offset 0x" + Long.toHexString(s.pointerToRawData())
          + " with a size of " + size + " extend past the end of the file");
    }
    return file.slice(s.pointerToRawData(), size);
  }

  @Override
  public boolean hasDwarfSection(String name) {
    return dwarfSectionHeader(name) != null;
  }

  @Override
  public ByteView dwarfSection(String name) {
    CoffSection s = dwarfSectionHeader(name);
    return s == null ? null : data(s);
  }

  @Override
  public ByteView relocatedDwarfSection(String name) {
    CoffSection s = dwarfSectionHeader(name);
    if (s == null) return null;
    ByteView v = data(s);
    if (!isRelocatable() || s.numberOfRelocations() == 0) return v;
    synchronized (relocated) {
      ByteView r = relocated.get(s.index());
      if (r == null) {
        if (copies == null) copies = Arena.ofShared();
        Map<Long, Integer> at = new HashMap<>();
        r = CoffRelocations.apply(this, s, v, copies, warnings::add, at);
        relocated.put(s.index(), r);
        relocationSections.put(s.index(), at);
      }
      return r;
    }
  }

  @Override
  public boolean compressedDwarfSection(String name) {
    return false;
  }

  @Override
  public boolean relocatesDwarf() {
    return isRelocatable();
  }

  @Override
  public int lineRelocationSection(long offset) {
    CoffSection line = dwarfSectionHeader(".debug_line");
    if (line == null) return -1;
    relocatedDwarfSection(".debug_line");
    synchronized (relocated) {
      Map<Long, Integer> m = relocationSections.get(line.index());
      Integer i = m == null ? null : m.get(offset);
      return i == null ? -1 : i;
    }
  }

  @Override
  public List<String> relocationWarnings() {
    synchronized (relocated) {
      return List.copyOf(warnings);
    }
  }

  /** llvm's ObjectFile::getSymbolValue of record {@code i} ({@link CoffRelocations#symbolValue}). */
  public static long symbolValue(CoffSymbolTable symbols, long i) {
    return CoffRelocations.symbolValue(symbols, i);
  }

  ByteView bytes() {
    return file;
  }

  @Override
  public void close() {
    synchronized (relocated) {
      relocated.clear();
      if (copies != null) copies.close();
      copies = null;
    }
    if (arena != null) arena.close();
  }
}
