package dev.gsym.minidump;

import dev.gsym.ByteStrings;
import dev.gsym.io.ByteView;

/**
 * {@code IMAGE_DEBUG_MISC}: a module's obsolete debug record (the name of a {@code .dbg} file).
 *
 * <pre>
 *   0  u32 data_type
 *   4  u32 length                   the whole record's size
 *   8  u8  unicode                  1: data is UTF-16
 *   9  u8  reserved[3]
 *  12  data
 * </pre>
 *
 * @param data the data as Breakpad prints it: UTF-16 up to its first NUL, or the bytes up to the
 *     first NUL
 * @param fileName the data as Breakpad's debug file name: every byte of 8-bit data, or all of the
 *     UTF-16 data (null when that does not convert)
 */
public record MiscDebugRecord(long dataType, long length, int unicode, String data, String fileName) {
  /** Size of the fixed part. */
  public static final int HEADER_SIZE = 12;
  /** Largest record Breakpad reads. */
  public static final int MAX_SIZE = 32768;

  /**
   * Reads the record as Breakpad's {@code GetMiscRecord}: null when shorter than its fixed part,
   * larger than {@link #MAX_SIZE}, not in the file, or its length field differs from its size.
   */
  static MiscDebugRecord read(Minidump dump, Location location) {
    long n = location.dataSize();
    if (n < HEADER_SIZE || n > MAX_SIZE || !location.inside(dump.size())) return null;
    ByteView b = dump.file().slice(location.rva(), n);
    if (b.u32(4) != n) return null;
    int unicode = b.u8(8);
    int dataBytes = (int) n - HEADER_SIZE;
    String data;
    String fileName;
    if (unicode != 0) {
      data = Utf16.field(b, HEADER_SIZE, dataBytes);
      fileName = dataBytes % 2 == 0 ? Utf16.decode(b, HEADER_SIZE, dataBytes / 2) : null;
    } else {
      byte[] raw = b.bytes(HEADER_SIZE, dataBytes);
      int end = 0;
      while (end < raw.length && raw[end] != 0) end++;
      data = ByteStrings.decode(raw, 0, end);
      fileName = ByteStrings.decode(raw);
    }
    return new MiscDebugRecord(b.u32(0), b.u32(4), unicode, data, fileName);
  }
}
