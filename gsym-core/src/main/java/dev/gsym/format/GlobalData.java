package dev.gsym.format;

import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;

/**
 * One entry of a version 2 section directory: a section's type, file offset and size (LLVM
 * main's {@code GlobalData}).
 *
 * <pre>
 * ENCODING (20 bytes, the file's byte order)
 *   u32 Type   u64 FileOffset   u64 FileSize
 * </pre>
 */
public record GlobalData(int type, long fileOffset, long fileSize) {
  public static final int SIZE = 20;

  public static final int END_OF_LIST = 0;
  public static final int ADDR_OFFSETS = 1;
  public static final int ADDR_INFO_OFFSETS = 2;
  public static final int STRING_TABLE = 3;
  public static final int FILE_TABLE = 4;
  public static final int FUNCTION_INFO = 5;
  public static final int UUID = 6;

  /** Reads the entry at {@code at}. */
  public static GlobalData decode(ByteView v, long at) {
    return new GlobalData(v.s32(at), v.u64(at + 4), v.u64(at + 12));
  }

  /** Writes this entry to {@code w}. */
  public void encode(GsymWriter w) {
    w.u32(Integer.toUnsignedLong(type));
    w.u64(fileOffset);
    w.u64(fileSize);
  }

  /** LLVM's getNameForGlobalInfoType ("Unknown" for a type it does not know). */
  public static String typeName(int type) {
    return switch (type) {
      case END_OF_LIST -> "EndOfList";
      case ADDR_OFFSETS -> "AddrOffsets";
      case ADDR_INFO_OFFSETS -> "AddrInfoOffsets";
      case STRING_TABLE -> "StringTable";
      case FILE_TABLE -> "FileTable";
      case FUNCTION_INFO -> "FunctionInfo";
      case UUID -> "UUID";
      default -> "Unknown";
    };
  }
}
