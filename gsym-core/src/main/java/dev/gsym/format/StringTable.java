package dev.gsym.format;

import dev.gsym.io.ByteView;
import java.nio.ByteOrder;

/**
 * The string table: NUL-terminated byte strings (usually, not necessarily, UTF-8); offset 0 is the
 * empty string. A bound view. Strings are decoded by {@link dev.gsym.ByteStrings}: bytes that
 * are not UTF-8 come back as U+DC80 + byte, and {@link #bytes}/{@link #appendTo} give the raw
 * bytes.
 */
public record StringTable(ByteView view) {

  /** Binds version 1's string table, as the header places it. */
  public static StringTable decode(ByteView file, Header h) {
    if (file.order() == ByteOrder.BIG_ENDIAN) {
      // llvm-gsymutil's byte-swapping path (big-endian files on a little-endian host) takes
      // substr(StrtabOffset, StrtabSize): a table cut by the end of the file is accepted, an empty
      // one is an error
      long avail = Math.max(0, file.size() - h.strtabOffset());
      long size = Math.min(h.strtabSize(), avail);
      if (size == 0) throw file.error(h.strtabOffset(), "failed to read string table");
      return new StringTable(file.slice(h.strtabOffset(), size));
    }
    if (!file.has(h.strtabOffset(), h.strtabSize())) {
      throw file.error(h.strtabOffset(), "failed to read string table");
    }
    return new StringTable(file.slice(h.strtabOffset(), h.strtabSize()));
  }

  /** Binds a version 2 StringTable section (its bounds were checked with the directory). */
  public static StringTable bind(ByteView file, long offset, long size) {
    return new StringTable(file.slice(offset, size));
  }

  /** The string at {@code strp} (unsigned), decoded by ByteStrings; offsets past the table give "". */
  public String get(int strp) {
    return get(Integer.toUnsignedLong(strp));
  }

  /** The string at {@code offset}, decoded by ByteStrings; offsets past the table give "". */
  public String get(long offset) {
    if (offset < 0 || offset >= view.size()) return "";
    return view.cString(offset);
  }

  /** The raw bytes of the string at {@code strp} (unsigned); offsets past the table give none. */
  public byte[] bytes(int strp) {
    long offset = Integer.toUnsignedLong(strp);
    if (offset >= view.size()) return new byte[0];
    return view.cStringBytes(offset);
  }

  /** Appends the raw bytes of the string at {@code strp} (unsigned); offsets past the table add none. */
  public void appendTo(int strp, dev.gsym.TextBuffer out) {
    long offset = Integer.toUnsignedLong(strp);
    if (offset < view.size()) view.appendCString(offset, out);
  }

  /** Byte size of the table. */
  public long size() {
    return view.size();
  }

  /** The offset of the string after the one at {@code offset} (may equal {@link #size()}). */
  public long next(long offset) {
    return offset + utf8Length(view, offset) + 1;
  }

  /** The "String table:" block of llvm-gsymutil's dump: every string from offset 0 on. */
  public void dump(StringBuilder sb) {
    dump(sb, 4);
  }

  /**
   * The "String table:" block with offsets printed for {@code offsetSize}-byte string offsets
   * (llvm main's version 2 dump passes 8: 16 digits).
   */
  public void dump(StringBuilder sb, int offsetSize) {
    sb.append("String table:\n");
    int digits = switch (offsetSize) {
      case 1 -> 2;
      case 2 -> 4;
      case 4 -> 8;
      default -> 16;
    };
    long size = view.size();
    long off = 0;
    while (off < size) {
      String s = view.cString(off);
      Hex.append(sb, off, digits).append(": \"").append(s).append("\"\n");
      off = next(off);
    }
  }

  private static long utf8Length(ByteView v, long at) {
    long end = at;
    while (end < v.size() && v.u8(end) != 0) end++;
    return end - at;
  }
}
