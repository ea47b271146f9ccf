package dev.gsym.elf;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Applies the relocations of a relocatable object ({@code ET_REL}) to a copy of one of its debug
 * sections, as llvm's DWARFContext does with {@code object::RelocationResolver}: the symbol's address
 * (its {@code st_value}, plus the {@code sh_addr} of its section) and the addend ({@code SHT_RELA}) or
 * the bytes at the offset ({@code SHT_REL}), per target. llvm applies them when a relocated value is
 * read; applying them once to a copy gives the same values for every read of the relocation's width.
 */
final class Relocations {
  static final int SHT_RELA = 4;
  static final int SHT_REL = 9;
  static final int SHT_SYMTAB_SHNDX = 18;
  static final int SHN_UNDEF = 0;
  static final int SHN_LORESERVE = 0xff00;
  static final int SHN_ABS = 0xfff1;
  static final int SHN_XINDEX = 0xffff;

  static final int EM_SPARC = 2, EM_386 = 3, EM_MIPS = 8, EM_PPC = 20, EM_PPC64 = 21, EM_S390 = 22, EM_ARM = 40,
      EM_SPARCV9 = 43, EM_X86_64 = 62, EM_AARCH64 = 183, EM_RISCV = 243, EM_LOONGARCH = 258;

  private Relocations() {}

  /**
   * One relocation result: {@code width} bytes to write (0: leave the bytes alone, as for
   * {@code R_*_NONE} and the ULEB128 pairs llvm never resolves; -1: a type llvm does not support).
   */
  record Result(int width, long value) {}

  /**
   * Returns a relocated copy of {@code data} (section {@code target}) in {@code arena}, or
   * {@code data} itself when no relocation section applies to it. Relocations of a type llvm does
   * not support are skipped with a message to {@code warn} (llvm prints "failed to compute
   * relocation"); relocations whose bytes are not inside the section are skipped (llvm never reads
   * them). A relocation naming a symbol that does not exist is a {@link GsymFormatException}.
   */
  static ByteView apply(ElfFile elf, ElfFile.Section target, ByteView data, Arena arena, Consumer<String> warn,
      Map<Long, Integer> sections) {
    List<ElfFile.Section> all = elf.sections();
    MemorySegment copy = null;
    ByteView out = data;
    for (ElfFile.Section rel : all) {
      if ((rel.type() != SHT_REL && rel.type() != SHT_RELA) || rel.info() != target.index()) continue;
      if (copy == null) {
        copy = arena.allocate(Math.max(1, data.size()), 16).asSlice(0, data.size());
        MemorySegment.copy(data.segment(), 0, copy, 0, data.size());
        out = new ByteView(copy, 0, data.order(), elf.source() + " (" + target.name() + ", relocated)");
      }
      applySection(elf, rel, target, out, warn, sections);
    }
    return out;
  }

  private static void applySection(ElfFile elf, ElfFile.Section rel, ElfFile.Section target, ByteView out, Consumer<String> warn,
      Map<Long, Integer> sections) {
    boolean is64 = elf.is64();
    boolean rela = rel.type() == SHT_RELA;
    int entsize = is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
    ByteView r = elf.data(rel);
    String where = elf.source() + " (" + rel.name() + ")";
    if (r.size() % entsize != 0) {
      throw new GsymFormatException(elf.source(), rel.offset(), "relocation section " + rel.name() + ": size " + r.size()
          + " is not a multiple of the entry size " + entsize);
    }
    if (rel.link() <= 0 || rel.link() >= elf.sections().size()) {
      throw new GsymFormatException(elf.source(), rel.offset(), "relocation section " + rel.name() + ": bad symbol table index "
          + rel.link());
    }
    ElfFile.Section symtab = elf.sections().get(rel.link());
    ByteView syms = elf.data(symtab);
    int machine = elf.machine();
    boolean mips64el = is64 && machine == EM_MIPS && elf.byteOrder() == ByteOrder.LITTLE_ENDIAN;
    ByteView shndxTable = null;
    long n = r.size() / entsize;
    for (long i = 0; i < n; i++) {
      long p = i * entsize;
      long offset, info, addend = 0;
      long symIndex, type;
      if (is64) {
        offset = r.u64(p);
        info = r.u64(p + 8);
        if (rela) addend = r.u64(p + 16);
        if (mips64el) info = (info & 0xffffffffL) << 32 | (Integer.reverseBytes((int) (info >>> 32)) & 0xffffffffL);
        symIndex = info >>> 32;
        type = info & 0xffffffffL;
      } else {
        offset = r.u32(p);
        info = r.u32(p + 4);
        if (rela) addend = r.s32(p + 8);
        symIndex = info >>> 8;
        type = info & 0xff;
      }
      if (!supported(machine, is64, type)) {
        warn.accept("failed to compute relocation: " + typeName(machine, type) + ", Invalid data was encountered while parsing the file");
        continue;
      }
      int width = width(machine, is64, type);
      if (width == 0 || !out.has(offset, width)) continue;
      long s;
      if (symIndex == 0) {
        s = 0;
        sections.putIfAbsent(offset, -1);
      } else {
        if (shndxTable == null) shndxTable = shndxTable(elf, rel.link());
        long[] addrAndSection = symbolAddress(elf, symtab, syms, shndxTable, symIndex, r, p, rel.name());
        s = addrAndSection[0];
        // llvm keeps the section of the first relocation at an offset
        sections.putIfAbsent(offset, (int) addrAndSection[1]);
      }
      long locData = out.uN(offset, width);
      // llvm: for SHT_RELA the bytes in the section are ignored, except on RISC-V and LoongArch.
      if (rela && machine != EM_RISCV && machine != EM_LOONGARCH) locData = 0;
      long v = resolve(machine, is64, type, offset, s, locData, addend);
      write(out, offset, width, v);
    }
  }

  private static ByteView shndxTable(ElfFile elf, int symtabIndex) {
    for (ElfFile.Section s : elf.sections()) {
      if (s.type() == SHT_SYMTAB_SHNDX && s.link() == symtabIndex) return elf.data(s);
    }
    return null;
  }

  /**
   * llvm's ELFObjectFile::getSymbolAddress for an ET_REL object, and the index of the symbol's
   * section (-1 for SHN_UNDEF, SHN_ABS, SHN_COMMON).
   */
  private static long[] symbolAddress(ElfFile elf, ElfFile.Section symtab, ByteView syms, ByteView shndxTable, long index,
      ByteView rels, long relPos, String relName) {
    int entsize = elf.is64() ? 24 : 16;
    if (index >= syms.size() / entsize) {
      throw rels.error(relPos, "relocation section " + relName + ": symbol index " + index + " past the end of "
          + symtab.name() + " (" + syms.size() / entsize + " entries)");
    }
    long p = index * entsize;
    long value;
    int info, shndx;
    if (elf.is64()) {
      info = syms.u8(p + 4);
      shndx = syms.u16(p + 6);
      value = syms.u64(p + 8);
    } else {
      value = syms.u32(p + 4);
      info = syms.u8(p + 12);
      shndx = syms.u16(p + 14);
    }
    if (shndx == SHN_UNDEF) return new long[] {0, -1};
    if (shndx == SHN_ABS) return new long[] {value, -1};
    if ((elf.machine() == EM_ARM || elf.machine() == EM_MIPS) && (info & 0xf) == ElfFile.STT_FUNC) value &= ~1L;
    long section = -1;
    if (shndx == SHN_XINDEX) {
      if (shndxTable == null || !shndxTable.has(index * 4, 4)) {
        throw rels.error(relPos, "relocation section " + relName + ": symbol " + index + " has SHN_XINDEX but no SHT_SYMTAB_SHNDX entry");
      }
      section = shndxTable.u32(index * 4);
    } else if (shndx < SHN_LORESERVE) {
      section = shndx;
    }
    if (section >= 0) {
      if (section >= elf.sections().size()) {
        throw rels.error(relPos, "relocation section " + relName + ": symbol " + index + " is in section " + section
            + ", past the " + elf.sections().size() + " sections");
      }
      value += elf.sections().get((int) section).addr();
    }
    return new long[] {value, section};
  }

  private static void write(ByteView out, long at, int width, long v) {
    MemorySegment seg = out.segment();
    boolean le = out.order() == ByteOrder.LITTLE_ENDIAN;
    for (int i = 0; i < width; i++) {
      int shift = 8 * (le ? i : width - 1 - i);
      seg.set(ValueLayout.JAVA_BYTE, at + i, (byte) (v >>> shift));
    }
  }

  private static final String[] X86_64_NAMES = {"NONE", "64", "PC32", "GOT32", "PLT32", "COPY", "GLOB_DAT", "JUMP_SLOT",
      "RELATIVE", "GOTPCREL", "32", "32S", "16", "PC16", "8", "PC8", "DTPMOD64", "DTPOFF64", "TPOFF64", "TLSGD", "TLSLD",
      "DTPOFF32", "GOTTPOFF", "TPOFF32", "PC64", "GOTOFF64", "GOTPC32", "GOT64", "GOTPCREL64", "GOTPC64", "GOTPLT64",
      "PLTOFF64", "SIZE32", "SIZE64", "GOTPC32_TLSDESC", "TLSDESC_CALL", "TLSDESC", "IRELATIVE", "RELATIVE64", null, null,
      "GOTPCRELX", "REX_GOTPCRELX"};
  private static final String[] I386_NAMES = {"NONE", "32", "PC32", "GOT32", "PLT32", "COPY", "GLOB_DAT", "JUMP_SLOT",
      "RELATIVE", "GOTOFF", "GOTPC", "32PLT", null, null, "TLS_TPOFF", "TLS_IE", "TLS_GOTIE", "TLS_LE", "TLS_GD", "TLS_LDM",
      "16", "PC16", "8", "PC8"};

  /** llvm's name of a relocation type for the x86 targets (as in its warning), else "type N". */
  static String typeName(int machine, long type) {
    String[] names = machine == EM_X86_64 ? X86_64_NAMES : machine == EM_386 ? I386_NAMES : null;
    String prefix = machine == EM_X86_64 ? "R_X86_64_" : "R_386_";
    if (names != null && type >= 0 && type < names.length && names[(int) type] != null) return prefix + names[(int) type];
    return "type " + type;
  }

  /** llvm's supports* function for the object's target (false for every type of an unknown target). */
  static boolean supported(int machine, boolean is64, long t) {
    if (is64) {
      return switch (machine) {
        case EM_X86_64 -> t == 0 || t == 1 || t == 21 || t == 17 || t == 2 || t == 24 || t == 10 || t == 11 || t == 6;
        case EM_AARCH64 -> t == 258 || t == 257 || t == 262 || t == 261 || t == 260;
        case EM_MIPS -> t == 2 || t == 18 || t == 41 || t == 248;
        case EM_PPC64 -> t == 26 || t == 38 || t == 1 || t == 44;
        case EM_S390 -> t == 4 || t == 22;
        case EM_SPARCV9 -> t == 3 || t == 54 || t == 23 || t == 32;
        case EM_RISCV -> riscvSupported(t);
        case EM_LOONGARCH -> loongarchSupported(t);
        default -> false;
      };
    }
    return switch (machine) {
      case EM_386 -> t == 0 || t == 1 || t == 2;
      case EM_PPC -> t == 1 || t == 26;
      case EM_ARM -> t == 2 || t == 3;
      case EM_MIPS -> t == 2 || t == 39;
      case EM_SPARC -> t == 3 || t == 23;
      case EM_RISCV -> riscvSupported(t);
      case EM_LOONGARCH -> loongarchSupported(t);
      default -> false;
    };
  }

  private static boolean riscvSupported(long t) {
    // NONE, 32, 64, ADD8..SUB64 (33..40), SUB6, SET6, SET8, SET16, SET32, 32_PCREL, SET/SUB_ULEB128
    return t == 0 || t == 1 || t == 2 || (t >= 33 && t <= 40) || (t >= 52 && t <= 57) || t == 60 || t == 61;
  }

  private static boolean loongarchSupported(long t) {
    // NONE, 32, 64, ADD8/16/32/64 (47, 48, 50, 51), SUB8/16/32/64 (52, 53, 55, 56), ADD6, SUB6 (105, 106), 32_PCREL (99)
    return t == 0 || t == 1 || t == 2 || t == 47 || t == 48 || t == 50 || t == 51 || t == 52 || t == 53 || t == 55 || t == 56
        || t == 105 || t == 106 || t == 99;
  }

  /** The number of bytes a supported relocation type writes (0: none). */
  static int width(int machine, boolean is64, long t) {
    switch (machine) {
      case EM_X86_64:
        return t == 0 ? 0 : t == 1 || t == 17 || t == 24 || t == 6 ? 8 : 4;
      case EM_AARCH64:
        return t == 257 || t == 260 ? 8 : t == 262 ? 2 : 4;
      case EM_MIPS:
        return t == 18 || t == 41 ? 8 : 4;
      case EM_PPC64:
        return t == 38 || t == 44 ? 8 : 4;
      case EM_S390:
        return t == 22 ? 8 : 4;
      case EM_SPARCV9:
        return t == 54 || t == 32 ? 8 : 4;
      case EM_386:
        return t == 0 ? 0 : 4;
      case EM_RISCV:
        if (t == 0 || t == 60 || t == 61) return 0;
        if (t == 2 || t == 36 || t == 40) return 8;
        if (t == 33 || t == 37 || t == 52 || t == 53 || t == 54) return 1;
        if (t == 34 || t == 38 || t == 55) return 2;
        return 4;
      case EM_LOONGARCH:
        if (t == 0) return 0;
        if (t == 2 || t == 51 || t == 56) return 8;
        if (t == 47 || t == 52 || t == 105 || t == 106) return 1;
        if (t == 48 || t == 53) return 2;
        return 4;
      default:
        return 4;
    }
  }

  /** llvm's resolve* function: the value of a supported relocation. */
  static long resolve(int machine, boolean is64, long t, long offset, long s, long a, long addend) {
    final long m32 = 0xffffffffL;
    switch (machine) {
      case EM_X86_64:
        if (t == 1 || t == 21 || t == 17) return s + addend;
        if (t == 2 || t == 24) return s + addend - offset;
        if (t == 10 || t == 11) return (s + addend) & m32;
        if (t == 6) return s;
        return a;
      case EM_AARCH64:
        if (t == 258) return (s + addend) & m32;
        if (t == 257) return s + addend;
        if (t == 262) return (s + addend - offset) & 0xffff;
        if (t == 261) return (s + addend - offset) & m32;
        return s + addend - offset;
      case EM_MIPS:
        if (!is64) return (s + a) & m32;
        if (t == 2) return (s + addend) & m32;
        if (t == 18) return s + addend;
        if (t == 41) return s + addend - 0x8000;
        return s + addend - offset;
      case EM_PPC64:
        if (t == 1) return (s + addend) & m32;
        if (t == 38) return s + addend;
        if (t == 26) return (s + addend - offset) & m32;
        return s + addend - offset;
      case EM_S390, EM_SPARCV9, EM_SPARC:
        return (machine == EM_S390 && t == 4) ? (s + addend) & m32 : s + addend;
      case EM_386:
        return t == 1 ? s + a : s - offset + a;
      case EM_PPC:
        return t == 1 ? (s + addend) & m32 : (s + addend - offset) & m32;
      case EM_ARM:
        return t == 2 ? (s + a + addend) & m32 : (s + a + addend - offset) & m32;
      case EM_RISCV:
        return resolveRiscv(t, offset, s, a, addend);
      case EM_LOONGARCH:
        return resolveLoongArch(t, offset, s, a, addend);
      default:
        return a;
    }
  }

  private static long resolveRiscv(long t, long offset, long s, long a, long ra) {
    return switch ((int) t) {
      case 1 -> (s + ra) & 0xffffffffL;
      case 57 -> (s + ra - offset) & 0xffffffffL;
      case 2 -> s + ra;
      case 53 -> (a & 0xc0) | ((s + ra) & 0x3f);
      case 52 -> (a & 0xc0) | (((a & 0x3f) - (s + ra)) & 0x3f);
      case 54 -> (s + ra) & 0xff;
      case 33 -> (a + (s + ra)) & 0xff;
      case 37 -> (a - (s + ra)) & 0xff;
      case 55 -> (s + ra) & 0xffff;
      case 34 -> (a + (s + ra)) & 0xffff;
      case 38 -> (a - (s + ra)) & 0xffff;
      case 56 -> (s + ra) & 0xffffffffL;
      case 35 -> (a + (s + ra)) & 0xffffffffL;
      case 39 -> (a - (s + ra)) & 0xffffffffL;
      case 36 -> a + (s + ra);
      case 40 -> a - (s + ra);
      default -> a;
    };
  }

  private static long resolveLoongArch(long t, long offset, long s, long a, long addend) {
    return switch ((int) t) {
      case 1 -> (s + addend) & 0xffffffffL;
      case 99 -> (s + addend - offset) & 0xffffffffL;
      case 2 -> s + addend;
      case 105 -> (a & 0xc0) | ((a + s + addend) & 0x3f);
      case 106 -> (a & 0xc0) | ((a - (s + addend)) & 0x3f);
      case 47 -> (a + (s + addend)) & 0xff;
      case 52 -> (a - (s + addend)) & 0xff;
      case 48 -> (a + (s + addend)) & 0xffff;
      case 53 -> (a - (s + addend)) & 0xffff;
      case 50 -> (a + (s + addend)) & 0xffffffffL;
      case 55 -> (a - (s + addend)) & 0xffffffffL;
      case 51 -> a + (s + addend);
      case 56 -> a - (s + addend);
      default -> a;
    };
  }
}
