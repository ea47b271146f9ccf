package dev.gsym.object;

import dev.gsym.coff.CoffFile;
import dev.gsym.elf.ElfFile;
import dev.gsym.format.AddressRanges;
import dev.gsym.io.ByteView;
import dev.gsym.macho.MachOFile;
import java.nio.ByteOrder;
import java.util.List;

/**
 * One object file as llvm-gsymutil's conversion sees it (llvm's {@code object::ObjectFile}): its
 * DWARF sections by their standard names, the image base address, the executable address ranges
 * and the UUID. The symbol-table fallback differs by format, hence the sealed type:
 * {@code ObjectFileTransformer} reads each format's own table. Implemented by {@link ElfFile},
 * {@link MachOFile} and {@link CoffFile} (PE/COFF).
 */
public sealed interface ObjectFile extends AutoCloseable permits ElfFile, MachOFile, CoffFile {
  /** The file (and for a slice of a universal file, which one) that errors name. */
  String source();

  /** The path of the file on disk, or null (bytes in memory); split DWARF is looked for beside it. */
  default java.nio.file.Path path() {
    try {
      return java.nio.file.Path.of(source());
    } catch (java.nio.file.InvalidPathException e) {
      return null;
    }
  }

  /** The file's byte order. */
  ByteOrder byteOrder();

  /** True for a 64-bit file. */
  boolean is64();

  /**
   * The architecture name llvm-gsymutil prints in "Output file (ARCH): ..." for this file given
   * alone: the first component of llvm's {@code ObjectFile::makeTriple()}.
   */
  String archName();

  /** The image base address (llvm-gsymutil's getImageBaseAddress), or null. */
  Long baseAddress();

  /** The address ranges of the non-empty executable sections, merged. */
  AddressRanges textRanges();

  /** The GSYM UUID (GNU build ID, LC_UUID), or null. */
  byte[] uuid();

  /** True if the file has the DWARF section {@code name} (".debug_info", ...), without reading it. */
  boolean hasDwarfSection(String name);

  /**
   * The contents of the DWARF section with the standard name {@code name} (".debug_info", ...), as
   * llvm's DWARFContext reads them before relocation (compressed sections inflated), or null if the
   * file has none.
   */
  ByteView dwarfSection(String name);

  /**
   * As {@link #dwarfSection}, with the relocations llvm applies to it resolved (relocatable ELF
   * objects; llvm applies none to Mach-O).
   */
  ByteView relocatedDwarfSection(String name);

  /** True if {@link #dwarfSection(String) name} is compressed (it is worth inflating ahead). */
  boolean compressedDwarfSection(String name);

  /**
   * True if relocations change the DWARF sections (line tables then cannot be parsed before
   * .debug_info is relocated).
   */
  boolean relocatesDwarf();

  /**
   * The section index of the symbol the relocation at {@code offset} of .debug_line resolved
   * against, or -1 (llvm's SectionedAddress section of DW_LNE_set_address).
   */
  int lineRelocationSection(long offset);

  /** llvm's "failed to compute relocation" warnings for the sections relocated so far. */
  List<String> relocationWarnings();

  @Override
  void close();
}
