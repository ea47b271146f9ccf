package dev.gsym.io;

import dev.gsym.GsymFormatException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The one sequential reader of encoded bytes: fixed-size integers in the view's byte order and
 * LEB128, over a window of a {@link ByteView} (a mapped file, or a heap array through {@link
 * ByteView#of}). Every bounds check and every LEB128 decoding of the code base is here, in two
 * flavours: strict reads ({@link #uleb}, {@link #u8}, ...) throw {@link GsymFormatException} with
 * the absolute file offset; lenient reads ({@link #ulebOrZero}, {@link #u8OrZero}, ...) behave as
 * LLVM's {@code DataExtractor} without an error argument: what cannot be read is 0 and the
 * position does not move. Positions are relative to the window's start (for a payload made by
 * {@link #split}, relative to the payload, as LLVM's decoders report them). Splitting does not
 * copy or slice memory.
 */
public final class Cursor {
  private final ByteView view;
  private final MemorySegment seg;
  /** Multi-byte values are read little endian (constant layouts inline fully) and swapped if set. */
  private final boolean swap;
  /** Position in {@link #view} of this window's first byte. */
  private final long origin;
  /** Window size. */
  private final long limit;
  private long pos;

  /** End position of the last LEB128 decoded, or one of the FAIL_ codes. */
  private long lebEnd;
  /** Where the last failed LEB128 decoding stopped (the position a strict read leaves). */
  private long lebFailAt;

  private static final long FAIL_EOF = -1;
  private static final long FAIL_BIG = -2;
  private static final long FAIL_LONG = -3;

  public Cursor(ByteView view, long pos) {
    this(view, 0, pos, view.size());
  }

  private Cursor(ByteView view, long origin, long pos, long limit) {
    this.view = view;
    this.seg = view.segment();
    this.swap = view.order() != java.nio.ByteOrder.LITTLE_ENDIAN;
    this.origin = origin;
    this.pos = pos;
    this.limit = limit;
  }

  /** The underlying view (the whole file for cursors made by a reader). */
  public ByteView view() {
    return view;
  }

  /** Position relative to this cursor's window. */
  public long position() {
    return pos;
  }

  /** Size of this cursor's window. */
  public long size() {
    return limit;
  }

  /** Absolute offset (in the view's source) of a window position. */
  public long absoluteOffset(long at) {
    return view.fileOffset() + origin + at;
  }

  public void seek(long pos) {
    this.pos = pos;
  }

  public long remaining() {
    return Math.max(0, limit - pos);
  }

  public boolean has(long n) {
    return n >= 0 && pos >= 0 && pos <= limit && n <= limit - pos;
  }

  public GsymFormatException error(String detail) {
    return errorAt(pos, detail);
  }

  /** An error at window position {@code at}, reported with its absolute offset. */
  public GsymFormatException errorAt(long at, String detail) {
    return view.error(origin + at, detail);
  }

  /**
   * An error whose detail starts with the position in this cursor's window, as LLVM's decoders
   * report it ({@code "0x%08x: " + detail}, relative to the payload being decoded).
   */
  public GsymFormatException errorHere(String detail) {
    return errorAt(pos, String.format("0x%08x: %s", pos, detail));
  }

  private GsymFormatException eof(long n) {
    return errorAt(pos, "unexpected end of data: " + n + " byte(s) needed, " + remaining() + " available");
  }

  /** Segment offset of the next {@code n} bytes, which the position moves past. */
  private long at(int n) {
    long p = pos;
    if (p < 0 || p > limit || n > limit - p) throw eof(n);
    pos = p + n;
    return origin + p;
  }

  public int u8() {
    return seg.get(ValueLayout.JAVA_BYTE, at(1)) & 0xff;
  }

  private static final ValueLayout.OfShort LE16 =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfInt LE32 =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong LE64 =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

  public int u16() {
    short v = seg.get(LE16, at(2));
    return (swap ? Short.reverseBytes(v) : v) & 0xffff;
  }

  /** Raw 32 bits of a u32. */
  public int s32() {
    int v = seg.get(LE32, at(4));
    return swap ? Integer.reverseBytes(v) : v;
  }

  public long u32() {
    return Integer.toUnsignedLong(s32());
  }

  public long u64() {
    long v = seg.get(LE64, at(8));
    return swap ? Long.reverseBytes(v) : v;
  }

  /** Unsigned integer of {@code n} (1 to 8) bytes. */
  public long uN(int n) {
    return switch (n) {
      case 1 -> u8();
      case 2 -> u16();
      case 4 -> u32();
      case 8 -> u64();
      default -> {
        long p = at(n);
        yield view.uN(p, n);
      }
    };
  }

  /**
   * A string-table offset of the view's {@link ByteView#strpSize} bytes, as the raw 32 bits the
   * string tables take: an offset of 4 GiB or more (only possible with 5-8 byte offsets) becomes
   * 0xffffffff, past any string table this reader can map, so it reads as "" (as LLVM reads any
   * offset past its table).
   */
  public int strp() {
    int n = view.strpSize();
    if (n == 4) return s32();
    long v = uN(n);
    return Long.compareUnsigned(v, 0xffffffffL) > 0 ? -1 : (int) v;
  }

  /** {@link #strp} read like LLVM's lenient getters: 0 and no move if it does not fit. */
  public int strpOrZero() {
    return has(view.strpSize()) ? strp() : 0;
  }

  /** Size in bytes of a string-table offset in this cursor's records. */
  public int strpSize() {
    return view.strpSize();
  }

  public void skip(long n) {
    if (!has(n)) throw errorAt(pos, "unexpected end of data: cannot skip " + n + " bytes");
    pos += n;
  }

  /**
   * Decodes the unsigned LEB128 at the position without moving it: returns the value and sets
   * {@link #lebEnd} to the position after it, or to a FAIL_ code (value 0) when it runs past the
   * window, does not fit 64 bits or is longer than 10 bytes.
   */
  private long decodeUleb() {
    long p = pos;
    long result = 0;
    int shift = 0;
    while (true) {
      if (p < 0 || p >= limit) return fail(FAIL_EOF, p);
      int b = seg.get(ValueLayout.JAVA_BYTE, origin + p++);
      long slice = b & 0x7f;
      if (shift >= 64 && slice != 0 || shift == 63 && slice > 1) return fail(FAIL_BIG, p);
      if (shift < 64) result |= slice << shift;
      shift += 7;
      if (b >= 0) {
        lebEnd = p;
        return result;
      }
      if (shift > 70) return fail(FAIL_LONG, p);
    }
  }

  /** As {@link #decodeUleb} for a signed LEB128 (LLVM's decodeSLEB128 limits). */
  private long decodeSleb() {
    long p = pos;
    long result = 0;
    int shift = 0;
    int b;
    do {
      if (p < 0 || p >= limit) return fail(FAIL_EOF, p);
      b = seg.get(ValueLayout.JAVA_BYTE, origin + p++);
      long slice = b & 0x7f;
      if (shift >= 64 && slice != (result < 0 ? 0x7f : 0) || shift == 63 && slice != 0 && slice != 0x7f) {
        return fail(FAIL_BIG, p);
      }
      if (shift < 64) result |= slice << shift;
      shift += 7;
      if (shift > 70) return fail(FAIL_LONG, p);
    } while (b < 0);
    if (shift < 64 && (b & 0x40) != 0) result |= -1L << shift;
    lebEnd = p;
    return result;
  }

  private long fail(long code, long at) {
    lebEnd = code;
    lebFailAt = at;
    return 0;
  }

  /** Moves past a decoded LEB128, or throws the strict read's error for a failed one. */
  private long take(long value, String kind, String bits) {
    long end = lebEnd;
    if (end >= 0) {
      pos = end;
      return value;
    }
    long start = pos;
    pos = lebFailAt;
    if (end == FAIL_EOF) throw eof(1);
    throw errorAt(start, kind + (end == FAIL_BIG ? " too big for " + bits : " too long"));
  }

  /** The byte at the position if it is a complete one-byte LEB128 (high bit clear), else -1. */
  private int oneByteLeb() {
    long p = pos;
    if (p < 0 || p >= limit) return -1;
    byte b = seg.get(ValueLayout.JAVA_BYTE, origin + p);
    return b; // negative when the high bit is set: a longer (or unreadable) value
  }

  /** Unsigned LEB128; values wider than 64 bits are an error. */
  public long uleb() {
    int b = oneByteLeb();
    if (b >= 0) {
      pos++;
      return b;
    }
    return take(decodeUleb(), "uleb128", "uint64");
  }

  /** Signed LEB128; values that do not fit 64 bits are an error (as LLVM's decodeSLEB128). */
  public long sleb() {
    int b = oneByteLeb();
    if (b >= 0) {
      pos++;
      return (long) b << 57 >> 57;
    }
    return take(decodeSleb(), "sleb128", "int64");
  }

  /**
   * Unsigned LEB128 read like LLVM's {@code DataExtractor::getULEB128} without an error argument:
   * a value that cannot be read (end of data, too big) yields 0 and the position does not move.
   */
  public long ulebOrZero() {
    int b = oneByteLeb();
    if (b >= 0) {
      pos++;
      return b;
    }
    long v = decodeUleb();
    if (lebEnd >= 0) pos = lebEnd;
    return v;
  }

  /** Signed LEB128 read like LLVM's lenient {@code getSLEB128}: unreadable yields 0, no move. */
  public long slebOrZero() {
    int b = oneByteLeb();
    if (b >= 0) {
      pos++;
      return (long) b << 57 >> 57;
    }
    long v = decodeSleb();
    if (lebEnd >= 0) pos = lebEnd;
    return v;
  }

  /** u8 read like LLVM's lenient {@code getU8}: past the end yields 0 and the position stays. */
  public int u8OrZero() {
    return has(1) ? u8() : 0;
  }

  /** Raw u32 read like LLVM's lenient {@code getU32}: 0 and no move if fewer than 4 bytes remain. */
  public int s32OrZero() {
    return has(4) ? s32() : 0;
  }

  /** Copies the bytes from the position to the end of the window; the position does not move. */
  public byte[] copyRemaining() {
    long n = remaining();
    if (n > Integer.MAX_VALUE - 16) throw errorAt(pos, "window too large to copy");
    return view.bytes(origin + pos, (int) n);
  }

  /**
   * True if the {@code len} bytes at window position {@code at} equal the {@code len} bytes at
   * {@code otherAt} of {@code other}'s window (false if either range is not inside its window).
   */
  public boolean sameBytes(long at, Cursor other, long otherAt, long len) {
    if (at < 0 || otherAt < 0 || len < 0 || at > limit - len || otherAt > other.limit - len) return false;
    long a = origin + at;
    long b = other.origin + otherAt;
    return MemorySegment.mismatch(seg, a, a + len, other.seg, b, b + len) == -1;
  }

  /** A cursor over the next {@code len} bytes; this cursor moves past them. */
  public Cursor split(long len) {
    if (!has(len)) throw eof(len);
    Cursor sub = new Cursor(view, origin + pos, 0, len);
    pos += len;
    return sub;
  }
}
