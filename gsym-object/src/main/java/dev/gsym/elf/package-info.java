/**
 * ELF reading (32/64-bit, either byte order) over a memory-mapped file: {@link dev.gsym.elf.ElfFile}
 * (sections with compressed sections inflated and relocatable objects relocated, program headers,
 * symbols, build ID) and {@link dev.gsym.elf.SymbolTable} (llvm's symbol value rules). Malformed
 * input fails with {@link dev.gsym.GsymFormatException} naming the file and offset.
 */
package dev.gsym.elf;
