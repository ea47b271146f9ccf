package dev.gsym.minidump;

/**
 * {@code MINIDUMP_UNLOADED_MODULE}: a module the process had unloaded before the dump.
 *
 * <pre>
 *   0  u64 base_of_image
 *   8  u32 size_of_image
 *  12  u32 checksum
 *  16  u32 time_date_stamp
 *  20  u32 module_name_rva          MINIDUMP_STRING
 * </pre>
 */
public record UnloadedModule(long baseOfImage, long sizeOfImage, long checksum, long timeDateStamp, long moduleNameRva,
    String name) {
  /** Bytes in the on-disk structure (an entry may be longer). */
  public static final int SIZE = 24;
}
