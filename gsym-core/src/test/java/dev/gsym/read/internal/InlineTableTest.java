package dev.gsym.read.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.InlineInfo;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import dev.gsym.testing.Slow;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link InlineTable#lookup} must report exactly the frames {@link InlineInfo#lookup} reports on the
 * same bytes, with its answer map (the usual case) and with the tree walk it falls back to: random
 * trees with overlapping, unsorted, multi-range and empty-range siblings, wide nodes with and
 * without a disjoint child index, ranges that wrap past 2^64 and offsets beyond 32 bits.
 */
@Slow
class InlineTableTest {
  private static final long BASE = 0x10_0000L;

  /** Raw InlineInfo bytes, written node by node. */
  private static final class Tree {
    final GsymWriter out = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
    final List<Long> edges = new ArrayList<>();
    int names = 1;

    /**
     * A node with ranges {@code (offset, size)} from {@code base}; children are added by
     * {@code kids} with the node's first non-empty start as their base, then a terminator.
     */
    void node(long base, long[][] ranges, java.util.function.LongConsumer kids) {
      out.uleb(ranges.length);
      long first = 0;
      boolean firstSet = false;
      for (long[] r : ranges) {
        out.uleb(r[0]);
        out.uleb(r[1]);
        long start = base + r[0];
        edges.add(start);
        edges.add(start + r[1]);
        if (r[1] != 0 && (!firstSet || Long.compareUnsigned(start, first) < 0)) {
          first = start;
          firstSet = true;
        }
      }
      out.u8(kids != null ? 1 : 0);
      int name = names++;
      out.u32(name);
      out.uleb(1 + name % 5); // call file
      out.uleb(100 + name); // call line
      if (kids != null) {
        kids.accept(first);
        out.uleb(0);
      }
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  private static String frames(java.util.function.Consumer<InlineInfo.InlineFrames> lookup) {
    StringBuilder sb = new StringBuilder();
    lookup.accept((name, file, line, first) -> sb.append(name).append('/').append(file).append('/')
        .append(line).append('@').append(Long.toHexString(first)).append(' '));
    return sb.toString();
  }

  private static InlineTable compare(byte[] bytes, List<Long> edges, Random rnd, int randomProbes) {
    ByteView v = ByteView.of(bytes, ByteOrder.LITTLE_ENDIAN, "t");
    InlineTable table = InlineTable.read(v.cursor(0), BASE);
    List<Long> probes = new ArrayList<>(List.of(0L, -1L, BASE - 1, BASE, Long.MIN_VALUE));
    for (long e : edges) {
      probes.add(e - 1);
      probes.add(e);
      probes.add(e + 1);
    }
    for (int i = 0; i < randomProbes; i++) probes.add(BASE + rnd.nextInt(0x3000));
    for (long a : probes) {
      String expected = frames(f -> InlineInfo.lookup(v.cursor(0), BASE, a, f));
      assertThat(frames(f -> table.lookup(a, f))).as("0x%x", a).isEqualTo(expected);
    }
    return table;
  }

  private static void randomNode(Tree t, Random rnd, long base, int depth) {
    int nr = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 1 : 3);
    long[][] ranges = new long[nr][];
    for (int i = 0; i < nr; i++) {
      ranges[i] = new long[] {rnd.nextInt(0x800), rnd.nextInt(12) == 0 ? 0 : 1 + rnd.nextInt(0x200)};
    }
    boolean kids = depth < 5 && rnd.nextInt(3) != 0;
    t.node(base, ranges, !kids ? null : first -> {
      int n = depth <= 2 && rnd.nextInt(4) == 0 ? 8 + rnd.nextInt(12) : rnd.nextInt(3); // some wide nodes
      for (int i = 0; i < n; i++) randomNode(t, rnd, first, depth + 1);
    });
  }

  @Test
  void randomTreesAnswerAsTheEncodedLookup() {
    Random rnd = new Random(20261123);
    int mapped = 0;
    for (int i = 0; i < 300; i++) {
      Tree t = new Tree();
      t.node(BASE, new long[][] {{0, 0x2800}}, first -> {
        int n = 1 + rnd.nextInt(10);
        for (int k = 0; k < n; k++) randomNode(t, rnd, first, 1);
      });
      if (compare(t.bytes(), t.edges, rnd, 50).mapped()) mapped++;
    }
    assertThat(mapped).isGreaterThan(250);
  }

  @Test
  void wideNodesWithDisjointChildrenOutOfOrderAnswer() {
    // 40 children, each with two ranges, the second far away and in reverse order: disjoint once
    // sorted, so indexed; grandchildren wide too
    Tree t = new Tree();
    t.node(BASE, new long[][] {{0, 0x3000}}, first -> {
      for (int k = 0; k < 40; k++) {
        long s = 0x10 + k * 0x40L;
        t.node(first, new long[][] {{s, 0x30}, {0x2000 - k * 0x20L, 0x10}}, kid -> {
          for (int g = 0; g < 10; g++) t.node(kid, new long[][] {{g * 4L, 3}}, null);
        });
      }
    });
    InlineTable table = compare(t.bytes(), t.edges, new Random(3), 2000);
    assertThat(table.mapped()).isTrue();
  }

  @Test
  void rangesWrappingPastTheEndOfTheAddressSpaceAreMapped() {
    Tree t = new Tree();
    t.node(BASE, new long[][] {{0, 0x100}, {0x200, -BASE - 0x100}}, first -> {
      t.node(first, new long[][] {{0x10, -BASE - 0x08}}, null); // wraps to 0x8
      t.node(first, new long[][] {{0x20, 0x10}}, null);
    });
    InlineTable table = compare(t.bytes(), t.edges, new Random(4), 100);
    assertThat(table.mapped()).isTrue();
    assertThat(frames(f -> table.lookup(-2L, f))).isNotEmpty();
  }

  @Test
  void answersChangingMoreThan4GiBAboveTheStartFallBackToTheTreeWalk() {
    Tree t = new Tree();
    t.node(BASE, new long[][] {{0, 0x100}, {0x2_0000_0000L, 0x100}}, first -> {
      t.node(first, new long[][] {{0x2_0000_0010L, 0x10}}, null);
      t.node(first, new long[][] {{0x20, 0x10}}, null);
    });
    InlineTable table = compare(t.bytes(), t.edges, new Random(4), 100);
    assertThat(table.mapped()).isFalse();
    assertThat(frames(f -> table.lookup(BASE + 0x2_0000_0014L, f))).contains("/102@").contains("/101@");
  }

  @Test
  void treesTooCostlyToMapAreWalked() {
    // a chain 400 deep over a range with 1,000 small leaves at the bottom: every level covers
    // nearly every interval between bounds, so painting would take 400 x 2,800 steps
    Tree t = new Tree();
    java.util.function.LongConsumer[] level = new java.util.function.LongConsumer[401];
    level[400] = b -> {
      for (int j = 0; j < 1000; j++) t.node(b, new long[][] {{2L * j, 1}}, null);
    };
    for (int d = 399; d >= 0; d--) {
      long size = 0x1000 - 2L * (d + 1);
      java.util.function.LongConsumer below = level[d + 1];
      level[d] = b -> t.node(b, new long[][] {{1, size}}, below);
    }
    t.node(BASE, new long[][] {{0, 0x1000}}, level[0]);
    InlineTable table = compare(t.bytes(), t.edges, new Random(5), 100);
    assertThat(table.mapped()).isFalse();
  }

}
