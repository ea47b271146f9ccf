package dev.gsym.io;

/**
 * Reads LEB128s and little-endian u32s from a byte array at a moving position {@link #i}, for hot
 * loops over already-encoded records (a {@link ByteView} over heap memory would add a segment class
 * to the DWARF reader's accessors). It never throws: {@link #bad} is set once a read would run past
 * the end or a LEB128 is longer than 9 bytes, and that read returns 0.
 */
public final class ByteArrayReader {
  public final byte[] b;
  public int i;
  public boolean bad;

  public ByteArrayReader(byte[] b, int i) {
    this.b = b;
    this.i = i;
  }

  public long uleb() {
    long result = 0;
    int shift = 0;
    int p = i;
    while (true) {
      if (p >= b.length || shift > 56) {
        bad = true;
        return 0;
      }
      int x = b[p++];
      result |= (long) (x & 0x7f) << shift;
      shift += 7;
      if (x >= 0) break;
    }
    i = p;
    return result;
  }

  public long sleb() {
    long result = 0;
    int shift = 0;
    int p = i;
    int x;
    do {
      if (p >= b.length || shift > 56) {
        bad = true;
        return 0;
      }
      x = b[p++];
      result |= (long) (x & 0x7f) << shift;
      shift += 7;
    } while (x < 0);
    if ((x & 0x40) != 0) result |= -1L << shift; // shift <= 63 here
    i = p;
    return result;
  }

  /** A little-endian u32 (as an int). */
  public int u32le() {
    if (i > b.length - 4) {
      bad = true;
      return 0;
    }
    int v = (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
    i += 4;
    return v;
  }

  /** Skips one LEB128 of any length; false (and {@link #bad}) if it runs past the end. */
  public boolean skipLeb() {
    int p = i;
    while (true) {
      if (p >= b.length) {
        bad = true;
        return false;
      }
      if (b[p++] >= 0) break;
    }
    i = p;
    return true;
  }
}
