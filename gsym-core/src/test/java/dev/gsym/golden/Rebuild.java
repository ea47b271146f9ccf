package dev.gsym.golden;

import dev.gsym.format.FileEntry;
import dev.gsym.format.Header;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import dev.gsym.write.PathStyle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Rebuilds a GSYM file through {@link GsymCreator} from its decoded contents: strings are
 * re-inserted in string-table offset order and files in index order, so every offset comes out
 * as in the original.
 */
final class Rebuild {
  private Rebuild() {}

  static byte[] rebuild(Path gsym) throws IOException {
    byte[] orig = Files.readAllBytes(gsym);
    try (GsymReader r = GsymReader.open(gsym)) {
      return creatorFor(r, orig).encode(r.byteOrder());
    }
  }

  static GsymCreator creatorFor(GsymReader r, byte[] orig) {
    Header h = r.header();
    GsymCreator c = new GsymCreator();
    // 1. strings, in offset order
    int off = (int) h.strtabOffset();
    int end = (int) (h.strtabOffset() + h.strtabSize());
    int pos = off;
    while (pos < end) {
      int z = pos;
      while (z < end && orig[z] != 0) z++;
      String s = new String(orig, pos, z - pos, StandardCharsets.UTF_8);
      int strp = c.insertString(s);
      if (!s.isEmpty() && strp != pos - off) {
        throw new AssertionError("string " + s + " at 0x" + Integer.toHexString(pos - off)
            + " re-inserted at 0x" + Integer.toHexString(strp) + " (duplicate in LLVM's table?)");
      }
      pos = z + 1;
    }
    // 2. files, in index order
    for (int i = 1; i < r.numFiles(); i++) {
      FileEntry fe = r.file(i);
      String dir = r.string(fe.dir());
      String base = r.string(fe.base());
      boolean windows = dir.indexOf('\\') >= 0 || (dir.length() >= 2 && dir.charAt(1) == ':');
      String sep = windows ? "\\" : "/";
      String path = dir.isEmpty() ? base
          : (dir.endsWith("/") || dir.endsWith("\\") || (windows && dir.endsWith(":"))) ? dir + base
          : dir + sep + base;
      int idx = c.insertFile(path, windows ? PathStyle.WINDOWS : PathStyle.POSIX);
      FileEntry got = c.getFile(idx);
      if (idx != i || !got.equals(fe)) {
        throw new AssertionError("file[" + i + "] " + fe + " (" + path + ") re-inserted as file["
            + idx + "] " + got);
      }
    }
    // 3. header fields and functions
    c.setBaseAddress(h.baseAddress());
    if (h.uuidSize() > 0) c.setUUID(h.uuid());
    for (int i = 0; i < r.numFunctions(); i++) c.addFunctionInfo(r.functionInfoAtIndex(i));
    c.finalize(Diagnostics.silent());
    return c;
  }
}
