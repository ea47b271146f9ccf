package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The transformer's INLINE range tree ({@link BreakpadTransformer#store}, sorted arrays with fast
 * paths for ranges in address order) against Breakpad's {@code ContainedRangeMap::StoreRange}
 * written the plain way over tree maps: random ranges, nested, equal, partly overlapping and in
 * any order, give the same refusals and the same tree.
 */
class InlineRangeTreeTest {
  /** Breakpad's ContainedRangeMap (equal ranges allowed: the later is the inner one), on TreeMaps. */
  private static final class Ref {
    final long base;
    final long high;
    final int record;
    TreeMap<Long, Ref> children; // high ^ MIN_VALUE -> node

    Ref(long base, long high, int record) {
      this.base = base;
      this.high = high;
      this.record = record;
    }

    boolean store(long base, long end, int record) {
      long high = end - 1;
      Ref m = this;
      while (true) {
        if (m.children == null) m.children = new TreeMap<>();
        Map.Entry<Long, Ref> lo = m.children.ceilingEntry(base ^ Long.MIN_VALUE);
        Map.Entry<Long, Ref> hi = m.children.ceilingEntry(high ^ Long.MIN_VALUE);
        if (lo != null && hi != null && lo.getKey().equals(hi.getKey())
            && Long.compareUnsigned(base, lo.getValue().base) >= 0) {
          m = lo.getValue();
          continue;
        }
        boolean containsHigh = hi != null && Long.compareUnsigned(high, hi.getValue().base) >= 0;
        if ((lo != null && Long.compareUnsigned(base, lo.getValue().base) > 0)
            || (containsHigh && Long.compareUnsigned(high, hi.getValue().high) < 0)) {
          return false;
        }
        Ref n = new Ref(base, high, record);
        if (lo != null) {
          NavigableMap<Long, Ref> inside = hi == null ? m.children.tailMap(lo.getKey(), true)
              : m.children.subMap(lo.getKey(), true, hi.getKey(), containsHigh);
          if (!inside.isEmpty()) {
            n.children = new TreeMap<>(inside);
            inside.clear();
          }
        }
        m.children.put(high ^ Long.MIN_VALUE, n);
        return true;
      }
    }

    void dump(StringBuilder sb, int depth) {
      if (children == null) return;
      for (Ref c : children.values()) {
        sb.repeat(' ', depth).append(Long.toHexString(c.base)).append('-').append(Long.toHexString(c.high))
            .append(" r").append(c.record).append('\n');
        c.dump(sb, depth + 1);
      }
    }
  }

  private static void dump(BreakpadTransformer.Node n, StringBuilder sb, int depth) {
    for (int i = 0; i < n.nKids; i++) {
      BreakpadTransformer.Node c = n.kids[i];
      assertThat(n.kidHigh[i]).isEqualTo(c.high);
      sb.repeat(' ', depth).append(Long.toHexString(c.base)).append('-').append(Long.toHexString(c.high))
          .append(" r").append(c.record).append('\n');
      dump(c, sb, depth + 1);
    }
  }

  @Test
  void randomRangesMakeBreakpadsTree() {
    Random rnd = new Random(38);
    int refused = 0;
    for (int iter = 0; iter < 4000; iter++) {
      boolean high = rnd.nextInt(5) == 0; // near the top of the address space: unsigned order
      long origin = high ? 0xffff_ffff_ffff_f000L : 0x1000;
      Ref ref = new Ref(origin, origin + 0xfff, -1);
      BreakpadTransformer.Node node = new BreakpadTransformer.Node(origin, origin + 0xfff, -1);
      List<long[]> ranges = new ArrayList<>();
      int n = 1 + rnd.nextInt(iter % 4 == 0 ? 200 : 30);
      for (int r = 0; r < n; r++) {
        long[] last = ranges.isEmpty() ? null : ranges.get(rnd.nextInt(ranges.size()));
        long start;
        long size;
        switch (rnd.nextInt(5)) {
          case 0 -> { // the same as an earlier range
            start = last == null ? origin : last[0];
            size = last == null ? 16 : last[1] - last[0];
          }
          case 1 -> { // inside or around an earlier range
            start = last == null ? origin : last[0] + rnd.nextInt(9) - 4;
            size = last == null ? 16 : Math.max(1, last[1] - last[0] + rnd.nextInt(9) - 4);
          }
          case 2 -> { // after the previous one (address order)
            long[] prev = ranges.isEmpty() ? null : ranges.getLast();
            start = prev == null ? origin : prev[1] + rnd.nextInt(3);
            size = 1 + rnd.nextInt(32);
          }
          default -> {
            start = origin + rnd.nextInt(0xf00);
            size = 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 256);
          }
        }
        if (Long.compareUnsigned(start, origin) < 0) start = origin;
        if (Long.compareUnsigned(start + size, start) <= 0) size = -start - 1; // the parser refuses wrapping ranges
        if (size <= 0) continue;
        ranges.add(new long[] {start, start + size});
      }
      for (int r = 0; r < ranges.size(); r++) {
        long[] x = ranges.get(r);
        boolean want = ref.store(x[0], x[1], r);
        assertThat(BreakpadTransformer.store(node, x[0], x[1], r)).as("iteration %d, range %d", iter, r).isEqualTo(want);
        if (!want) refused++;
      }
      StringBuilder a = new StringBuilder();
      StringBuilder b = new StringBuilder();
      ref.dump(a, 0);
      dump(node, b, 0);
      assertThat(b.toString()).as("iteration %d", iter).isEqualTo(a.toString());
    }
    assertThat(refused).as("partial overlaps among the random ranges").isGreaterThan(1000);
  }
}
