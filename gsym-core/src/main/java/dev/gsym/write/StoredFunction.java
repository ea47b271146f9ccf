package dev.gsym.write;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.IndexMap;
import dev.gsym.format.LineTable;
import dev.gsym.io.ByteArrayReader;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymFormatException;
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
  private final byte[] bytes; // null when obj is kept instead
  private final FunctionInfo obj;
  /** Decoded form, kept only while {@link GsymCreator#finalize} compares equal ranges. */
  private FunctionInfo memo;

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
    this.range = local.range;
    this.name = name;
    this.lineRows = local.lineRows;
    this.inlineNodes = local.inlineNodes;
    this.richInfo = local.richInfo;
    this.hasMerged = local.hasMerged;
    this.bytes = bytes;
    this.obj = null;
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
    if (bytes == null) return null;
    Relocation r = new Relocation(bytes, strings, files);
    byte[] out = r.run();
    return out == null ? null : new StoredFunction(this, strings[name], out);
  }

  /**
   * The byte walk of {@link #relocated}: copies the record, rewriting names and file indexes. Null
   * for a chunk it does not handle or bytes it cannot walk (the caller translates the object).
   */
  private static final class Relocation {
    private final ByteArrayReader r;
    private final int[] strings;
    private final int[] files;
    private final GsymWriter w;

    Relocation(byte[] in, int[] strings, int[] files) {
      this.r = new ByteArrayReader(in, 0);
      this.strings = strings;
      this.files = files;
      this.w = new GsymWriter(ORDER, 0, in.length + 16);
    }

    byte[] run() {
      w.u32(Integer.toUnsignedLong(r.u32le())); // size
      w.u32(Integer.toUnsignedLong(string(r.u32le())));
      while (!r.bad) {
        int type = r.u32le();
        int len = r.u32le();
        w.u32(type);
        if (type == FunctionInfo.END_OF_LIST) {
          w.u32(len);
          break;
        }
        int lenAt = w.reserveU32();
        int end = r.i + len;
        if (type == FunctionInfo.LINE_TABLE_INFO) {
          lineTable();
        } else if (type == FunctionInfo.INLINE_INFO) {
          inline(0);
        } else {
          return null;
        }
        if (r.bad || r.i != end) return null;
        w.patchU32(lenAt, w.length() - lenAt - 4);
      }
      return r.bad || r.i != r.b.length ? null : w.toByteArray();
    }

    private int string(int offset) {
      if (offset < 0 || offset >= strings.length) {
        r.bad = true;
        return 0;
      }
      return strings[offset];
    }

    private int file(long index) {
      if (index == 0) return 0;
      if (index < 0 || index >= files.length) {
        r.bad = true;
        return 0;
      }
      return files[(int) index];
    }

    /**
     * LineTable.encode writes SetFile where a row's (translated) file differs from the previous
     * row's, starting from file 1. The map is one-to-one, so consecutive rows differ after
     * translation exactly when they differ before, except against that start value: SetFile ops are
     * therefore re-derived, before the first op of each row (AdvanceLine, AdvancePC or special).
     */
    private void lineTable() {
      copyLeb(); // min delta
      copyLeb(); // max delta
      copyLeb(); // first line
      long localFile = 1;
      int emitted = 1;
      while (!r.bad) {
        if (r.i >= r.b.length) {
          r.bad = true;
          return;
        }
        int op = r.b[r.i] & 0xff;
        if (op == LineTable.SET_FILE) {
          r.i++;
          localFile = r.uleb();
          continue;
        }
        if (op != LineTable.END_SEQUENCE) {
          int g = file(localFile);
          if (g != emitted) {
            w.u8(LineTable.SET_FILE);
            w.uleb(Integer.toUnsignedLong(g));
            emitted = g;
          }
        }
        w.u8(op);
        r.i++;
        if (op == LineTable.END_SEQUENCE) return;
        if (op == LineTable.ADVANCE_PC || op == LineTable.ADVANCE_LINE) copyLeb();
      }
    }

    private void inline(int depth) {
      if (depth > dev.gsym.format.InlineInfo.MAX_DEPTH) {
        r.bad = true;
        return;
      }
      long ranges = r.uleb();
      w.uleb(ranges);
      for (long k = 0; k < 2 * ranges && !r.bad; k++) copyLeb();
      if (r.bad || r.i >= r.b.length) {
        r.bad = true;
        return;
      }
      int hasChildren = r.b[r.i++];
      w.u8(hasChildren);
      w.u32(Integer.toUnsignedLong(string(r.u32le())));
      w.uleb(Integer.toUnsignedLong(file(r.uleb())));
      copyLeb(); // call line
      if (hasChildren == 0) return;
      while (!r.bad) {
        if (r.i >= r.b.length) {
          r.bad = true;
          return;
        }
        if (r.b[r.i] == 0) { // a child with no ranges: the end of the children
          w.u8(0);
          r.i++;
          return;
        }
        inline(depth + 1);
      }
    }

    /** Copies one LEB128 as it is (any length). */
    private void copyLeb() {
      int from = r.i;
      if (r.skipLeb()) w.bytes(r.b, from, r.i - from);
    }
  }

  long start() {
    return range.start();
  }

  /** The FunctionInfo (decoded from the stored bytes unless it is kept as an object). */
  FunctionInfo info() {
    if (obj != null) return obj;
    if (memo != null) return memo;
    return FunctionInfo.decode(ByteView.of(bytes, ORDER, "GsymCreator").cursor(0), range.start());
  }

  private FunctionInfo memoized() {
    if (obj != null) return obj;
    if (memo == null) memo = info();
    return memo;
  }

  void forget() {
    memo = null;
  }

  /** Encoded size in bytes. */
  int encodedSize() {
    if (bytes != null) return bytes.length;
    GsymWriter w = new GsymWriter(ORDER);
    obj.encode(w);
    return w.length();
  }

  /**
   * Writes the record in the byte order of {@code scratch} (reset and reused for re-encoding);
   * returns its length.
   */
  int writeTo(OutputStream os, GsymWriter scratch) throws IOException {
    if (bytes != null && scratch.order() == ORDER) {
      os.write(bytes);
      return bytes.length;
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
    if (a.bytes != null && b.bytes != null && sameLineTableBytes(a.bytes, b.bytes)) return 0; // duplicates
    // ranges and inline counts tie (FunctionInfo.compare would find the same): compare the rows
    return LineTable.compare(a.memoized().lineTable(), b.memoized().lineTable());
  }

  /**
   * Same encoded line table (the first InfoType chunk when there is one): then the rows, and with
   * the same start address their addresses, are equal.
   */
  private static boolean sameLineTableBytes(byte[] a, byte[] b) {
    if (a.length < 16 || b.length < 16 || a[8] != FunctionInfo.LINE_TABLE_INFO || b[8] != FunctionInfo.LINE_TABLE_INFO) {
      return false;
    }
    long lenA = (a[12] & 0xffL) | (a[13] & 0xffL) << 8 | (a[14] & 0xffL) << 16 | (a[15] & 0xffL) << 24;
    long lenB = (b[12] & 0xffL) | (b[13] & 0xffL) << 8 | (b[14] & 0xffL) << 16 | (b[15] & 0xffL) << 24;
    if (lenA != lenB || 16 + lenA > a.length || 16 + lenB > b.length) return false;
    return Arrays.equals(a, 16, (int) (16 + lenA), b, 16, (int) (16 + lenB));
  }

  /** {@link FunctionInfo#sameAs}: range, name, line table and inline info equal. */
  boolean sameAs(StoredFunction o) {
    if (!range.equals(o.range) || name != o.name || lineRows != o.lineRows || inlineNodes != o.inlineNodes) {
      return false;
    }
    if (lineRows < 0 && inlineNodes < 0) return true;
    if (bytes != null && o.bytes != null && Arrays.equals(bytes, o.bytes)) return true;
    return memoized().sameAs(o.memoized());
  }

  @Override
  public String toString() {
    return info().toString();
  }
}
