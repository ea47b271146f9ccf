package dev.gsym.elf;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;

/**
 * An ELF symbol table section ({@code Elf32_Sym} / {@code Elf64_Sym} entries) and its linked string
 * table, read as llvm's {@code ELFObjectFile} reads them: the entries are the raw bytes at
 * {@code sh_offset} (never decompressed), entry 0 is skipped, values follow
 * {@code ObjectFile::getSymbolValue} and names {@code ELFObjectFile::getSymbolName}, with llvm's
 * error texts where llvm reports one.
 */
public final class SymbolTable {
  /** Section types of symbol and string tables. */
  public static final int SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_DYNSYM = 11;
  /** Special section indexes of a symbol: undefined, absolute, common. */
  public static final int SHN_UNDEF = 0, SHN_ABS = 0xfff1, SHN_COMMON = 0xfff2;
  /** Symbol types: function, common block. */
  public static final int STT_FUNC = 2, STT_COMMON = 5;
  static final int EM_MIPS = 8, EM_ARM = 40;

  private final ElfFile elf;
  private final ElfFile.Section section;
  /** The entries, or null when llvm cannot read them as an array (bad sh_entsize, size or alignment). */
  private final ByteView entries;
  private final int entrySize;
  /** Why no symbol has a name (bad sh_link or string table), in llvm's words; null if none. */
  private final String stringTableError;
  private final ByteView strings;

  private SymbolTable(ElfFile elf, ElfFile.Section section) {
    this.elf = elf;
    this.section = section;
    this.entrySize = elf.is64() ? 24 : 16;
    this.entries = arrayProblem(elf, section, entrySize) == null ? elf.fileBytes(section.offset(), section.size()) : null;
    ByteView str = null;
    String err;
    if (section.link() < 0 || section.link() >= elf.sections().size()) {
      err = "invalid section index: " + Integer.toUnsignedString(section.link());
    } else {
      ElfFile.Section s = elf.sections().get(section.link());
      err = null;
      if (s.type() != SHT_STRTAB) {
        err = "invalid sh_type for string table section [index " + s.index() + "]: expected SHT_STRTAB, but got "
            + sectionTypeName(elf.machine(), s.type());
      } else if ((err = arrayProblem(elf, s, 1)) == null) {
        str = elf.fileBytes(s.offset(), s.size());
        if (str.size() == 0) err = "SHT_STRTAB string table section [index " + s.index() + "] is empty";
        else if (str.u8(str.size() - 1) != 0) err = "SHT_STRTAB string table section [index " + s.index() + "] is non-null terminated";
      }
    }
    this.stringTableError = err;
    this.strings = err == null ? str : null;
  }

  /** The first {@code SHT_SYMTAB} section of {@code elf} (llvm's {@code DotSymtabSec}), or null. */
  public static SymbolTable of(ElfFile elf) {
    ElfFile.Section s = first(elf, SHT_SYMTAB);
    return s == null ? null : new SymbolTable(elf, s);
  }

  /**
   * The first {@code SHT_DYNSYM} section of {@code elf} (llvm's {@code DotDynSymSec}: the symbols
   * llvm uses where a stripped file has no {@code .symtab}), or null.
   */
  public static SymbolTable dynamic(ElfFile elf) {
    ElfFile.Section s = first(elf, SHT_DYNSYM);
    return s == null ? null : new SymbolTable(elf, s);
  }

  static ElfFile.Section first(ElfFile elf, int type) {
    for (ElfFile.Section s : elf.sections()) if (s.type() == type) return s;
    return null;
  }

  /**
   * llvm's {@code getSectionContentsAsArray} checks for a section read as an array of
   * {@code size}-byte entries: null if it passes, else llvm's message.
   */
  static String arrayProblem(ElfFile elf, ElfFile.Section s, int size) {
    String sec = "section [index " + s.index() + "]";
    if (size != 1 && s.entrySize() != size) {
      return sec + " has invalid sh_entsize: expected " + size + ", but got " + Long.toUnsignedString(s.entrySize());
    }
    if (Long.remainderUnsigned(s.size(), size) != 0) {
      return sec + " has an invalid sh_size (" + Long.toUnsignedString(s.size()) + ") which is not a multiple of its sh_entsize ("
          + Long.toUnsignedString(s.entrySize()) + ")";
    }
    long max = elf.is64() ? -1L : 0xffffffffL;
    if (Long.compareUnsigned(max - s.offset(), s.size()) < 0) {
      return sec + " has a sh_offset (0x" + Long.toHexString(s.offset()) + ") + sh_size (0x" + Long.toHexString(s.size())
          + ") that cannot be represented";
    }
    if (Long.compareUnsigned(s.offset() + s.size(), elf.fileSize()) > 0) {
      return sec + " has a sh_offset (0x" + Long.toHexString(s.offset()) + ") + sh_size (0x" + Long.toHexString(s.size())
          + ") that is greater than the file size (0x" + Long.toHexString(elf.fileSize()) + ")";
    }
    if (s.offset() % (size == 1 ? 1 : elf.is64() ? 8 : 4) != 0) return "unaligned data";
    return null;
  }

  /** The symbol table's section. */
  public ElfFile.Section section() {
    return section;
  }

  /**
   * The number of entries llvm iterates over ({@code sh_size / sizeof(Elf_Sym)}, whatever
   * {@code sh_entsize} says); entry 0 is not a symbol.
   */
  public long count() {
    return Long.divideUnsigned(section.size(), entrySize);
  }

  /** False when llvm cannot read the entries (then every symbol's type is an error and it is skipped). */
  public boolean readable() {
    return entries != null;
  }

  private long at(long i, int field64, int field32) {
    if (entries == null || i < 0 || i >= count()) throw new IndexOutOfBoundsException("symbol " + i);
    return i * entrySize + (elf.is64() ? field64 : field32);
  }

  /** Entry {@code i}'s symbol type ({@code STT_*}). */
  public int type(long i) {
    return entries.u8(at(i, 4, 12)) & 0xf;
  }

  /** Entry {@code i}'s binding ({@code STB_*}). */
  public int binding(long i) {
    return entries.u8(at(i, 4, 12)) >>> 4;
  }

  /** Entry {@code i}'s section index ({@code st_shndx}). */
  public int sectionIndex(long i) {
    return entries.u16(at(i, 6, 14));
  }

  /** The raw {@code st_value}. */
  public long rawValue(long i) {
    long p = at(i, 8, 4);
    return elf.is64() ? entries.u64(p) : entries.u32(p);
  }

  /** Entry {@code i}'s {@code st_size}. */
  public long size(long i) {
    long p = at(i, 16, 8);
    return elf.is64() ? entries.u64(p) : entries.u32(p);
  }

  /** Entry {@code i}'s name offset in the string table. */
  public long nameOffset(long i) {
    return entries.u32(at(i, 0, 0));
  }

  /**
   * llvm's {@code SymbolRef::getValue}: 0 for an undefined symbol ({@code SHN_UNDEF}, e.g. an
   * import that a non-PIE executable gives its PLT address), {@code st_size} for a common one
   * ({@code STT_COMMON} or {@code SHN_COMMON}), {@code st_value} as is for an absolute one, else
   * {@code st_value} with bit 0 cleared for ARM and MIPS functions (Thumb / microMIPS).
   */
  public long value(long i) {
    int shndx = sectionIndex(i);
    if (shndx == SHN_UNDEF) return 0;
    if (type(i) == STT_COMMON || shndx == SHN_COMMON) return size(i);
    long v = rawValue(i);
    if (shndx == SHN_ABS) return v;
    if ((elf.machine() == EM_ARM || elf.machine() == EM_MIPS) && type(i) == STT_FUNC) v &= ~1L;
    return v;
  }

  /**
   * Why symbol {@code i} has no name, in llvm's words ({@code getSymbolName}), or null if
   * {@link #name} gives it.
   */
  public String nameError(long i) {
    if (stringTableError != null) return stringTableError;
    long off = nameOffset(i);
    if (off >= strings.size()) {
      return "st_name (0x" + Long.toHexString(off) + ") is past the end of the string table of size 0x" + Long.toHexString(strings.size());
    }
    return null;
  }

  /** The name of symbol {@code i}; "" when {@link #nameError} is not null. */
  public String name(long i) {
    return nameError(i) == null ? strings.cString(nameOffset(i)) : "";
  }

  /**
   * Fails with llvm's message when llvm's {@code getSymbolFlags} (so every {@code getValue}) fails
   * for this file: its first {@code .dynsym} cannot be read as an array of symbols.
   */
  public void checkDynamicSymbols() {
    ElfFile.Section dyn = first(elf, SHT_DYNSYM);
    if (dyn == null) return;
    String p = arrayProblem(elf, dyn, entrySize);
    if (p != null) throw new GsymFormatException(elf.source(), elf.sectionHeaderOffset(dyn.index()), p);
  }

  /** llvm's {@code getELFSectionTypeName}. */
  static String sectionTypeName(int machine, int type) {
    String specific = switch (machine) {
      case EM_ARM -> switch (type) {
        case 0x70000001 -> "SHT_ARM_EXIDX";
        case 0x70000002 -> "SHT_ARM_PREEMPTMAP";
        case 0x70000003 -> "SHT_ARM_ATTRIBUTES";
        case 0x70000004 -> "SHT_ARM_DEBUGOVERLAY";
        case 0x70000005 -> "SHT_ARM_OVERLAYSECTION";
        default -> null;
      };
      case 164 -> switch (type) { // EM_HEXAGON
        case 0x70000000 -> "SHT_HEX_ORDERED";
        case 0x70000003 -> "SHT_HEXAGON_ATTRIBUTES";
        default -> null;
      };
      case 62 -> type == 0x70000001 ? "SHT_X86_64_UNWIND" : null;
      case EM_MIPS, 10 -> switch (type) { // EM_MIPS, EM_MIPS_RS3_LE
        case 0x70000006 -> "SHT_MIPS_REGINFO";
        case 0x7000000d -> "SHT_MIPS_OPTIONS";
        case 0x7000001e -> "SHT_MIPS_DWARF";
        case 0x7000002a -> "SHT_MIPS_ABIFLAGS";
        default -> null;
      };
      case 105 -> type == 0x70000003 ? "SHT_MSP430_ATTRIBUTES" : null;
      case 243 -> type == 0x70000003 ? "SHT_RISCV_ATTRIBUTES" : null;
      case 183 -> switch (type) { // EM_AARCH64
        case 0x70000004 -> "SHT_AARCH64_AUTH_RELR";
        case 0x70000007 -> "SHT_AARCH64_MEMTAG_GLOBALS_DYNAMIC";
        case 0x70000008 -> "SHT_AARCH64_MEMTAG_GLOBALS_STATIC";
        default -> null;
      };
      default -> null;
    };
    if (specific != null) return specific;
    return switch (type) {
      case 0 -> "SHT_NULL";
      case 1 -> "SHT_PROGBITS";
      case 2 -> "SHT_SYMTAB";
      case 3 -> "SHT_STRTAB";
      case 4 -> "SHT_RELA";
      case 5 -> "SHT_HASH";
      case 6 -> "SHT_DYNAMIC";
      case 7 -> "SHT_NOTE";
      case 8 -> "SHT_NOBITS";
      case 9 -> "SHT_REL";
      case 10 -> "SHT_SHLIB";
      case 11 -> "SHT_DYNSYM";
      case 14 -> "SHT_INIT_ARRAY";
      case 15 -> "SHT_FINI_ARRAY";
      case 16 -> "SHT_PREINIT_ARRAY";
      case 17 -> "SHT_GROUP";
      case 18 -> "SHT_SYMTAB_SHNDX";
      case 19 -> "SHT_RELR";
      case 0x40000014 -> "SHT_CREL";
      case 0x60000001 -> "SHT_ANDROID_REL";
      case 0x60000002 -> "SHT_ANDROID_RELA";
      case 0x6fffff00 -> "SHT_ANDROID_RELR";
      case 0x6fff4c00 -> "SHT_LLVM_ODRTAB";
      case 0x6fff4c01 -> "SHT_LLVM_LINKER_OPTIONS";
      case 0x6fff4c03 -> "SHT_LLVM_ADDRSIG";
      case 0x6fff4c04 -> "SHT_LLVM_DEPENDENT_LIBRARIES";
      case 0x6fff4c05 -> "SHT_LLVM_SYMPART";
      case 0x6fff4c06 -> "SHT_LLVM_PART_EHDR";
      case 0x6fff4c07 -> "SHT_LLVM_PART_PHDR";
      case 0x6fff4c08 -> "SHT_LLVM_BB_ADDR_MAP_V0";
      case 0x6fff4c09 -> "SHT_LLVM_CALL_GRAPH_PROFILE";
      case 0x6fff4c0a -> "SHT_LLVM_BB_ADDR_MAP";
      case 0x6fff4c0b -> "SHT_LLVM_OFFLOADING";
      case 0x6fff4c0c -> "SHT_LLVM_LTO";
      case 0x6ffffff5 -> "SHT_GNU_ATTRIBUTES";
      case 0x6ffffff6 -> "SHT_GNU_HASH";
      case 0x6ffffffd -> "SHT_GNU_verdef";
      case 0x6ffffffe -> "SHT_GNU_verneed";
      case 0x6fffffff -> "SHT_GNU_versym";
      default -> "Unknown";
    };
  }
}
