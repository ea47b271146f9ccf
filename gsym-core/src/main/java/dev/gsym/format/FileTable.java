package dev.gsym.format;

import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The file table: u32 NumFiles, then NumFiles x {strp Dir, strp Base} string offsets (u32 in
 * version 1, u64 in version 2: the view's {@link ByteView#strpSize}). Entry 0 is always {0, 0},
 * "no file".
 */
public record FileTable(ByteView view, long offset, int count) {

  /** Binds the table that follows the address-info table (aligned to 4). */
  public static FileTable decode(ByteView v, AddressInfoTable infos) {
    long offset = AddressTable.alignTo(infos.end(), 4);
    if (!v.has(offset, 4)) {
      // llvm-gsymutil's byte-swapping path (big-endian files on a little-endian host) reads an
      // unreadable count as 0 files; the string table check then fails instead
      if (v.order() == ByteOrder.BIG_ENDIAN) return new FileTable(v, offset, 0);
      throw v.error(offset, "failed to read file table");
    }
    long n = v.u32(offset);
    if (!v.has(offset + 4, n * 8)) {
      throw v.error(offset, "failed to read file table");
    }
    return new FileTable(v, offset, (int) n);
  }

  /** Binds a version 2 FileTable section of {@code size} bytes at {@code offset}. */
  public static FileTable bindV2(ByteView v, long offset, long size) {
    long n = v.u32(offset);
    long entry = 2L * v.strpSize();
    if (size < 4 || n > (size - 4) / entry || n > Integer.MAX_VALUE) {
      throw v.error(offset, "FileTable section too small for " + n + " files");
    }
    return new FileTable(v, offset, (int) n);
  }

  /**
   * The error for a record that names file {@code index}, which the table does not have: llvm's
   * "failed to extract file[N]", at the table's offset.
   */
  public dev.gsym.GsymFormatException noSuchFile(long index) {
    return view.error(offset, "failed to extract file[" + index + "]");
  }

  /** The entry at {@code index}, or null if the index is out of range. */
  public FileEntry get(long index) {
    if (index < 0 || index >= count) return null;
    int n = view.strpSize();
    if (n == 4) {
      long at = offset + 4 + index * 8;
      return new FileEntry(view.s32(at), view.s32(at + 4));
    }
    long at = offset + 4 + index * 2 * n;
    return new FileEntry(strp(view.uN(at, n)), strp(view.uN(at + n, n)));
  }

  /** As {@link dev.gsym.io.Cursor#strp}: offsets of 4 GiB or more read as 0xffffffff. */
  private static int strp(long v) {
    return Long.compareUnsigned(v, 0xffffffffL) > 0 ? -1 : (int) v;
  }

  /**
   * True if entry {@code index} (in range) has neither a directory nor a base name (both string
   * offsets 0), read without building a {@link FileEntry}.
   */
  public boolean isUnnamed(long index) {
    int n = view.strpSize();
    if (n == 4) return view.u64(offset + 4 + index * 8) == 0;
    long at = offset + 4 + index * 2 * n;
    return view.uN(at, n) == 0 && view.uN(at + n, n) == 0;
  }

  /** Encoded size: the count and two string offsets of {@code strpSize} bytes per file. */
  public static long encodedSize(int files, int strpSize) {
    return 4 + (long) files * 2 * strpSize;
  }

  /** Writes the table (aligned to 4) with the writer's string-offset size. */
  public static void encode(GsymWriter w, List<FileEntry> files) {
    w.alignTo(4);
    w.u32(files.size());
    for (FileEntry f : files) {
      w.strp(Integer.toUnsignedLong(f.dir()));
      w.strp(Integer.toUnsignedLong(f.base()));
    }
  }

  /** "Dir + sep + Base" as LLVM renders paths ('\' if Dir has a '\' and no '/'). */
  public static void appendPath(StringBuilder sb, String dir, String base) {
    if (!dir.isEmpty()) {
      sb.append(dir).append(dir.indexOf('\\') >= 0 && dir.indexOf('/') < 0 ? '\\' : '/');
    }
    sb.append(base);
  }

  /** The "Files:" block of llvm-gsymutil's dump. */
  public void dump(StringBuilder sb, StringTable strings) {
    dump(sb, strings, 30);
  }

  /** The "Files:" block of llvm main's version 2 dump (a wider rule under PATH). */
  public void dumpV2(StringBuilder sb, StringTable strings) {
    dump(sb, strings, 40);
  }

  private void dump(StringBuilder sb, StringTable strings, int pathRule) {
    sb.append("Files:\n");
    sb.append("INDEX  DIRECTORY  BASENAME   PATH\n");
    sb.append("====== ========== ========== ").repeat('=', pathRule).append('\n');
    for (int i = 0; i < count; i++) {
      FileEntry f = get(i);
      sb.append('[').append(String.format("%4d", i)).append("] ");
      Hex.append(sb, Integer.toUnsignedLong(f.dir()), 8).append(' ');
      Hex.append(sb, Integer.toUnsignedLong(f.base()), 8).append(' ');
      dumpFile(sb, f, strings::get);
      sb.append('\n');
    }
  }

  /**
   * A file as the dump prints it: nothing for {0, 0}, the path, or {@code <invalid-file>} for a
   * missing entry or one whose strings are both empty.
   */
  public static void dumpFile(StringBuilder sb, FileEntry f, IntFunction<String> strings) {
    if (f != null) {
      if (f.dir() == 0 && f.base() == 0) return;
      String dir = strings.apply(f.dir());
      String base = strings.apply(f.base());
      if (!dir.isEmpty() || !base.isEmpty()) {
        appendPath(sb, dir, base);
        return;
      }
    }
    sb.append("<invalid-file>");
  }
}
