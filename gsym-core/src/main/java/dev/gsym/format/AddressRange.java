package dev.gsym.format;

/** A half-open address range {@code [start, end)}; addresses compare unsigned. */
public record AddressRange(long start, long end) implements Comparable<AddressRange> {

  /** {@code end - start}. */
  public long size() {
    return end - start;
  }

  /** True if the range holds no address ({@code end <= start}, unsigned). */
  public boolean isEmpty() {
    return Long.compareUnsigned(end, start) <= 0;
  }

  /** True if {@code start <= addr < end} (unsigned). */
  public boolean contains(long addr) {
    return Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
  }

  /** True if {@code r} lies inside this range (an empty r at a contained start counts). */
  public boolean contains(AddressRange r) {
    return Long.compareUnsigned(start, r.start) <= 0 && Long.compareUnsigned(r.end, end) <= 0;
  }

  /** True if the two ranges share at least one address. */
  public boolean intersects(AddressRange r) {
    return Long.compareUnsigned(start, r.end) < 0 && Long.compareUnsigned(r.start, end) < 0;
  }

  @Override
  public int compareTo(AddressRange o) {
    int c = Long.compareUnsigned(start, o.start);
    return c != 0 ? c : Long.compareUnsigned(end, o.end);
  }

  /** "[HEX64(start) - HEX64(end))" as LLVM prints ranges. */
  public StringBuilder appendTo(StringBuilder sb) {
    sb.append('[');
    Hex.append(sb, start, 16).append(" - ");
    return Hex.append(sb, end, 16).append(')');
  }

  @Override
  public String toString() {
    return appendTo(new StringBuilder(40)).toString();
  }
}
