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
