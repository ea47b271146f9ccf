package dev.gsym.format;

import dev.gsym.GsymFormatException;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import dev.gsym.read.LookupException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A function's line table (InfoType 1): rows of address, file and line, stored as a tiny
 * line-program.
 *
 * <pre>
 * ENCODING
 *   SLEB MinDelta   SLEB MaxDelta   ULEB FirstLine
 *   opcodes: 0x00 EndSequence | 0x01 SetFile ULEB | 0x02 AdvancePC ULEB (row)
 *            | 0x03 AdvanceLine SLEB | 0x04..0xff special (row):
 *              adj = op - 4; line += MinDelta + adj % (MaxDelta - MinDelta + 1);
 *              addr += adj / (MaxDelta - MinDelta + 1)
 * </pre>
 *
 * Decoding starts at the function start address, file 1 and FirstLine.
 */
public record LineTable(List<LineEntry> rows) {
  /** Opcodes of the encoded line table: end, file (ULEB), address (ULEB), line (SLEB), then special opcodes. */
  public static final int END_SEQUENCE = 0x00;
  public static final int SET_FILE = 0x01;
  public static final int ADVANCE_PC = 0x02;
  public static final int ADVANCE_LINE = 0x03;
  public static final int FIRST_SPECIAL = 0x04;
  /** LLVM's MaxLineRange: widest window of line deltas special opcodes cover. */
  static final long MAX_LINE_RANGE = 14;

  /** Copies the rows. */
  public LineTable {
    rows = List.copyOf(rows);
  }

  /** True without rows. */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The number of rows. */
  public int size() {
    return rows.size();
  }

  /** The first row. */
  public LineEntry first() {
    return rows.getFirst();
  }

  /**
   * Receives the line program's operations in order, as {@link #parse(Cursor, Reading,
   * LineProgramVisitor)} reads them (values as encoded: files unsigned, lines and deltas 64-bit).
   * Each method but {@link #header} and {@link #end} returns false to stop the walk.
   */
  public interface LineProgramVisitor {
    /** The three header values. */
    void header(long minDelta, long maxDelta, long firstLine);

    /** SetFile: the file of the rows that follow. */
    boolean setFile(long file);

    /** AdvancePC: the address moves by {@code delta} and a row is made. */
    boolean advancePc(long delta);

    /** AdvanceLine: the line moves by {@code delta}; no row is made. */
    boolean advanceLine(long delta);

    /**
     * A special opcode {@code op}: the line moves by {@code lineDelta}, the address by {@code
     * addrDelta}, and a row is made.
     */
    boolean special(int op, long lineDelta, long addrDelta);

    /** EndSequence (not called when the walk was stopped). */
    void end();
  }

  /**
   * The one decoder of the line program: reads the header and the opcodes up to EndSequence,
   * reporting each to {@code v}. LLVM's checks and messages apply in every mode (a missing header
   * value or operand, no EndSequence, a special opcode with an empty delta range); LEB128 values
   * that cannot be read are 0, as LLVM reads them, except in {@link Reading#EXACT}, where they are
   * an error.
   */
  public static void parse(Cursor c, Reading mode, LineProgramVisitor v) {
    if (!c.has(1)) throw c.errorHere("missing LineTable MinDelta");
    long minDelta = mode.sleb(c);
    if (!c.has(1)) throw c.errorHere("missing LineTable MaxDelta");
    long maxDelta = mode.sleb(c);
    if (!c.has(1)) throw c.errorHere("missing LineTable FirstLine");
    long firstLine = mode.uleb(c);
    v.header(minDelta, maxDelta, firstLine);
    long lineRange = maxDelta - minDelta + 1;
    while (true) {
      if (!c.has(1)) throw c.errorHere("EOF found before EndSequence");
      int op = c.u8();
      boolean go;
      switch (op) {
        case END_SEQUENCE -> {
          v.end();
          return;
        }
        case SET_FILE -> {
          if (!c.has(1)) throw c.errorHere("EOF found before SetFile value");
          go = v.setFile(mode.uleb(c));
        }
        case ADVANCE_PC -> {
          if (!c.has(1)) throw c.errorHere("EOF found before AdvancePC value");
          go = v.advancePc(mode.uleb(c));
        }
        case ADVANCE_LINE -> {
          if (!c.has(1)) throw c.errorHere("EOF found before AdvanceLine value");
          go = v.advanceLine(mode.sleb(c));
        }
        default -> {
          // LLVM divides by MaxDelta - MinDelta + 1 (int64, wrapping) with C++ semantics, which Java's
          // / and % share; only a zero range (which crashes llvm-gsymutil) is rejected
          if (lineRange == 0) {
            throw c.errorHere("invalid LineTable delta range [" + minDelta + ", " + maxDelta + "]");
          }
          long adj = op - FIRST_SPECIAL;
          go = v.special(op, minDelta + adj % lineRange, adj / lineRange);
        }
      }
      if (!go) return;
    }
  }

  /** Receives rows while parsing; return false to stop. */
  @FunctionalInterface
  public interface RowVisitor {
    /** One row: from {@code address} on, {@code file}:{@code line}; return false to stop. */
    boolean row(long address, int file, int line);
  }

  /**
   * Runs the line program in {@code c} starting at {@code base} (address {@code base}, file 1 and
   * FirstLine), feeding rows to {@code v}: the row-level view of {@link #parse(Cursor, Reading,
   * LineProgramVisitor)}.
   */
  public static void parse(Cursor c, long base, Reading mode, RowVisitor v) {
    parse(c, mode, new Rows(base, v));
  }

  /** {@link #parse(Cursor, long, Reading, RowVisitor)} as LLVM reads the program. */
  public static void parse(Cursor c, long base, RowVisitor v) {
    parse(c, base, Reading.DECODE, v);
  }

  /** The line-program state machine: operations in, rows out. */
  private static final class Rows implements LineProgramVisitor {
    private final RowVisitor rows;
    private long addr;
    private int file = 1;
    private int line;

    Rows(long base, RowVisitor rows) {
      this.addr = base;
      this.rows = rows;
    }

    @Override
    public void header(long minDelta, long maxDelta, long firstLine) {
      line = (int) firstLine;
    }

    @Override
    public boolean setFile(long f) {
      file = (int) f;
      return true;
    }

    @Override
    public boolean advancePc(long delta) {
      addr += delta;
      return rows.row(addr, file, line);
    }

    @Override
    public boolean advanceLine(long delta) {
      line += (int) delta;
      return true;
    }

    @Override
    public boolean special(int op, long lineDelta, long addrDelta) {
      line += (int) lineDelta;
      addr += addrDelta;
      return rows.row(addr, file, line);
    }

    @Override
    public void end() {}
  }

  /** Decodes a whole table; {@code base} is the function's start address. */
  public static LineTable decode(Cursor c, long base) {
    List<LineEntry> rows = new ArrayList<>();
    parse(c, base, (a, f, l) -> rows.add(new LineEntry(a, f, l)));
    return new LineTable(rows);
  }

  /**
   * The last row whose address is at most {@code addr} (LLVM 22 semantics).
   *
   * @throws LookupException "address 0x… is not in the line table" when no row qualifies or the
   *     row has file 0 (as llvm-gsymutil-22)
   */
  public static LineEntry lookup(Cursor c, long base, long addr) {
    LastRowAtOrBelow v = new LastRowAtOrBelow(addr);
    parse(c, base, v);
    // LLVM only accepts a row with a file (LineEntry::isValid() is File != 0): a file-0 row fails too
    if (!v.found || v.file == 0) {
      throw new LookupException("address " + Hex.hex(addr) + " is not in the line table");
    }
    return new LineEntry(v.address, v.file, v.line);
  }

  /** Keeps the last row whose address is at most the target; stops at the first row above it. */
  private static final class LastRowAtOrBelow implements RowVisitor {
    private final long target;
    boolean found;
    long address;
    int file;
    int line;

    LastRowAtOrBelow(long target) {
      this.target = target;
    }

    @Override
    public boolean row(long a, int f, int l) {
      if (Long.compareUnsigned(a, target) > 0) return false;
      found = true;
      address = a;
      file = f;
      line = l;
      return true;
    }
  }

  /**
   * The window of line deltas the special opcodes cover when the deltas span more than
   * MAX_LINE_RANGE: of the windows [d, d + MAX_LINE_RANGE] starting at a delta d, the one holding
   * the most deltas (the lowest on ties), as {lowest, highest delta in it}. Sorts the deltas
   * (reordering {@code deltas}). Package-private: tests compare it with {@link #windowByCounts}.
   */
  static long[] windowBySort(long[] deltas) {
    Arrays.sort(deltas);
    int distinct = 0;
    long[] keys = new long[deltas.length];
    long[] counts = new long[deltas.length];
    for (long d : deltas) {
      if (distinct > 0 && keys[distinct - 1] == d) {
        counts[distinct - 1]++;
      } else {
        keys[distinct] = d;
        counts[distinct++] = 1;
      }
    }
    long bestCount = 0;
    int bestIndex = 0;
    int bestEnd = 0;
    for (int i = 0; i < distinct; i++) {
      long first = keys[i];
      long count = 0;
      int j = i;
      for (; j < distinct && keys[j] - first <= MAX_LINE_RANGE; j++) count += counts[j];
      if (count > bestCount) {
        bestCount = count;
        bestIndex = i;
        bestEnd = j - 1;
      }
    }
    return new long[] {keys[bestIndex], keys[bestEnd]};
  }

  /**
   * {@link #windowBySort} by counting each delta in an array indexed by {@code delta - lo}
   * ({@code lo} and {@code hi} the lowest and highest delta; for many deltas over a span of a few
   * times their number, where sorting costs more): the same window.
   */
  static long[] windowByCounts(long[] deltas, long lo, long hi) {
    int span = (int) (hi - lo) + 1;
    int[] prefix = new int[span + 1]; // prefix[i]: deltas below lo + i
    for (long d : deltas) prefix[(int) (d - lo) + 1]++;
    boolean[] present = new boolean[span];
    for (int i = 0; i < span; i++) {
      present[i] = prefix[i + 1] != 0;
      prefix[i + 1] += prefix[i];
    }
    int best = -1;
    int bestCount = 0;
    for (int i = 0; i < span; i++) {
      if (!present[i]) continue;
      int end = (int) Math.min(span - 1, i + MAX_LINE_RANGE);
      int count = prefix[end + 1] - prefix[i];
      if (count > bestCount) {
        bestCount = count;
        best = i;
      }
    }
    int end = (int) Math.min(span - 1, best + MAX_LINE_RANGE);
    while (!present[end]) end--;
    return new long[] {lo + best, lo + end};
  }

  /** Encodes the rows exactly as LLVM does (same delta window, same opcodes). */
  public void encode(GsymWriter w, long base) {
    encode(w, base, IndexMap.IDENTITY);
  }

  /** As {@link #encode(GsymWriter, long)} with each row's file translated by {@code m}. */
  public void encode(GsymWriter w, long base, IndexMap m) {
    if (rows.isEmpty()) throw new GsymFormatException("LineTable", -1, "attempted to encode empty LineTable");
    long minDelta = Long.MAX_VALUE;
    long maxDelta = Long.MIN_VALUE;
    int n = rows.size();
    if (n == 1) {
      minDelta = 0;
      maxDelta = 0;
    } else {
      long prevLine = Integer.toUnsignedLong(rows.getFirst().line());
      for (int i = 1; i < n; i++) {
        long curLine = Integer.toUnsignedLong(rows.get(i).line());
        long d = curLine - prevLine;
        prevLine = curLine;
        minDelta = Math.min(minDelta, d);
        maxDelta = Math.max(maxDelta, d);
      }
      if (maxDelta - minDelta > MAX_LINE_RANGE) {
        long[] deltas = new long[n - 1];
        prevLine = Integer.toUnsignedLong(rows.getFirst().line());
        for (int i = 1; i < n; i++) {
          long curLine = Integer.toUnsignedLong(rows.get(i).line());
          deltas[i - 1] = curLine - prevLine;
          prevLine = curLine;
        }
        // many deltas over a span of a few times their number (at most 2^33 in all): counted, not sorted
        long[] window = deltas.length >= 64 && maxDelta - minDelta < 4L * deltas.length
            ? windowByCounts(deltas, minDelta, maxDelta) : windowBySort(deltas);
        minDelta = window[0];
        maxDelta = window[1];
      }
      if (minDelta == maxDelta && minDelta > 0 && minDelta < MAX_LINE_RANGE) minDelta = 0;
    }
    w.sleb(minDelta);
    w.sleb(maxDelta);
    w.uleb(Integer.toUnsignedLong(rows.getFirst().line()));
    long lineRange = maxDelta - minDelta + 1;
    long prevAddr = base;
    int prevFile = 1;
    long prevLine = Integer.toUnsignedLong(rows.getFirst().line());
    for (int i = 0; i < n; i++) {
      LineEntry row = rows.get(i);
      if (Long.compareUnsigned(row.address(), base) < 0) {
        throw new GsymFormatException("LineTable", -1, "LineEntry has address " + Hex.hex(row.address())
            + " which is less than the function start address " + Hex.hex(base));
      }
      if (Long.compareUnsigned(row.address(), prevAddr) < 0) {
        throw new GsymFormatException("LineTable", -1, "LineEntry in LineTable not in ascending order");
      }
      int file = m.file(row.file());
      if (file != prevFile) {
        w.u8(SET_FILE);
        w.uleb(Integer.toUnsignedLong(file));
        prevFile = file;
      }
      long addrDelta = row.address() - prevAddr;
      long curLine = Integer.toUnsignedLong(row.line());
      // LLVM: Curr > Prev ? Curr - Prev : -(int32_t)(Prev - Curr) (a drop of 2^31 or more wraps)
      long lineDelta = curLine >= prevLine ? curLine - prevLine : -(long) (int) (prevLine - curLine);
      boolean special = false;
      if (lineDelta >= minDelta && lineDelta <= maxDelta && Long.compareUnsigned(addrDelta, 255) <= 0) {
        long op = (lineDelta - minDelta) + addrDelta * lineRange + FIRST_SPECIAL;
        if (op <= 255) {
          w.u8((int) op);
          special = true;
        }
      }
      if (!special) {
        if (lineDelta != 0) {
          w.u8(ADVANCE_LINE);
          w.sleb(lineDelta);
        }
        w.u8(ADVANCE_PC);
        w.uleb(addrDelta);
      }
      prevAddr = row.address();
      prevLine = curLine;
    }
    w.u8(END_SEQUENCE);
  }

  /** Lexicographic order by row count, then row addresses (LLVM's LineTable operator&lt;). */
  public static int compare(LineTable a, LineTable b) {
    if (a == b) return 0;
    if (a == null) return -1;
    if (b == null) return 1;
    int c = Integer.compare(a.rows.size(), b.rows.size());
    if (c != 0) return c;
    for (int i = 0; i < a.rows.size(); i++) {
      c = Long.compareUnsigned(a.rows.get(i).address(), b.rows.get(i).address());
      if (c != 0) return c;
    }
    return 0;
  }

  /** The "LineTable:" block of llvm-gsymutil's dump, every line indented by {@code indent}. */
  public void dump(StringBuilder sb, GsymTables t, int indent) {
    sb.repeat(' ', indent).append("LineTable:\n");
    for (LineEntry e : rows) {
      sb.repeat(' ', indent).append("  ");
      Hex.append(sb, e.address(), 16).append(' ');
      if (e.file() != 0) FileTable.dumpFile(sb, t.file(Integer.toUnsignedLong(e.file())), t::string);
      sb.append(':').append(Integer.toUnsignedLong(e.line())).append('\n');
    }
  }

  /** One "addr=…, file=…, line=…" line per row (LLVM's operator&lt;&lt;). */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (LineEntry e : rows) sb.append(e).append('\n');
    return sb.toString();
  }
}
