package dev.gsym.breakpad;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.ElfFile;
import dev.gsym.ByteStrings;
import dev.gsym.io.ByteView;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * The {@code MODULE} identity Breakpad's Linux {@code dump_syms} gives an ELF file
 * ({@code src/common/linux/dump_symbols.cc} and {@code file_id.cc}; see docs/breakpad.md):
 *
 * <ul>
 *   <li>OS {@code Linux}; the architecture named from {@code e_machine} ({@code x86},
 *       {@code x86_64}, {@code arm}, {@code arm64}, {@code mips}/{@code mips64}, {@code ppc},
 *       {@code ppc64}, {@code riscv}, ...; null for a machine dump_syms does not name).
 *   <li>The identifier: the descriptor of the first {@code NT_GNU_BUILD_ID} note, found in the
 *       {@code SHT_NOTE} section {@code .note.gnu.build-id} or, without that section, in the
 *       {@code PT_NOTE} segments; without one, the first page of {@code .text} XOR-folded into 16
 *       bytes. The debug id is its first 16 bytes (zero-padded) as a GUID, the first three fields
 *       byte-swapped for a little-endian ELF, plus age {@code 0}; the code id is the whole
 *       identifier in upper-case hex.
 *   <li>The name: {@code DT_SONAME} of the {@code .dynamic} section if there is one, otherwise the
 *       file name (so a separate debug file, whose {@code .dynamic} is {@code SHT_NOBITS}, is named
 *       after itself).
 *   <li>The load address subtracted from every address: {@code p_vaddr} of the first
 *       {@code PT_LOAD} (0 for PIE executables and shared libraries, and without program headers).
 * </ul>
 *
 * @param fromBuildId true if the identifier is a build-id, false if it is the {@code .text} hash
 */
public record ElfModule(String os, String arch, String name, String debugId, String codeId, boolean fromBuildId,
    long loadAddress) {
  static final int SHT_PROGBITS = 1;
  static final int SHT_STRTAB = 3;
  static final int SHT_DYNAMIC = 6;
  static final int SHT_NOTE = 7;
  static final int PT_NOTE = 4;
  static final int NT_GNU_BUILD_ID = 3;
  static final int DT_SONAME = 14;
  /** dump_syms copies the SONAME into a NAME_MAX (255) byte buffer, NUL included. */
  static final int MAX_NAME = 254;
  /** The identifier size of the .text hash (an MDGUID). */
  static final int GUID_SIZE = 16;
  /** dump_syms hashes at most the first page of .text. */
  static final int PAGE = 4096;

  /**
   * The identity of {@code elf}, whose file name (the last path component) is {@code fileName}.
   *
   * @throws GsymFormatException if the ELF has neither a build-id note nor {@code .text} bytes to
   *     hash (dump_syms: "unable to generate file identifier")
   */
  public static ElfModule of(ElfFile elf, String fileName) {
    boolean little = elf.byteOrder() == ByteOrder.LITTLE_ENDIAN;
    byte[] id = buildId(elf);
    boolean fromBuildId = id != null;
    if (id == null) id = textHash(elf);
    if (id == null) {
      throw new GsymFormatException(elf.source(), -1,
          "no GNU build-id note and no .text section to hash: cannot make a Breakpad module id");
    }
    String soname = soname(elf);
    Long base = elf.baseAddress();
    return new ElfModule("Linux", arch(elf.machine(), elf.is64()),
        soname != null && !soname.isEmpty() ? soname : fileName, BreakpadIds.moduleId(id, little),
        HexFormat.of().withUpperCase().formatHex(id), fromBuildId, base == null ? 0 : base);
  }

  /**
   * dump_syms' architecture name for {@code e_machine}, or null. dump_syms names a 64-bit MIPS
   * ELF {@code mips} as well; {@code mips64} is the name Mozilla's dump_syms gives it.
   */
  static String arch(int machine, boolean is64) {
    return switch (machine) {
      case 3 -> "x86"; // EM_386
      case 62 -> "x86_64";
      case 40 -> "arm";
      case 183 -> "arm64"; // EM_AARCH64
      case 8 -> is64 ? "mips64" : "mips";
      case 20 -> "ppc";
      case 21 -> "ppc64";
      case 22 -> "s390";
      case 2 -> "sparc";
      case 43 -> "sparcv9";
      case 243 -> "riscv";
      case 167 -> "nds32";
      default -> null;
    };
  }

  /** The first section named {@code name} of type {@code type} with a non-zero size, or null. */
  private static ElfFile.Section section(ElfFile elf, String name, int type) {
    for (ElfFile.Section s : elf.sections()) {
      if (s.type() == type && s.name().equals(name)) return s.size() > 0 ? s : null;
    }
    return null;
  }

  /**
   * dump_syms' build-id: the {@code .note.gnu.build-id} section if there is one (and only it),
   * otherwise the {@code PT_NOTE} segments in order; null without a non-empty build-id note.
   */
  static byte[] buildId(ElfFile elf) {
    ElfFile.Section s = section(elf, ".note.gnu.build-id", SHT_NOTE);
    ByteView file = elf.bytes();
    if (s != null) {
      return file.has(s.offset(), s.size()) ? buildIdNote(file.slice(s.offset(), s.size())) : null;
    }
    for (ElfFile.ProgramHeader p : elf.programHeaders()) {
      if (p.type() != PT_NOTE || p.offset() < 0 || p.filesz() < 0 || !file.has(p.offset(), p.filesz())) continue;
      byte[] id = buildIdNote(file.slice(p.offset(), p.filesz()));
      if (id != null) return id;
    }
    return null;
  }

  /**
   * The descriptor of the first note of type {@code NT_GNU_BUILD_ID} (any owner name, as dump_syms
   * checks only the type) in a run of notes with 4-byte padding; null if there is none, it is empty
   * or it does not fit.
   */
  static byte[] buildIdNote(ByteView notes) {
    long at = 0;
    long size = notes.size();
    while (at + 12 <= size) {
      long nameSize = notes.u32(at);
      long descSize = notes.u32(at + 4);
      long type = notes.u32(at + 8);
      long desc = at + 12 + pad4(nameSize);
      if (type == NT_GNU_BUILD_ID) {
        if (descSize == 0 || !notes.has(desc, descSize)) return null;
        return notes.bytes(desc, (int) descSize);
      }
      at = desc + pad4(descSize);
    }
    return null;
  }

  private static long pad4(long n) {
    return (n + 3) & ~3L;
  }

  /**
   * dump_syms' fallback identifier: the first {@code min(size, 4096)} bytes of the
   * {@code SHT_PROGBITS} section {@code .text} (or {@code text}) XOR-folded into 16 bytes, 16 bytes
   * at a time; like dump_syms, a last partial block is completed with the file bytes that follow
   * the section (zeros past the end of the file). Null without such a section.
   */
  static byte[] textHash(ElfFile elf) {
    ElfFile.Section s = section(elf, ".text", SHT_PROGBITS);
    if (s == null) s = section(elf, "text", SHT_PROGBITS);
    if (s == null) return null;
    return xorFold(elf.bytes(), s.offset(), Math.min(s.size(), PAGE));
  }

  /** XOR of the 16-byte blocks covering {@code [offset, offset + length)} of {@code file}. */
  static byte[] xorFold(ByteView file, long offset, long length) {
    byte[] hash = new byte[GUID_SIZE];
    for (long block = 0; block < length; block += GUID_SIZE) {
      for (int i = 0; i < GUID_SIZE; i++) {
        long at = offset + block + i;
        if (at >= 0 && at < file.size()) hash[i] ^= (byte) file.u8(at);
      }
    }
    return hash;
  }

  /**
   * dump_syms' SONAME: the first {@code DT_SONAME} entry of the {@code SHT_DYNAMIC} section
   * {@code .dynamic} (all entries are searched, as dump_syms does), read from the
   * {@code SHT_STRTAB} section {@code .dynstr}; null if any of these is missing.
   */
  static String soname(ElfFile elf) {
    ElfFile.Section dyn = section(elf, ".dynamic", SHT_DYNAMIC);
    ElfFile.Section str = section(elf, ".dynstr", SHT_STRTAB);
    if (dyn == null || str == null) return null;
    ByteView file = elf.bytes();
    if (!file.has(dyn.offset(), dyn.size()) || !file.has(str.offset(), str.size())) return null;
    ByteView entries = file.slice(dyn.offset(), dyn.size());
    ByteView strings = file.slice(str.offset(), str.size());
    int entry = elf.is64() ? 16 : 8;
    for (long at = 0; at + entry <= entries.size(); at += entry) {
      long tag = elf.is64() ? entries.u64(at) : entries.s32(at);
      if (tag != DT_SONAME) continue;
      long value = elf.is64() ? entries.u64(at + 8) : entries.u32(at + 4);
      if (Long.compareUnsigned(value, strings.size()) >= 0) return null;
      long max = Math.min(strings.size() - value, MAX_NAME + 1) - 1;
      long end = value;
      while (end < value + max && strings.u8(end) != 0) end++;
      return ByteStrings.decode(strings.bytes(value, (int) (end - value))); // written back as these bytes
    }
    return null;
  }
}
