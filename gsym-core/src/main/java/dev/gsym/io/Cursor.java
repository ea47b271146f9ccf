package dev.gsym.io;

/**
 * A forward-moving reader over a {@link ByteView}: fixed-size integers in the view's byte order and
 * LEB128. Every read past the end throws {@link GsymFormatException} with the absolute offset.
 */
public final class Cursor {
  private final ByteView view;
  private long pos;

  public Cursor(ByteView view, long pos) {
    this.view = view;
    this.pos = pos;
  }

  public ByteView view() {
    return view;
  }

  /** Position relative to the view. */
  public long position() {
    return pos;
  }

  public void seek(long pos) {
    this.pos = pos;
  }

  public long remaining() {
    return Math.max(0, view.size() - pos);
  }

  public boolean has(long n) {
    return view.has(pos, n);
  }

  public GsymFormatException error(String detail) {
    return view.error(pos, detail);
  }

  /**
   * An error whose detail starts with the position in this cursor's view, as LLVM's decoders
   * report it ({@code "0x%08x: " + detail}, relative to the payload being decoded).
   */
  public GsymFormatException errorHere(String detail) {
    return view.error(pos, String.format("0x%08x: %s", pos, detail));
  }

  public int u8() {
    int v = view.u8(pos);
    pos += 1;
    return v;
  }

  public int u16() {
    int v = view.u16(pos);
    pos += 2;
    return v;
  }

  /** Raw 32 bits of a u32. */
  public int s32() {
    int v = view.s32(pos);
    pos += 4;
    return v;
  }

  public long u32() {
    return Integer.toUnsignedLong(s32());
  }

  public long u64() {
    long v = view.u64(pos);
    pos += 8;
    return v;
  }

  public void skip(long n) {
    if (!view.has(pos, n)) throw view.error(pos, "unexpected end of data: cannot skip " + n + " bytes");
    pos += n;
  }

  /** Unsigned LEB128; values wider than 64 bits are an error. */
  public long uleb() {
    long result = 0;
    int shift = 0;
    long start = pos;
    while (true) {
      int b = view.u8(pos++);
      long slice = b & 0x7f;
      if (shift >= 64 && slice != 0 || shift == 63 && slice > 1) {
        throw view.error(start, "uleb128 too big for uint64");
      }
      if (shift < 64) result |= slice << shift;
      shift += 7;
      if ((b & 0x80) == 0) return result;
      if (shift > 70) throw view.error(start, "uleb128 too long");
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
      b = view.u8(pos++);
      long slice = b & 0x7f;
      if (shift >= 64 && slice != (result < 0 ? 0x7f : 0) || shift == 63 && slice != 0 && slice != 0x7f) {
        throw view.error(start, "sleb128 too big for int64");
      }
      if (shift < 64) result |= slice << shift;
      shift += 7;
      if (shift > 70) throw view.error(start, "sleb128 too long");
    } while ((b & 0x80) != 0);
    if (shift < 64 && (b & 0x40) != 0) result |= -1L << shift;
    return result;
  }

  /** A cursor over the next {@code len} bytes; this cursor moves past them. */
  public Cursor split(long len) {
    ByteView sub = view.slice(pos, len);
    pos += len;
    return new Cursor(sub, 0);
  }
}
