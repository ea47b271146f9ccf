package dev.gsym.macho;

import dev.gsym.io.ByteView;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The {@code fat_header} of a universal (fat or fat64) file and its {@code fat_arch} entries, checked
 * as llvm's MachOUniversalBinary checks them (no slice past the end of the file, none overlapping the
 * headers or another slice, alignments at most 2^15 and honoured, no architecture twice), with its
 * messages; the pairwise checks in O(n log n) rather than llvm's n^2/2.
 */
public final class FatHeader {
  public static final int FAT_MAGIC = 0xcafebabe;
  public static final int FAT_MAGIC_64 = 0xcafebabf;
  private static final int MAX_SECTION_ALIGNMENT = 15;

  private final boolean is64;
  private final List<FatArch> archs;

  private FatHeader(boolean is64, List<FatArch> archs) {
    this.is64 = is64;
    this.archs = archs;
  }

  /** Reads and checks the header of a file {@link dev.gsym.object.FileKind#sniff} recognised as universal. */
  public static FatHeader read(ByteView bytes) {
    ByteView f = new ByteView(bytes.segment(), bytes.fileOffset(), ByteOrder.BIG_ENDIAN, bytes.source());
    boolean is64 = f.s32(0) == FAT_MAGIC_64;
    long n = f.u32(4);
    if (n == 0) throw malformed(f, 4, "contains zero architecture types");
    int entry = is64 ? 32 : 20;
    long minSize = 8 + n * entry;
    if (f.size() < minSize) {
      throw malformed(f, 4, "fat_arch" + (is64 ? "_64" : "") + " structs would extend past the end of the file");
    }
    List<FatArch> archs = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      long p = 8 + (long) i * entry;
      FatArch a = is64
          ? new FatArch(i, f.s32(p), f.s32(p + 4), f.u64(p + 8), f.u64(p + 16), f.u32(p + 24))
          : new FatArch(i, f.s32(p), f.s32(p + 4), f.u32(p + 8), f.u32(p + 12), f.u32(p + 16));
      if (Long.compareUnsigned(a.offset() + a.size(), f.size()) > 0 || a.offset() < 0 || a.size() < 0) {
        throw malformed(f, p + 8, "offset plus size of " + a.describe() + " extends past the end of the file");
      }
      if (a.align() > MAX_SECTION_ALIGNMENT) {
        throw malformed(f, p + (is64 ? 24 : 16), "align (2^" + a.align() + ") too large for " + a.describe() + " (maximum 2^"
            + MAX_SECTION_ALIGNMENT + ")");
      }
      if (a.offset() % (1L << a.align()) != 0) {
        throw malformed(f, p + 8, "offset: " + a.offset() + " for " + a.describe() + " not aligned on it's alignment (2^" + a.align() + ")");
      }
      if (a.offset() < minSize) throw malformed(f, p + 8, a.describe() + " offset " + a.offset() + " overlaps universal headers");
      archs.add(a);
    }
    // llvm checks every pair (i, j > i) in order, the same architecture first, then an overlap, and
    // names the first pair that fails: found here without its n^2/2 comparisons (a hostile header
    // can list millions of slices), as the first slice in conflict with a later one, then that
    // slice's first such partner.
    int first = firstConflict(archs);
    if (first >= 0) {
      FatArch a = archs.get(first);
      long p = 8 + (long) first * entry;
      for (int j = first + 1; j < archs.size(); j++) {
        FatArch b = archs.get(j);
        if (sameArch(a, b)) throw malformed(f, p, "contains two of the same architecture (" + a.describe() + ")");
        if (overlaps(a, b)) {
          throw malformed(f, p + 8, a.describe() + " at offset " + a.offset() + " with a size of " + a.size() + ", overlaps "
              + b.describe() + " at offset " + b.offset() + " with a size of " + b.size());
        }
      }
      throw new IllegalStateException("slice " + first + " has no conflict");
    }
    return new FatHeader(is64, Collections.unmodifiableList(archs));
  }

  private static boolean sameArch(FatArch a, FatArch b) {
    return a.cpuType() == b.cpuType() && (a.cpuSubtype() & ~FatArch.CPU_SUBTYPE_MASK) == (b.cpuSubtype() & ~FatArch.CPU_SUBTYPE_MASK);
  }

  /**
   * llvm's test of slice {@code a} against a later slice {@code b}: {@code a} starts inside
   * {@code b}, ends strictly inside it, or covers it (for empty slices not the same as intersecting,
   * nor symmetric). Offsets and sizes are below 2^63 and their sums within the file here.
   */
  private static boolean overlaps(FatArch a, FatArch b) {
    long ae = a.offset() + a.size(), be = b.offset() + b.size();
    return (a.offset() >= b.offset() && a.offset() < be) || (ae > b.offset() && ae < be) || (a.offset() <= b.offset() && ae >= be);
  }

  /**
   * The smallest index i with a later slice of the same architecture or that {@link #overlaps}
   * slice i, or -1; O(n log n). Slices are added from the last, and each queried against those after
   * it: llvm's three overlap conditions are, for B after A, "some B with B.offset <= A.offset and
   * B.end > A.offset", "some B with B.offset < A.end and B.end > A.end" (prefix maxima of B.end over
   * B.offset) and "some B with B.offset >= A.offset and B.end <= A.end" (suffix minima).
   */
  static int firstConflict(List<FatArch> archs) {
    int n = archs.size();
    long[] starts = new long[n];
    for (int i = 0; i < n; i++) starts[i] = archs.get(i).offset();
    long[] sorted = java.util.Arrays.stream(starts).sorted().distinct().toArray();
    int m = sorted.length;
    long[] maxEnd = new long[m + 1]; // Fenwick tree over offset ranks: maximum end among offsets <= rank
    long[] minEnd = new long[m + 1]; // over reversed ranks: minimum end among offsets >= rank
    java.util.Arrays.fill(maxEnd, Long.MIN_VALUE);
    java.util.Arrays.fill(minEnd, Long.MAX_VALUE);
    java.util.Map<Long, Integer> laterArch = new java.util.HashMap<>();
    int first = -1;
    for (int i = n - 1; i >= 0; i--) {
      FatArch a = archs.get(i);
      long key = (long) a.cpuType() << 32 | (a.cpuSubtype() & ~FatArch.CPU_SUBTYPE_MASK & 0xFFFF_FFFFL);
      long ao = a.offset(), ae = ao + a.size();
      boolean conflict = laterArch.containsKey(key);
      if (!conflict) {
        int atOrBefore = upperRank(sorted, ao); // offsets <= ao
        int before = upperRank(sorted, ae - 1); // offsets < ae
        int atOrAfter = m - lowerRank(sorted, ao); // offsets >= ao, counted from the end
        conflict = prefixMax(maxEnd, atOrBefore) > ao || (ae > 0 && prefixMax(maxEnd, before) > ae) || prefixMin(minEnd, atOrAfter) <= ae;
      }
      if (conflict) first = i;
      laterArch.put(key, i);
      int rank = lowerRank(sorted, ao); // 0-based rank of this offset
      for (int k = rank + 1; k <= m; k += k & -k) maxEnd[k] = Math.max(maxEnd[k], ae);
      for (int k = m - rank; k <= m; k += k & -k) minEnd[k] = Math.min(minEnd[k], ae);
    }
    return first;
  }

  /** How many of {@code sorted} are <= {@code x}. */
  private static int upperRank(long[] sorted, long x) {
    int lo = 0, hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** How many of {@code sorted} are < {@code x}. */
  private static int lowerRank(long[] sorted, long x) {
    int lo = 0, hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private static long prefixMax(long[] tree, int count) {
    long r = Long.MIN_VALUE;
    for (int k = count; k > 0; k -= k & -k) r = Math.max(r, tree[k]);
    return r;
  }

  private static long prefixMin(long[] tree, int count) {
    long r = Long.MAX_VALUE;
    for (int k = count; k > 0; k -= k & -k) r = Math.min(r, tree[k]);
    return r;
  }

  private static dev.gsym.GsymFormatException malformed(ByteView f, long at, String detail) {
    return f.error(at, "truncated or malformed fat file (" + detail + ") at offset 0x" + Long.toHexString(f.fileOffset() + at));
  }

  public boolean is64() {
    return is64;
  }

  /** The slices in header order. */
  public List<FatArch> archs() {
    return archs;
  }
}
