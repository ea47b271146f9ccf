package dev.gsym.io;

/**
 * A forward-moving reader over a window of a {@link ByteView}: fixed-size integers in the view's
 * byte order and LEB128. Positions are relative to the window's start (for a payload made by
 * {@link #split}, relative to the payload, as LLVM's decoders report them); every read past the
 * window throws {@link GsymFormatException} with the absolute file offset. Splitting does not copy
 * or slice memory.
 */
public final class Cursor {
  private final ByteView view;
  /** Position in {@link #view} of this window's first byte. */
  private final long origin;
  /** Window size. */
  private final long limit;
  private long pos;

  public Cursor(ByteView view, long pos) {
    this(view, 0, pos, view.size());
  }

  private Cursor(ByteView view, long origin, long pos, long limit) {
    this.view = view;
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

  private long at(int n) {
    if (!has(n)) throw eof(n);
    long a = origin + pos;
    pos += n;
    return a;
  }

  public int u8() {
    return view.u8(at(1));
  }

  public int u16() {
    return view.u16(at(2));
  }

  /** Raw 32 bits of a u32. */
  public int s32() {
    return view.s32(at(4));
  }

  public long u32() {
    return Integer.toUnsignedLong(s32());
  }

  public long u64() {
    return view.u64(at(8));
  }

  public void skip(long n) {
    if (!has(n)) throw errorAt(pos, "unexpected end of data: cannot skip " + n + " bytes");
    pos += n;
  }

  /** Unsigned LEB128; values wider than 64 bits are an error. */
  public long uleb() {
    long result = 0;
    int shift = 0;
    long start = pos;
    while (true) {
      int b = u8();
      long slice = b & 0x7f;
      if (shift >= 64 && slice != 0 || shift == 63 && slice > 1) {
        throw errorAt(start, "uleb128 too big for uint64");
      }
      if (shift < 64) result |= slice << shift;
      shift += 7;
      if ((b & 0x80) == 0) return result;
      if (shift > 70) throw errorAt(start, "uleb128 too long");
    }
  }

  /**
   * Unsigned LEB128 read like LLVM's {@code DataExtractor::getULEB128} without an error argument:
   * a value that cannot be read (end of data, too big) yields 0 and the position does not move.
   */
  public long ulebOrZero() {
    long save = pos;
    try {
      return uleb();
    } catch (GsymFormatException e) {
      pos = save;
      return 0;
    }
  }

  /** Signed LEB128 read like LLVM's lenient {@code getSLEB128}: unreadable yields 0, no move. */
  public long slebOrZero() {
    long save = pos;
    try {
      return sleb();
    } catch (GsymFormatException e) {
      pos = save;
      return 0;
    }
  }

  /** u8 read like LLVM's lenient {@code getU8}: past the end yields 0 and the position stays. */
  public int u8OrZero() {
    return has(1) ? u8() : 0;
  }

  /** Raw u32 read like LLVM's lenient {@code getU32}: 0 and no move if fewer than 4 bytes remain. */
  public int s32OrZero() {
    return has(4) ? s32() : 0;
  }

  /** Signed LEB128; values that do not fit 64 bits are an error (as LLVM's decodeSLEB128). */
  public long sleb() {
    long result = 0;
    int shift = 0;
    long start = pos;
    int b;
    do {
      b = u8();
      long slice = b & 0x7f;
      if (shift >= 64 && slice != (result < 0 ? 0x7f : 0) || shift == 63 && slice != 0 && slice != 0x7f) {
        throw errorAt(start, "sleb128 too big for int64");
      }
      if (shift < 64) result |= slice << shift;
      shift += 7;
      if (shift > 70) throw errorAt(start, "sleb128 too long");
    } while ((b & 0x80) != 0);
    if (shift < 64 && (b & 0x40) != 0) result |= -1L << shift;
    return result;
  }

  /** Copies the bytes from the position to the end of the window; the position does not move. */
  public byte[] copyRemaining() {
    long n = remaining();
    if (n > Integer.MAX_VALUE - 16) throw errorAt(pos, "window too large to copy");
    return view.bytes(origin + pos, (int) n);
  }

  /** A cursor over the next {@code len} bytes; this cursor moves past them. */
  public Cursor split(long len) {
    if (!has(len)) throw eof(len);
    Cursor sub = new Cursor(view, origin + pos, 0, len);
    pos += len;
    return sub;
  }
}
