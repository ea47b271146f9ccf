package dev.gsym.read.internal;

import dev.gsym.format.InlineInfo;
import dev.gsym.format.Reading;
import dev.gsym.io.Cursor;
import java.util.Arrays;

/**
 * An encoded InlineInfo tree read once for repeated lookups in the same function. {@link #lookup}
 * reports exactly the frames {@link InlineInfo#lookup} reports on the same bytes: the tree is read
 * with the same lenient rules, in the order in which that lookup skips subtrees (which fixes the
 * position of every node it can reach), and a node whose ranges are all empty ends its sibling
 * list, as it does there. Usually the tree becomes an answer map: the deepest node for every
 * interval between range bounds, found by one search, with the frames read up the parent links.
 * Trees too costly to map keep flat arrays that each lookup walks (children of wide nodes whose
 * ranges are disjoint are binary-searched). Immutable once built, so it can be shared between
 * threads (publish it safely).
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

  // The answer map, built whenever it costs little: the addresses at which the answer can change
  // (every range's start and, unless it wraps, end), each as its offset from the function start in
  // the top 32 bits and, in the low 32 bits, 1 + the deepest node containing the addresses from it
  // to the next (0: no frames). A lookup is one search and a walk up the parent links.
  private final long base;
  private final long[] map;
  /** The last bound's offset in {@link #map}, and the map's length (read without touching it). */
  private final long lastBound;
  private final int mapLength;
  /** Per node, FRAME_LONGS longs: name | call file << 32, call line | parent << 32, first start. */
  private final long[] frame;
  /** The tree, kept instead of the map only when the map would cost too much to build. */
  private final Tree tree;
  private final boolean empty;

  private static final int FRAME_LONGS = 3;
  /** Building the map may take this many steps per node and range of the tree (plus a constant). */
  private static final int MAP_BUDGET_PER_ITEM = 256;

  private InlineTable(Builder b, int root, long base) {
    this.base = base;
    empty = root == NONE || b.allEmpty[root];
    long[] m = empty ? null : b.buildMap(base);
    if (m != null) {
      map = m;
      lastBound = m.length == 0 ? 0 : m[m.length - 1] >>> 32;
      mapLength = m.length;
      frame = new long[b.nodes * FRAME_LONGS];
      for (int n = 0; n < b.nodes; n++) {
        int at = n * STRIDE;
        frame[n * FRAME_LONGS] = Integer.toUnsignedLong(b.node[at + NAME]) | (long) b.node[at + CALL_FILE] << 32;
        frame[n * FRAME_LONGS + 1] = Integer.toUnsignedLong(b.node[at + CALL_LINE]) | (long) b.parent[n] << 32;
        frame[n * FRAME_LONGS + 2] = b.firstStart[n];
      }
      tree = null;
    } else { // walked at each lookup: index the children of wide nodes first
      b.index();
      map = null;
      lastBound = 0;
      mapLength = 0;
      frame = null;
      tree = new Tree(Arrays.copyOf(b.node, b.nodes * STRIDE), Arrays.copyOf(b.firstStart, b.nodes),
          Arrays.copyOf(b.ranges, b.rangeCount * 2), Arrays.copyOf(b.idxRanges, b.idxCount * 2),
          Arrays.copyOf(b.idxChild, b.idxCount));
    }
  }


  private static final ThreadLocal<Builder> BUILDER = ThreadLocal.withInitial(Builder::new);

  /**
   * Reads the tree at {@code c} ({@code base} is the function start) with {@link InlineInfo#parse}
   * in {@link Reading#LOOKUP} mode: every node, as LLVM's lookup would read it wherever it skips.
   *
   * @throws dev.gsym.GsymFormatException where {@link InlineInfo#lookup} could fail (nesting
   *     deeper than {@link InlineInfo#MAX_DEPTH}), even in parts a given lookup would not reach
   */
  public static InlineTable read(Cursor c, long base) {
    Builder b = BUILDER.get();
    b.reset();
    InlineInfo.parse(c, base, Reading.LOOKUP, b);
    return new InlineTable(b, b.nodes == 0 ? NONE : 0, base);
  }

  /** Approximate heap size in bytes. */
  public long bytes() {
    if (tree != null) return 96L + tree.bytes();
    return 96L + map.length * 8L + frame.length * 8L;
  }

  /** True if lookups use the answer map rather than walking the tree (for tests). */
  boolean mapped() {
    return tree == null && !empty;
  }

  /** The frames containing {@code addr}, deepest first, as {@link InlineInfo#lookup}. */
  public void lookup(long addr, InlineInfo.InlineFrames frames) {
    if (empty) return;
    if (tree != null) {
      tree.visit(0, addr, frames);
      return;
    }
    if (Long.compareUnsigned(addr, base) < 0) return; // every bound is at or above the start
    long off = addr - base;
    long[] m = map;
    int count = mapLength;
    if (count == 0) return;
    int i = off >>> 32 != 0 ? count - 1 // past every bound
        : SortedKeys.lastAtOrBelow(m, off << 32 | 0xFFFF_FFFFL, SortedKeys.guess(count, lastBound, off));
    if (i < 0) return;
    long[] f = frame;
    for (int n = (int) m[i] - 1; n != NONE; ) {
      int at = n * FRAME_LONGS;
      long nameFile = f[at];
      long lineParent = f[at + 1];
      frames.frame((int) nameFile, (int) (nameFile >>> 32), (int) lineParent, f[at + 2]);
      n = (int) (lineParent >> 32);
    }
  }

  /** The tree as flat arrays: node fields ({@link #STRIDE} ints per node), ranges and indexes. */
  private record Tree(int[] node, long[] firstStart, long[] ranges, long[] idxRanges, int[] idxChild) {
    long bytes() {
      return node.length * 4L + firstStart.length * 8L + ranges.length * 8L + idxRanges.length * 8L
          + idxChild.length * 4L;
    }

    /** Reports the frames of {@code n}'s subtree containing addr; true if {@code n} contains it. */
    boolean visit(int n, long addr, InlineInfo.InlineFrames frames) {
      if (!contains(n, addr)) return false;
      int ch = firstContainingChild(n, addr);
      if (ch != NONE) visit(ch, addr, frames);
      int at = n * STRIDE;
      frames.frame(node[at + NAME], node[at + CALL_FILE], node[at + CALL_LINE], firstStart[n]);
      return true;
    }

    /**
     * The child of {@code n} that a lookup descends into (the first one in order containing addr),
     * or NONE.
     */
    int firstContainingChild(int n, long addr) {
      int at = n * STRIDE;
      int count = node[at + IDX_COUNT];
      if (count > 0) {
        int from = node[at + IDX_FROM];
        int lo = from;
        int hi = from + count;
        long[] ix = idxRanges;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (Long.compareUnsigned(ix[2 * mid], addr) <= 0) lo = mid + 1;
          else hi = mid;
        }
        int i = lo - 1;
        if (i >= from && Long.compareUnsigned(addr - ix[2 * i], ix[2 * i + 1]) < 0) return idxChild[i];
        return NONE;
      }
      for (int ch = node[at + FIRST_CHILD]; ch != NONE; ch = node[ch * STRIDE + NEXT_SIBLING]) {
        if (contains(ch, addr)) return ch;
      }
      return NONE;
    }

    boolean contains(int n, long addr) {
      int at = n * STRIDE;
      long[] r = ranges;
      for (int i = 2 * node[at + RANGE_FROM], end = i + 2 * node[at + RANGE_COUNT]; i < end; i += 2) {
        if (Long.compareUnsigned(addr - r[i], r[i + 1]) < 0 && Long.compareUnsigned(addr, r[i]) >= 0) {
          return true;
        }
      }
      return false;
    }
  }

  /** Per-thread scratch space, reused from one tree to the next; a visitor of the walk. */
  private static final class Builder implements InlineInfo.InlineVisitor {
    int[] node = new int[64 * STRIDE];
    long[] firstStart = new long[64];
    boolean[] allEmpty = new boolean[64];
    int[] parent = new int[64];
    /** Per node, 1 + its last descendant's index (nodes are numbered in pre-order). */
    int[] subtreeEnd = new int[64];
    int nodes;
    long[] mapBounds = new long[128];
    long[] ranges = new long[128];
    int rangeCount;
    long[] idxRanges = new long[64];
    int[] idxChild = new int[32];
    int idxCount;

    /**
     * Per depth of the walk: the node whose children are being read, its last linked child, and
     * whether its list is still open (a lookup stops scanning siblings at a node whose ranges are
     * all empty: later siblings are read but not linked).
     */
    private int[] current = new int[64];
    private int[] lastChild = new int[64];
    private boolean[] open = new boolean[64];

    void reset() {
      nodes = 0;
      rangeCount = 0;
      idxCount = 0;
    }

    @Override
    public boolean node(int depth, InlineInfo.Ranges r, boolean hasChildren, int name, int callFile,
        int callLine) {
      int from = rangeCount;
      for (int i = 0; i < r.count(); i++) {
        if (2 * rangeCount + 2 > ranges.length) ranges = Arrays.copyOf(ranges, ranges.length * 2);
        ranges[2 * rangeCount] = r.start(i);
        ranges[2 * rangeCount + 1] = r.size(i);
        rangeCount++;
      }
      int me = addNode();
      parent[me] = NONE;
      int at = me * STRIDE;
      node[at + RANGE_FROM] = from;
      node[at + RANGE_COUNT] = rangeCount - from;
      firstStart[me] = r.firstStart();
      allEmpty[me] = r.count() == 0;
      node[at + NAME] = name;
      node[at + CALL_FILE] = callFile;
      node[at + CALL_LINE] = callLine;
      node[at + FIRST_CHILD] = NONE;
      node[at + NEXT_SIBLING] = NONE;
      node[at + IDX_FROM] = 0;
      node[at + IDX_COUNT] = 0;
      if (depth > 0 && open[depth - 1]) {
        int p = depth - 1;
        if (allEmpty[me]) {
          open[p] = false;
        } else {
          parent[me] = current[p];
          if (lastChild[p] == NONE) node[current[p] * STRIDE + FIRST_CHILD] = me;
          else node[lastChild[p] * STRIDE + NEXT_SIBLING] = me;
          lastChild[p] = me;
        }
      }
      if (hasChildren) {
        if (depth == current.length) {
          current = Arrays.copyOf(current, 2 * depth);
          lastChild = Arrays.copyOf(lastChild, 2 * depth);
          open = Arrays.copyOf(open, 2 * depth);
        }
        current[depth] = me;
        lastChild[depth] = NONE;
        open[depth] = true;
      } else {
        subtreeEnd[me] = nodes;
      }
      return true;
    }

    @Override
    public boolean endChildren(int depth) {
      subtreeEnd[current[depth]] = nodes;
      return true;
    }

    private int addNode() {
      if (nodes == firstStart.length) {
        int n = nodes * 2;
        node = Arrays.copyOf(node, n * STRIDE);
        firstStart = Arrays.copyOf(firstStart, n);
        allEmpty = Arrays.copyOf(allEmpty, n);
        parent = Arrays.copyOf(parent, n);
        subtreeEnd = Arrays.copyOf(subtreeEnd, n);
      }
      return nodes++;
    }

    /**
     * Builds the answer map (see {@link InlineTable#map}). The answer is the same for all addresses
     * from one bound to the next (it only depends on which ranges contain the address), so each
     * interval between bounds gets a colour: the deepest node a lookup's descent reaches there. The
     * colours are painted top-down: a node paints its ranges where the colour is still one of its
     * parent's subtree (the parent's region), and a node's children paint in reverse order, so an
     * earlier sibling, with its subtree, wins where siblings overlap, as the descent takes the first
     * child containing the address. Consecutive intervals of the same colour are merged. Returns
     * null, leaving the tree to be walked at each lookup, if painting would take over {@link
     * #MAP_BUDGET_PER_ITEM} steps per node and range (hostile or pathological trees: wide nodes
     * whose children overlap, nested deep), or if a bound is below {@code base} or 2^32 or more
     * above it.
     */
    long[] buildMap(long base) {
      if (mapBounds.length < 2 * rangeCount) mapBounds = new long[2 * rangeCount];
      long[] bs = mapBounds;
      int k = 0;
      for (int r = 0; r < rangeCount; r++) { // sorted unsigned: as signed with the top bit flipped
        long start = ranges[2 * r];
        long end = start + ranges[2 * r + 1];
        bs[k++] = start ^ Long.MIN_VALUE;
        if (Long.compareUnsigned(end, start) > 0) bs[k++] = end ^ Long.MIN_VALUE;
      }
      Arrays.sort(bs, 0, k);
      int u = 0;
      for (int i = 0; i < k; i++) {
        if (u == 0 || bs[i] != bs[u - 1]) bs[u++] = bs[i];
      }
      if (color.length < u) color = new int[Math.max(u, 2 * color.length)];
      Arrays.fill(color, 0, u, NONE);
      steps = (long) MAP_BUDGET_PER_ITEM * (nodes + rangeCount) + 4096;
      sp = 0;
      if (!paint(0, NONE, bs, u)) return null;
      int mapCount = 0;
      int previous = NONE;
      for (int x = 0; x < u; x++) {
        int deepest = color[x];
        if (deepest == previous) continue; // (leading intervals without frames are dropped too)
        long a = bs[x] ^ Long.MIN_VALUE;
        long off = a - base;
        if (Long.compareUnsigned(a, base) < 0 || off >>> 32 != 0) return null;
        bs[mapCount] = off << 32 | (deepest + 1); // mapCount <= x: this bound has been read already
        mapCount++;
        previous = deepest;
      }
      return Arrays.copyOf(bs, mapCount);
    }

    /** Steps left for the current map. */
    private long steps;
    /** Interval colours of the current map, and a stack of children to paint. */
    private int[] color = new int[128];
    private int[] kids = new int[64];
    private int sp;

    /**
     * Paints node {@code n}'s ranges over the {@code u} intervals of {@code bs} where the colour is
     * in {@code parent}'s subtree (anywhere for the top node), then its children, last first.
     * Returns false once the step budget is spent.
     */
    private boolean paint(int n, int parent, long[] bs, int u) {
      int at = n * STRIDE;
      int clipFrom = parent;
      int clipTo = parent == NONE ? 0 : subtreeEnd[parent];
      int[] col = color;
      for (int r = node[at + RANGE_FROM], end = r + node[at + RANGE_COUNT]; r < end; r++) {
        long start = ranges[2 * r];
        long stop = start + ranges[2 * r + 1];
        int from = Arrays.binarySearch(bs, 0, u, start ^ Long.MIN_VALUE); // every start is a bound
        int to = Long.compareUnsigned(stop, start) > 0 ? Arrays.binarySearch(bs, 0, u, stop ^ Long.MIN_VALUE) : u;
        steps -= 1 + to - from;
        if (steps < 0) return false;
        if (parent == NONE) {
          Arrays.fill(col, from, to, n);
        } else {
          for (int x = from; x < to; x++) {
            int c = col[x];
            if (c >= clipFrom && c < clipTo) col[x] = n;
          }
        }
      }
      int sp0 = sp;
      for (int ch = node[at + FIRST_CHILD]; ch != NONE; ch = node[ch * STRIDE + NEXT_SIBLING]) {
        if (sp == kids.length) kids = Arrays.copyOf(kids, 2 * sp);
        kids[sp++] = ch;
      }
      int top = sp;
      for (int i = top - 1; i >= sp0; i--) {
        if (!paint(kids[i], n, bs, u)) return false;
        sp = top; // children's children were pushed above and are done
      }
      sp = sp0;
      return true;
    }

    /**
     * Indexes the children's ranges of every node with at least {@link #WIDE} children when, sorted
     * by start, they are disjoint and none wraps past 2^64 (as compilers emit them, though not
     * always in child order): the one child that can contain an address is then found by binary
     * search, and being the only one, it is also the first containing child in order, the one a
     * scan finds.
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
        if (2 * (idxCount + entries) > idxRanges.length) {
          idxRanges = Arrays.copyOf(idxRanges, Math.max(idxRanges.length * 2, 2 * (idxCount + entries)));
          idxChild = Arrays.copyOf(idxChild, idxRanges.length / 2);
        }
        int from = idxCount;
        for (int c = node[at + FIRST_CHILD]; c != NONE; c = node[c * STRIDE + NEXT_SIBLING]) {
          int first = node[c * STRIDE + RANGE_FROM];
          int count = node[c * STRIDE + RANGE_COUNT];
          for (int r = first; r < first + count; r++) {
            idxRanges[2 * idxCount] = ranges[2 * r];
            idxRanges[2 * idxCount + 1] = ranges[2 * r + 1];
            idxChild[idxCount] = c;
            idxCount++;
          }
        }
        sortByStart(idxRanges, idxChild, from, idxCount);
        boolean ok = true;
        for (int e = from; e < idxCount && ok; e++) {
          long start = idxRanges[2 * e];
          long end = start + idxRanges[2 * e + 1];
          // wraps past 2^64 (or ends exactly there), or overlaps the next one
          ok = Long.compareUnsigned(end, start) > 0
              && (e + 1 == idxCount || Long.compareUnsigned(idxRanges[2 * e + 2], end) >= 0);
        }
        if (!ok) {
          idxCount = from;
          continue;
        }
        node[at + IDX_FROM] = from;
        node[at + IDX_COUNT] = entries;
      }
    }

    /**
     * Sorts entries {@code [from, to)} of (start, size) pairs in {@code r} and their owners in
     * {@code owner} by unsigned start: an in-place heapsort, O(n log n) and no recursion whatever
     * the input.
     */
    static void sortByStart(long[] r, int[] owner, int from, int to) {
      int n = to - from;
      for (int i = n / 2 - 1; i >= 0; i--) siftDown(r, owner, from, i, n);
      for (int end = n - 1; end > 0; end--) {
        swap(r, owner, from, from + end);
        siftDown(r, owner, from, 0, end);
      }
    }

    private static void siftDown(long[] r, int[] owner, int base, int i, int n) {
      while (true) {
        int child = 2 * i + 1;
        if (child >= n) return;
        if (child + 1 < n && Long.compareUnsigned(r[2 * (base + child + 1)], r[2 * (base + child)]) > 0) {
          child++;
        }
        if (Long.compareUnsigned(r[2 * (base + child)], r[2 * (base + i)]) <= 0) return;
        swap(r, owner, base + i, base + child);
        i = child;
      }
    }

    private static void swap(long[] r, int[] owner, int a, int b) {
      long s = r[2 * a];
      long z = r[2 * a + 1];
      r[2 * a] = r[2 * b];
      r[2 * a + 1] = r[2 * b + 1];
      r[2 * b] = s;
      r[2 * b + 1] = z;
      int o = owner[a];
      owner[a] = owner[b];
      owner[b] = o;
    }
  }
}
