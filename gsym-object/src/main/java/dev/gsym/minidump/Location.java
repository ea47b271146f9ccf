package dev.gsym.minidump;

/**
 * {@code MINIDUMP_LOCATION_DESCRIPTOR}: {@code dataSize} bytes at file offset {@code rva} (both
 * unsigned 32-bit).
 *
 * <pre>
 *   0  u32 data_size
 *   4  u32 rva
 * </pre>
 */
public record Location(long dataSize, long rva) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 8;

  /** Whether the bytes lie inside a file of {@code fileSize} bytes. */
  public boolean inside(long fileSize) {
    return rva <= fileSize && dataSize <= fileSize - rva;
  }

  @Override
  public String toString() {
    return dataSize + " bytes at 0x" + Long.toHexString(rva);
  }
}
