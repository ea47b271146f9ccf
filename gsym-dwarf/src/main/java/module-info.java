/**
 * ELF + DWARF 2–5 to GSYM, as {@code llvm-gsymutil --convert} does: {@code dev.gsym.dwarf}
 * ({@code DwarfConverter}: conversion and verification) and {@code dev.gsym.elf} (ELF files,
 * sections, symbols). The DWARF reader ({@code dev.gsym.dwarf.read}) and the transformation
 * ({@code dev.gsym.dwarf.transform}) are not exported.
 *
 * <p>{@code ElfFile}'s section contents are {@code dev.gsym.io.ByteView}s, usable by the in-repo
 * modules only; code outside uses {@code ElfFile} for what it names (build-id, machine, sections
 * by name and size) and hands it to {@code DwarfConverter}.
 */
@SuppressWarnings("requires-automatic") // aircompressor-v3 3.5 has no module name of its own
module dev.gsym.dwarf {
  requires transitive dev.gsym.core;
  requires aircompressor.v3; // zstd-compressed sections
  requires org.tukaani.xz; // .gnu_debugdata (MiniDebugInfo)

  exports dev.gsym.dwarf;
  exports dev.gsym.elf;
}
