package dev.gsym.format;

import dev.gsym.GsymFormatException;
import dev.gsym.io.GsymWriter;
import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * The section directory of a version 2 file: {@link GlobalData} entries right after the header,
 * ending with an EndOfList entry. Parsing validates what LLVM main's reader validates (each
 * entry's size is non-zero and it lies inside the file, the list is terminated, the required
 * sections are present) and also rejects a type listed twice, which LLVM would silently let the
 * last one win.
 *
 * @param entries the entries in file order, EndOfList excluded (unknown types included)
 * @param end the offset just past the EndOfList entry
 */
public record GlobalDataDirectory(List<GlobalData> entries, long end) {

  private static final int[] REQUIRED = {
    GlobalData.ADDR_OFFSETS, GlobalData.ADDR_INFO_OFFSETS, GlobalData.STRING_TABLE,
    GlobalData.FILE_TABLE, GlobalData.FUNCTION_INFO
  };

  /** Copies the entries. */
  public GlobalDataDirectory {
    entries = List.copyOf(entries);
  }

  /** Parses the directory at {@code at} (the end of the header). */
  public static GlobalDataDirectory decode(ByteView v, long at) {
    List<GlobalData> list = new ArrayList<>();
    long[] seen = new long[GlobalData.UUID + 1];
    long size = v.size();
    long off = at;
    while (v.has(off, GlobalData.SIZE)) {
      GlobalData gd = GlobalData.decode(v, off);
      if (gd.type() == GlobalData.END_OF_LIST) {
        GlobalDataDirectory d = new GlobalDataDirectory(list, off + GlobalData.SIZE);
        for (int type : REQUIRED) {
          if (d.find(type) == null) {
            throw v.error(at, "missing required section type " + GlobalData.typeName(type) + " (" + type + ")");
          }
        }
        return d;
      }
      long type = Integer.toUnsignedLong(gd.type());
      if (gd.fileSize() == 0) {
        throw v.error(off, "GlobalData section type " + type + " has zero size");
      }
      if (Long.compareUnsigned(gd.fileOffset(), size) > 0
          || Long.compareUnsigned(gd.fileSize(), size - gd.fileOffset()) > 0) {
        throw v.error(off, "GlobalData section type " + type + " extends beyond buffer (offset="
            + Long.toUnsignedString(gd.fileOffset()) + ", size=" + Long.toUnsignedString(gd.fileSize())
            + ", bufsize=" + size + ")");
      }
      if (type < seen.length) {
        if (seen[(int) type] != 0) {
          throw v.error(off, "GlobalData section type " + type + " (" + GlobalData.typeName(gd.type())
              + ") is listed twice (first at offset " + Hex.hex(v.fileOffset() + seen[(int) type] - 1) + ")");
        }
        seen[(int) type] = off + 1;
      }
      list.add(gd);
      off += GlobalData.SIZE;
    }
    throw v.error(off, "GlobalData array not terminated by EndOfList");
  }

  /** The entry of {@code type}, or null. */
  public GlobalData find(int type) {
    for (GlobalData gd : entries) if (gd.type() == type) return gd;
    return null;
  }

  /** Writes the entries and the EndOfList entry. */
  public void encode(GsymWriter w) {
    for (GlobalData gd : entries) gd.encode(w);
    new GlobalData(GlobalData.END_OF_LIST, 0, 0).encode(w);
  }

  /** The "Global Data Sections:" block of llvm-gsymutil's version 2 dump (EndOfList included). */
  public void dump(StringBuilder sb) {
    sb.append("Global Data Sections:\n");
    sb.append("TYPE            FILE OFFSET         FILE SIZE\n");
    sb.append("=============== ==================  ==================\n");
    for (GlobalData gd : entries) row(sb, gd);
    row(sb, new GlobalData(GlobalData.END_OF_LIST, 0, 0));
  }

  private static void row(StringBuilder sb, GlobalData gd) {
    String name = GlobalData.typeName(gd.type());
    sb.append(name);
    sb.repeat(' ', Math.max(0, 15 - name.length())).append(' ');
    Hex.append(sb, gd.fileOffset(), 16).append("  ");
    Hex.append(sb, gd.fileSize(), 16).append('\n');
  }

  /** Thrown for a section whose size does not match the header. */
  static GsymFormatException mismatch(ByteView v, GlobalData gd, String what) {
    return v.error(gd.fileOffset(), what + " section size mismatch");
  }
}
