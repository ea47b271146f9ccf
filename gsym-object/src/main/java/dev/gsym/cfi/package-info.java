/**
 * DWARF call frame information (CFI) of object files, read into the unwind model of {@code
 * dev.gsym.unwind}: {@link dev.gsym.cfi.CfiReader} (every FDE of a file, or of a debug file and
 * its binary, as {@link dev.gsym.unwind.CfiTable}s in dump_syms's order), {@link
 * dev.gsym.cfi.CallFrameInfo} (the walker of one {@code .eh_frame} or {@code .debug_frame}: CIEs
 * and FDEs), {@link dev.gsym.cfi.CfaProgram} (the {@code DW_CFA_*} decoder and the row machine),
 * {@link dev.gsym.cfi.EhFrameHdr} ({@code .eh_frame_hdr}) and {@link dev.gsym.cfi.PointerEncoding}
 * ({@code DW_EH_PE_*}). One class per on-disk structure, its layout in its Javadoc; bad input is a
 * {@link dev.gsym.GsymFormatException} with the absolute file offset, and never costs more than a
 * bounded amount of work per byte.
 */
package dev.gsym.cfi;
