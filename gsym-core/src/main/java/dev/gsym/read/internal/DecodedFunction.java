package dev.gsym.read.internal;

import dev.gsym.GsymFormatException;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.Hex;
import dev.gsym.format.Reading;
import dev.gsym.io.Cursor;
import dev.gsym.read.LookupException;
import java.util.function.IntFunction;

/**
 * One function's record decoded for lookups: its line rows ({@link LineIndex}) and its inline tree
 * ({@link InlineTable}). Only records that decode completely, with at most one line table and one
 * inline tree, no call sites or merged functions and rows in address order are cacheable; for them {@link #lookup}
 * gives exactly what {@link RecordLookup} gives on the record. Immutable.
 */
public final class DecodedFunction {
  final int index;
  final long start;
  final long size;
  private final int name;
  private final LineIndex lines; // null without a line table
  private final InlineTable inline; // null without inline info
  /** Heap held (0 for an uncacheable marker). */
  final long bytes;
  /** False for the marker of a record that is read at each lookup (unusual or malformed). */
  final boolean cacheable;

  private DecodedFunction(int index, long start, long size, int name, LineIndex lines,
      InlineTable inline, long bytes, boolean cacheable) {
    this.index = index;
    this.start = start;
    this.size = size;
    this.name = name;
    this.lines = lines;
    this.inline = inline;
    this.bytes = bytes;
    this.cacheable = cacheable;
  }

  private static DecodedFunction uncacheable(int index) {
    return new DecodedFunction(index, 0, 0, 0, null, null, 0, false);
  }

  /**
   * Reads function {@code index}'s record as a lookup reads it: {@link FunctionInfo#parse} in
   * {@link Reading#LOOKUP} mode; any error (a bad record offset included) leaves the function
   * uncacheable.
   */
  static DecodedFunction read(int index, IntFunction<Cursor> records, FunctionCache.StartAddress starts) {
    long start = starts.of(index);
    Builder b = new Builder(start);
    try {
      FunctionInfo.parse(records.apply(index), Reading.LOOKUP, b);
    } catch (GsymFormatException | LookupException e) {
      return uncacheable(index);
    }
    if (!b.cacheable) return uncacheable(index);
    long bytes = 64 + (b.lines == null ? 0 : b.lines.bytes()) + (b.inline == null ? 0 : b.inline.bytes());
    return new DecodedFunction(index, start, b.size, b.name, b.lines, b.inline, bytes, true);
  }

  /** The chunks a cacheable record may have: one line table that LineIndex handles, one tree. */
  private static final class Builder implements FunctionInfo.RecordVisitor {
    private final long start;
    long size;
    int name;
    LineIndex lines;
    InlineTable inline;
    boolean cacheable = true;

    Builder(long start) {
      this.start = start;
    }

    @Override
    public boolean header(long size, int name) {
      this.size = size;
      this.name = name;
      return true;
    }

    @Override
    public boolean chunk(int type, Cursor body) {
      switch (type) {
        case FunctionInfo.LINE_TABLE_INFO -> {
          if (lines != null || (lines = LineIndex.build(body, start)) == null) cacheable = false;
        }
        case FunctionInfo.INLINE_INFO -> {
          if (inline != null) cacheable = false;
          else inline = InlineTable.read(body, start);
        }
        // lookupCandidates relies on a cached function having neither: it answers from the cache
        case FunctionInfo.CALL_SITE_INFO, FunctionInfo.MERGED_FUNCTIONS_INFO -> cacheable = false;
        default -> { /* unknown chunks do not change a lookup */ }
      }
      return cacheable;
    }
  }

  /** True if {@code addr} is in the function (a size of 0 covers every address). */
  boolean covers(long addr) {
    return size == 0 || Long.compareUnsigned(addr - start, size) < 0;
  }

  /** Looks {@code addr} up, as {@link RecordLookup} on the record. */
  void lookup(long addr, FrameSink out) {
    long end = start + size;
    if (size > 0 && !(Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0)) {
      throw RecordLookup.notInGsym(addr); // as AddressRange.contains
    }
    out.begin(addr, start, end, name);
    if (lines == null) {
      out.addNoFile(name, addr - start);
      return;
    }
    long row = lines.lookup(addr);
    int file = (int) (row >>> 32);
    if (file == 0) {
      throw new LookupException("address " + Hex.hex(addr) + " is not in the line table");
    }
    out.addRow(name, Integer.toUnsignedLong(file), (int) row, addr - start);
    if (inline != null) inline.lookup(addr, out.inlineFrames());
  }
}
