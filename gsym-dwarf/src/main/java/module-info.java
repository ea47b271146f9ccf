/**
 * ELF, Mach-O and PE/COFF + DWARF 2–5 to GSYM, as {@code llvm-gsymutil --convert} does: {@code dev.gsym.dwarf}
 * ({@code DwarfConverter}: conversion and verification), {@code dev.gsym.object} (the object-file
 * abstraction the converter reads and opening a file as its kind), {@code dev.gsym.elf} (ELF files,
 * sections, symbols), {@code dev.gsym.macho} (Mach-O, universal files, dSYM bundles) and
 * {@code dev.gsym.coff} (PE/COFF). The DWARF
 * reader ({@code dev.gsym.dwarf.read}) and the transformation ({@code dev.gsym.dwarf.transform}) are
 * not exported.
 *
 * <p>{@code ElfFile}'s and {@code MachOFile}'s section contents are {@code dev.gsym.io.ByteView}s,
 * usable by the in-repo modules only; code outside uses them for what they name (build-id, UUID,
 * machine, sections by name and size) and hands them to {@code DwarfConverter}.
 */
@SuppressWarnings("requires-automatic") // aircompressor-v3 3.5 has no module name of its own
module dev.gsym.dwarf {
  requires transitive dev.gsym.core;
  requires aircompressor.v3; // zstd-compressed sections
  requires org.tukaani.xz; // .gnu_debugdata (MiniDebugInfo)

  exports dev.gsym.dwarf;
  exports dev.gsym.elf;
  exports dev.gsym.coff;
  exports dev.gsym.macho;
  exports dev.gsym.object;
}
