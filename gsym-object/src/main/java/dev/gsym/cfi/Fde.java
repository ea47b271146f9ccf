package dev.gsym.cfi;

import dev.gsym.unwind.UnwindSource;

/**
 * A Frame Description Entry: the code range {@code [pcBegin, pcBegin + pcRange)} and the
 * instructions that, after its CIE's initial instructions, describe how to unwind it. Offsets are
 * positions in the section.
 *
 * <pre>
 * ENCODING
 *   initial length      u32, or 0xffffffff + u64 (64-bit DWARF)
 *   CIE pointer         .debug_frame: the CIE's section offset (u64 in 64-bit DWARF);
 *                       .eh_frame: u32, the distance back from this field to the CIE
 *   initial location    .debug_frame: an address; .eh_frame: a pointer in the CIE's 'R' encoding
 *   address range       as the initial location, without its base (the format nibble only)
 *   [augmentation data] CIE with 'z': ULEB length, then the LSDA pointer ('L')
 *   instructions        up to the end of the entry
 * </pre>
 *
 * @param section the section the entry is in
 * @param lsda the language-specific data area's address, or null
 * @param instructions position of the instructions
 * @param end position one past the entry
 */
public record Fde(UnwindSource section, long offset, boolean dwarf64, long length, Cie cie, long pcBegin, long pcRange, Long lsda,
    long instructions, long end) {}
