package dev.gsym.format;

import dev.gsym.io.Cursor;
import dev.gsym.io.GsymFormatException;
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

  public InlineInfo {
    ranges = AddressRanges.normalize(ranges);
    children = List.copyOf(children);
  }

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

  public static int compare(InlineInfo a, InlineInfo b) {
    if (a == b) return 0;
    if (a == null) return -1;
    if (b == null) return 1;
    return Long.compare(a.totalChildren(), b.totalChildren());
  }

  /** Decodes the tree whose top node is at {@code c}; {@code base} is the function start. */
  public static InlineInfo decode(Cursor c, long base) {
    InlineInfo ii = decodeNode(c, base, 0);
    // A top node without non-empty ranges decodes (as in LLVM) to an invalid, empty InlineInfo.
    return ii != null ? ii : new InlineInfo(List.of(), 0, 0, 0, List.of());
  }

  private static List<AddressRange> decodeRanges(Cursor c, long base) {
    if (!c.has(1)) throw c.errorHere("missing InlineInfo address ranges data");
    long n = c.ulebOrZero(); // LLVM's decodeAll reads leniently (0 when unreadable)
    if (n == 0) return List.of();
    List<AddressRange> list = new ArrayList<>();
    for (long i = 0; Long.compareUnsigned(i, n) < 0; i++) { // n is an unsigned ULEB
      // LLVM reads ranges past the end of the payload as 0 (empty ranges, dropped); once nothing
      // can be read any more, all remaining ranges would be empty: stop (bounded work)
      long before = c.position();
      long start = base + c.ulebOrZero();
      long size = c.ulebOrZero();
      if (c.position() == before) break;
      list.add(new AddressRange(start, start + size));
    }
    return AddressRanges.normalize(list);
  }

  /** Returns null for a terminator (no non-empty range). */
  private static InlineInfo decodeNode(Cursor c, long base, int depth) {
    if (depth > MAX_DEPTH) throw c.errorHere("InlineInfo nested deeper than " + MAX_DEPTH + " levels");
    List<AddressRange> ranges = decodeRanges(c, base);
    if (ranges.isEmpty()) return null;
    if (!c.has(1)) throw c.errorHere("missing InlineInfo uint8_t indicating children");
    boolean hasChildren = c.u8() != 0;
    if (!c.has(4)) throw c.errorHere("missing InlineInfo uint32_t for name");
    int name = c.s32();
    if (!c.has(1)) throw c.errorHere("missing ULEB128 for InlineInfo call file");
    int callFile = (int) c.ulebOrZero();
    if (!c.has(1)) throw c.errorHere("missing ULEB128 for InlineInfo call line");
    int callLine = (int) c.ulebOrZero();
    List<InlineInfo> children = new ArrayList<>();
    if (hasChildren) {
      long childBase = ranges.getFirst().start();
      while (true) {
        InlineInfo child = decodeNode(c, childBase, depth + 1);
        if (child == null) break;
        children.add(child);
      }
    }
    return new InlineInfo(ranges, name, callFile, callLine, children);
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
    w.u32(Integer.toUnsignedLong(m.string(name)));
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
    for (int i = 0, n = normalized.size(); i < n; i++) {
      if (normalized.get(i).contains(r)) return true;
    }
    return false;
  }

  /**
   * Resolves the inline frames for {@code addr} (see {@link InlineFrames}) from encoded bytes
   * without building the tree: subtrees that do not contain the address are skipped.
   *
   * @param frames receives frames from the deepest inlined call outwards
   */
  public static void lookup(Cursor c, long base, long addr, InlineFrames frames) {
    visit(c, base, addr, frames, 0);
  }

  /** Receives each inline node containing the address, deepest first. */
  public interface InlineFrames {
    /**
     * @param name string offset of the inlined function's name
     * @param callFile file index of its call site
     * @param callLine line of its call site
     * @param firstRangeStart start of the node's first range
     */
    void frame(int name, int callFile, int callLine, long firstRangeStart);
  }

  /** Returns true to stop scanning siblings (terminator or a node containing addr). */
  private static boolean visit(Cursor c, long base, long addr, InlineFrames frames, int depth) {
    if (depth > MAX_DEPTH) throw c.errorHere("InlineInfo nested deeper than " + MAX_DEPTH + " levels");
    // LLVM's lookup reads leniently: past the end everything is 0, which ends the sibling list
    long n = c.ulebOrZero();
    if (n == 0) return true;
    boolean contains = false;
    long firstStart = 0;
    boolean firstSet = false;
    for (long i = 0; Long.compareUnsigned(i, n) < 0; i++) { // n is an unsigned ULEB
      long before = c.position();
      long start = base + c.ulebOrZero(); // as decodeRanges: unreadable ranges are empty
      long size = c.ulebOrZero();
      if (c.position() == before) break;
      if (size == 0) continue;
      if (!firstSet || Long.compareUnsigned(start, firstStart) < 0) {
        firstStart = start;
        firstSet = true;
      }
      if (Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr - start, size) < 0) {
        contains = true;
      }
    }
    if (!firstSet) return true; // only empty ranges: LLVM treats the node as a terminator
    if (!contains) {
      skipRest(c, depth);
      return false;
    }
    boolean hasChildren = c.u8OrZero() != 0; // read leniently, as LLVM's lookup
    int name = c.s32OrZero();
    int callFile = (int) c.ulebOrZero();
    int callLine = (int) c.ulebOrZero();
    if (hasChildren) {
      while (!visit(c, firstStart, addr, frames, depth + 1)) {
        // keep scanning siblings
      }
    }
    frames.frame(name, callFile, callLine, firstStart);
    return true;
  }

  /** LLVM's skip() after the ranges: the rest of the node and its whole subtree, read leniently. */
  private static void skipRest(Cursor c, int depth) {
    boolean hasChildren = c.u8OrZero() != 0;
    c.s32OrZero();
    c.ulebOrZero();
    c.ulebOrZero();
    if (hasChildren) {
      while (skipNode(c, depth + 1)) {
        // skip siblings up to the terminator
      }
    }
  }

  /** LLVM's skip() of a whole node; false at a terminator (a range count of 0). */
  private static boolean skipNode(Cursor c, int depth) {
    if (depth > MAX_DEPTH) throw c.errorHere("InlineInfo nested deeper than " + MAX_DEPTH + " levels");
    long n = c.ulebOrZero();
    if (n == 0) return false;
    for (long i = 0; Long.compareUnsigned(i, n) < 0; i++) { // n is an unsigned ULEB
      long before = c.position();
      c.ulebOrZero();
      c.ulebOrZero();
      if (c.position() == before) break; // nothing left to read: the rest reads as zeros
    }
    skipRest(c, depth);
    return true;
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
