package dev.gsym.macho;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.testing.Slow;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.ListIterator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The two overlap checks llvm does pairwise or by walking a list (quadratic): a universal header's
 * slices ({@link FatHeader}) and a Mach-O's elements ({@link FileElements}). Ours are O(n log n):
 * random inputs against a literal port of llvm's loops (the same verdict and message), and hostile
 * inputs with hundreds of thousands of slices or sections, which llvm's loops would take minutes on
 * (with them, these tests ran more than 20 minutes), under a generous timeout run in a separate
 * thread (the loops do not heed an interrupt).
 */
@Slow
class MachOOverlapTest {
  /** A fat header (fat_arch entries from {@code (cputype, subtype, offset, size)}), {@code tail} bytes after it. */
  private static byte[] fat(long[][] archs, int tail) {
    int minSize = 8 + 20 * archs.length;
    ByteBuffer b = ByteBuffer.allocate(minSize + tail).order(ByteOrder.BIG_ENDIAN);
    b.putInt(FatHeader.FAT_MAGIC).putInt(archs.length);
    for (long[] a : archs) b.putInt((int) a[0]).putInt((int) a[1]).putInt((int) a[2]).putInt((int) a[3]).putInt(0);
    return b.array();
  }

  /** llvm's MachOUniversalBinary pairwise loop, literally: its message, or null. */
  private static String llvmPairs(List<FatArch> archs) {
    for (int i = 0; i < archs.size(); i++) {
      FatArch a = archs.get(i);
      for (int j = i + 1; j < archs.size(); j++) {
        FatArch b = archs.get(j);
        if (a.cpuType() == b.cpuType() && (a.cpuSubtype() & 0xffffff) == (b.cpuSubtype() & 0xffffff)) {
          return "contains two of the same architecture (" + a.describe() + ")";
        }
        long ae = a.offset() + a.size(), be = b.offset() + b.size();
        if ((a.offset() >= b.offset() && a.offset() < be) || (ae > b.offset() && ae < be) || (a.offset() <= b.offset() && ae >= be)) {
          return a.describe() + " at offset " + a.offset() + " with a size of " + a.size() + ", overlaps " + b.describe() + " at offset "
              + b.offset() + " with a size of " + b.size();
        }
      }
    }
    return null;
  }

  @Test
  void fatSlicesAsLlvmsPairwiseLoop() {
    Random r = new Random(16);
    int conflicts = 0;
    for (int round = 0; round < 20_000; round++) {
      int n = 1 + r.nextInt(7);
      long[][] archs = new long[n][];
      int minSize = 8 + 20 * n;
      for (int i = 0; i < n; i++) {
        archs[i] = new long[] {7 + r.nextInt(4), r.nextInt(3) | (r.nextBoolean() ? 0x80000000L : 0), minSize + r.nextInt(24), r.nextInt(4) == 0 ? 0
            : r.nextInt(12)};
      }
      byte[] bytes = fat(archs, 40);
      List<FatArch> parsed = new ArrayList<>();
      for (int i = 0; i < n; i++) parsed.add(new FatArch(i, (int) archs[i][0], (int) archs[i][1], archs[i][2], archs[i][3], 0));
      String expected = llvmPairs(parsed);
      if (expected == null) {
        assertThat(FatHeader.read(ByteView.of(bytes, ByteOrder.BIG_ENDIAN, "f")).archs()).hasSize(n);
      } else {
        conflicts++;
        assertThatThrownBy(() -> FatHeader.read(ByteView.of(bytes, ByteOrder.BIG_ENDIAN, "f")))
            .isInstanceOf(GsymFormatException.class)
            .hasMessageContaining("truncated or malformed fat file (" + expected + ") at offset 0x");
      }
    }
    assertThat(conflicts).as("rounds with a conflict").isBetween(5_000, 19_000);
  }

  /** 400,000 slices (an 8 MB header): llvm compares 8 * 10^10 pairs; we take well under the timeout. */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void hostileSliceCountsAreNotQuadratic() {
    int n = 400_000;
    int minSize = 8 + 20 * n;
    long[][] archs = new long[n][];
    for (int i = 0; i < n; i++) archs[i] = new long[] {i, 0, minSize + i, 0}; // empty, distinct: no conflict
    assertThat(FatHeader.read(ByteView.of(fat(archs, n), ByteOrder.BIG_ENDIAN, "f")).archs()).hasSize(n);
    archs[n - 1] = new long[] {n - 1, 0, minSize + n - 2, 1}; // the last slice covers the empty one before it
    assertThatThrownBy(() -> FatHeader.read(ByteView.of(fat(archs, n), ByteOrder.BIG_ENDIAN, "f")))
        .hasMessageContaining("(cputype (" + (n - 2) + ") cpusubtype (0) at offset " + (minSize + n - 2) + " with a size of 0, overlaps"
            + " cputype (" + (n - 1) + ") cpusubtype (0) at offset " + (minSize + n - 2) + " with a size of 1)");
    archs[n - 1] = new long[] {0, 0, minSize + n - 1, 0}; // the same architecture as the first
    assertThatThrownBy(() -> FatHeader.read(ByteView.of(fat(archs, n), ByteOrder.BIG_ENDIAN, "f")))
        .hasMessageContaining("(contains two of the same architecture (cputype (0) cpusubtype (0))) at offset 0x8");
  }

  /** llvm's checkOverlappingElement, literally: the list walk; its message or null (then inserted). */
  private static String llvmElements(LinkedList<long[]> list, List<String> names, long offset, long size, String name) {
    if (size == 0) return null;
    ListIterator<long[]> it = list.listIterator();
    while (it.hasNext()) {
      long[] e = it.next();
      if ((offset >= e[0] && offset < e[0] + e[1]) || (offset + size > e[0] && offset + size < e[0] + e[1])
          || (offset <= e[0] && offset + size >= e[0] + e[1])) {
        return name + " at offset " + offset + " with a size of " + size + ", overlaps " + names.get((int) e[2]) + " at offset " + e[0]
            + " with a size of " + e[1];
      }
      if (it.hasNext()) {
        long[] next = list.get(it.nextIndex());
        if (offset + size <= next[0]) {
          names.add(name);
          it.add(new long[] {offset, size, names.size() - 1});
          return null;
        }
      }
    }
    names.add(name);
    list.add(new long[] {offset, size, names.size() - 1});
    return null;
  }

  @Test
  void fileElementsAsLlvmsListWalk() {
    Random r = new Random(61);
    ByteView file = ByteView.of(new byte[16], ByteOrder.LITTLE_ENDIAN, "m");
    int refused = 0;
    for (int round = 0; round < 5_000; round++) {
      long headers = 1 + r.nextInt(30);
      LinkedList<long[]> list = new LinkedList<>();
      List<String> names = new ArrayList<>(List.of("Mach-O headers"));
      list.add(new long[] {0, headers, 0});
      FileElements ours = new FileElements(file, headers);
      for (int k = 0; k < 12; k++) {
        long offset = r.nextInt(200), size = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 8 : 60);
        String name = "element " + k;
        String expected = llvmElements(list, names, offset, size, name);
        if (expected == null) {
          ours.add(offset, size, name, 0);
        } else {
          refused++;
          assertThatThrownBy(() -> ours.add(offset, size, name, 0)).hasMessageContaining("(" + expected + ") at offset 0x0");
          break;
        }
      }
    }
    assertThat(refused).isGreaterThan(3_000);
  }

  /**
   * A 64-bit object with 250,000 one-byte sections in one segment (20 MB of load commands): llvm
   * walks its element list once a section, 3 * 10^10 steps; then the same file with the last
   * section's contents on the first's.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void hostileSectionCountsAreNotQuadratic() {
    int n = 250_000;
    int sizeofcmds = 72 + 80 * n;
    int data = 32 + sizeofcmds;
    ByteBuffer b = ByteBuffer.allocate(data + n).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(MachHeader.MH_MAGIC_64).putInt(0x01000007).putInt(3).putInt(MachHeader.MH_OBJECT).putInt(1).putInt(sizeofcmds).putInt(0)
        .putInt(0);
    b.putInt(LoadCommand.LC_SEGMENT_64).putInt(sizeofcmds).put(new byte[16]).putLong(0).putLong(n).putLong(data).putLong(n)
        .putInt(7).putInt(7).putInt(n).putInt(0);
    for (int j = 0; j < n; j++) {
      b.put("__s".getBytes()).put(new byte[13]).put("__DATA".getBytes()).put(new byte[10]);
      b.putLong(j).putLong(1).putInt(data + j).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0);
    }
    byte[] bytes = b.array();
    assertThat(MachOFile.of(bytes, "many").sections()).hasSize(n);
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(32 + 72 + 80 * (n - 1) + 48, data);
    assertThatThrownBy(() -> MachOFile.of(bytes, "many"))
        .hasMessageContaining("(section contents at offset " + data + " with a size of 1, overlaps section contents at offset " + data
            + " with a size of 1)");
  }
}
