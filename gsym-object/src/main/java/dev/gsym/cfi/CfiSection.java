package dev.gsym.cfi;

import dev.gsym.coff.CoffFile;
import dev.gsym.coff.CoffSection;
import dev.gsym.elf.ElfFile;
import dev.gsym.io.ByteView;
import dev.gsym.macho.MachOFile;
import dev.gsym.macho.MachSection;
import dev.gsym.object.ObjectFile;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.UnwindSource;

/**
 * One section of call frame information and what reading it needs: its bytes (a view whose errors
 * carry absolute file offsets; an inflated view for a compressed {@code .debug_frame}), the address
 * it is loaded at (the base of pcrel pointers), the default address size, the architecture (for
 * {@code DW_CFA_GNU_window_save}) and the bases of textrel and datarel pointers.
 *
 * @param kind {@link UnwindSource#EH_FRAME} or {@link UnwindSource#DEBUG_FRAME}
 * @param name the section's name in messages ({@code .eh_frame}, {@code __eh_frame}, {@code .debug_frame})
 * @param address the section's address (0 for {@code .debug_frame}, which is not loaded)
 * @param addressSize bytes in an address unless a version 4 CIE says otherwise
 * @param archName llvm's architecture name of the file ({@link ObjectFile#archName()})
 * @param textBase the {@code .text} section's address, or null
 * @param dataBase the {@code .got} section's address (Breakpad's datarel base), or null
 * @param memory the file's loaded bytes by address, for {@link PointerEncoding#INDIRECT} initial
 *     locations; null when they cannot be read
 */
public record CfiSection(UnwindSource kind, String name, ByteView data, long address, int addressSize, String archName,
    Long textBase, Long dataBase, Memory memory) {
  /** Checks the kind and the address size. */
  public CfiSection {
    if (kind != UnwindSource.EH_FRAME && kind != UnwindSource.DEBUG_FRAME) throw new IllegalArgumentException("not a DWARF CFI section: " + kind);
    if (addressSize != 1 && addressSize != 2 && addressSize != 4 && addressSize != 8) {
      throw new IllegalArgumentException("bad address size " + addressSize);
    }
  }

  /** The loaded image's bytes by address. */
  @FunctionalInterface
  public interface Memory {
    /** The {@code size} bytes loaded at {@code address}, or null if no section holds them. */
    ByteView at(long address, int size);
  }

  /** Whether this is {@code .eh_frame} (relative CIE pointers, CIE id 0, 'z' augmentations). */
  public boolean isEh() {
    return kind == UnwindSource.EH_FRAME;
  }

  /** The architecture, or null when {@link Arch} does not know it. */
  public Arch arch() {
    return Arch.ofName(archName);
  }

  /** The bases of the pointers read from this section (funcrel unknown). */
  public PointerEncoding.Bases bases() {
    return new PointerEncoding.Bases(address, textBase, dataBase, null);
  }

  /**
   * The section {@code kind} of {@code file}, or null when the file has none or its contents are not
   * in the file ({@code SHT_NOBITS}, a zero-fill or stripped Mach-O section, a virtual PE section) or
   * empty. ELF relocatable objects are relocated as llvm relocates them; a compressed section is
   * inflated.
   */
  public static CfiSection of(ObjectFile file, UnwindSource kind) {
    String dwarfName = kind == UnwindSource.EH_FRAME ? ".eh_frame" : ".debug_frame";
    int addressSize = file.is64() ? 8 : 4;
    return switch (file) {
      case ElfFile elf -> {
        ElfFile.Section s = elf.section(dwarfName);
        if (s == null || s.type() == ElfFile.SHT_NOBITS || s.size() == 0) yield null;
        ByteView data = elf.relocatesDwarf() ? elf.relocatedData(s) : elf.data(s);
        if (data.size() == 0) yield null;
        yield new CfiSection(kind, dwarfName, data, kind == UnwindSource.EH_FRAME ? s.addr() : 0, addressSize, file.archName(),
            elfAddress(elf, ".text"), elfAddress(elf, ".got"), elfMemory(elf));
      }
      case MachOFile macho -> {
        MachSection s = macho.dwarfSectionHeader(dwarfName);
        if (s == null || s.size() == 0) yield null;
        ByteView data = macho.data(s);
        if (data.size() == 0) yield null;
        Long text = null;
        for (MachSection t : macho.sections()) {
          if (t.segment().equals("__TEXT") && t.name().equals("__text")) text = t.addr();
        }
        yield new CfiSection(kind, s.name(), data, kind == UnwindSource.EH_FRAME ? s.addr() : 0, addressSize, file.archName(), text, null,
            machOMemory(macho));
      }
      case CoffFile coff -> {
        CoffSection s = coff.dwarfSectionHeader(dwarfName);
        String name = dwarfName;
        // an image's loaded sections keep 8 characters of their names (no string table at run time)
        if (s == null && kind == UnwindSource.EH_FRAME) s = coff.dwarfSectionHeader(name = ".eh_fram");
        if (s == null) yield null;
        ByteView data = coff.relocatedDwarfSection(name);
        if (data == null || data.size() == 0) yield null;
        Long text = null;
        for (CoffSection t : coff.sections()) if (t.name().equals(".text")) text = coff.address(t);
        yield new CfiSection(kind, s.name(), data, kind == UnwindSource.EH_FRAME ? coff.address(s) : 0, addressSize, file.archName(), text,
            null, coffMemory(coff));
      }
    };
  }

  private static Long elfAddress(ElfFile elf, String name) {
    ElfFile.Section s = elf.section(name);
    return s == null ? null : s.addr();
  }

  private static final long SHF_ALLOC = 0x2;

  private static Memory elfMemory(ElfFile elf) {
    return (address, size) -> {
      for (ElfFile.Section s : elf.sections()) {
        if ((s.flags() & SHF_ALLOC) == 0 || s.type() == ElfFile.SHT_NOBITS) continue;
        if (Long.compareUnsigned(address - s.addr(), s.size()) < 0 && Long.compareUnsigned(size, s.size() - (address - s.addr())) <= 0) {
          return elf.rawData(s).slice(address - s.addr(), size);
        }
      }
      return null;
    };
  }

  private static Memory machOMemory(MachOFile macho) {
    return (address, size) -> {
      for (MachSection s : macho.sections()) {
        if (s.isBss() || s.isStripped()) continue;
        if (Long.compareUnsigned(address - s.addr(), s.size()) < 0 && Long.compareUnsigned(size, s.size() - (address - s.addr())) <= 0) {
          return macho.data(s).slice(address - s.addr(), size);
        }
      }
      return null;
    };
  }

  private static Memory coffMemory(CoffFile coff) {
    return (address, size) -> {
      for (CoffSection s : coff.sections()) {
        ByteView d = coff.data(s);
        long a = coff.address(s);
        if (Long.compareUnsigned(address - a, d.size()) < 0 && Long.compareUnsigned(size, d.size() - (address - a)) <= 0) {
          return d.slice(address - a, size);
        }
      }
      return null;
    };
  }
}
