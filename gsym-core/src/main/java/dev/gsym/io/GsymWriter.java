package dev.gsym.io;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable in-memory byte sink in one byte order, with alignment, LEB128 and back-patching
 * ({@link #reserveU32()} / {@link #patchU32}), like LLVM's {@code FileWriter}.
 */
public final class GsymWriter {
  private static final VarHandle LE16 =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BE16 =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final ByteOrder order;
  private final VarHandle h16;
  private final VarHandle h32;
  private final VarHandle h64;
  /** Absolute position of buf[0] in the output (for alignment of records written separately). */
  private final long origin;
  /** Size in bytes of the string-table offsets {@link #strp} writes. */
  private final int strpSize;
  private byte[] buf;
  private int len;

  public GsymWriter(ByteOrder order) {
    this(order, 0, 256);
  }

  /**
   * @param origin the absolute output offset at which this buffer's first byte will be placed;
   *     {@link #alignTo} aligns absolute offsets
   */
  public GsymWriter(ByteOrder order, long origin, int capacity) {
    this(order, origin, capacity, 4);
  }

  /**
   * @param strpSize size in bytes (1-8) of the string-table offsets written by {@link #strp} (4 in
   *     GSYM version 1, 8 in version 2)
   */
  public GsymWriter(ByteOrder order, long origin, int capacity, int strpSize) {
    if (strpSize < 1 || strpSize > 8) throw new IllegalArgumentException("bad string offset size " + strpSize);
    this.strpSize = strpSize;
    this.order = order;
    this.origin = origin;
    boolean le = order == ByteOrder.LITTLE_ENDIAN;
    this.h16 = le ? LE16 : BE16;
    this.h32 = le ? LE32 : BE32;
    this.h64 = le ? LE64 : BE64;
    this.buf = new byte[Math.max(16, capacity)];
  }

  public ByteOrder order() {
    return order;
  }

  /** Size in bytes of the string-table offsets {@link #strp} writes. */
  public int strpSize() {
    return strpSize;
  }

  /** A string-table offset (unsigned) of {@link #strpSize} bytes. */
  public void strp(long v) {
    if (strpSize == 4) u32(v);
    else uN(v, strpSize);
  }

  /** Absolute output position (origin + bytes written). */
  public long position() {
    return origin + len;
  }

  /** Bytes written to this buffer. */
  public int length() {
    return len;
  }

  private void ensure(int n) {
    if (len + n > buf.length) {
      long want = Math.max((long) buf.length * 2, (long) len + n);
      if (want > Integer.MAX_VALUE - 8) {
        if ((long) len + n > Integer.MAX_VALUE - 8) {
          throw new IllegalStateException("in-memory output over 2 GiB");
        }
        want = Integer.MAX_VALUE - 8;
      }
      buf = Arrays.copyOf(buf, (int) want);
    }
  }

  public void u8(int v) {
    ensure(1);
    buf[len++] = (byte) v;
  }

  public void u16(int v) {
    ensure(2);
    h16.set(buf, len, (short) v);
    len += 2;
  }

  public void u32(long v) {
    ensure(4);
    h32.set(buf, len, (int) v);
    len += 4;
  }

  public void u64(long v) {
    ensure(8);
    h64.set(buf, len, v);
    len += 8;
  }

  /** Unsigned integer of 1 to 8 bytes (the low bytes of {@code v}). */
  public void uN(long v, int n) {
    switch (n) {
      case 1 -> u8((int) v);
      case 2 -> u16((int) v);
      case 4 -> u32(v);
      case 8 -> u64(v);
      default -> {
        if (n < 1 || n > 8) throw new IllegalArgumentException("bad integer size " + n);
        ensure(n);
        for (int i = 0; i < n; i++) {
          int shift = order == ByteOrder.LITTLE_ENDIAN ? 8 * i : 8 * (n - 1 - i);
          buf[len++] = (byte) (v >>> shift);
        }
      }
    }
  }

  public void uleb(long v) {
    ensure(10);
    byte[] b = buf;
    int at = len;
    while ((v & ~0x7fL) != 0) {
      b[at++] = (byte) (v | 0x80);
      v >>>= 7;
    }
    b[at++] = (byte) v;
    len = at;
  }

  public void sleb(long v) {
    ensure(10);
    byte[] b = buf;
    int at = len;
    boolean more;
    do {
      int x = (int) (v & 0x7f);
      v >>= 7;
      more = !((v == 0 && (x & 0x40) == 0) || (v == -1 && (x & 0x40) != 0));
      b[at++] = (byte) (more ? x | 0x80 : x);
    } while (more);
    len = at;
  }

  public void bytes(byte[] b) {
    bytes(b, 0, b.length);
  }

  public void bytes(byte[] b, int off, int n) {
    ensure(n);
    System.arraycopy(b, off, buf, len, n);
    len += n;
  }

  /** Writes zeros until the absolute position is a multiple of {@code align}. */
  public void alignTo(int align) {
    long pad = (align - (position() % align)) % align;
    for (long i = 0; i < pad; i++) u8(0);
  }

  /** Writes a zero u32 and returns its buffer index for {@link #patchU32}. */
  public int reserveU32() {
    int at = len;
    u32(0);
    return at;
  }

  /** Overwrites the u32 at buffer index {@code at}. */
  public void patchU32(int at, long v) {
    h32.set(buf, at, (int) v);
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  public void writeTo(OutputStream out) throws IOException {
    out.write(buf, 0, len);
  }

  /** Forgets the content (keeps the capacity). Only for writers with origin 0. */
  public void reset() {
    len = 0;
  }
}
