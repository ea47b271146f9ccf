/**
 * ELF, Mach-O and PE/COFF + DWARF 2–5 to GSYM, as {@code llvm-gsymutil --convert} does: {@code
 * dev.gsym.dwarf} ({@code DwarfConverter}: conversion and verification) over the object files of
 * {@code dev.gsym.object}. The DWARF reader ({@code dev.gsym.dwarf.read}) and the transformation
 * ({@code dev.gsym.dwarf.transform}) are not exported.
 */
module dev.gsym.dwarf {
  requires transitive dev.gsym.core;
  requires transitive dev.gsym.object; // DwarfConverter.convert takes an ObjectFile

  exports dev.gsym.dwarf;
}
