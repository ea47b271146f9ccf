/**
 * Object files as the converters and tools read them, with no DWARF debugging information in
 * sight: {@code dev.gsym.object} (the object-file abstraction and opening a file as its kind),
 * {@code dev.gsym.elf} (ELF files, sections, compressed sections, symbols, notes, {@code .gsym}
 * sections), {@code dev.gsym.macho} (Mach-O, universal files, dSYM bundles), {@code
 * dev.gsym.coff} (PE/COFF) and {@code dev.gsym.cfi} (the DWARF call frame information of any of
 * them); and {@code dev.gsym.minidump} (crash dumps: streams, CPU contexts, process memory).
 *
 * <p>Section contents are {@code dev.gsym.io.ByteView}s, usable by the in-repo modules only (javac's
 * "exports" lint is off for this module for that reason); code outside uses the files for what they
 * name (build-id, UUID, machine, sections by name and size) and hands them to the converters.
 */
@SuppressWarnings("requires-automatic") // aircompressor-v3 3.5 has no module name of its own
module dev.gsym.object {
  requires transitive dev.gsym.core;
  requires aircompressor.v3; // zstd-compressed sections
  requires org.tukaani.xz; // .gnu_debugdata (MiniDebugInfo)

  exports dev.gsym.object;
  exports dev.gsym.elf;
  exports dev.gsym.coff;
  exports dev.gsym.macho;
  exports dev.gsym.cfi;
  exports dev.gsym.minidump;
}
