package dev.gsym.dwarf.transform;

import dev.gsym.coff.CoffFile;
import dev.gsym.coff.CoffSymbolTable;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.SymbolTable;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.macho.MachOFile;
import dev.gsym.macho.MachSection;
import dev.gsym.macho.NlistTable;
import dev.gsym.object.ObjectFile;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;

/**
 * Adds an object file's UUID and its symbol-table functions, as llvm's ObjectFileTransformer does.
 *
 * <p>ELF: the GNU build ID, and every entry after the null one of the first {@code SHT_SYMTAB}
 * section (never {@code .dynsym}) whose type is {@code STT_FUNC} (not {@code STT_GNU_IFUNC}, not
 * mapping symbols, which are {@code STT_NOTYPE}) and whose llvm value ({@link SymbolTable#value}: 0
 * for undefined symbols, {@code st_size} for common ones) is a valid text address, with its
 * {@code st_size}.
 *
 * <p>Mach-O: the {@code LC_UUID}, and every nlist entry llvm types {@code ST_Function} (not
 * {@code N_STAB}, {@code N_SECT} in a section with {@code S_ATTR_PURE_INSTRUCTIONS}) whose
 * {@code n_value} is a valid text address, with size 0 and one leading '_' removed from its name.
 *
 * <p>Duplicates are left to the creator's finalize.
 */
public final class ObjectFileTransformer {
  private ObjectFileTransformer() {}

  /**
   * Sets the UUID and adds the functions; returns how many. A name llvm cannot read is logged as
   * llvm does ({@code ObjectFileTransformer: <reason>}) and the symbol skipped.
   */
  public static int convert(ObjectFile file, GsymCreator gsym, Diagnostics diag) {
    return switch (file) {
      case ElfFile elf -> convert(elf, gsym, diag);
      case MachOFile macho -> convert(macho, gsym, diag);
      case CoffFile coff -> convert(coff, gsym, diag);
    };
  }

  /**
   * PE/COFF: no UUID; every record (auxiliary records skipped) whose complex type is
   * {@code IMAGE_SYM_DTYPE_FUNCTION} (defined or not, as llvm types them) and whose llvm value (0
   * undefined, the common size, else the section-relative Value: llvm does not add the section's
   * address here) is a text address, with size 0 and its name as stored.
   */
  private static int convert(CoffFile coff, GsymCreator gsym, Diagnostics diag) {
    CoffSymbolTable symbols = coff.symbols();
    int n = 0;
    for (long i = 0; i < symbols.count(); i += 1 + symbols.auxCount(i)) {
      if ((symbols.type(i) & 0xf0) >> 4 != CoffSymbolTable.IMAGE_SYM_DTYPE_FUNCTION) continue;
      long value = CoffFile.symbolValue(symbols, i);
      if (!gsym.isValidTextAddress(value)) continue;
      String problem = symbols.nameError(i);
      if (problem != null) {
        diag.log("ObjectFileTransformer: " + problem + "\n");
        continue;
      }
      gsym.addFunctionInfo(new FunctionInfo(new AddressRange(value, value), gsym.insertString(symbols.name(i))));
      n++;
    }
    return n;
  }

  private static int convert(ElfFile elf, GsymCreator gsym, Diagnostics diag) {
    byte[] id = elf.buildId();
    if (id != null) gsym.setUUID(id);
    return addFunctions(elf, gsym, diag);
  }

  /**
   * LLVM main's MiniDebugInfo step, after the symbol table: the functions of the {@code .symtab} of
   * the xz-compressed ELF in {@code elf}'s {@code .gnu_debugdata} (same rules, the text ranges are
   * the outer file's), logged as "Loaded N functions from .gnu_debugdata symbol table.". Nothing
   * without the section. A section that cannot be decompressed or read is one warning (as llvm's
   * "unable to read the .gnu_debugdata section: ...") and adds nothing.
   *
   * @return the functions added
   */
  public static int convertMiniDebugInfo(ElfFile elf, GsymCreator gsym, Diagnostics diag) {
    ElfFile mini;
    try {
      mini = elf.miniDebugInfo();
      if (mini == null) return 0;
      int n = addFunctions(mini, gsym, diag);
      diag.log("Loaded " + n + " functions from .gnu_debugdata symbol table.\n");
      return n;
    } catch (dev.gsym.GsymFormatException e) {
      // llvm main words a decompression failure "failed to decompress: <lzma's reason>"
      String prefix = "compressed section .gnu_debugdata: ";
      String why = e.detail().startsWith(prefix) ? "failed to decompress: " + e.detail().substring(prefix.length())
          : e.detail();
      diag.log("warning: unable to read the .gnu_debugdata section: " + why + "\n");
      return 0;
    }
  }

  private static int addFunctions(ElfFile elf, GsymCreator gsym, Diagnostics diag) {
    SymbolTable symbols = SymbolTable.of(elf);
    // llvm reads each symbol's type first and skips the symbol when that fails, which it does for
    // all of them when the table cannot be read as an array.
    if (symbols == null || !symbols.readable() || symbols.count() < 2) return 0;
    symbols.checkDynamicSymbols();
    int n = 0;
    for (long i = 1; i < symbols.count(); i++) {
      if (symbols.type(i) != SymbolTable.STT_FUNC) continue;
      long value = symbols.value(i);
      if (!gsym.isValidTextAddress(value)) continue;
      String problem = symbols.nameError(i);
      if (problem != null) {
        diag.log("ObjectFileTransformer: " + problem + "\n");
        continue;
      }
      gsym.addFunctionInfo(new FunctionInfo(new AddressRange(value, value + symbols.size(i)), gsym.insertString(symbols.name(i))));
      n++;
    }
    return n;
  }

  private static int convert(MachOFile macho, GsymCreator gsym, Diagnostics diag) {
    byte[] id = macho.uuid();
    if (id != null) gsym.setUUID(id);
    NlistTable symbols = macho.symbols();
    if (symbols == null) return 0;
    int n = 0;
    for (long i = 0; i < symbols.count(); i++) {
      int type = symbols.type(i);
      // MachOObjectFile::getSymbolType: N_STAB is ST_Debug, only N_SECT can be a function, a bad
      // n_sect is an error (the symbol is skipped), no section is ST_Other, and a section without
      // S_ATTR_PURE_INSTRUCTIONS is data or BSS
      if ((type & NlistTable.N_STAB) != 0 || (type & NlistTable.N_TYPE) != NlistTable.N_SECT) continue;
      int sect = symbols.sect(i);
      if (sect == 0 || sect > macho.sections().size()) continue;
      MachSection s = macho.sections().get(sect - 1);
      if (!s.isText()) continue;
      long value = symbols.value(i);
      if (!gsym.isValidTextAddress(value)) continue;
      String problem = symbols.nameError(i);
      if (problem != null) {
        diag.log("ObjectFileTransformer: " + problem + "\n");
        continue;
      }
      String name = symbols.name(i);
      if (name.startsWith("_")) name = name.substring(1);
      gsym.addFunctionInfo(new FunctionInfo(new AddressRange(value, value), gsym.insertString(name)));
      n++;
    }
    return n;
  }
}
