package dev.gsym.write;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.IndexMap;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineTable;
import dev.gsym.format.Reading;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One FunctionInfo as {@link GsymCreator} holds it until it is written: the fields that sorting and
 * de-duplication look at, plus the record already encoded (little endian). A converter produces
 * millions of line rows and inline nodes; holding them as one byte array per function instead of
 * object graphs keeps the heap small and the garbage collector idle. Anything beyond the key
 * fields is decoded on demand. A FunctionInfo that cannot be encoded (e.g. name 0) is kept as an
 * object, so the error surfaces when the file is written, as in LLVM.
 */
final class StoredFunction {
  private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

  final AddressRange range;
  final int name;
  /** Rows of the line table, -1 without one. */
  final int lineRows;
  /** Nodes below the top InlineInfo (LLVM's sort key), -1 without inline info. */
  final long inlineNodes;
  final boolean richInfo;
  /** True if the FunctionInfo has MergedFunctionsInfo (their names are looked up by call-site loading). */
  final boolean hasMerged;
  private final byte[] bytes; // null when obj is kept instead, or the record is in the spill
  /** Where the record is when it was spilled (bytes is then null), else null. */
  private final RecordSpill spill;
  private final long spillAt;
  private final int spillLength;
  private final FunctionInfo obj;
  /** Decoded form, kept only while {@link GsymCreator#finish} compares equal ranges. */
  private FunctionInfo memo;
  /**
   * A spilled record read back, kept only while {@link GsymCreator#finish} compares equal ranges
   * (the sort compares one record with several others: read once, not at every comparison).
   */
  private byte[] readBack;

  private StoredFunction(FunctionInfo fi, byte[] bytes) {
    this(fi, fi.name(), bytes);
  }

  private StoredFunction(FunctionInfo fi, int name, byte[] bytes) {
    this.range = fi.range();
    this.name = name;
    this.lineRows = fi.lineTable() == null ? -1 : fi.lineTable().size();
    this.inlineNodes = fi.inlineInfo() == null ? -1 : fi.inlineInfo().totalChildren();
    this.richInfo = fi.hasRichInfo();
    this.hasMerged = fi.mergedFunctions() != null;
    this.bytes = bytes;
    this.spill = null;
    this.spillAt = 0;
    this.spillLength = 0;
    this.obj = bytes == null ? fi : null;
  }

  /** Encodes {@code fi} (kept as the object if it cannot be encoded). */
  static StoredFunction of(FunctionInfo fi) {
    byte[] b;
    try {
      GsymWriter w = new GsymWriter(ORDER, 0, 64);
      fi.encode(w);
      b = w.toByteArray();
    } catch (GsymFormatException | IllegalStateException e) {
      b = null; // reported again, with LLVM's timing, when the file is encoded
    }
    return new StoredFunction(fi, b);
  }

  /**
   * {@code of(fi.remap(m.strings(), m.files()), true)}, encoding with the translation instead of
   * building the translated copy (which is made only if encoding fails, to be kept as the object).
   */
  static StoredFunction translated(FunctionInfo fi, IndexMap m) {
    byte[] b;
    try {
      GsymWriter w = new GsymWriter(ORDER, 0, 64);
      fi.encode(w, m);
      b = w.toByteArray();
    } catch (GsymFormatException | IllegalStateException e) {
      return new StoredFunction(fi.remap(m.strings(), m.files()), null);
    }
    return new StoredFunction(fi, m.string(fi.name()), b);
  }

  private StoredFunction(StoredFunction local, int name, byte[] bytes) {
    this(local, name, bytes, null, 0, 0);
  }

  private StoredFunction(StoredFunction local, int name, byte[] bytes, RecordSpill spill, long spillAt, int spillLength) {
    this.range = local.range;
    this.name = name;
    this.lineRows = local.lineRows;
    this.inlineNodes = local.inlineNodes;
    this.richInfo = local.richInfo;
    this.hasMerged = local.hasMerged;
    this.bytes = bytes;
    this.spill = spill;
    this.spillAt = spillAt;
    this.spillLength = spillLength;
    this.obj = null;
  }

  /** True if the record is held encoded (in memory or in a spill), false if kept as an object. */
  private boolean encoded() {
    return bytes != null || spill != null;
  }

  /** The encoded record (read back from the spill if it is there); null if kept as an object. */
  private byte[] bytes() {
    return spill == null ? bytes : spill.read(spillAt, spillLength);
  }

  /** {@link #bytes}, a spilled record read back once until {@link #forget}. */
  private byte[] keptBytes() {
    if (spill == null) return bytes;
    if (readBack == null) readBack = spill.read(spillAt, spillLength);
    return readBack;
  }

  /** Bytes of the record held in this process's memory. */
  int heldBytes() {
    return bytes == null ? 0 : bytes.length;
  }

  /**
   * This function with one more InfoType chunk, {@code type} with {@code payload}, before its
   * EndOfList: the record's bytes spliced (nothing decoded), or, for one kept as an object,
   * {@code withChunk} applied to the object.
   */
  StoredFunction withChunk(int type, byte[] payload, java.util.function.UnaryOperator<FunctionInfo> withChunk) {
    if (!encoded()) return of(withChunk.apply(obj));
    byte[] old = bytes();
    int keep = old.length - 8; // the EndOfList chunk header: InfoType 0, length 0
    byte[] b = Arrays.copyOf(old, old.length + 8 + payload.length);
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(ORDER);
    bb.putInt(keep, type);
    bb.putInt(keep + 4, payload.length);
    System.arraycopy(payload, 0, b, keep + 8, payload.length);
    bb.putInt(keep + 8 + payload.length, FunctionInfo.END_OF_LIST);
    bb.putInt(keep + 12 + payload.length, 0);
    return new StoredFunction(this, name, b);
  }

  /** This function with its encoded record moved to {@code to}; itself if it has none in memory. */
  StoredFunction spilled(RecordSpill to) throws IOException {
    if (bytes == null) return this;
    return new StoredFunction(this, name, null, to, to.append(bytes), bytes.length);
  }

  /**
   * This function's record with every string offset and file index translated, rewritten from the
   * encoded bytes without decoding: {@code strings[offset]} (offsets are a scratch table's 1 +
   * positions; 0 stays 0) and {@code files[index]}. The result equals {@code translated(info(), m)}
   * for the same maps. Null if this function is kept as an object, has a chunk other than a line
   * table or inline info (merged functions and call sites hold strings elsewhere) or bytes the walk
   * cannot follow: the caller translates the decoded object instead.
   */
  StoredFunction relocated(int[] strings, int[] files) {
    if (!encoded()) return null;
    byte[] record = bytes();
    byte[] out;
    try {
      out = new Relocation(strings, files, range.start(), record.length).run(record);
    } catch (GsymFormatException e) {
      out = null;
    }
    return out == null ? null : new StoredFunction(this, strings[name], out);
  }

  private static Cursor cursor(byte[] record) {
    return ByteView.of(record, ORDER, "GsymCreator").cursor(0);
  }

  /**
   * The walk of {@link #relocated}: the record read by {@link FunctionInfo#parse}, its line table
   * and inline tree by theirs (all in {@link Reading#EXACT} mode), and written again with names and
   * file indexes rewritten. The creator's own records hold minimal LEB128s only, so writing the
   * values read gives back the same bytes wherever nothing is rewritten. Null for a chunk it does
   * not handle or a value it cannot translate (the caller translates the object instead).
   */
  private static final class Relocation implements FunctionInfo.RecordVisitor,
      LineTable.LineProgramVisitor, InlineInfo.InlineVisitor {
    private final int[] strings;
    private final int[] files;
    private final long start;
    private final GsymWriter w;
    private boolean ok = true;
    /** Line table: the file of the rows that follow, before and after translation. */
    private long localFile;
    private int emitted;

    Relocation(int[] strings, int[] files, long start, int size) {
      this.strings = strings;
      this.files = files;
      this.start = start;
      this.w = new GsymWriter(ORDER, 0, size + 16);
    }

    byte[] run(byte[] in) {
      Cursor c = cursor(in);
      FunctionInfo.parse(c, Reading.EXACT, this);
      if (!ok || c.remaining() != 0) return null;
      w.u32(FunctionInfo.END_OF_LIST);
      w.u32(0);
      return w.toByteArray();
    }

    private int string(int offset) {
      if (offset < 0 || offset >= strings.length) {
        ok = false;
        return 0;
      }
      return strings[offset];
    }

    private int file(long index) {
      if (index == 0) return 0;
      if (index < 0 || index >= files.length) {
        ok = false;
        return 0;
      }
      return files[(int) index];
    }

    @Override
    public boolean header(long size, int name) {
      w.u32(size);
      w.u32(Integer.toUnsignedLong(string(name)));
      return ok;
    }

    @Override
    public boolean chunk(int type, Cursor body) {
      if (type == FunctionInfo.UNWIND_INFO) { // no strings or files: copied as it is
        w.u32(type);
        w.u32(body.remaining());
        w.bytes(body.copyRemaining());
        return ok;
      }
      if (type != FunctionInfo.LINE_TABLE_INFO && type != FunctionInfo.INLINE_INFO) {
        ok = false; // merged functions and call sites hold strings elsewhere
        return false;
      }
      w.u32(type);
      int lenAt = w.reserveU32();
      if (type == FunctionInfo.LINE_TABLE_INFO) LineTable.parse(body, Reading.EXACT, this);
      else InlineInfo.parse(body, start, Reading.EXACT, this);
      if (body.remaining() != 0) ok = false;
      w.patchU32(lenAt, w.length() - lenAt - 4);
      return ok;
    }

    // The line table: LineTable.encode writes SetFile where a row's (translated) file differs from
    // the previous row's, starting from file 1. The map is one-to-one, so consecutive rows differ
    // after translation exactly when they differ before, except against that start value: SetFile
    // ops are therefore re-derived, before the first op of each row (AdvanceLine, AdvancePC or
    // special).

    @Override
    public void header(long minDelta, long maxDelta, long firstLine) {
      w.sleb(minDelta);
      w.sleb(maxDelta);
      w.uleb(firstLine);
      localFile = 1;
      emitted = 1;
    }

    @Override
    public boolean setFile(long file) {
      localFile = file;
      return true;
    }

    private boolean op(int op) {
      int g = file(localFile);
      if (g != emitted) {
        w.u8(LineTable.SET_FILE);
        w.uleb(Integer.toUnsignedLong(g));
        emitted = g;
      }
      w.u8(op);
      return ok;
    }

    @Override
    public boolean advancePc(long delta) {
      if (op(LineTable.ADVANCE_PC)) w.uleb(delta);
      return ok;
    }

    @Override
    public boolean advanceLine(long delta) {
      if (op(LineTable.ADVANCE_LINE)) w.sleb(delta);
      return ok;
    }

    @Override
    public boolean special(int op, long lineDelta, long addrDelta) {
      return op(op);
    }

    @Override
    public void end() {
      w.u8(LineTable.END_SEQUENCE);
    }

    // The inline tree, node by node: offsets are written back relative to the same bases.

    @Override
    public boolean node(int depth, InlineInfo.Ranges r, boolean hasChildren, int name, int callFile,
        int callLine) {
      w.uleb(r.count());
      for (int i = 0; i < r.count(); i++) {
        w.uleb(r.start(i) - r.base());
        w.uleb(r.size(i));
      }
      w.u8(hasChildren ? 1 : 0);
      w.u32(Integer.toUnsignedLong(string(name)));
      w.uleb(Integer.toUnsignedLong(file(Integer.toUnsignedLong(callFile))));
      w.uleb(Integer.toUnsignedLong(callLine));
      return ok;
    }

    @Override
    public boolean endChildren(int depth) {
      w.u8(0); // the terminator: a range count of 0
      return true;
    }
  }

  long start() {
    return range.start();
  }

  /** The FunctionInfo (decoded from the stored bytes unless it is kept as an object). */
  FunctionInfo info() {
    if (obj != null) return obj;
    if (memo != null) return memo;
    return FunctionInfo.decode(cursor(readBack != null ? readBack : bytes()), range.start());
  }

  private FunctionInfo memoized() {
    if (obj != null) return obj;
    if (memo == null) memo = info();
    return memo;
  }

  void forget() {
    memo = null;
    readBack = null;
  }

  /** Encoded size in bytes (with 4-byte string offsets, as version 1). */
  int encodedSize() {
    if (encoded()) return bytes != null ? bytes.length : spillLength;
    GsymWriter w = new GsymWriter(ORDER);
    obj.encode(w);
    return w.length();
  }


  /**
   * Writes the record in the byte order of {@code scratch} (reset and reused for re-encoding);
   * returns its length.
   */
  int writeTo(OutputStream os, GsymWriter scratch) throws IOException {
    if (encoded() && scratch.order() == ORDER && scratch.strpSize() == 4) {
      byte[] record = bytes();
      os.write(record);
      return record.length;
    }
    scratch.reset();
    info().encode(scratch);
    scratch.writeTo(os);
    return scratch.length();
  }

  /** {@link FunctionInfo#compare} without decoding unless the ranges and counts tie. */
  static int compare(StoredFunction a, StoredFunction b) {
    int c = a.range.compareTo(b.range);
    if (c != 0) return c;
    c = Long.compare(a.inlineNodes, b.inlineNodes); // null (-1) sorts first, as InlineInfo.compare
    if (c != 0) return c;
    c = Integer.compare(a.lineRows, b.lineRows); // null (-1) first, then by row count
    if (c != 0 || a.lineRows <= 0) return c;
    if (a.encoded() && b.encoded() && sameLineTableBytes(a.keptBytes(), b.keptBytes())) return 0; // duplicates
    // ranges and inline counts tie (FunctionInfo.compare would find the same): compare the rows
    return LineTable.compare(a.memoized().lineTable(), b.memoized().lineTable());
  }

  /**
   * Same encoded line table (the first InfoType chunk when there is one): then the rows, and with
   * the same start address their addresses, are equal.
   */
  private static boolean sameLineTableBytes(byte[] a, byte[] b) {
    Cursor x = firstLineTable(a);
    Cursor y = firstLineTable(b);
    return x != null && y != null && x.size() == y.size() && x.sameBytes(0, y, 0, x.size());
  }

  /** The payload of the record's first chunk if that is a line table, else null. */
  private static Cursor firstLineTable(byte[] record) {
    Cursor[] first = new Cursor[1];
    try {
      FunctionInfo.parse(cursor(record), Reading.EXACT, new FunctionInfo.RecordVisitor() {
        @Override
        public boolean header(long size, int name) {
          return true;
        }

        @Override
        public boolean chunk(int type, Cursor body) {
          if (type == FunctionInfo.LINE_TABLE_INFO) first[0] = body;
          return false;
        }
      });
    } catch (GsymFormatException e) {
      return null;
    }
    return first[0];
  }

  /** {@link FunctionInfo#sameAs}: range, name, line table and inline info equal. */
  boolean sameAs(StoredFunction o) {
    if (!range.equals(o.range) || name != o.name || lineRows != o.lineRows || inlineNodes != o.inlineNodes) {
      return false;
    }
    if (lineRows < 0 && inlineNodes < 0) return true;
    if (encoded() && o.encoded() && Arrays.equals(keptBytes(), o.keptBytes())) return true;
    return memoized().sameAs(o.memoized());
  }

  @Override
  public String toString() {
    return info().toString();
  }
}
