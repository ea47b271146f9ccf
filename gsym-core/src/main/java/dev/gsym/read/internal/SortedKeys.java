package dev.gsym.read.internal;

/**
 * Searches in arrays of sort keys that hold an address offset in their top bits and a payload in
 * the bits below it ({@link LineIndex} rows, {@link InlineTable} answer maps). Searching for
 * {@code offset << low | (all ones)} finds the last key whose offset is at or below the offset,
 * whatever the payloads. The search starts where the offset would be if keys were spread evenly,
 * so that it touches few cache lines.
 */
final class SortedKeys {
  private SortedKeys() {}

  /**
   * Where offset {@code off} would be among {@code n} keys if they were spread evenly up to
   * {@code last}, the last key's offset (kept by the caller, so that guessing touches no memory).
   */
  static int guess(int n, long last, long off) {
    if (last == 0 || Long.compareUnsigned(off, last) >= 0) return n - 1;
    // both unsigned: an offset of 2^63 or more (a damaged file's) as a signed double would make the
    // ratio negative
    return (int) Math.max(0, Math.min(n - 1, (long) (unsigned(off) / unsigned(last) * (n - 1))));
  }

  private static double unsigned(long x) {
    return x >= 0 ? x : (x >>> 1) * 2.0 + (x & 1);
  }

  /**
   * Index of the last key at or below {@code target} (unsigned), or -1: gallops from {@code g} to
   * bracket it, then binary-searches the bracket. Keys must be sorted as far as the target is
   * concerned: every key at or below it comes before every key above it.
   */
  static int lastAtOrBelow(long[] k, long target, int g) {
    int n = k.length;
    int lo; // k[lo] <= target, or lo == -1
    int hi; // k[hi] > target, or hi == n
    if (Long.compareUnsigned(k[g], target) <= 0) {
      lo = g;
      int step = 1;
      while (true) {
        long next = (long) lo + step;
        if (next >= n) {
          hi = n;
          break;
        }
        if (Long.compareUnsigned(k[(int) next], target) > 0) {
          hi = (int) next;
          break;
        }
        lo = (int) next;
        step <<= 1;
      }
    } else {
      hi = g;
      int step = 1;
      while (true) {
        long next = (long) hi - step;
        if (next < 0) {
          lo = -1;
          break;
        }
        if (Long.compareUnsigned(k[(int) next], target) <= 0) {
          lo = (int) next;
          break;
        }
        hi = (int) next;
        step <<= 1;
      }
    }
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(k[mid], target) <= 0) lo = mid;
      else hi = mid;
    }
    return lo;
  }
}
