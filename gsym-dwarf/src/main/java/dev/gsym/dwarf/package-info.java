/**
 * ELF + DWARF 2-5 to GSYM conversion, byte-identical with {@code llvm-gsymutil-22 --convert
 * --num-threads=1}: {@link dev.gsym.dwarf.DwarfConverter} (with its options, listener and summary)
 * is the whole API. DWARF reading ({@code dev.gsym.dwarf.read}) and the transformers ({@code
 * dev.gsym.dwarf.transform}) are internal; ELF reading ({@link dev.gsym.elf}) is API.
 */
package dev.gsym.dwarf;
