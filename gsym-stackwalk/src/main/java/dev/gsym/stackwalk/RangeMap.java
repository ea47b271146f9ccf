package dev.gsym.stackwalk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Non-overlapping address ranges with a value each, as Breakpad's {@code RangeMap} keeps them: keyed
 * by each range's last address (unsigned), so that the first range whose last address is at or
 * above an address is the only one that can hold it. What happens when a new range overlaps a stored
 * one is the map's {@link Merge} strategy: refused, or the range with the lower base truncated
 * (modules of Linux and Android dumps), or the new range's lower part cut off.
 */
final class RangeMap<T> {
  /** Breakpad's {@code MergeRangeStrategy}. */
  enum Merge {
    /** An overlapping range is refused. */
    EXCLUSIVE,
    /** The range with the lower base is truncated where the other begins. */
    TRUNCATE_LOWER,
    /** The new range loses its lower part that overlaps; a stored range above it loses its lower part. */
    TRUNCATE_UPPER
  }

  /** A stored range: [{@code base}, {@code high}], {@code delta} bytes cut from its original base. */
  record Range<T>(long base, long high, long delta, T value) {
    long size() {
      return high - base + 1;
    }
  }

  private final TreeMap<Long, Range<T>> map = new TreeMap<>(Long::compareUnsigned);
  private final Merge merge;

  RangeMap(Merge merge) {
    this.merge = merge;
  }

  /** Stores {@code [base, base + size)}; false when the size is 0, it wraps, or the strategy refuses it. */
  boolean store(long base, long size, T value) {
    return store(base, 0, size, value, 0);
  }

  private boolean store(long base, long delta, long size, T value, int depth) {
    if (size == 0) return false;
    long high = base + (size - 1);
    if (Long.compareUnsigned(high, base) < 0) return false; // wraps past 2^64
    if (depth > 64) return false; // every retry removes an overlap; never more than a few
    Map.Entry<Long, Range<T>> atBase = map.ceilingEntry(base);
    Map.Entry<Long, Range<T>> atHigh = map.ceilingEntry(high);
    if (atBase != null && (atHigh == null || !atBase.getKey().equals(atHigh.getKey()))) {
      // another range ends inside this one
      Range<T> other = atBase.getValue();
      switch (merge) {
        case TRUNCATE_LOWER -> {
          if (Long.compareUnsigned(base, other.base()) < 0) return store(base, delta, other.base() - base, value, depth + 1);
          if (Long.compareUnsigned(other.base(), base) < 0) {
            map.remove(atBase.getKey());
            map.put(base - 1, new Range<>(other.base(), base - 1, other.delta(), other.value()));
            return store(base, delta, size, value, depth + 1);
          }
          return false;
        }
        case TRUNCATE_UPPER -> {
          long cut = atBase.getKey() - base + 1;
          return store(base + cut, delta + cut, size - cut, value, depth + 1);
        }
        default -> {
          return false;
        }
      }
    }
    if (atHigh != null && Long.compareUnsigned(atHigh.getValue().base(), high) <= 0) {
      // a range above begins inside this one (or contains it)
      Range<T> other = atHigh.getValue();
      switch (merge) {
        case TRUNCATE_LOWER -> {
          if (Long.compareUnsigned(base, other.base()) < 0) return store(base, delta, other.base() - base, value, depth + 1);
          if (Long.compareUnsigned(other.base(), base) < 0) {
            map.remove(atHigh.getKey());
            map.put(base - 1, new Range<>(other.base(), base - 1, other.delta(), other.value()));
            return store(base, delta, size, value, depth + 1);
          }
          return false;
        }
        case TRUNCATE_UPPER -> {
          if (Long.compareUnsigned(atHigh.getKey(), high) <= 0) return false;
          long cut = high - other.base() + 1;
          map.put(atHigh.getKey(), new Range<>(other.base() + cut, other.high(), other.delta() + cut, other.value()));
          return store(base, delta, size, value, depth + 1);
        }
        default -> {
          return false;
        }
      }
    }
    map.put(high, new Range<>(base, high, delta, value));
    return true;
  }

  /** The range holding {@code address}, or null. */
  Range<T> retrieve(long address) {
    Map.Entry<Long, Range<T>> e = map.ceilingEntry(address);
    if (e == null || Long.compareUnsigned(address, e.getValue().base()) < 0) return null;
    return e.getValue();
  }

  /** The range holding {@code address}, else the nearest range below it (Breakpad's {@code RetrieveNearestRange}), or null. */
  Range<T> retrieveNearest(long address) {
    Range<T> r = retrieve(address);
    if (r != null) return r;
    Map.Entry<Long, Range<T>> e = map.floorEntry(address);
    return e == null ? null : e.getValue();
  }

  int size() {
    return map.size();
  }

  /** The ranges in address order. */
  List<Range<T>> ranges() {
    return new ArrayList<>(map.values());
  }
}
