/**
 * Unwind information, independent of where it came from: for a range of code, the rows of a call
 * frame information table (how to find the canonical frame address, CFA, and the caller's
 * registers at each instruction), or Windows frame data. The DWARF CFI of {@code .eh_frame} and
 * {@code .debug_frame}, Mach-O compact unwind, PE/COFF x64 unwind codes and Breakpad {@code STACK}
 * records are all read into these values; a GSYM file carries them per function ({@link
 * dev.gsym.format.UnwindInfo}), and an unwinder steps a frame with them.
 *
 * <p>Registers are DWARF register numbers of the {@link Arch}; the CFA is the value of the stack
 * pointer in the caller just before the call (DWARF 5, section 6.4).
 */
package dev.gsym.unwind;
