package dev.gsym.cfi;

/**
 * A Common Information Entry: what the FDEs that point at it share (DWARF 5, section 6.4.1; the
 * LSB's {@code .eh_frame} form). Offsets are positions in the section.
 *
 * <pre>
 * ENCODING
 *   initial length      u32, or 0xffffffff + u64 (64-bit DWARF)
 *   CIE id              .debug_frame: 0xffffffff (u64 ~0 in 64-bit DWARF); .eh_frame: u32 0
 *   version             u8: 1, 3 or 4 (.debug_frame of DWARF 4 and 5), 2 is read as 3
 *   augmentation        NUL-terminated: "", or 'z' followed by L P R S B G; "eh" (GCC 2)
 *   [eh data]           "eh" only: one address
 *   address size        u8 (version 4)     segment selector size  u8 (version 4, must be 0)
 *   code alignment      ULEB               data alignment         SLEB
 *   return address reg  u8 (version 1), ULEB (later versions)
 *   [augmentation data] 'z' only: ULEB length, then per letter: L: LSDA encoding u8;
 *                       P: personality encoding u8 + pointer; R: FDE pointer encoding u8
 *   initial instructions up to the end of the entry
 * </pre>
 *
 * @param dwarf64 the entry has a 64-bit initial length
 * @param length the initial length (bytes after the length field)
 * @param addressSize bytes in an address (the section's default before version 4)
 * @param fdeEncoding the pointer encoding of the FDEs' initial location and range ('R'); {@link
 *     PointerEncoding#ABSPTR} without one
 * @param lsdaEncoding the encoding of the FDEs' LSDA pointer ('L'), {@link PointerEncoding#OMIT} without one
 * @param personalityEncoding the personality pointer's encoding ('P'), {@link PointerEncoding#OMIT} without one
 * @param personality the personality routine's address (with {@link PointerEncoding#INDIRECT} in
 *     {@code personalityEncoding}: the address of a pointer to it), or null
 * @param signalFrame 'S': the frames are signal trampolines
 * @param bKey 'B': AArch64 return addresses are signed with the B key
 * @param mteTagged 'G': the frames hold MTE-tagged stack memory
 * @param instructions position of the initial instructions
 * @param end position one past the entry
 */
public record Cie(long offset, boolean dwarf64, long length, int version, String augmentation, int addressSize, int segmentSize,
    long codeAlignment, long dataAlignment, int returnAddressRegister, boolean hasAugmentationData, int fdeEncoding,
    int lsdaEncoding, int personalityEncoding, Long personality, boolean signalFrame, boolean bKey, boolean mteTagged,
    long instructions, long end) {}
