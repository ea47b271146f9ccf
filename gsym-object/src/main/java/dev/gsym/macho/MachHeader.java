package dev.gsym.macho;

import dev.gsym.io.ByteView;

/**
 * The {@code mach_header} / {@code mach_header_64} at the start of a Mach-O file.
 *
 * @param is64 {@code MH_MAGIC_64}: 64-bit layouts for the header, segments, sections and nlists
 */
public record MachHeader(boolean is64, int cpuType, int cpuSubtype, int fileType, long ncmds, long sizeofcmds, int flags) {
  public static final int MH_MAGIC = 0xfeedface;
  public static final int MH_MAGIC_64 = 0xfeedfacf;
  public static final int MH_OBJECT = 1;
  public static final int MH_EXECUTE = 2;
  public static final int MH_CORE = 4;
  public static final int MH_DYLIB = 6;
  public static final int MH_BUNDLE = 8;
  public static final int MH_DYLIB_STUB = 9;
  public static final int MH_DSYM = 10;

  /** The header's size: where the load commands start. */
  public int size() {
    return is64 ? 32 : 28;
  }

  /** Reads the header of {@code file} (a view in the file's byte order, checked by the caller). */
  static MachHeader read(ByteView file, boolean is64) {
    int size = is64 ? 32 : 28;
    if (file.size() < size) throw MachOFile.malformed(file, 0, "the mach header extends past the end of the file");
    return new MachHeader(is64, file.s32(4), file.s32(8), file.s32(12), file.u32(16), file.u32(20), file.s32(24));
  }
}
