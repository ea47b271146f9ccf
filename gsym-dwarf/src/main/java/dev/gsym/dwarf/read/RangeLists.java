package dev.gsym.dwarf.read;

import dev.gsym.format.AddressRange;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/** Decoders for .debug_ranges (DWARF 2-4) and .debug_rnglists (DWARF 5) lists. */
public final class RangeLists {
  private RangeLists() {}

  static final int RLE_END_OF_LIST = 0, RLE_BASE_ADDRESSX = 1, RLE_STARTX_ENDX = 2, RLE_STARTX_LENGTH = 3,
      RLE_OFFSET_PAIR = 4, RLE_BASE_ADDRESS = 5, RLE_START_END = 6, RLE_START_LENGTH = 7;

  /** A .debug_ranges list at {@code offset} with base address {@code base}. */
  public static List<AddressRange> ranges(ByteView sec, long offset, int addressSize, long base) {
    if (offset < 0 || offset >= sec.size()) throw sec.error(Math.max(0, Math.min(offset, sec.size())), "range list offset 0x" + Long.toHexString(offset) + " past end of section");
    long max = addressSize == 8 ? -1L : (1L << (addressSize * 8)) - 1;
    List<AddressRange> out = new ArrayList<>();
    long at = offset;
    while (true) {
      long s = DwarfUnit.uN(sec, at, addressSize);
      long e = DwarfUnit.uN(sec, at + addressSize, addressSize);
      at += 2L * addressSize;
      if (s == 0 && e == 0) break;
      if (s == max) {
        base = e;
        continue;
      }
      out.add(new AddressRange(base + s, base + e));
    }
    return out;
  }

  /** A .debug_rnglists list at {@code offset}; {@code addrx} resolves address indexes. */
  public static List<AddressRange> rnglist(ByteView sec, long offset, int addressSize, long base, LongUnaryOperator addrx) {
    if (offset < 0 || offset >= sec.size()) throw sec.error(Math.max(0, Math.min(offset, sec.size())), "range list offset 0x" + Long.toHexString(offset) + " past end of section");
    Cursor c = sec.cursor(offset);
    List<AddressRange> out = new ArrayList<>();
    while (true) {
      long at = c.position();
      int kind = c.u8();
      switch (kind) {
        case RLE_END_OF_LIST -> {
          return out;
        }
        case RLE_BASE_ADDRESSX -> base = addrx.applyAsLong(c.uleb());
        case RLE_STARTX_ENDX -> {
          long s = addrx.applyAsLong(c.uleb());
          long e = addrx.applyAsLong(c.uleb());
          out.add(new AddressRange(s, e));
        }
        case RLE_STARTX_LENGTH -> {
          long s = addrx.applyAsLong(c.uleb());
          out.add(new AddressRange(s, s + c.uleb()));
        }
        case RLE_OFFSET_PAIR -> {
          long s = c.uleb();
          long e = c.uleb();
          out.add(new AddressRange(base + s, base + e));
        }
        case RLE_BASE_ADDRESS -> base = read(c, addressSize);
        case RLE_START_END -> {
          long s = read(c, addressSize);
          out.add(new AddressRange(s, read(c, addressSize)));
        }
        case RLE_START_LENGTH -> {
          long s = read(c, addressSize);
          out.add(new AddressRange(s, s + c.uleb()));
        }
        default -> throw c.errorAt(at, "unknown range list entry kind 0x" + Integer.toHexString(kind));
      }
    }
  }

  private static long read(Cursor c, int n) {
    long v = DwarfUnit.uN(c.view(), c.position(), n);
    c.skip(n);
    return v;
  }
}
