/**
 * PE/COFF reading as llvm's {@code COFFObjectFile} does, for llvm-gsymutil's conversion of images
 * and objects that carry DWARF (mingw): {@link dev.gsym.coff.CoffFile} (the COFF header, the PE
 * optional header's image base, sections with long names, the symbol table and the DWARF
 * relocations of objects); and {@link dev.gsym.coff.PeUnwind}, the x64 unwind information of an
 * image ({@code .pdata}/{@code .xdata}) as unwind rows (docs/unwind.md). Malformed input fails with
 * {@link dev.gsym.GsymFormatException} naming the file and the offset.
 */
package dev.gsym.coff;
