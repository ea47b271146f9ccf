package dev.gsym.write;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.IndexMap;
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

  /** Encodes {@code fi}; {@code compact} false keeps the object (short-lived scratch creators). */
  static StoredFunction of(FunctionInfo fi, boolean compact) {
    if (!compact) return new StoredFunction(fi, null);
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
    return dev.gsym.format.LineTable.compare(a.memoized().lineTable(), b.memoized().lineTable());
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
