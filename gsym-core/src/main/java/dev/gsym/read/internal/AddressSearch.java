package dev.gsym.read.internal;

import dev.gsym.format.AddressTable;

/**
 * The one search of a reader's address table: the offsets copied into a {@code long[]} on first
 * use when they fit a small budget (8 bytes per function, at most 64 MiB or an eighth of the
 * maximum heap), else {@link AddressTable#lowerBound} over the mapping. The array makes batch
 * lookups 5–7% cheaper on libjvm (a million random addresses, whole process, docs/performance.md);
 * the fallback keeps a hostile or huge table from costing heap.
 */
public final class AddressSearch {
  private static final long BUDGET = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);

  private final AddressTable table;
  private final boolean copy;
  private volatile long[] offsets;

  public AddressSearch(AddressTable table) {
    this(table, (long) table.count() * Long.BYTES <= BUDGET);
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
    long[] a = copy ? offsets() : null;
    return a != null ? a[i] : table.get(i);
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
    long[] a = offsets();
    int first = 0;
    int len = a.length;
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

  private long[] offsets() {
    long[] a = offsets;
    if (a == null) {
      a = new long[table.count()];
      for (int i = 0; i < a.length; i++) a[i] = table.get(i);
      offsets = a; // racing threads build equal arrays
    }
    return a;
  }
}
