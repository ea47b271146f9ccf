package dev.gsym.stackwalk;

import java.util.Map;
import java.util.TreeMap;

/**
 * Nested address ranges, as Breakpad's {@code ContainedRangeMap} keeps its {@code STACK WIN}
 * records: a range is stored inside a stored range that contains it, takes the stored ranges it
 * contains as its children, and is refused when it partly overlaps one or equals one; a lookup
 * answers with the innermost range holding the address. Keyed by each range's last address
 * (unsigned).
 */
final class ContainedRangeMap<T> {
  private final long base;
  private final T value;
  private TreeMap<Long, ContainedRangeMap<T>> children;

  ContainedRangeMap() {
    this(0, null);
  }

  private ContainedRangeMap(long base, T value) {
    this.base = base;
    this.value = value;
  }

  /** Stores {@code [base, base + size)}; false when it is empty, wraps, equals or partly overlaps a stored range. */
  boolean store(long base, long size, T value) {
    return store(base, size, value, 0);
  }

  private boolean store(long base, long size, T value, int depth) {
    long high = base + size - 1;
    if (size == 0 || Long.compareUnsigned(high, base) < 0 || depth > 4096) return false;
    if (children == null) children = new TreeMap<>(Long::compareUnsigned);
    Map.Entry<Long, ContainedRangeMap<T>> atBase = children.ceilingEntry(base);
    Map.Entry<Long, ContainedRangeMap<T>> atHigh = children.ceilingEntry(high);
    if (atBase != null && atHigh != null && atBase.getKey().equals(atHigh.getKey())
        && Long.compareUnsigned(base, atBase.getValue().base) >= 0) {
      // inside an existing child: an equal range is refused, a smaller one goes into it
      if (atBase.getValue().base == base && atBase.getKey() == high) return false;
      return atBase.getValue().store(base, size, value, depth + 1);
    }
    boolean containsHigh = atHigh != null && Long.compareUnsigned(high, atHigh.getValue().base) >= 0;
    if ((atBase != null && Long.compareUnsigned(base, atBase.getValue().base) > 0)
        || (containsHigh && Long.compareUnsigned(high, atHigh.getKey()) < 0)) {
      return false; // partly overlapping
    }
    ContainedRangeMap<T> child = new ContainedRangeMap<>(base, value);
    // the children the new range contains move into it
    Map<Long, ContainedRangeMap<T>> moved = atBase == null ? Map.of()
        : containsHigh ? children.subMap(atBase.getKey(), true, atHigh.getKey(), true)
        : atHigh == null ? children.tailMap(atBase.getKey(), true) : children.subMap(atBase.getKey(), true, atHigh.getKey(), false);
    if (!moved.isEmpty()) {
      child.children = new TreeMap<>(Long::compareUnsigned);
      child.children.putAll(moved);
      moved.clear();
    }
    children.put(high, child);
    return true;
  }

  /** The value of the innermost range holding {@code address}, or null. */
  T retrieve(long address) {
    ContainedRangeMap<T> m = this;
    T found = null;
    while (m.children != null) {
      Map.Entry<Long, ContainedRangeMap<T>> e = m.children.ceilingEntry(address);
      if (e == null || Long.compareUnsigned(address, e.getValue().base) < 0) break;
      m = e.getValue();
      found = m.value;
    }
    return found;
  }
}
