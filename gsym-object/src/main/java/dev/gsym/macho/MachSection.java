package dev.gsym.macho;

/**
 * One {@code section} / {@code section_64} of a segment command; {@code index} counts the file's
 * sections from 0 in load-command order (an nlist's {@code n_sect} is {@code index + 1}).
 *
 * @param offset the 32-bit file offset as stored
 * @param fileOffset where the contents lie: {@code offset}, plus in a 64-bit file the 4 GB wraps llvm
 *     reconstructs for dSYMs larger than 4 GB (see {@link MachOFile}); -1 where llvm refuses to
 *     (the offsets before it are not ordered), and reads the contents as empty
 */
public record MachSection(int index, String name, String segment, long addr, long size, long offset, long reloff, long nreloc,
    int flags, long headerOffset, long fileOffset) {
  public static final int SECTION_TYPE = 0xff;
  public static final int S_ZEROFILL = 0x1;
  public static final int S_GB_ZEROFILL = 0xc;
  public static final int S_THREAD_LOCAL_ZEROFILL = 0x12;
  public static final int S_ATTR_PURE_INSTRUCTIONS = 0x80000000;

  /** llvm's isSectionText: {@code S_ATTR_PURE_INSTRUCTIONS}. */
  public boolean isText() {
    return (flags & S_ATTR_PURE_INSTRUCTIONS) != 0;
  }

  /** llvm's isSectionBSS: a zero-fill section without instructions. */
  public boolean isBss() {
    int type = flags & SECTION_TYPE;
    return !isText() && (type == S_ZEROFILL || type == S_GB_ZEROFILL);
  }

  /** llvm's isSectionStripped: contents removed (by dsymutil: {@code offset} 0). */
  public boolean isStripped() {
    return offset == 0;
  }
}
