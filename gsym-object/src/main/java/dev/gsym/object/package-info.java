/**
 * The object-file abstraction the DWARF converter reads: {@link dev.gsym.object.ObjectFile}, a
 * sealed type implemented by {@link dev.gsym.elf.ElfFile} and {@link dev.gsym.macho.MachOFile}, and
 * {@link dev.gsym.object.ObjectFiles}, which opens a path as whichever of them it is (a universal
 * Mach-O file by its slices, a {@code .dSYM} bundle by its DWARF files).
 */
package dev.gsym.object;
