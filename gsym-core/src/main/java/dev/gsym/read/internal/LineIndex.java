package dev.gsym.read.internal;

import dev.gsym.GsymFormatException;
import dev.gsym.format.LineTable;
import dev.gsym.format.Reading;
import dev.gsym.io.Cursor;
import java.util.Arrays;

/**
 * A line table prepared for repeated lookups: its rows decoded once into one sorted array, each row
 * packed into a long (address offset from the function start in the top bits, then file, then
 * line) when the function's values fit, else spread over three arrays. A lookup guesses the row
 * from the address's position in the function (rows are spread fairly evenly over the code), then
 * gallops and binary-searches from there: a few probes, mostly in one or two cache lines. Built
 * only for tables that decode completely without any of the lenient fallbacks of
 * {@link LineTable#parse} (every LEB128 complete, a non-zero delta range, an EndSequence) and
 * whose rows are in address order: for those, {@link #lookup} finds the same row
 * as {@link LineTable#lookup}. Immutable once built.
 */
public final class LineIndex {
  private final long base;
  /** Rows as sort keys: packed rows, or (wide layout) bare address offsets. */
  private final long[] keys;
  /** Wide layout only (else null): each row's file and line. */
  private final int[] files;
  private final int[] lines;
  /** Packed layout: bits of file and line below the offset (the offset takes the rest). */
  private final int lowBits;
  private final int lineBits;
  /** The largest address offset a key can hold (larger offsets are past every row). */
  private final long maxOffset;
  /** The last row's address offset, and the number of rows (read without touching the array). */
  private final long lastOffset;
  private final int count;

  private LineIndex(long base, long[] keys, int[] files, int[] lines, int lowBits, int lineBits,
      long maxOffset) {
    this.base = base;
    this.keys = keys;
    this.files = files;
    this.lines = lines;
    this.lowBits = lowBits;
    this.lineBits = lineBits;
    this.maxOffset = maxOffset;
    this.lastOffset = keys.length == 0 ? 0 : keys[keys.length - 1] >>> lowBits;
    this.count = keys.length;
  }

  /** Returned by {@link #lookup} when no row is at or below the address. */
  public static final long NOT_FOUND = 0;

  /** Number of rows. */
  public int rows() {
    return keys.length;
  }

  /** True if rows are packed one per long (false: spread over three arrays). */
  boolean packed() {
    return files == null;
  }

  /** Approximate heap size in bytes. */
  public long bytes() {
    return 96L + keys.length * (files == null ? 8L : 16L);
  }

  /** Per-thread scratch rows, reused from one table to the next. */
  private static final class Rows implements LineTable.RowVisitor {
    long[] off = new long[256];
    int[] file = new int[256];
    int[] line = new int[256];
    long base;
    int n;
    int fileOr;
    int lineOr;
    /** False once a row is out of address order (or the table too large): not indexed. */
    boolean ok;

    void reset(long base) {
      this.base = base;
      n = 0;
      fileOr = 0;
      lineOr = 0;
      ok = true;
    }

    @Override
    public boolean row(long addr, int f, int l) {
      long o = addr - base; // rows never go below base: they only advance, and may not wrap
      if (Long.compareUnsigned(addr, base) < 0 || n > 0 && Long.compareUnsigned(o, off[n - 1]) < 0
          || n >= Integer.MAX_VALUE / 2) {
        ok = false;
        return false;
      }
      if (n == off.length) {
        off = Arrays.copyOf(off, n * 2);
        file = Arrays.copyOf(file, n * 2);
        line = Arrays.copyOf(line, n * 2);
      }
      off[n] = o;
      file[n] = f;
      line[n] = l;
      fileOr |= f;
      lineOr |= l;
      n++;
      return true;
    }
  }

  private static final ThreadLocal<Rows> ROWS = ThreadLocal.withInitial(Rows::new);

  /**
   * Prepares the line program at {@code program} (a cursor over the LineTable payload) of a
   * function starting at {@code base}, or returns null if it is not one this index handles (see the
   * class comment): it is read by {@link LineTable#parse} in {@link Reading#EXACT} mode.
   */
  public static LineIndex build(Cursor program, long base) {
    Rows rows = ROWS.get();
    rows.reset(base);
    try {
      LineTable.parse(program, base, Reading.EXACT, rows);
    } catch (GsymFormatException e) {
      return null;
    }
    if (!rows.ok) return null;
    return pack(base, rows.off, rows.file, rows.line, rows.n, rows.fileOr, rows.lineOr);
  }

  private static LineIndex pack(long base, long[] offs, int[] fs, int[] ls, int n, int fileOr,
      int lineOr) {
    int fileBits = 32 - Integer.numberOfLeadingZeros(fileOr);
    int lineBits = 32 - Integer.numberOfLeadingZeros(lineOr);
    int lowBits = fileBits + lineBits;
    long lastOff = n == 0 ? 0 : offs[n - 1];
    int offBits = 64 - Long.numberOfLeadingZeros(lastOff);
    if (offBits + lowBits <= 64) {
      long[] keys = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = offs[i] << lowBits | Integer.toUnsignedLong(fs[i]) << lineBits | Integer.toUnsignedLong(ls[i]);
      }
      long maxOffset = lowBits == 0 ? -1L : -1L >>> lowBits;
      return new LineIndex(base, keys, null, null, lowBits, lineBits, maxOffset);
    }
    return new LineIndex(base, Arrays.copyOf(offs, n), Arrays.copyOf(fs, n), Arrays.copyOf(ls, n),
        0, 0, -1L);
  }

  /**
   * The last row at or below {@code addr}, as {@code (long) file << 32 | line} (unsigned line), or
   * {@link #NOT_FOUND} (which, like a row with file 0, is "not in the line table").
   */
  public long lookup(long addr) {
    long[] k = keys;
    int n = count;
    if (n == 0 || Long.compareUnsigned(addr, base) < 0) return NOT_FOUND;
    long off = addr - base;
    int i; // the last row whose key is at or below the target
    if (Long.compareUnsigned(off, maxOffset) > 0) {
      i = n - 1; // past every row's offset
    } else {
      int low = lowBits;
      long target = low == 0 ? off : off << low | -1L >>> (64 - low);
      i = SortedKeys.lastAtOrBelow(k, target, SortedKeys.guess(n, lastOffset, off));
    }
    if (i < 0) return NOT_FOUND;
    long key = k[i];
    if (files != null) return (long) files[i] << 32 | Integer.toUnsignedLong(lines[i]);
    long file = lowBits == 0 ? 0 : (key & -1L >>> (64 - lowBits)) >>> lineBits;
    long line = lineBits == 0 ? 0 : key & -1L >>> (64 - lineBits);
    return file << 32 | line;
  }
}
