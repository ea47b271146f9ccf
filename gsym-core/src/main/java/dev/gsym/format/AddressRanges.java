package dev.gsym.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A sorted set of non-empty, non-adjacent ranges: inserting merges overlapping or touching ranges
 * and drops empty ones (LLVM's {@code AddressRanges}).
 */
public final class AddressRanges {
  private final ArrayList<AddressRange> ranges = new ArrayList<>(2);

  /** An empty set. */
  public AddressRanges() {}

  /** The set of {@code in}: sorted, merged, empty ranges dropped (O(n log n) for any input order). */
  public static List<AddressRange> normalize(List<AddressRange> in) {
    if (isNormalized(in)) return List.copyOf(in); // the usual case: no copy if already immutable
    ArrayList<AddressRange> sorted = new ArrayList<>(in.size());
    for (AddressRange r : in) if (!r.isEmpty()) sorted.add(r);
    sorted.sort(null);
    ArrayList<AddressRange> out = new ArrayList<>();
    for (AddressRange r : sorted) {
      AddressRange last = out.isEmpty() ? null : out.getLast();
      if (last != null && Long.compareUnsigned(r.start(), last.end()) <= 0) {
        if (Long.compareUnsigned(r.end(), last.end()) > 0) out.set(out.size() - 1, new AddressRange(last.start(), r.end()));
      } else {
        out.add(r);
      }
    }
    return List.copyOf(out);
  }

  /** True if {@code in} is sorted, without empty, overlapping or touching ranges. */
  private static boolean isNormalized(List<AddressRange> in) {
    AddressRange prev = null;
    for (int i = 0, n = in.size(); i < n; i++) {
      AddressRange r = in.get(i);
      if (r.isEmpty() || (prev != null && Long.compareUnsigned(r.start(), prev.end()) <= 0)) return false;
      prev = r;
    }
    return true;
  }

  /** Adds {@code r}, merging it with the ranges it overlaps or touches. */
  public void insert(AddressRange r) {
    if (r.isEmpty()) return;
    // Find the first range whose end >= r.start (could touch or overlap).
    int i = 0;
    int n = ranges.size();
    // Fast path: append at the end.
    if (n == 0 || Long.compareUnsigned(ranges.get(n - 1).end(), r.start()) < 0) {
      ranges.add(r);
      return;
    }
    while (i < n && Long.compareUnsigned(ranges.get(i).end(), r.start()) < 0) i++;
    long start = r.start();
    long end = r.end();
    int j = i;
    while (j < n && Long.compareUnsigned(ranges.get(j).start(), end) <= 0) {
      if (Long.compareUnsigned(ranges.get(j).start(), start) < 0) start = ranges.get(j).start();
      if (Long.compareUnsigned(ranges.get(j).end(), end) > 0) end = ranges.get(j).end();
      j++;
    }
    ranges.subList(i, j).clear();
    ranges.add(i, new AddressRange(start, end));
  }

  /** True if a range of the set holds {@code addr}. */
  public boolean contains(long addr) {
    for (AddressRange r : ranges) if (r.contains(addr)) return true;
    return false;
  }

  /** True if one range of the set holds all of {@code r}. */
  public boolean contains(AddressRange r) {
    for (AddressRange x : ranges) if (x.contains(r)) return true;
    return false;
  }

  /** The range containing {@code addr}, or null. */
  public AddressRange rangeContaining(long addr) {
    for (AddressRange r : ranges) if (r.contains(addr)) return r;
    return null;
  }

  /** True if the set holds no range. */
  public boolean isEmpty() {
    return ranges.isEmpty();
  }

  /** The number of ranges. */
  public int size() {
    return ranges.size();
  }

  /** Range {@code i}, in address order. */
  public AddressRange get(int i) {
    return ranges.get(i);
  }

  /** The ranges in address order, as an immutable list. */
  public List<AddressRange> toList() {
    return Collections.unmodifiableList(new ArrayList<>(ranges));
  }
}
