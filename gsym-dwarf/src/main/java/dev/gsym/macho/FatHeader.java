package dev.gsym.macho;

import dev.gsym.io.ByteView;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The {@code fat_header} of a universal (fat or fat64) file and its {@code fat_arch} entries, checked
 * as llvm's MachOUniversalBinary checks them (no slice past the end of the file, none overlapping the
 * headers or another slice, alignments at most 2^15 and honoured, no architecture twice).
 */
public final class FatHeader {
  public static final int FAT_MAGIC = 0xcafebabe;
  public static final int FAT_MAGIC_64 = 0xcafebabf;
  private static final int MAX_SECTION_ALIGNMENT = 15;

  private final boolean is64;
  private final List<FatArch> archs;

  private FatHeader(boolean is64, List<FatArch> archs) {
    this.is64 = is64;
    this.archs = archs;
  }

  /**
   * True if {@code file} starts as llvm's identify_magic recognises a universal file: a fat magic
   * and a byte 7 under 43 (greater ones are Java class files, whose version is there).
   */
  public static boolean isUniversal(ByteView file) {
    if (file.size() < 8) return false;
    int b0 = file.u8(0), b1 = file.u8(1), b2 = file.u8(2), b3 = file.u8(3);
    return b0 == 0xca && b1 == 0xfe && b2 == 0xba && (b3 == 0xbe || b3 == 0xbf) && file.u8(7) < 43;
  }

  /** Reads and checks the header of a file {@link #isUniversal} recognised. */
  public static FatHeader read(ByteView bytes) {
    ByteView f = new ByteView(bytes.segment(), bytes.fileOffset(), ByteOrder.BIG_ENDIAN, bytes.source());
    boolean is64 = f.s32(0) == FAT_MAGIC_64;
    long n = f.u32(4);
    if (n == 0) throw malformed(f, 4, "contains zero architecture types");
    int entry = is64 ? 32 : 20;
    long minSize = 8 + n * entry;
    if (f.size() < minSize) {
      throw malformed(f, 4, "fat_arch" + (is64 ? "_64" : "") + " structs would extend past the end of the file");
    }
    List<FatArch> archs = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      long p = 8 + (long) i * entry;
      FatArch a = is64
          ? new FatArch(i, f.s32(p), f.s32(p + 4), f.u64(p + 8), f.u64(p + 16), f.u32(p + 24))
          : new FatArch(i, f.s32(p), f.s32(p + 4), f.u32(p + 8), f.u32(p + 12), f.u32(p + 16));
      if (Long.compareUnsigned(a.offset() + a.size(), f.size()) > 0 || a.offset() < 0 || a.size() < 0) {
        throw malformed(f, p + 8, "offset plus size of " + a.describe() + " extends past the end of the file");
      }
      if (a.align() > MAX_SECTION_ALIGNMENT) {
        throw malformed(f, p + (is64 ? 24 : 16), "align (2^" + a.align() + ") too large for " + a.describe() + " (maximum 2^"
            + MAX_SECTION_ALIGNMENT + ")");
      }
      if (a.offset() % (1L << a.align()) != 0) {
        throw malformed(f, p + 8, "offset: " + a.offset() + " for " + a.describe() + " not aligned on it's alignment (2^" + a.align() + ")");
      }
      if (a.offset() < minSize) throw malformed(f, p + 8, a.describe() + " offset " + a.offset() + " overlaps universal headers");
      archs.add(a);
    }
    for (int i = 0; i < archs.size(); i++) {
      FatArch a = archs.get(i);
      for (int j = i + 1; j < archs.size(); j++) {
        FatArch b = archs.get(j);
        long p = 8 + (long) i * entry;
        if (a.cpuType() == b.cpuType() && (a.cpuSubtype() & ~FatArch.CPU_SUBTYPE_MASK) == (b.cpuSubtype() & ~FatArch.CPU_SUBTYPE_MASK)) {
          throw malformed(f, p, "contains two of the same architecture (" + a.describe() + ")");
        }
        long ae = a.offset() + a.size(), be = b.offset() + b.size();
        if ((a.offset() >= b.offset() && a.offset() < be) || (ae > b.offset() && ae < be) || (a.offset() <= b.offset() && ae >= be)) {
          throw malformed(f, p + 8, a.describe() + " offset " + a.offset() + " and size " + a.size() + " overlaps " + b.describe()
              + " offset " + b.offset() + " and size " + b.size());
        }
      }
    }
    return new FatHeader(is64, Collections.unmodifiableList(archs));
  }

  private static dev.gsym.GsymFormatException malformed(ByteView f, long at, String detail) {
    return f.error(at, "truncated or malformed fat file (" + detail + ") at offset 0x" + Long.toHexString(f.fileOffset() + at));
  }

  public boolean is64() {
    return is64;
  }

  /** The slices in header order. */
  public List<FatArch> archs() {
    return archs;
  }
}
