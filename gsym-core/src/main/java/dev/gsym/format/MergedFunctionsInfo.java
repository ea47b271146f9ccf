package dev.gsym.format;

import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Functions folded onto the same address range as the one holding them (InfoType 3). Each child
 * starts at the holding function's start address.
 *
 * <pre>
 * ENCODING
 *   u32 Count, Count x { u32 Length, FunctionInfo record of Length bytes (no padding) }
 * </pre>
 */
public record MergedFunctionsInfo(List<FunctionInfo> mergedFunctions) {
  /** Copies the functions. */
  public MergedFunctionsInfo {
    mergedFunctions = List.copyOf(mergedFunctions);
  }

  /** Decodes; {@code base} is the holding function's start address. */
  public static MergedFunctionsInfo decode(Cursor c, long base) {
    return decode(c, base, 0);
  }

  /** {@code depth}: nesting level of the record holding this payload. */
  static MergedFunctionsInfo decode(Cursor c, long base, int depth) {
    List<FunctionInfo> list = new ArrayList<>();
    for (Cursor child : childRecords(c)) list.add(FunctionInfo.decode(child, base, depth + 1));
    return new MergedFunctionsInfo(list);
  }

  /**
   * Cursors over each child record, without decoding them; every length is checked first (LLVM's
   * getFuncsDataExtractors, with its messages).
   */
  public static List<Cursor> childRecords(Cursor c) {
    if (!c.has(4)) {
      throw c.error(String.format("unable to read the function count at offset 0x%08x", c.position()));
    }
    long n = c.u32();
    List<Cursor> list = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      if (!c.has(4)) {
        throw c.error(String.format("unable to read size of function %d at offset 0x%08x", i, c.position()));
      }
      long len = c.u32();
      if (!c.has(len)) {
        throw c.error(String.format("function data is truncated for function %d at offset 0x%08x, expected size %d",
            i, c.position(), len));
      }
      list.add(c.split(len));
    }
    return list;
  }

  /** Writes the chunk's payload to {@code w}. */
  public void encode(GsymWriter w) {
    encode(w, IndexMap.IDENTITY);
  }

  /** As {@link #encode(GsymWriter)} with string offsets and file indexes translated by {@code m}. */
  public void encode(GsymWriter w, IndexMap m) {
    w.u32(mergedFunctions.size());
    for (FunctionInfo fi : mergedFunctions) {
      int lenAt = w.reserveU32();
      int start = w.length();
      fi.encode(w, m);
      w.patchU32(lenAt, w.length() - start);
    }
  }

  /** "++ Merged FunctionInfos[i]:" then each merged function dumped with a 4-space indent. */
  public void dump(StringBuilder sb, GsymTables t) {
    for (int i = 0; i < mergedFunctions.size(); i++) {
      sb.append("++ Merged FunctionInfos[").append(i).append("]:\n");
      mergedFunctions.get(i).dump(sb, t, 4);
    }
  }
}
