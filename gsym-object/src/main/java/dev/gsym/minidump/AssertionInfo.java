package dev.gsym.minidump;

import dev.gsym.io.ByteView;

/**
 * {@code MDRawAssertionInfo}: a failed assertion or invalid-parameter report (Windows Breakpad).
 *
 * <pre>
 *   0  u16 expression[128]          UTF-16, NUL-terminated
 * 256  u16 function[128]
 * 512  u16 file[128]
 * 768  u32 line
 * 772  u32 type                     0 unknown, 1 invalid parameter, 2 pure virtual call
 * </pre>
 */
public record AssertionInfo(String expression, String function, String file, long line, long type) {
  /** Bytes in the on-disk structure (the stream's exact size). */
  public static final int SIZE = 776;

  static AssertionInfo read(Minidump dump, DirectoryEntry e) {
    if (e.location().dataSize() != SIZE) {
      throw dump.error(e.offset() + 4, "assertion stream of " + e.location().dataSize() + " bytes, not " + SIZE);
    }
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "assertion stream");
    return new AssertionInfo(Utf16.field(b, 0, 256), Utf16.field(b, 256, 256), Utf16.field(b, 512, 256), b.u32(768), b.u32(772));
  }
}
