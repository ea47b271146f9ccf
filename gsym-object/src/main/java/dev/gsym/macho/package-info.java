/**
 * Mach-O reading as llvm's {@code MachOObjectFile} and {@code MachOUniversalBinary} do, for
 * llvm-gsymutil's conversion: {@link dev.gsym.macho.MachOFile} (one 32- or 64-bit Mach-O: header,
 * load commands, segments and sections, the nlist symbol table, LC_UUID) and
 * {@link dev.gsym.macho.FatHeader} (universal files and their slices); and
 * {@link dev.gsym.macho.CompactUnwind}, the compact unwind information of {@code __TEXT,__unwind_info}
 * as unwind rows (docs/unwind.md). Malformed input fails with
 * {@link dev.gsym.GsymFormatException} naming the file, the offset and llvm's description.
 */
package dev.gsym.macho;
