package dev.gsym.minidump;

import dev.gsym.io.ByteView;

/**
 * {@code VS_FIXEDFILEINFO}: a module's version resource (Windows; zero elsewhere), thirteen u32
 * fields: signature (0xfeef04bd), struct_version, file_version_hi, file_version_lo,
 * product_version_hi, product_version_lo, file_flags_mask, file_flags, file_os, file_type,
 * file_subtype, file_date_hi, file_date_lo.
 */
public record VersionInfo(long signature, long structVersion, long fileVersionHi, long fileVersionLo, long productVersionHi,
    long productVersionLo, long fileFlagsMask, long fileFlags, long fileOs, long fileType, long fileSubtype, long fileDateHi,
    long fileDateLo) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 52;
  public static final long SIGNATURE = 0xfeef04bdL;

  static VersionInfo read(ByteView b, long at) {
    long[] v = new long[13];
    for (int i = 0; i < 13; i++) v[i] = b.u32(at + 4L * i);
    return new VersionInfo(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12]);
  }

  /** The file version as {@code a.b.c.d}, or "" when the resource is absent (Breakpad's {@code version()}). */
  public String fileVersion() {
    if (signature != SIGNATURE || (structVersion & 0x10000) == 0) return "";
    return (fileVersionHi >>> 16) + "." + (fileVersionHi & 0xffff) + "." + (fileVersionLo >>> 16) + "." + (fileVersionLo & 0xffff);
  }
}
