package dev.gsym.format;

import java.util.Arrays;

/**
 * A line table prepared for repeated lookups: a copy of its line program plus the decoder state
 * at every {@value #STEP}th row, so a lookup binary-searches those checkpoints and decodes at most
 * {@value #STEP} rows. Built only for tables that decode completely without any of the lenient
 * fallbacks of {@link LineTable#parse} (every LEB128 complete and at most 9 bytes, a non-zero delta
 * range, an EndSequence) and whose rows are in address order: for those, {@link #lookup} finds the
 * same row as {@link LineTable#lookup}. Immutable once built.
 */
public final class LineIndex {
  private static final int STEP = 8;

  private final byte[] program;
  private final long minDelta;
  private final long lineRange;
  private final long[] cpAddr;
  private final int[] cpPos;
  private final int[] cpFile;
  private final int[] cpLine;
  private final int rows;

  private LineIndex(byte[] program, long minDelta, long lineRange, long[] cpAddr, int[] cpPos,
      int[] cpFile, int[] cpLine, int rows) {
    this.program = program;
    this.minDelta = minDelta;
    this.lineRange = lineRange;
    this.cpAddr = cpAddr;
    this.cpPos = cpPos;
    this.cpFile = cpFile;
    this.cpLine = cpLine;
    this.rows = rows;
  }

  /** Returned by {@link #lookup} when no row is at or below the address. */
  public static final long NOT_FOUND = 0;

  /** Number of rows. */
  public int rows() {
    return rows;
  }

  /** Approximate heap size in bytes. */
  public long bytes() {
    return 96L + program.length + cpAddr.length * 20L;
  }

  /** Reads a LEB128 from a byte array; {@link #bad} once one is incomplete or longer than 9 bytes. */
  private static final class Leb {
    final byte[] b;
    int i;
    boolean bad;

    Leb(byte[] b, int i) {
      this.b = b;
      this.i = i;
    }

    long uleb() {
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

    long sleb() {
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
  }

  /**
   * Prepares the line program {@code program} (the whole LineTable payload) of a function starting
   * at {@code base}, or returns null if it is not one this index handles (see the class comment).
   */
  public static LineIndex build(byte[] program, long base) {
    Leb r = new Leb(program, 0);
    long minDelta = r.sleb();
    long maxDelta = r.sleb();
    int line = (int) r.uleb();
    if (r.bad) return null;
    long lineRange = maxDelta - minDelta + 1;
    long addr = base;
    int file = 1;
    int n = 0;
    long prev = 0;
    int cps = 0;
    long[] cpAddr = new long[8];
    int[] cpPos = new int[8];
    int[] cpFile = new int[8];
    int[] cpLine = new int[8];
    while (true) {
      if (r.i >= program.length) return null;
      int op = program[r.i++] & 0xff;
      boolean row = false;
      switch (op) {
        case LineTable.END_SEQUENCE -> {
          return new LineIndex(program, minDelta, lineRange, Arrays.copyOf(cpAddr, cps),
              Arrays.copyOf(cpPos, cps), Arrays.copyOf(cpFile, cps), Arrays.copyOf(cpLine, cps), n);
        }
        case LineTable.SET_FILE -> file = (int) r.uleb();
        case LineTable.ADVANCE_PC -> {
          addr += r.uleb();
          row = true;
        }
        case LineTable.ADVANCE_LINE -> line += (int) r.sleb();
        default -> {
          if (lineRange == 0) return null;
          long adj = op - LineTable.FIRST_SPECIAL;
          line += (int) (minDelta + adj % lineRange);
          addr += adj / lineRange;
          row = true;
        }
      }
      if (r.bad) return null;
      if (!row) continue;
      if (n > 0 && Long.compareUnsigned(addr, prev) < 0) return null;
      if (n % STEP == 0) {
        if (cps == cpAddr.length) {
          cpAddr = Arrays.copyOf(cpAddr, cps * 2);
          cpPos = Arrays.copyOf(cpPos, cps * 2);
          cpFile = Arrays.copyOf(cpFile, cps * 2);
          cpLine = Arrays.copyOf(cpLine, cps * 2);
        }
        cpAddr[cps] = addr;
        cpPos[cps] = r.i;
        cpFile[cps] = file;
        cpLine[cps] = line;
        cps++;
      }
      prev = addr;
      n++;
    }
  }

  /**
   * The last row at or below {@code addr}, as {@code (long) file << 32 | line} (unsigned line), or
   * {@link #NOT_FOUND} (which, like a row with file 0, is "not in the line table").
   */
  public long lookup(long addr) {
    int lo = 0;
    int hi = cpAddr.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(cpAddr[mid], addr) <= 0) lo = mid + 1;
      else hi = mid;
    }
    int k = lo - 1;
    if (k < 0) return NOT_FOUND;
    long a = cpAddr[k];
    int file = cpFile[k];
    int line = cpLine[k];
    int bestFile = file;
    int bestLine = line;
    Leb r = new Leb(program, cpPos[k]);
    byte[] p = program;
    while (true) {
      int op = p[r.i++] & 0xff;
      switch (op) {
        case LineTable.END_SEQUENCE -> {
          return (long) bestFile << 32 | (bestLine & 0xFFFF_FFFFL);
        }
        case LineTable.SET_FILE -> {
          file = (int) r.uleb();
          continue;
        }
        case LineTable.ADVANCE_LINE -> {
          line += (int) r.sleb();
          continue;
        }
        case LineTable.ADVANCE_PC -> a += r.uleb();
        default -> {
          long adj = op - LineTable.FIRST_SPECIAL;
          line += (int) (minDelta + adj % lineRange);
          a += adj / lineRange;
        }
      }
      if (Long.compareUnsigned(a, addr) > 0) return (long) bestFile << 32 | (bestLine & 0xFFFF_FFFFL);
      bestFile = file;
      bestLine = line;
    }
  }
}
