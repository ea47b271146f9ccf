package dev.gsym.io;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A read-only window over bytes (usually a memory-mapped file) with a fixed byte order. Reads take
 * positions relative to the view; errors report absolute offsets ({@link #fileOffset()} + position)
 * and the source name, as {@link GsymFormatException}.
 */
public final class ByteView {
  private final MemorySegment seg;
  private final long fileOffset;
  private final ByteOrder order;
  private final String source;
  /** Size in bytes (1-8) of the string-table offsets in records read through this view. */
  private final int strpSize;
  /** Big-endian view: multi-byte values are read little endian and swapped. */
  private final boolean swap;

  private static final ValueLayout.OfShort LE16 =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfInt LE32 =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong LE64 =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  public ByteView(MemorySegment seg, long fileOffset, ByteOrder order, String source) {
    this(seg, fileOffset, order, source, 4);
  }

  private ByteView(MemorySegment seg, long fileOffset, ByteOrder order, String source, int strpSize) {
    if (strpSize < 1 || strpSize > 8) throw new IllegalArgumentException("bad string offset size " + strpSize);
    this.strpSize = strpSize;
    this.seg = seg;
    this.fileOffset = fileOffset;
    this.order = order;
    this.source = source;
    this.swap = order != ByteOrder.LITTLE_ENDIAN;
  }

  /** A view over a heap byte array, for tests and in-memory data. */
  public static ByteView of(byte[] bytes, ByteOrder order, String source) {
    return new ByteView(MemorySegment.ofArray(bytes), 0, order, source);
  }

  public long size() {
    return seg.byteSize();
  }

  /**
   * The same bytes, with records holding string-table offsets of {@code size} bytes (4 in GSYM
   * version 1, 8 in version 2; {@link Cursor#strp} reads them).
   */
  public ByteView withStrpSize(int size) {
    return size == strpSize ? this : new ByteView(seg, fileOffset, order, source, size);
  }

  /** Size in bytes of the string-table offsets in records (see {@link #withStrpSize}). */
  public int strpSize() {
    return strpSize;
  }

  public ByteOrder order() {
    return order;
  }

  public String source() {
    return source;
  }

  /** Absolute offset of this view's first byte in its source. */
  public long fileOffset() {
    return fileOffset;
  }

  public MemorySegment segment() {
    return seg;
  }

  /** Builds a format error at a position of this view. */
  public GsymFormatException error(long at, String detail) {
    return new GsymFormatException(source, fileOffset + at, detail);
  }

  private GsymFormatException eof(long at, int n) {
    return error(at, "unexpected end of data: " + n + " byte(s) needed, " + Math.max(0, size() - at)
        + " available");
  }

  /** True if {@code n} bytes starting at {@code at} lie inside the view. */
  public boolean has(long at, long n) {
    return at >= 0 && n >= 0 && at <= size() && n <= size() - at;
  }

  public int u8(long at) {
    if (at < 0 || at >= size()) throw eof(at, 1);
    return seg.get(ValueLayout.JAVA_BYTE, at) & 0xff;
  }

  // The reads below use the constant little-endian layouts and swap: a layout held in a field is
  // not a constant to the JIT, and every access through it then went through the VarHandle's
  // generic path with its alignment checks (a few percent of a DWARF conversion).
  public int u16(long at) {
    if (!has(at, 2)) throw eof(at, 2);
    short v = seg.get(LE16, at);
    return (swap ? Short.reverseBytes(v) : v) & 0xffff;
  }

  /** The u32 at {@code at} as the raw 32 bits (use {@link Integer#toUnsignedLong} for its value). */
  public int s32(long at) {
    if (!has(at, 4)) throw eof(at, 4);
    int v = seg.get(LE32, at);
    return swap ? Integer.reverseBytes(v) : v;
  }

  public long u32(long at) {
    return Integer.toUnsignedLong(s32(at));
  }

  public long u64(long at) {
    if (!has(at, 8)) throw eof(at, 8);
    long v = seg.get(LE64, at);
    return swap ? Long.reverseBytes(v) : v;
  }

  /** Unsigned integer of 1 to 8 bytes. */
  public long uN(long at, int n) {
    return switch (n) {
      case 1 -> u8(at);
      case 2 -> u16(at);
      case 4 -> u32(at);
      case 8 -> u64(at);
      default -> {
        if (n < 1 || n > 8) throw new IllegalArgumentException("bad integer size " + n);
        if (!has(at, n)) throw eof(at, n);
        long v = 0;
        for (int i = 0; i < n; i++) {
          long b = seg.get(ValueLayout.JAVA_BYTE, at + i) & 0xffL;
          v |= order == ByteOrder.LITTLE_ENDIAN ? b << (8 * i) : b << (8 * (n - 1 - i));
        }
        yield v;
      }
    };
  }

  /** A sub-view of exactly {@code len} bytes at {@code at}. */
  public ByteView slice(long at, long len) {
    if (!has(at, len)) throw eof(at, (int) Math.min(len, Integer.MAX_VALUE));
    return new ByteView(seg.asSlice(at, len), fileOffset + at, order, source, strpSize);
  }

  /** A sequential cursor starting at {@code at}. */
  public Cursor cursor(long at) {
    return new Cursor(this, at);
  }

  /** Copies {@code len} bytes at {@code at}. */
  public byte[] bytes(long at, int len) {
    if (!has(at, len)) throw eof(at, len);
    byte[] out = new byte[len];
    MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, at, out, 0, len);
    return out;
  }

  private static final ValueLayout.OfLong LE64_WORD = LE64;

  /**
   * Appends the bytes from {@code at} up to (not including) the next NUL or the end of the view to
   * {@code out}, scanning 8 bytes at a time.
   */
  public void appendCString(long at, TextBuffer out) {
    long size = size();
    long end = at;
    while (end + 8 <= size) {
      long v = seg.get(LE64_WORD, end);
      long zero = (v - 0x0101010101010101L) & ~v & 0x8080808080808080L;
      if (zero != 0) {
        end += Long.numberOfTrailingZeros(zero) >>> 3;
        out.append(seg, at, (int) Math.min(end - at, Integer.MAX_VALUE - 16));
        return;
      }
      end += 8;
    }
    while (end < size && seg.get(ValueLayout.JAVA_BYTE, end) != 0) end++;
    out.append(seg, at, (int) Math.min(end - at, Integer.MAX_VALUE - 16));
  }

  /** The bytes from {@code at} up to (not including) the next NUL or the end of the view. */
  public byte[] cStringBytes(long at) {
    long size = size();
    long end = at;
    while (end < size && seg.get(ValueLayout.JAVA_BYTE, end) != 0) end++;
    long len = end - at;
    if (len > Integer.MAX_VALUE - 16) throw error(at, "string too long");
    byte[] out = new byte[(int) len];
    MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, at, out, 0, (int) len);
    return out;
  }

  /**
   * The string from {@code at} up to (not including) the next NUL or the end of the view, decoded
   * by {@link ByteStrings} (bytes that are not UTF-8 are kept as escapes).
   */
  public String cString(long at) {
    if (at < 0) throw error(at, "string offset is negative");
    long size = size();
    long end = at;
    while (end < size && seg.get(ValueLayout.JAVA_BYTE, end) != 0) end++;
    if (end == at) return "";
    long len = end - at;
    if (len > Integer.MAX_VALUE - 16) throw error(at, "string too long");
    return ByteStrings.decode(seg.asSlice(at, len).toArray(ValueLayout.JAVA_BYTE));
  }
}
