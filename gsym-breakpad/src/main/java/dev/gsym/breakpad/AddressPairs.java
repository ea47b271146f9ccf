package dev.gsym.breakpad;

import dev.gsym.format.AddressRange;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * An unmodifiable list of address ranges held as [start, end) pairs in one array: an INLINE record's
 * ranges without an object per range (the parser makes one such list per record; the transformer
 * reads the pairs).
 */
final class AddressPairs extends AbstractList<AddressRange> implements RandomAccess {
  /** start, end, start, end, ...: never modified. */
  final long[] pairs;

  AddressPairs(long[] pairs) {
    this.pairs = pairs;
  }

  /** {@code ranges} itself if it is one, else a copy (null ranges are refused, as by {@link List#copyOf}). */
  static AddressPairs copyOf(List<AddressRange> ranges) {
    if (ranges instanceof AddressPairs a) return a;
    long[] pairs = new long[2 * ranges.size()];
    int i = 0;
    for (AddressRange r : ranges) {
      pairs[i++] = r.start();
      pairs[i++] = r.end();
    }
    return new AddressPairs(pairs);
  }

  @Override
  public AddressRange get(int index) {
    java.util.Objects.checkIndex(index, size());
    return new AddressRange(pairs[2 * index], pairs[2 * index + 1]);
  }

  @Override
  public int size() {
    return pairs.length / 2;
  }
}
