package dev.gsym.minidump;

/**
 * {@code MINIDUMP_HEADER}, the first 32 bytes of a minidump. The signature {@code MDMP} also tells
 * the byte order: a dump written on a big-endian machine has every field byte-swapped.
 *
 * <pre>
 *   0  u32 signature              0x504d444d ("MDMP" little-endian)
 *   4  u32 version                low 16 bits 0xa793; the high 16 bits are the writer's own
 *   8  u32 stream_count
 *  12  u32 stream_directory_rva   stream_count MINIDUMP_DIRECTORY entries
 *  16  u32 checksum
 *  20  u32 time_date_stamp        time_t, UTC
 *  24  u64 flags                  MINIDUMP_TYPE
 * </pre>
 */
public record MinidumpHeader(long signature, long version, long streamCount, long streamDirectoryRva, long checksum,
    long timeDateStamp, long flags) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 32;
  /** The signature, "MDMP" read as a little-endian u32. */
  public static final int SIGNATURE = 0x504d444d;
  /** The format version in the low 16 bits of {@code version}. */
  public static final int VERSION = 0xa793;
}
