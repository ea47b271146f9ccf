package dev.gsym.read.internal;

import dev.gsym.format.AddressTable;

/**
 * The one search of a reader's address table: the offsets copied into a {@code long[]} on first
 * use when they fit a small budget (12 bytes per function with the bucket index below, at most 64
 * MiB or an eighth of the maximum heap), else {@link AddressTable#lowerBound} over the mapping. The
 * array makes batch lookups 5–7% cheaper on libjvm (a million random addresses, whole process,
 * docs/performance.md); the fallback keeps a hostile or huge table from costing heap.
 *
 * <p>A sorted copy of at least {@link #MIN_BUCKETED} entries also gets a bucket index: the span of
 * the offsets cut into as many equal buckets as the largest power of two not above the number of
 * entries, each bucket holding the index of its first entry, so that a search is one bucket read and
 * a binary search over the few entries of that bucket instead of ~log2(n) probes spread over the
 * whole table. An unsorted (corrupt) table is searched as LLVM does, by plain binary search, whose
 * answer on it the buckets would not reproduce.
 */
public final class AddressSearch {
  private static final long BUDGET = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);
  /** Fewer entries are searched as fast without buckets. */
  static final int MIN_BUCKETED = 64;

  /**
   * The copied offsets; for a sorted table of at least {@link #MIN_BUCKETED} entries, {@code
   * buckets[k]} is the first entry whose offset minus the first offset, shifted right by {@code
   * shift}, is {@code k} or more ({@code buckets[buckets.length - 1]} is the number of entries),
   * else null.
   */
  private record Copy(long[] offsets, int[] buckets, int shift) {}

  private final AddressTable table;
  private final boolean copy;
  private volatile Copy copied;

  public AddressSearch(AddressTable table) {
    this(table, (long) table.count() * (Long.BYTES + Integer.BYTES) <= BUDGET);
  }

  AddressSearch(AddressTable table, boolean copy) {
    this.table = table;
    this.copy = copy;
  }

  /** Number of entries. */
  public int count() {
    return table.count();
  }

  /** The i-th offset (unsigned). */
  public long get(int i) {
    return copy ? copied().offsets[i] : table.get(i);
  }

  /**
   * The last entry at or below offset {@code off} as LLVM finds it (std::lower_bound, then one step
   * back unless it is an exact match), or -1 if {@code off} is below every entry.
   */
  public int nearest(long off) {
    if (!copy) {
      int i = table.lowerBound(off);
      if (i == table.count() || Long.compareUnsigned(off, table.get(i)) < 0) i--;
      return i;
    }
    Copy c = copied();
    long[] a = c.offsets;
    int[] b = c.buckets;
    int first = 0;
    int len = a.length;
    if (b != null) {
      // sorted: below the first entry and above the last need no search
      if (Long.compareUnsigned(off, a[0]) < 0) return -1;
      if (Long.compareUnsigned(off, a[a.length - 1]) > 0) return a.length - 1;
      // entries before the bucket are below off, entries after it above: lower_bound is in it or
      // just past it
      int k = (int) ((off - a[0]) >>> c.shift);
      first = b[k];
      len = b[k + 1] - first;
    }
    while (len > 0) { // std::lower_bound's probes, as AddressTable.lowerBound
      int half = len >>> 1;
      int mid = first + half;
      if (Long.compareUnsigned(a[mid], off) < 0) {
        first = mid + 1;
        len = len - half - 1;
      } else {
        len = half;
      }
    }
    if (first == a.length || Long.compareUnsigned(off, a[first]) < 0) first--;
    return first;
  }

  /**
   * Whether entry {@code i} is the only one with its offset (the common case, where the lookup needs
   * not look at its neighbours' records).
   */
  public boolean unique(int i) {
    long o = get(i);
    return (i == 0 || get(i - 1) != o) && (i + 1 == count() || get(i + 1) != o);
  }

  /** Whether searches use the bucket index (for tests). */
  boolean bucketed() {
    return copy && copied().buckets != null;
  }

  private Copy copied() {
    Copy c = copied;
    if (c == null) {
      c = copy(table);
      copied = c; // racing threads build equal copies
    }
    return c;
  }

  private static Copy copy(AddressTable table) {
    int n = table.count();
    long[] a = new long[n];
    boolean sorted = true;
    for (int i = 0; i < n; i++) {
      a[i] = table.get(i);
      if (i > 0 && Long.compareUnsigned(a[i - 1], a[i]) > 0) sorted = false;
    }
    if (!sorted || n < MIN_BUCKETED) return new Copy(a, null, 0);
    int log = 31 - Integer.numberOfLeadingZeros(n); // 2^log <= n buckets
    long span = a[n - 1] - a[0]; // unsigned
    int shift = Math.max(0, (64 - Long.numberOfLeadingZeros(span)) - log); // span >>> shift < 2^log
    int[] b = new int[(1 << log) + 1];
    int k = 0;
    for (int i = 0; i < n; i++) {
      long key = (a[i] - a[0]) >>> shift;
      while (k <= key) b[k++] = i;
    }
    while (k < b.length) b[k++] = n;
    return new Copy(a, b, shift);
  }
}
