package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.IndexMap;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link GsymCreator#addAll}: units filled into scratch creators and merged in order give the bytes
 * of the same units added to one creator in sequence, which is what makes parallel DWARF conversion
 * byte-identical to a sequential one. Scratch functions are relocated from their encoded bytes
 * (string positions and file indexes rewritten, SetFile ops re-derived); call sites take the
 * decode-and-translate path.
 */
class GsymCreatorMergeTest {
  private static final String[] NAMES = {"main", "foo", "bar", "std::vector<int>::push_back", "baz", "qux", "inl", "deep"};
  private static final String[] PATHS = {"/src/a.c", "/src/b.c", "/usr/include/c.h", "/src/d/e.cpp", "/x/f.h", "rel/g.c"};

  /** One unit's calls against whatever creator it is given, replayable from its seed. */
  private static void unit(GsymCreator c, long seed, long base) {
    Random r = new Random(seed);
    int nFiles = 1 + r.nextInt(4);
    int[] files = new int[nFiles];
    for (int i = 0; i < nFiles; i++) files[i] = c.insertFile(PATHS[r.nextInt(PATHS.length)]);
    int nFuncs = 1 + r.nextInt(5);
    for (int f = 0; f < nFuncs; f++) {
      long start = base + f * 0x400L;
      int name = c.insertString(NAMES[r.nextInt(NAMES.length)]);
      LineTable lt = null;
      if (r.nextInt(5) != 0) {
        List<LineEntry> rows = new ArrayList<>();
        int n = 1 + r.nextInt(30);
        long a = start;
        for (int i = 0; i < n; i++) {
          // mostly the same file as the row before; sometimes file 0 or another of the unit's files
          int file = r.nextInt(10) == 0 ? 0 : files[r.nextInt(r.nextBoolean() ? 1 : nFiles)];
          rows.add(new LineEntry(a, file, 1 + r.nextInt(r.nextInt(8) == 0 ? 5000 : 40)));
          a += r.nextInt(r.nextInt(6) == 0 ? 300 : 12);
        }
        lt = new LineTable(rows);
      }
      InlineInfo ii = r.nextInt(3) == 0 ? null : inline(c, r, files, start, 0x300, 0);
      CallSiteInfoCollection cs = null;
      if (r.nextInt(6) == 0) {
        cs = new CallSiteInfoCollection(List.of(new CallSiteInfo(4, CallSiteInfo.EXTERNAL_CALL,
            List.of(c.insertString(NAMES[r.nextInt(NAMES.length)] + ".*")))));
      }
      c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 0x300), name, lt, ii, null, cs));
    }
  }

  private static InlineInfo inline(GsymCreator c, Random r, int[] files, long start, long size, int depth) {
    List<InlineInfo> kids = new ArrayList<>();
    if (depth < 4) {
      for (int k = r.nextInt(depth == 0 ? 4 : 3); k > 0; k--) {
        long s = start + r.nextInt((int) Math.max(1, size / 2));
        long e = Math.min(start + size, s + 1 + r.nextInt((int) Math.max(1, size / 2)));
        kids.add(inline(c, r, files, s, e - s, depth + 1));
      }
    }
    int name = c.insertString(NAMES[r.nextInt(NAMES.length)]);
    int callFile = depth == 0 ? 0 : r.nextInt(6) == 0 ? 0 : files[r.nextInt(files.length)];
    return new InlineInfo(List.of(new AddressRange(start, start + size)), name, callFile, depth == 0 ? 0 : 1 + r.nextInt(900), kids);
  }

  private static byte[] bytes(GsymCreator c) {
    c.finish(Diagnostics.silent());
    return c.encode();
  }

  @Test
  void mergedScratchCreatorsWriteTheSequentialBytes() {
    for (long round = 0; round < 200; round++) {
      int units = 1 + (int) (round % 7);
      GsymCreator sequential = new GsymCreator();
      GsymCreator merged = new GsymCreator();
      for (int u = 0; u < units; u++) {
        long seed = round * 100 + u;
        long base = 0x10000L + u * 0x10000L;
        unit(sequential, seed, base);
        // scratch creators (relocated bytes) and, every third unit, a plain creator (decoded and
        // translated through its string offsets)
        GsymCreator part = u % 3 == 2 ? new GsymCreator() : merged.scratch();
        unit(part, seed, base);
        merged.addAll(part);
      }
      assertThat(merged.numFunctionInfos()).isEqualTo(sequential.numFunctionInfos());
      byte[] want = bytes(sequential);
      assertThat(bytes(merged)).as("round %d", round).isEqualTo(want);
    }
  }

  /**
   * The SetFile cases the relocation re-derives: the first row in the unit's file 1 that is not
   * file 1 of the merged table (a SetFile appears), and a unit whose file 2 is merged file 1 (its
   * SetFile disappears).
   */
  @Test
  void setFileOpsFollowTheMergedIndexes() {
    GsymCreator sequential = new GsymCreator();
    GsymCreator merged = new GsymCreator();
    String[][] units = {{"/a.c"}, {"/b.c"}, {"/b.c", "/a.c"}, {"/c.c", "/d.c", "/a.c"}};
    java.util.function.ObjIntConsumer<GsymCreator> unit = (c, k) -> {
      String[] paths = units[k];
      int[] f = new int[paths.length];
      for (int i = 0; i < paths.length; i++) f[i] = c.insertFile(paths[i]);
      long start = 0x1000L * (1 + k);
      List<LineEntry> rows = List.of(new LineEntry(start, f[f.length - 1], 3), new LineEntry(start + 4, f[0], 4),
          new LineEntry(start + 8, f[f.length - 1], 5));
      c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 16), c.insertString("f" + start), new LineTable(rows), null, null, null));
    };
    for (int k = 0; k < units.length; k++) {
      unit.accept(sequential, k);
      GsymCreator part = merged.scratch();
      unit.accept(part, k);
      merged.addAll(part);
    }
    assertThat(bytes(merged)).isEqualTo(bytes(sequential));
  }

  /** {@link StoredFunction#relocated} equals encoding the object with the same translation. */
  @Test
  void relocationEqualsTranslatedEncoding() {
    Random r = new Random(3);
    for (int round = 0; round < 300; round++) {
      GsymCreator part = new GsymCreator().scratch();
      unit(part, round, 0x4000);
      int[] strings = new int[200];
      for (int i = 1; i < strings.length; i++) strings[i] = 1 + r.nextInt(1 << 20);
      int[] files = new int[64];
      for (int i = 1; i < files.length; i++) files[i] = i == 1 ? 1 + r.nextInt(3) : 1 + r.nextInt(100_000);
      // one-to-one like a real merge: distinct values
      int[] distinct = Arrays.stream(files).distinct().toArray();
      if (distinct.length != files.length) continue;
      IndexMap m = new IndexMap(o -> strings[o], i -> files[i]);
      for (FunctionInfo fi : part.functionInfos()) {
        StoredFunction local = StoredFunction.of(fi);
        StoredFunction moved = local.relocated(strings, files);
        GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
        fi.encode(w, m);
        if (fi.callSites() != null) {
          assertThat(moved).isNull(); // strings inside call sites: the caller translates the object
          continue;
        }
        assertThat(moved).isNotNull();
        assertThat(moved.info()).isEqualTo(fi.remap(m.strings(), m.files()));
        GsymWriter again = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
        moved.info().encode(again);
        assertThat(again.toByteArray()).isEqualTo(w.toByteArray());
      }
    }
  }
}
