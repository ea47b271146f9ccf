package dev.gsym.format;

import dev.gsym.io.Cursor;
import java.util.Arrays;

/**
 * An encoded InlineInfo tree read once into a few flat arrays, so that repeated lookups in the same
 * function walk arrays instead of decoding LEB128 again. {@link #lookup} reports exactly the frames
 * {@link InlineInfo#lookup} reports on the same bytes: the tree is read with the same lenient
 * rules, in the order in which that lookup skips subtrees (which fixes the position of every node
 * it can reach), and a node whose ranges are all empty ends its sibling list, as it does there.
 * Nodes with many children whose ranges are disjoint and in order are searched by binary search.
 * Immutable once built, so it can be shared between threads (publish it safely).
 */
public final class InlineTable {
  private static final int NONE = -1;
  /** Nodes with at least this many children get their children's ranges indexed. */
  private static final int WIDE = 8;

  // node fields, STRIDE ints per node
  private static final int RANGE_FROM = 0;
  private static final int RANGE_COUNT = 1;
  private static final int NAME = 2;
  private static final int CALL_FILE = 3;
  private static final int CALL_LINE = 4;
  private static final int FIRST_CHILD = 5;
  private static final int NEXT_SIBLING = 6;
  private static final int IDX_FROM = 7;
  private static final int IDX_COUNT = 8;
  private static final int STRIDE = 9;

  private final int[] node;
  private final long[] firstStart;
  /** Non-empty ranges of all nodes, as start, size pairs. */
  private final long[] ranges;
  /** Indexed children's ranges (start, size pairs) and the child owning each. */
  private final long[] idxRanges;
  private final int[] idxChild;
  private final boolean empty;

  private InlineTable(Builder b, int root) {
    empty = root == NONE || b.allEmpty[root];
    b.index();
    node = Arrays.copyOf(b.node, b.nodes * STRIDE);
    firstStart = Arrays.copyOf(b.firstStart, b.nodes);
    ranges = Arrays.copyOf(b.ranges, b.rangeCount * 2);
    idxRanges = Arrays.copyOf(b.idxRanges, b.idxCount * 2);
    idxChild = Arrays.copyOf(b.idxChild, b.idxCount);
  }

  private static final ThreadLocal<Builder> BUILDER = ThreadLocal.withInitial(Builder::new);

  /**
   * Reads the tree at {@code c} ({@code base} is the function start).
   *
   * @throws dev.gsym.io.GsymFormatException where {@link InlineInfo#lookup} could fail (nesting
   *     deeper than {@link InlineInfo#MAX_DEPTH}), even in parts a given lookup would not reach
   */
  public static InlineTable read(Cursor c, long base) {
    Builder b = BUILDER.get();
    b.reset(c);
    int root = b.readNode(base, 0);
    return new InlineTable(b, root);
  }

  /** Approximate heap size in bytes. */
  public long bytes() {
    return 96L + node.length * 4L + firstStart.length * 8L + ranges.length * 8L + idxRanges.length * 8L
        + idxChild.length * 4L;
  }

  /** The frames containing {@code addr}, deepest first, as {@link InlineInfo#lookup}. */
  public void lookup(long addr, InlineInfo.InlineFrames frames) {
    if (!empty) visit(0, addr, frames);
  }

  private boolean visit(int n, long addr, InlineInfo.InlineFrames frames) {
    int at = n * STRIDE;
    int[] nd = node;
    if (!contains(nd[at + RANGE_FROM], nd[at + RANGE_COUNT], addr)) return false;
    int count = nd[at + IDX_COUNT];
    if (count > 0) {
      int from = nd[at + IDX_FROM];
      int lo = from;
      int hi = from + count;
      long[] ix = idxRanges;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Long.compareUnsigned(ix[2 * mid], addr) <= 0) lo = mid + 1;
        else hi = mid;
      }
      int i = lo - 1;
      if (i >= from && Long.compareUnsigned(addr - ix[2 * i], ix[2 * i + 1]) < 0) {
        visit(idxChild[i], addr, frames);
      }
    } else {
      for (int ch = nd[at + FIRST_CHILD]; ch != NONE; ch = nd[ch * STRIDE + NEXT_SIBLING]) {
        if (visit(ch, addr, frames)) break;
      }
    }
    frames.frame(nd[at + NAME], nd[at + CALL_FILE], nd[at + CALL_LINE], firstStart[n]);
    return true;
  }

  private boolean contains(int from, int count, long addr) {
    long[] r = ranges;
    for (int i = 2 * from, end = i + 2 * count; i < end; i += 2) {
      if (Long.compareUnsigned(addr - r[i], r[i + 1]) < 0 && Long.compareUnsigned(addr, r[i]) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Per-thread scratch space, reused from one tree to the next. */
  private static final class Builder {
    int[] node = new int[64 * STRIDE];
    long[] firstStart = new long[64];
    boolean[] allEmpty = new boolean[64];
    int nodes;
    long[] ranges = new long[128];
    int rangeCount;
    long[] idxRanges = new long[64];
    int[] idxChild = new int[32];
    int idxCount;

    /** The tree's bytes (a copy of the cursor's window from its position) and the read position. */
    private byte[] b;
    private int pos;
    private Cursor origin;
    private long originPos;
    private boolean bigEndian;

    void reset(Cursor c) {
      nodes = 0;
      rangeCount = 0;
      idxCount = 0;
      origin = c;
      originPos = c.position();
      bigEndian = c.view().order() == java.nio.ByteOrder.BIG_ENDIAN;
      b = c.copyRemaining();
      pos = 0;
    }

    // Cursor's lenient reads, on the copied bytes

    /** Cursor.ulebOrZero: an unreadable value (end of data, too big, too long) is 0, no move. */
    private long ulebOrZero() {
      long result = 0;
      int shift = 0;
      int p = pos;
      while (true) {
        if (p >= b.length) return 0;
        int x = b[p++] & 0xff;
        long slice = x & 0x7f;
        if (shift >= 64 && slice != 0 || shift == 63 && slice > 1) return 0;
        if (shift < 64) result |= slice << shift;
        shift += 7;
        if ((x & 0x80) == 0) {
          pos = p;
          return result;
        }
        if (shift > 70) return 0;
      }
    }

    private int u8OrZero() {
      return pos < b.length ? b[pos++] & 0xff : 0;
    }

    private int s32OrZero() {
      if (b.length - pos < 4) return 0;
      int v = (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8 | (b[pos + 2] & 0xff) << 16 | (b[pos + 3] & 0xff) << 24;
      pos += 4;
      return bigEndian ? Integer.reverseBytes(v) : v;
    }

    /** Reads a node and its subtree like InlineInfo's skipNode; NONE for a range count of 0. */
    int readNode(long base, int depth) {
      if (depth > InlineInfo.MAX_DEPTH) {
        long at = originPos + pos;
        throw origin.errorAt(at, String.format("0x%08x: InlineInfo nested deeper than %d levels", at,
            InlineInfo.MAX_DEPTH));
      }
      long n = ulebOrZero();
      if (n == 0) return NONE;
      int from = rangeCount;
      boolean firstSet = false;
      long first = 0;
      for (long i = 0; Long.compareUnsigned(i, n) < 0; i++) { // n is an unsigned ULEB
        int before = pos;
        long start = base + ulebOrZero();
        long size = ulebOrZero();
        if (pos == before) break;
        if (size == 0) continue;
        if (!firstSet || Long.compareUnsigned(start, first) < 0) {
          first = start;
          firstSet = true;
        }
        if (2 * rangeCount + 2 > ranges.length) ranges = Arrays.copyOf(ranges, ranges.length * 2);
        ranges[2 * rangeCount] = start;
        ranges[2 * rangeCount + 1] = size;
        rangeCount++;
      }
      int me = addNode();
      int at = me * STRIDE;
      node[at + RANGE_FROM] = from;
      node[at + RANGE_COUNT] = rangeCount - from;
      firstStart[me] = first;
      allEmpty[me] = !firstSet;
      boolean hasChildren = u8OrZero() != 0;
      node[at + NAME] = s32OrZero();
      node[at + CALL_FILE] = (int) ulebOrZero();
      node[at + CALL_LINE] = (int) ulebOrZero();
      node[at + FIRST_CHILD] = NONE;
      node[at + NEXT_SIBLING] = NONE;
      node[at + IDX_FROM] = 0;
      node[at + IDX_COUNT] = 0;
      if (hasChildren) {
        int last = NONE;
        boolean open = true; // a lookup stops scanning siblings at a node with only empty ranges
        while (true) {
          int child = readNode(first, depth + 1);
          if (child == NONE) break;
          if (!open) continue;
          if (allEmpty[child]) {
            open = false;
            continue;
          }
          if (last == NONE) node[at + FIRST_CHILD] = child;
          else node[last * STRIDE + NEXT_SIBLING] = child;
          last = child;
        }
      }
      return me;
    }

    private int addNode() {
      if (nodes == firstStart.length) {
        int n = nodes * 2;
        node = Arrays.copyOf(node, n * STRIDE);
        firstStart = Arrays.copyOf(firstStart, n);
        allEmpty = Arrays.copyOf(allEmpty, n);
      }
      return nodes++;
    }

    /**
     * Indexes the children's ranges of every node with at least {@link #WIDE} children when, taken
     * in child order, they are already sorted by start and disjoint (as compilers emit them): the
     * one child that can contain an address is then found by binary search, and it is also the
     * first containing child in order, the one a scan finds.
     */
    void index() {
      for (int n = 0; n < nodes; n++) {
        int at = n * STRIDE;
        int kids = 0;
        int entries = 0;
        for (int c = node[at + FIRST_CHILD]; c != NONE; c = node[c * STRIDE + NEXT_SIBLING]) {
          kids++;
          entries += node[c * STRIDE + RANGE_COUNT];
        }
        if (kids < WIDE) continue;
        boolean ok = true;
        long prevEnd = 0;
        boolean first = true;
        for (int c = node[at + FIRST_CHILD]; c != NONE && ok; c = node[c * STRIDE + NEXT_SIBLING]) {
          int from = node[c * STRIDE + RANGE_FROM];
          int count = node[c * STRIDE + RANGE_COUNT];
          for (int r = from; r < from + count; r++) {
            long start = ranges[2 * r];
            long end = start + ranges[2 * r + 1];
            if (Long.compareUnsigned(end, start) < 0 || !first && Long.compareUnsigned(start, prevEnd) < 0) {
              ok = false; // wraps past 2^64, out of order or overlapping
              break;
            }
            prevEnd = end;
            first = false;
          }
        }
        if (!ok) continue;
        if (2 * (idxCount + entries) > idxRanges.length) {
          idxRanges = Arrays.copyOf(idxRanges, Math.max(idxRanges.length * 2, 2 * (idxCount + entries)));
          idxChild = Arrays.copyOf(idxChild, idxRanges.length / 2);
        }
        node[at + IDX_FROM] = idxCount;
        node[at + IDX_COUNT] = entries;
        for (int c = node[at + FIRST_CHILD]; c != NONE; c = node[c * STRIDE + NEXT_SIBLING]) {
          int from = node[c * STRIDE + RANGE_FROM];
          int count = node[c * STRIDE + RANGE_COUNT];
          for (int r = from; r < from + count; r++) {
            idxRanges[2 * idxCount] = ranges[2 * r];
            idxRanges[2 * idxCount + 1] = ranges[2 * r + 1];
            idxChild[idxCount] = c;
            idxCount++;
          }
        }
      }
    }
  }
}
