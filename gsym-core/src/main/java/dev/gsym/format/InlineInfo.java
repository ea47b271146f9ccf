package dev.gsym.format;

import dev.gsym.GsymFormatException;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A tree of inlined calls (InfoType 2). The top node covers the function; each child is an inlined
 * call with its ranges, name and call site.
 *
 * <pre>
 * ENCODING InlineInfo(BaseAddr)
 *   ULEB NumRanges, NumRanges x { ULEB start - BaseAddr, ULEB size }
 *   if NumRanges == 0: end of a sibling list, nothing follows
 *   u8 HasChildren   u32 Name (strp)   ULEB CallFile   ULEB CallLine
 *   if HasChildren: children encoded as InlineInfo(first range start of this node), then ULEB 0
 * </pre>
 *
 * @param ranges sorted, merged, non-empty ranges
 * @param name string-table offset of the function name
 * @param callFile file index of the call site (0 = none)
 * @param callLine line of the call site
 */
public record InlineInfo(List<AddressRange> ranges, int name, int callFile, int callLine,
    List<InlineInfo> children) {

  /** Deepest nesting accepted when decoding: bounds recursion on hostile input. */
  public static final int MAX_DEPTH = 1024;

  /** Normalizes the ranges and copies the children. */
  public InlineInfo {
    ranges = AddressRanges.normalize(ranges);
    children = List.copyOf(children);
  }

  /** True if the node has a range (LLVM's InlineInfo::isValid). */
  public boolean isValid() {
    return !ranges.isEmpty();
  }

  /**
   * This tree with names and call files translated, in pre-order (name, then call file, then the
   * children); a call file of 0 stays 0.
   */
  public InlineInfo remap(IntUnaryOperator strings, IntUnaryOperator files) {
    int n = strings.applyAsInt(name);
    int cf = callFile == 0 ? 0 : files.applyAsInt(callFile);
    List<InlineInfo> kids = new ArrayList<>(children.size());
    for (InlineInfo c : children) kids.add(c.remap(strings, files));
    return new InlineInfo(ranges, n, cf, callLine, kids);
  }

  /** Total number of nodes below this one (LLVM orders InlineInfos by it). */
  public long totalChildren() {
    long n = children.size();
    for (InlineInfo c : children) n += c.totalChildren();
    return n;
  }

  /** Orders trees by {@link #totalChildren()}, null first (LLVM's order of InlineInfos). */
  public static int compare(InlineInfo a, InlineInfo b) {
    if (a == b) return 0;
    if (a == null) return -1;
    if (b == null) return 1;
    return Long.compare(a.totalChildren(), b.totalChildren());
  }

  /** Decodes the tree whose top node is at {@code c}; {@code base} is the function start. */
  public static InlineInfo decode(Cursor c, long base) {
    TreeBuilder b = new TreeBuilder();
    parse(c, base, Reading.DECODE, b);
    // A top node without non-empty ranges decodes (as in LLVM) to an invalid, empty InlineInfo.
    return b.root != null ? b.root.build() : new InlineInfo(List.of(), 0, 0, 0, List.of());
  }

  /**
   * A node of an inline tree being assembled top-down (children are added after their parent is
   * made), turned into immutable {@code InlineInfo}s by {@link #build}. Not thread-safe.
   */
  public static final class Builder {
    private final List<AddressRange> ranges;
    private final int name;
    private final int callFile;
    private final int callLine;
    private final List<Builder> children = new ArrayList<>();

    /** A node with these fields (as the record's) and no children yet. */
    public Builder(List<AddressRange> ranges, int name, int callFile, int callLine) {
      this.ranges = ranges;
      this.name = name;
      this.callFile = callFile;
      this.callLine = callLine;
    }

    /** This node's ranges. */
    public List<AddressRange> ranges() {
      return ranges;
    }

    /** Appends {@code child} to this node's children; returns {@code child}. */
    public Builder add(Builder child) {
      children.add(child);
      return child;
    }

    /** Whether no child was added. */
    public boolean isLeaf() {
      return children.isEmpty();
    }

    /** This node and its subtree as an {@code InlineInfo}. */
    public InlineInfo build() {
      List<InlineInfo> kids = new ArrayList<>(children.size());
      for (Builder k : children) kids.add(k.build());
      return new InlineInfo(ranges, name, callFile, callLine, kids);
    }
  }

  /** Builds the tree from the walk's pre-order events. */
  private static final class TreeBuilder implements InlineVisitor {
    Builder root;
    private final List<Builder> open = new ArrayList<>();

    @Override
    public boolean node(int depth, Ranges ranges, boolean hasChildren, int name, int callFile, int callLine) {
      List<AddressRange> list = new ArrayList<>(ranges.count());
      for (int i = 0; i < ranges.count(); i++) {
        list.add(new AddressRange(ranges.start(i), ranges.start(i) + ranges.size(i)));
      }
      Builder n = new Builder(AddressRanges.normalize(list), name, callFile, callLine);
      if (depth == 0) root = n;
      else open.get(depth - 1).add(n);
      if (hasChildren) {
        while (open.size() <= depth) open.add(null);
        open.set(depth, n);
      }
      return true;
    }

    @Override
    public boolean endChildren(int depth) {
      return true;
    }
  }

  /**
   * The ranges of the node being reported by {@link #parse}: only those the mode counts (in
   * {@link Reading#LOOKUP}, every range of non-zero size; otherwise those whose end is above their
   * start, as LLVM's decode keeps them), in file order. Reused from node to node: read it during
   * the {@link InlineVisitor#node} call.
   */
  public static final class Ranges {
    private long[] starts = new long[8];
    private long[] sizes = new long[8];
    private int count;
    private long base;
    private long first;

    Ranges() {}

    void reset(long base) {
      this.base = base;
      count = 0;
      first = 0;
    }

    void add(long start, long size) {
      if (count == starts.length) {
        starts = java.util.Arrays.copyOf(starts, 2 * count);
        sizes = java.util.Arrays.copyOf(sizes, 2 * count);
      }
      if (count == 0 || Long.compareUnsigned(start, first) < 0) first = start;
      starts[count] = start;
      sizes[count] = size;
      count++;
    }

    /** The number of ranges. */
    public int count() {
      return count;
    }

    /** The start of range {@code i}. */
    public long start(int i) {
      return starts[i];
    }

    /** The size of range {@code i}. */
    public long size(int i) {
      return sizes[i];
    }

    /** The address the node's range offsets are relative to (its parent's first start). */
    public long base() {
      return base;
    }

    /** The lowest start (0 without ranges): the base of the node's children. */
    public long firstStart() {
      return first;
    }

    /** True if a range contains {@code addr}. */
    public boolean contains(long addr) {
      for (int i = 0; i < count; i++) {
        if (Long.compareUnsigned(addr, starts[i]) >= 0 && Long.compareUnsigned(addr - starts[i], sizes[i]) < 0) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Receives the nodes of an encoded tree in pre-order from {@link #parse}. Both methods return
   * false to stop the walk: nothing more is read.
   */
  public interface InlineVisitor {
    /**
     * A node at {@code depth} (0 for the top node), with its ranges and fields; its children, if
     * it has any, follow, then {@link #endChildren}.
     */
    boolean node(int depth, Ranges ranges, boolean hasChildren, int name, int callFile, int callLine);

    /** The children of the node at {@code depth} have all been reported. */
    boolean endChildren(int depth);
  }

  /**
   * The one decoder of the InlineInfo encoding: reads the tree at {@code c} ({@code base} is the
   * function start) and reports its nodes to {@code v}. Nesting deeper than {@link #MAX_DEPTH} is
   * an error in every mode. {@link Reading#DECODE} and {@link Reading#EXACT} read as LLVM's
   * decode: a missing field is an error, and a node without non-empty ranges ends its sibling list
   * (it is not reported, nor is the rest of it read). {@link Reading#LOOKUP} reads as LLVM's
   * lookup skips: every value past the end is 0, only a range count of 0 ends a sibling list, and
   * nodes whose ranges are all empty are reported (with no ranges) and read in full; LLVM's lookup
   * itself ({@link #lookup}) is a visitor that stops at such a node where its descent meets it.
   */
  public static void parse(Cursor c, long base, Reading mode, InlineVisitor v) {
    new Walk(c, mode, v).node(base, 0);
  }

  private static final class Walk {
    private final Cursor c;
    private final Reading mode;
    private final InlineVisitor v;
    private final Ranges ranges = new Ranges();
    private boolean stopped;

    Walk(Cursor c, Reading mode, InlineVisitor v) {
      this.c = c;
      this.mode = mode;
      this.v = v;
    }

    /** Reads a node and its subtree; false at the terminator of a sibling list. */
    boolean node(long base, int depth) {
      if (depth > MAX_DEPTH) throw c.errorHere("InlineInfo nested deeper than " + MAX_DEPTH + " levels");
      boolean lookup = mode == Reading.LOOKUP;
      if (!lookup && !c.has(1)) throw c.errorHere("missing InlineInfo address ranges data");
      long n = mode.uleb(c);
      if (n == 0) return false;
      ranges.reset(base);
      for (long i = 0; Long.compareUnsigned(i, n) < 0; i++) { // n is an unsigned ULEB
        // LLVM reads ranges past the end of the payload as 0 (empty ranges, dropped); once nothing
        // can be read any more, all remaining ranges would be empty: stop (bounded work)
        long before = c.position();
        long start = base + mode.uleb(c);
        long size = mode.uleb(c);
        if (c.position() == before) break;
        if (lookup ? size != 0 : Long.compareUnsigned(start + size, start) > 0) ranges.add(start, size);
      }
      boolean hasChildren;
      int name;
      int callFile;
      int callLine;
      if (lookup) {
        hasChildren = c.u8OrZero() != 0;
        name = c.strpOrZero();
        callFile = (int) c.ulebOrZero();
        callLine = (int) c.ulebOrZero();
      } else {
        if (ranges.count() == 0) return false;
        if (!c.has(1)) throw c.errorHere("missing InlineInfo uint8_t indicating children");
        hasChildren = c.u8() != 0;
        if (!c.has(c.strpSize())) throw c.errorHere("missing InlineInfo uint32_t for name");
        name = c.strp();
        if (!c.has(1)) throw c.errorHere("missing ULEB128 for InlineInfo call file");
        callFile = (int) mode.uleb(c);
        if (!c.has(1)) throw c.errorHere("missing ULEB128 for InlineInfo call line");
        callLine = (int) mode.uleb(c);
      }
      long childBase = ranges.firstStart();
      if (!v.node(depth, ranges, hasChildren, name, callFile, callLine)) {
        stopped = true;
        return true;
      }
      if (hasChildren) {
        while (node(childBase, depth + 1)) {
          if (stopped) return true;
        }
        if (stopped) return true;
        if (!v.endChildren(depth)) stopped = true;
      }
      return true;
    }
  }

  /** Encodes this tree; {@code base} is the function start for the top node. */
  public void encode(GsymWriter w, long base) {
    encode(w, base, IndexMap.IDENTITY);
  }

  /** As {@link #encode(GsymWriter, long)} with names and call files translated by {@code m}. */
  public void encode(GsymWriter w, long base, IndexMap m) {
    if (!isValid()) {
      throw new GsymFormatException("InlineInfo", -1, "attempted to encode invalid InlineInfo object");
    }
    w.uleb(ranges.size());
    for (AddressRange r : ranges) {
      w.uleb(r.start() - base);
      w.uleb(r.size());
    }
    boolean hasChildren = !children.isEmpty();
    w.u8(hasChildren ? 1 : 0);
    w.strp(Integer.toUnsignedLong(m.string(name)));
    w.uleb(Integer.toUnsignedLong(m.file(callFile)));
    w.uleb(Integer.toUnsignedLong(callLine));
    if (hasChildren) {
      long childBase = ranges.getFirst().start();
      for (InlineInfo child : children) {
        for (AddressRange r : child.ranges) {
          if (!covers(ranges, r)) {
            throw new GsymFormatException("InlineInfo", -1, "child range not contained in parent");
          }
        }
        child.encode(w, childBase, m);
      }
      w.uleb(0);
    }
  }

  /** True if one of {@code normalized} (sorted, merged: this record's ranges) contains {@code r}. */
  private static boolean covers(List<AddressRange> normalized, AddressRange r) {
    // only the last range starting at or below r's start can hold it (they are sorted and disjoint)
    int lo = 0;
    int hi = normalized.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(normalized.get(mid).start(), r.start()) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && normalized.get(lo - 1).contains(r);
  }

  /**
   * Resolves the inline frames for {@code addr} (see {@link InlineFrames}) from encoded bytes
   * without building the tree, as LLVM's lookup: subtrees that do not contain the address are
   * skipped (read, not reported).
   *
   * @param frames receives frames from the deepest inlined call outwards
   */
  public static void lookup(Cursor c, long base, long addr, InlineFrames frames) {
    parse(c, base, Reading.LOOKUP, new Descent(addr, frames));
  }

  /** Receives each inline node containing the address, deepest first. */
  public interface InlineFrames {
    /**
     * One inline node containing the address.
     *
     * @param name string offset of the inlined function's name
     * @param callFile file index of its call site
     * @param callLine line of its call site
     * @param firstRangeStart start of the node's first range
     */
    void frame(int name, int callFile, int callLine, long firstRangeStart);
  }

  /**
   * LLVM's InlineInfo::lookup over the walk: descends into the first node of each sibling list
   * that contains the address (the others are read as skipped subtrees); a node whose ranges are
   * all empty, met where the descent looks, ends it, as does the end of the deepest node's
   * children. Then the frames of the path are reported, deepest first, and the walk stops.
   */
  private static final class Descent implements InlineVisitor {
    private final long addr;
    private final InlineFrames frames;
    /** Depth of the deepest node containing the address so far (-1: none). */
    private int path = -1;
    private int[] names = new int[8];
    private int[] files = new int[8];
    private int[] lines = new int[8];
    private long[] firsts = new long[8];

    Descent(long addr, InlineFrames frames) {
      this.addr = addr;
      this.frames = frames;
    }

    @Override
    public boolean node(int depth, Ranges ranges, boolean hasChildren, int name, int callFile, int callLine) {
      if (depth != path + 1) return true; // inside a skipped subtree
      if (ranges.count() == 0) return report(); // LLVM treats the node as a terminator
      if (!ranges.contains(addr)) return true; // skipped with its subtree
      path = depth;
      if (depth == names.length) {
        names = java.util.Arrays.copyOf(names, 2 * depth);
        files = java.util.Arrays.copyOf(files, 2 * depth);
        lines = java.util.Arrays.copyOf(lines, 2 * depth);
        firsts = java.util.Arrays.copyOf(firsts, 2 * depth);
      }
      names[depth] = name;
      files[depth] = callFile;
      lines[depth] = callLine;
      firsts[depth] = ranges.firstStart();
      return hasChildren || report();
    }

    @Override
    public boolean endChildren(int depth) {
      return depth != path || report();
    }

    private boolean report() {
      for (int d = path; d >= 0; d--) frames.frame(names[d], files[d], lines[d], firsts[d]);
      return false;
    }
  }

  /**
   * The "InlineInfo:" block of llvm-gsymutil's dump. At indent 0 a heading precedes the top node;
   * nested levels (and merged functions' trees, dumped at indent 4) have no heading: each node is
   * its ranges, its name and " called from path:line" when it has a valid call file.
   */
  public void dump(StringBuilder sb, GsymTables t, int indent) {
    if (indent == 0) sb.append("InlineInfo:\n");
    else sb.repeat(' ', indent);
    for (int i = 0; i < ranges.size(); i++) {
      if (i > 0) sb.append(' ');
      ranges.get(i).appendTo(sb);
    }
    sb.append(' ').append(t.string(name));
    if (callFile != 0) {
      FileEntry f = t.file(Integer.toUnsignedLong(callFile));
      if (f != null) {
        sb.append(" called from ");
        FileTable.dumpFile(sb, f, t::string);
        sb.append(':').append(Integer.toUnsignedLong(callLine));
      }
    }
    sb.append('\n');
    for (InlineInfo child : children) child.dump(sb, t, indent + 2);
  }

  /**
   * LLVM's operator&lt;&lt; (used in finalize warnings), quirks included: one line per node with no
   * indentation, and "CallLine = " followed by the call FILE, as llvm-gsymutil 22 prints it.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    appendRaw(sb);
    return sb.toString();
  }

  private void appendRaw(StringBuilder sb) {
    if (!isValid()) return;
    for (int i = 0; i < ranges.size(); i++) {
      if (i > 0) sb.append(' ');
      ranges.get(i).appendTo(sb);
    }
    sb.append(" Name = ").append(Hex.hex32(Integer.toUnsignedLong(name)))
        .append(", CallFile = ").append(Integer.toUnsignedLong(callFile))
        .append(", CallLine = ").append(Integer.toUnsignedLong(callFile)).append('\n');
    for (InlineInfo child : children) child.appendRaw(sb);
  }
}
