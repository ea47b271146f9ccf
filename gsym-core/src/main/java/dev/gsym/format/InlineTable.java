package dev.gsym.format;

import dev.gsym.io.Cursor;
import java.util.Arrays;

/**
 * An encoded InlineInfo tree read once into flat arrays, so that repeated lookups in the same
 * function walk arrays instead of decoding LEB128 again. {@link #lookup} reports exactly the
 * frames {@link InlineInfo#lookup} reports on the same bytes: the tree is read with the same
 * lenient rules, in the order in which that lookup skips subtrees (which fixes the position of
 * every node it can reach), and a node whose ranges are all empty ends its sibling list, as it does
 * there. Immutable once built, so it can be shared between threads.
 */
public final class InlineTable {
  private static final int TERMINATOR = -1;

  // per node
  private int[] rangeFrom = new int[8];
  private int[] rangeCount = new int[8];
  private long[] firstStart = new long[8];
  private int[] name = new int[8];
  private int[] callFile = new int[8];
  private int[] callLine = new int[8];
  private int[] firstChild = new int[8];
  private int[] nextSibling = new int[8];
  private boolean[] allEmpty = new boolean[8];
  private int nodes;
  // non-empty ranges of all nodes
  private long[] rangeStart = new long[8];
  private long[] rangeSize = new long[8];
  private int ranges;
  private final int root;

  /** Nodes with at least this many children get a sorted index of their children's ranges. */
  private static final int WIDE = 8;
  /** Per node: first entry in the idx arrays, or -1 (scan the children in order). */
  private int[] idxFrom;
  private int[] idxCount;
  private long[] idxStart;
  private long[] idxSize;
  private int[] idxChild;

  private InlineTable(Cursor c, long base) {
    root = readNode(c, base, 0);
    trim();
    indexWideNodes();
  }

  /**
   * For nodes with many children whose ranges do not overlap, the children's ranges sorted by
   * start: the one child that can contain an address is then found by binary search (with
   * disjoint ranges it is also the first containing child in order, the one the scan finds).
   */
  private void indexWideNodes() {
    idxFrom = new int[nodes];
    idxCount = new int[nodes];
    Arrays.fill(idxFrom, -1);
    long[] st = new long[16];
    long[] sz = new long[16];
    int[] ch = new int[16];
    int total = 0;
    for (int node = 0; node < nodes; node++) {
      int kids = 0;
      int entries = 0;
      for (int c = firstChild[node]; c != TERMINATOR; c = nextSibling[c]) {
        kids++;
        entries += rangeCount[c];
      }
      if (kids < WIDE) continue;
      Integer[] order = new Integer[entries];
      long[] s = new long[entries];
      long[] z = new long[entries];
      int[] k = new int[entries];
      int e = 0;
      for (int c = firstChild[node]; c != TERMINATOR; c = nextSibling[c]) {
        for (int r = rangeFrom[c], end = r + rangeCount[c]; r < end; r++) {
          s[e] = rangeStart[r];
          z[e] = rangeSize[r];
          k[e] = c;
          order[e] = e;
          e++;
        }
      }
      Arrays.sort(order, (a, b) -> Long.compareUnsigned(s[a], s[b]));
      boolean disjoint = true;
      for (int i = 0; i < entries && disjoint; i++) {
        long a = s[order[i]];
        long end = a + z[order[i]];
        if (Long.compareUnsigned(end, a) < 0) disjoint = false; // wraps past 2^64
        else if (i + 1 < entries && Long.compareUnsigned(end, s[order[i + 1]]) > 0) disjoint = false;
      }
      if (!disjoint) continue;
      if (total + entries > st.length) {
        int cap = Math.max(st.length * 2, total + entries);
        st = Arrays.copyOf(st, cap);
        sz = Arrays.copyOf(sz, cap);
        ch = Arrays.copyOf(ch, cap);
      }
      idxFrom[node] = total;
      idxCount[node] = entries;
      for (int i = 0; i < entries; i++) {
        st[total + i] = s[order[i]];
        sz[total + i] = z[order[i]];
        ch[total + i] = k[order[i]];
      }
      total += entries;
    }
    idxStart = Arrays.copyOf(st, total);
    idxSize = Arrays.copyOf(sz, total);
    idxChild = Arrays.copyOf(ch, total);
  }

  /**
   * Reads the tree at {@code c} ({@code base} is the function start).
   *
   * @throws dev.gsym.io.GsymFormatException where {@link InlineInfo#lookup} could fail (nesting
   *     deeper than {@link InlineInfo#MAX_DEPTH}), even in parts a given lookup would not reach
   */
  public static InlineTable read(Cursor c, long base) {
    return new InlineTable(c, base);
  }

  /** Approximate heap size in bytes. */
  public long bytes() {
    return 64L + nodes * 49L + ranges * 16L + idxStart.length * 20L;
  }

  /** The frames containing {@code addr}, deepest first, as {@link InlineInfo#lookup}. */
  public void lookup(long addr, InlineInfo.InlineFrames frames) {
    if (root != TERMINATOR && !allEmpty[root]) visit(root, addr, frames);
  }

  private boolean visit(int node, long addr, InlineInfo.InlineFrames frames) {
    if (!contains(node, addr)) return false;
    int from = idxFrom[node];
    if (from >= 0) {
      int lo = from;
      int hi = from + idxCount[node];
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Long.compareUnsigned(idxStart[mid], addr) <= 0) lo = mid + 1;
        else hi = mid;
      }
      int i = lo - 1;
      if (i >= from && Long.compareUnsigned(addr - idxStart[i], idxSize[i]) < 0) {
        visit(idxChild[i], addr, frames);
      }
    } else {
      for (int ch = firstChild[node]; ch != TERMINATOR; ch = nextSibling[ch]) {
        if (visit(ch, addr, frames)) break;
      }
    }
    frames.frame(name[node], callFile[node], callLine[node], firstStart[node]);
    return true;
  }

  private boolean contains(int node, long addr) {
    for (int i = rangeFrom[node], end = i + rangeCount[node]; i < end; i++) {
      long start = rangeStart[i];
      if (Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr - start, rangeSize[i]) < 0) {
        return true;
      }
    }
    return false;
  }

  /** Reads a node and its subtree like InlineInfo's skipNode; TERMINATOR for a range count of 0. */
  private int readNode(Cursor c, long base, int depth) {
    if (depth > InlineInfo.MAX_DEPTH) {
      throw c.errorHere("InlineInfo nested deeper than " + InlineInfo.MAX_DEPTH + " levels");
    }
    long n = c.ulebOrZero();
    if (n == 0) return TERMINATOR;
    int from = ranges;
    boolean firstSet = false;
    long first = 0;
    for (long i = 0; Long.compareUnsigned(i, n) < 0; i++) { // n is an unsigned ULEB
      long before = c.position();
      long start = base + c.ulebOrZero();
      long size = c.ulebOrZero();
      if (c.position() == before) break;
      if (size == 0) continue;
      if (!firstSet || Long.compareUnsigned(start, first) < 0) {
        first = start;
        firstSet = true;
      }
      addRange(start, size);
    }
    int node = addNode();
    rangeFrom[node] = from;
    rangeCount[node] = ranges - from;
    firstStart[node] = first;
    allEmpty[node] = !firstSet;
    boolean hasChildren = c.u8OrZero() != 0;
    name[node] = c.s32OrZero();
    callFile[node] = (int) c.ulebOrZero();
    callLine[node] = (int) c.ulebOrZero();
    firstChild[node] = TERMINATOR;
    nextSibling[node] = TERMINATOR;
    if (hasChildren) {
      int last = TERMINATOR;
      boolean open = true; // a lookup stops scanning siblings at a node with only empty ranges
      while (true) {
        int child = readNode(c, first, depth + 1);
        if (child == TERMINATOR) break;
        if (!open) continue;
        if (allEmpty[child]) {
          open = false;
          continue;
        }
        if (last == TERMINATOR) firstChild[node] = child;
        else nextSibling[last] = child;
        last = child;
      }
    }
    return node;
  }

  private void addRange(long start, long size) {
    if (ranges == rangeStart.length) {
      rangeStart = Arrays.copyOf(rangeStart, ranges * 2);
      rangeSize = Arrays.copyOf(rangeSize, ranges * 2);
    }
    rangeStart[ranges] = start;
    rangeSize[ranges] = size;
    ranges++;
  }

  private int addNode() {
    if (nodes == name.length) {
      int n = nodes * 2;
      rangeFrom = Arrays.copyOf(rangeFrom, n);
      rangeCount = Arrays.copyOf(rangeCount, n);
      firstStart = Arrays.copyOf(firstStart, n);
      name = Arrays.copyOf(name, n);
      callFile = Arrays.copyOf(callFile, n);
      callLine = Arrays.copyOf(callLine, n);
      firstChild = Arrays.copyOf(firstChild, n);
      nextSibling = Arrays.copyOf(nextSibling, n);
      allEmpty = Arrays.copyOf(allEmpty, n);
    }
    return nodes++;
  }

  private void trim() {
    rangeFrom = Arrays.copyOf(rangeFrom, nodes);
    rangeCount = Arrays.copyOf(rangeCount, nodes);
    firstStart = Arrays.copyOf(firstStart, nodes);
    name = Arrays.copyOf(name, nodes);
    callFile = Arrays.copyOf(callFile, nodes);
    callLine = Arrays.copyOf(callLine, nodes);
    firstChild = Arrays.copyOf(firstChild, nodes);
    nextSibling = Arrays.copyOf(nextSibling, nodes);
    allEmpty = Arrays.copyOf(allEmpty, nodes);
    rangeStart = Arrays.copyOf(rangeStart, ranges);
    rangeSize = Arrays.copyOf(rangeSize, ranges);
  }
}
