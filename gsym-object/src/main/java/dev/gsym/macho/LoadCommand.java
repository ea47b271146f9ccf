package dev.gsym.macho;

/**
 * One load command: its index in the header's list, {@code cmd}, and where its {@code cmdsize}
 * bytes lie (an offset in the Mach-O file).
 */
public record LoadCommand(int index, int cmd, long offset, long size) {
  public static final int LC_SEGMENT = 0x1;
  public static final int LC_SYMTAB = 0x2;
  public static final int LC_DYSYMTAB = 0xb;
  public static final int LC_SEGMENT_64 = 0x19;
  public static final int LC_UUID = 0x1b;
}
