/**
 * The one conversion front door: {@link dev.gsym.convert.Converter} (an {@link
 * dev.gsym.convert.Input} to GSYM under {@link dev.gsym.convert.ConvertOptions}, each GSYM handed
 * to a {@link dev.gsym.convert.Converter.Sink}, or written to a channel for a store) and {@link
 * dev.gsym.convert.DumpSyms} (the steps of Breakpad's {@code dump_syms} on an ELF file: its debug
 * file, its DWARF, symbols and CFI, or the GSYM it carries, read back for {@code BreakpadWriter}).
 */
package dev.gsym.convert;
