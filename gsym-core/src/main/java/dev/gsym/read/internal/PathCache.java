package dev.gsym.read.internal;

import dev.gsym.TextBuffer;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.StringTable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The path bytes printed for each file-table entry, computed on first use. One slot per entry, up
 * to {@link #MAX_FILES} (later entries are computed at each use): no heap proportional to a large
 * file. Slots are published with release / acquire semantics, so a path's bytes are complete
 * wherever the path is seen.
 */
public final class PathCache {
  private static final int MAX_FILES = 1 << 16;
  private static final byte[] NO_PATH = new byte[0];
  private static final VarHandle PATHS = MethodHandles.arrayElementVarHandle(byte[][].class);
  private static final byte[] INVALID_FILE = "<invalid-file>".getBytes(StandardCharsets.US_ASCII);

  private final FileTable files;
  private final StringTable strings;
  /** The path of each entry, {@link #NO_PATH} if it has none, null until computed. */
  private final byte[][] paths;

  public PathCache(FileTable files, StringTable strings) {
    this.files = files;
    this.strings = strings;
    this.paths = new byte[(int) Math.min(files.count(), MAX_FILES)][];
  }

  /**
   * The path printed for file {@code index} ("dir/base", "&lt;invalid-file&gt;" for an empty base),
   * or null if both strings are empty (the location has no file).
   *
   * @throws dev.gsym.GsymFormatException "failed to extract file[N]" (llvm's text) if there is no such entry
   */
  public byte[] pathBytes(long index) {
    byte[] p = index < paths.length ? (byte[]) PATHS.getAcquire(paths, (int) index) : null;
    if (p != null) return p == NO_PATH ? null : p;
    FileEntry f = files.get(index);
    if (f == null) throw files.noSuchFile(index);
    byte[] dir = strings.bytes(f.dir());
    byte[] base = strings.bytes(f.base());
    byte[] v;
    if (dir.length == 0 && base.length == 0) {
      v = null;
    } else {
      // as FileTable.appendPath, on the raw bytes
      TextBuffer t = new TextBuffer(dir.length + base.length + 16);
      if (dir.length > 0) t.append(dir).append(separator(dir));
      if (base.length == 0) t.append(INVALID_FILE);
      else t.append(base);
      v = Arrays.copyOf(t.array(), t.length());
    }
    if (index < paths.length) PATHS.setRelease(paths, (int) index, v == null ? NO_PATH : v);
    return v;
  }

  private static char separator(byte[] dir) {
    boolean back = false;
    for (byte b : dir) {
      if (b == '/') return '/';
      if (b == '\\') back = true;
    }
    return back ? '\\' : '/';
  }
}
