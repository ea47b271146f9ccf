package dev.gsym.breakpad;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import dev.gsym.write.PathStyle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * Converts a Breakpad symbol file into FunctionInfos of a {@link GsymCreator} in one streaming pass.
 *
 * <ul>
 *   <li>FUNC + its line records → a FunctionInfo with a LineTable (one row per line record, sorted
 *       by address; FILE numbers become file-table indexes); the FUNC's bytes that no line record
 *       covers get a row in the creator's "no file" entry ({@link GsymCreator#insertNoFile()}), so
 *       lookups there answer with the function alone, as Breakpad's processor does;
 *   <li>its INLINE records → an InlineInfo tree, built per nest level as Breakpad's processor and
 *       rust-minidump resolve an address: each range of a level-n record goes under the level n-1
 *       node whose range covers it (level 0: the function), so one record may become several nodes
 *       under different parents (dump_syms merges identical inlinees of different parents);
 *   <li>PUBLIC → a size-0 FunctionInfo (covers up to the next function, as llvm's size-0 symbols);
 *       a PUBLIC inside or at the start of a FUNC is dropped (FUNC wins), but one strictly inside a
 *       FUNC names the bytes after that FUNC's end up to the next symbol (a size-0 FunctionInfo at
 *       the FUNC's end), as in Breakpad's processor;
 *   <li>MODULE / INFO CODE_ID → the UUID ({@link BreakpadIds}); STACK records are counted and skipped.
 * </ul>
 *
 * <p>Only the current FUNC's records are held; it is handed to the creator when the next FUNC or
 * PUBLIC (or the end of the file) arrives. Bad records throw a {@link GsymFormatException} naming
 * {@code file:line}; in lenient mode they are skipped and counted.
 */
public final class BreakpadTransformer {
  /**
   * What a conversion saw.
   *
   * @param publicsInsideFunctions PUBLIC records dropped because a FUNC covers their address
   * @param badRecords records skipped as malformed (lenient mode)
   * @param orphanRecords line and INLINE records skipped in lenient mode because their FUNC was bad
   * @param linesOutsideFunctions line records dropped because their address is outside their FUNC
   * @param inlineRangesOutside INLINE ranges skipped in lenient mode because no range one nest
   *     level up (or the FUNC, for level 0) covers them
   * @param publicTails FunctionInfos added after a FUNC's end for a PUBLIC inside that FUNC
   */
  public record Result(long functions, long publics, long publicsInsideFunctions, long lineRecords,
      long inlineRecords, long stackRecords, long badRecords, long orphanRecords,
      long linesOutsideFunctions, long inlineRangesOutside, long publicTails, byte[] uuid) {}

  private final GsymCreator creator;
  private final boolean lenient;
  private final Diagnostics diag;

  private BreakpadParser parser;
  private final NumberMap<String> files = new NumberMap<>();
  private final NumberMap<Integer> fileIndex = new NumberMap<>();
  private final NumberMap<String> origins = new NumberMap<>();
  private final NumberMap<Integer> originIndex = new NumberMap<>(); // string table index of an origin
  private byte[] moduleUuid;
  private byte[] codeUuid;

  // the current FUNC
  private BreakpadRecord.Func func;
  // its line rows (address, file index, line)
  private long[] rowAddr = new long[256];
  private long[] rowEnd = new long[256];
  private int[] rowFile = new int[256];
  private int[] rowLine = new int[256];
  private int nRows;
  private final ArrayList<AddressRange> rangeScratch = new ArrayList<>();
  private final List<InlineRecord> inlines = new ArrayList<>(); // its INLINE records, in file order
  private int maxInlineLevel;

  // PUBLICs and FUNC ranges, to drop PUBLICs covered by a FUNC at the end
  private long[] pubAddr = new long[64];
  private int[] pubName = new int[64];
  private int nPub;
  private long[] funcStart = new long[64];
  private long[] funcEnd = new long[64];
  private int nFunc;

  private long lineRecords;
  private long inlineRecords;
  private long stackRecords;
  private long badRecords;
  private long orphanRecords;
  private long linesOutside;
  private long inlineRangesOutside;
  /** Lenient mode after a bad FUNC: its line and INLINE records are skipped, not given to the previous FUNC. */
  private boolean orphaned;

  /**
   * @param lenient skip (and count) bad records instead of failing
   * @param diag receives one warning line per skipped record (may be silent)
   */
  public BreakpadTransformer(GsymCreator creator, boolean lenient, Diagnostics diag) {
    this.creator = creator;
    this.lenient = lenient;
    this.diag = diag;
  }

  private long loadAddress;

  /**
   * Adds {@code load} to every address of the file (Breakpad addresses are relative to the
   * module's load address) and makes it the GSYM base address; 0 (the default) keeps them as is.
   */
  public BreakpadTransformer loadAddress(long load) {
    this.loadAddress = load;
    if (load != 0) creator.setBaseAddress(load);
    return this;
  }

  private long shift(long a) {
    long r = a + loadAddress;
    if (Long.compareUnsigned(r, a) < 0) {
      throw parser.error("address 0x" + Long.toHexString(a) + " plus the load address 0x"
          + Long.toHexString(loadAddress) + " wraps past the end of the 64-bit address space");
    }
    return r;
  }

  private BreakpadRecord relocate(BreakpadRecord r) {
    if (loadAddress == 0) return r;
    return switch (r) {
      case BreakpadRecord.Func f -> {
        long a = shift(f.address());
        shift(f.address() + f.size());
        yield new BreakpadRecord.Func(f.multiple(), a, f.size(), f.parameterSize(), f.name());
      }
      case BreakpadRecord.Line l -> {
        shift(l.address() + l.size());
        yield new BreakpadRecord.Line(shift(l.address()), l.size(), l.line(), l.file());
      }
      case BreakpadRecord.Inline i -> {
        List<AddressRange> rs = new ArrayList<>(i.ranges().size());
        for (AddressRange x : i.ranges()) rs.add(new AddressRange(shift(x.start()), shift(x.end())));
        yield new BreakpadRecord.Inline(i.level(), i.callLine(), i.callFile(), i.origin(), rs);
      }
      case BreakpadRecord.Public p -> new BreakpadRecord.Public(p.multiple(), shift(p.address()),
          p.parameterSize(), p.name());
      default -> r;
    };
  }

  /** Converts the file at {@code path}. */
  public static Result convert(Path path, GsymCreator creator, boolean lenient, Diagnostics diag)
      throws IOException {
    return convert(path, creator, lenient, diag, 0);
  }

  /** Converts the file at {@code path} with a load address (see {@link #loadAddress(long)}). */
  public static Result convert(Path path, GsymCreator creator, boolean lenient, Diagnostics diag,
      long loadAddress) throws IOException {
    return convert(path, creator, lenient, diag, loadAddress, dev.gsym.Progress.NONE);
  }

  /** As above, reporting (MiB read, MiB in all) to {@code progress} as the file is read. */
  public static Result convert(Path path, GsymCreator creator, boolean lenient, Diagnostics diag,
      long loadAddress, dev.gsym.Progress progress) throws IOException {
    try (BreakpadParser p = BreakpadParser.open(path, progress)) {
      return new BreakpadTransformer(creator, lenient, diag).loadAddress(loadAddress).convert(p);
    }
  }

  /** Reads every record of {@code p} into the creator (not finalized). */
  public Result convert(BreakpadParser p) throws IOException {
    this.parser = p;
    boolean first = true;
    while (true) {
      try {
        int kind = p.advance();
        if (kind == BreakpadParser.EOF) break;
        if (first) {
          if (kind == BreakpadParser.LINE) checkFirstLine(p);
          first = false;
        }
        switch (kind) {
          case BreakpadParser.LINE -> { // relocated before the orphan check, as every record
            long address = p.lineAddress;
            if (loadAddress != 0) {
              shift(address + p.lineSize);
              address = shift(address);
            }
            if (orphaned) orphanRecords++;
            else line(address, p.lineSize, p.lineLine, p.lineFile);
          }
          case BreakpadParser.INLINE -> {
            List<AddressRange> ranges = inlineRanges(p);
            if (orphaned) orphanRecords++;
            else inline(p.inlineLevel, p.inlineCallLine, p.inlineCallFile, p.inlineOrigin, ranges);
          }
          case BreakpadParser.STACK -> stackRecords++;
          default -> accept(relocate(p.record()));
        }
      } catch (GsymFormatException e) {
        if (first) {
          checkFirstLine(p);
          first = false;
        }
        if (!lenient) throw e;
        badRecords++;
        if (p.lastLineStartsWith("FUNC ")) {
          flushFunction();
          orphaned = true;
        }
        diag.report("Skipped bad Breakpad records", sb -> sb.append("warning: ").append(e.getMessage()).append('\n'));
      }
    }
    flushFunction();
    long droppedPublics = addPublics();
    byte[] uuid = codeUuid != null ? codeUuid : moduleUuid;
    if (uuid != null) creator.setUUID(uuid);
    return new Result(nFunc, nPub - droppedPublics, droppedPublics, lineRecords, inlineRecords,
        stackRecords, badRecords, orphanRecords, linesOutside, inlineRangesOutside, publicTails,
        uuid == null ? new byte[0] : uuid);
  }

  /** Record keywords a Breakpad symbol file's first line can start with. */
  private static final String[] KEYWORDS = {"MODULE", "INFO", "FILE", "INLINE", "FUNC", "PUBLIC", "STACK"};

  /**
   * Called for the first non-blank line when it is a line record or failed to parse: unless it
   * starts with a record keyword (then its own error stands), the input is no symbol file at all,
   * which ends the conversion even in lenient mode.
   */
  private void checkFirstLine(BreakpadParser p) {
    for (String k : KEYWORDS) {
      if (p.lastLineStartsWith(k)) return;
    }
    throw new GsymFormatException(p.source(), -1,
        "not a Breakpad symbol file: line " + p.lineNumber() + " is not a MODULE record");
  }

  private void accept(BreakpadRecord r) {
    if (orphaned) {
      if (r instanceof BreakpadRecord.Line || r instanceof BreakpadRecord.Inline) {
        orphanRecords++;
        return;
      }
      if (r instanceof BreakpadRecord.Func || r instanceof BreakpadRecord.Public) orphaned = false;
    }
    switch (r) {
      case BreakpadRecord.Module m -> {
        moduleUuid = BreakpadIds.fromModuleId(m.os(), m.id());
      }
      case BreakpadRecord.Info i -> {
        if (i.key().equals("CODE_ID")) codeUuid = BreakpadIds.fromCodeId(i.value());
      }
      case BreakpadRecord.File f -> {
        files.put(f.number(), f.name());
        fileIndex.put(f.number(), null);
      }
      case BreakpadRecord.InlineOrigin o -> {
        origins.put(o.number(), o.name());
        originIndex.put(o.number(), null);
      }
      case BreakpadRecord.Func f -> {
        flushFunction();
        func = f;
        if (nFunc == funcStart.length) {
          funcStart = Arrays.copyOf(funcStart, nFunc * 2);
          funcEnd = Arrays.copyOf(funcEnd, nFunc * 2);
        }
        funcStart[nFunc] = f.address();
        funcEnd[nFunc] = f.address() + f.size();
        nFunc++;
      }
      case BreakpadRecord.Line l -> line(l.address(), l.size(), l.line(), l.file());
      case BreakpadRecord.Inline i -> {
        List<AddressRange> rs = new ArrayList<>(i.ranges());
        inline(i.level(), i.callLine(), i.callFile(), i.origin(), rs);
      }
      case BreakpadRecord.Public p -> {
        flushFunction();
        if (nPub == pubAddr.length) {
          pubAddr = Arrays.copyOf(pubAddr, nPub * 2);
          pubName = Arrays.copyOf(pubName, nPub * 2);
        }
        pubAddr[nPub] = p.address();
        pubName[nPub] = creator.insertString(p.name());
        nPub++;
      }
      case BreakpadRecord.Stack s -> stackRecords++;
    }
  }

  private int file(long number, String what) {
    Integer idx = fileIndex.get(number);
    if (idx != null) return idx;
    String path = files.get(number);
    if (path == null) throw parser.error(what + " refers to FILE " + number + ", which is not defined before it");
    PathStyle style = path.indexOf('\\') >= 0 && path.indexOf('/') < 0 ? PathStyle.WINDOWS : PathStyle.POSIX;
    int i = creator.insertFile(path, style);
    fileIndex.put(number, i);
    return i;
  }

  /** A line record (relocated). */
  private void line(long address, long size, long line, long fileNumber) {
    if (func == null) throw parser.error("line record does not follow a FUNC record");
    long start = func.address();
    boolean inside = func.size() == 0 ? address == start
        : Long.compareUnsigned(address - start, func.size()) < 0;
    if (!inside) {
      // not malformed, but GSYM cannot attribute it to this function: dropped with a warning
      linesOutside++;
      String msg = parser.error("line record address 0x" + Long.toHexString(address) + " is outside FUNC "
          + func.name() + " [0x" + Long.toHexString(start) + ", 0x" + Long.toHexString(start + func.size())
          + "); dropped").getMessage();
      diag.report("Line records outside their FUNC", sb -> sb.append("warning: ").append(msg).append('\n'));
      return;
    }
    if (size == 0) return; // covers nothing
    int f = file(fileNumber, "line record");
    if (nRows == rowAddr.length) {
      rowAddr = Arrays.copyOf(rowAddr, nRows * 2);
      rowEnd = Arrays.copyOf(rowEnd, nRows * 2);
      rowFile = Arrays.copyOf(rowFile, nRows * 2);
      rowLine = Arrays.copyOf(rowLine, nRows * 2);
    }
    rowAddr[nRows] = address;
    rowEnd[nRows] = address + size; // the parser rejects ranges that wrap
    rowFile[nRows] = f;
    rowLine[nRows] = (int) line;
    nRows++;
    lineRecords++;
  }

  /**
   * FILE / INLINE_ORIGIN numbers to values: an array for small numbers (the usual dense 0..n), a
   * hash map for the rest, so hostile numbers cost nothing.
   */
  static final class NumberMap<V> {
    static final int DENSE_MAX = 1 << 18;
    private Object[] dense = new Object[64];
    private final HashMap<Long, V> sparse = new HashMap<>();

    @SuppressWarnings("unchecked")
    V get(long k) {
      if (k >= 0 && k < dense.length) return (V) dense[(int) k];
      if (k >= 0 && k < DENSE_MAX) return null;
      return sparse.get(k);
    }

    void put(long k, V v) {
      if (k >= 0 && k < DENSE_MAX) {
        if (k >= dense.length) {
          if (v == null) return;
          dense = Arrays.copyOf(dense, (int) Math.min(DENSE_MAX, Math.max(2L * dense.length, k + 1)));
        }
        dense[(int) k] = v;
      } else if (v == null) {
        sparse.remove(k);
      } else {
        sparse.put(k, v);
      }
    }
  }

  /**
   * An INLINE record of the current FUNC: its ranges (non-empty, sorted by start, not merged: a
   * record's ranges may lie under different parents) and its line, for errors found later.
   */
  private record InlineRecord(int level, int name, int callFile, int callLine, AddressRange[] ranges,
      long lineNo) {}

  /** The ranges of the INLINE record just read, relocated (a reused list). */
  private List<AddressRange> inlineRanges(BreakpadParser p) {
    ArrayList<AddressRange> rs = rangeScratch;
    rs.clear();
    long[] r = p.inlineRanges;
    for (int i = 0; i < p.inlineRangeCount; i++) {
      long a = r[2 * i];
      long b = r[2 * i + 1];
      rs.add(loadAddress == 0 ? new AddressRange(a, b) : new AddressRange(shift(a), shift(b)));
    }
    return rs;
  }

  /**
   * An INLINE record (relocated ranges). Its place in the tree is found when the FUNC ends: the
   * parent of a range may be a record that comes later in the file.
   */
  private void inline(int level, long callLine, long callFileNumber, long origin, List<AddressRange> inRanges) {
    if (func == null) throw parser.error("INLINE record does not follow a FUNC record");
    int n = 0;
    for (AddressRange r : inRanges) if (!r.isEmpty()) n++;
    if (n == 0) throw parser.error("INLINE record has only empty ranges");
    AddressRange[] ranges = new AddressRange[n];
    n = 0;
    for (AddressRange r : inRanges) if (!r.isEmpty()) ranges[n++] = r;
    if (n > 1) Arrays.sort(ranges);
    Integer name = originIndex.get(origin);
    String s = name != null ? null : origins.get(origin);
    if (name == null && s == null) {
      throw parser.error("INLINE record refers to INLINE_ORIGIN " + origin + ", which is not defined before it");
    }
    int callFile = file(callFileNumber, "INLINE record");
    if (name == null) { // after the file: string table order as before
      name = creator.insertString(s);
      originIndex.put(origin, name);
    }
    inlines.add(new InlineRecord(level, name, callFile, (int) callLine, ranges, parser.lineNumber()));
    maxInlineLevel = Math.max(maxInlineLevel, level);
    inlineRecords++;
  }

  /**
   * The InlineInfo tree of the current FUNC, level by level: every range of a level-n record goes
   * under the level n-1 node with the last start at or below the range's start, which must cover it
   * (for level 0: the function). A record whose ranges have several parents becomes one node under
   * each; siblings keep file order. A range without such a parent is an error (lenient: skipped and
   * counted). Null when no node is left.
   */
  private InlineInfo inlineTree(AddressRange range, int name) {
    InlineInfo.Builder top = new InlineInfo.Builder(List.of(range), name, 0, 0);
    if (range.isEmpty()) { // a size-0 FUNC covers no range: every INLINE range is outside it
      for (InlineRecord r : inlines) for (AddressRange x : r.ranges()) outside(r, x);
      return null;
    }
    List<List<InlineRecord>> byLevel = new ArrayList<>(maxInlineLevel + 1);
    for (int i = 0; i <= maxInlineLevel; i++) byLevel.add(new ArrayList<>());
    for (InlineRecord r : inlines) byLevel.get(r.level()).add(r);
    // the nodes of the level above, as intervals sorted by start
    long[] starts = {range.start()};
    long[] ends = {range.end()};
    InlineInfo.Builder[] nodes = {top};
    HashMap<InlineInfo.Builder, List<AddressRange>> groups = new HashMap<>();
    List<InlineInfo.Builder> order = new ArrayList<>();
    for (int level = 0; level <= maxInlineLevel; level++) {
      List<InlineInfo.Builder> made = new ArrayList<>();
      for (InlineRecord r : byLevel.get(level)) {
        // the usual case: every range under one parent (no map); several parents: grouped in a map
        InlineInfo.Builder single = null;
        List<AddressRange> singleRanges = new ArrayList<>(r.ranges().length);
        groups.clear();
        order.clear();
        for (AddressRange x : r.ranges()) {
          int i = lastStartAtOrBelow(starts, x.start());
          if (i < 0 || Long.compareUnsigned(x.end(), ends[i]) > 0) {
            outside(r, x);
            continue;
          }
          InlineInfo.Builder parent = nodes[i];
          if (order.isEmpty() && (single == null || single == parent)) {
            single = parent;
            singleRanges.add(x);
            continue;
          }
          if (order.isEmpty()) { // a second parent: move the first one's ranges into the map
            groups.put(single, singleRanges);
            order.add(single);
          }
          List<AddressRange> g = groups.get(parent);
          if (g == null) {
            groups.put(parent, g = new ArrayList<>(r.ranges().length));
            order.add(parent);
          }
          g.add(x);
        }
        if (order.isEmpty() && single != null) {
          made.add(child(single, singleRanges, r));
        }
        for (InlineInfo.Builder parent : order) made.add(child(parent, groups.get(parent), r));
      }
      int count = 0;
      for (InlineInfo.Builder n : made) count += n.ranges().size();
      starts = new long[count];
      ends = new long[count];
      nodes = new InlineInfo.Builder[count];
      int k = 0;
      boolean sorted = true;
      for (InlineInfo.Builder n : made) {
        for (AddressRange x : n.ranges()) {
          starts[k] = x.start();
          ends[k] = x.end();
          nodes[k] = n;
          if (k > 0 && Long.compareUnsigned(starts[k - 1], starts[k]) > 0) sorted = false;
          k++;
        }
      }
      if (!sorted) { // records out of address order: sort the intervals (stable: equal starts keep file order)
        Integer[] idx = new Integer[count];
        for (int i = 0; i < count; i++) idx[i] = i;
        long[] s = starts;
        long[] e = ends;
        InlineInfo.Builder[] ns = nodes;
        Arrays.sort(idx, (x, y) -> Long.compareUnsigned(s[x], s[y]));
        starts = new long[count];
        ends = new long[count];
        nodes = new InlineInfo.Builder[count];
        for (int i = 0; i < count; i++) {
          starts[i] = s[idx[i]];
          ends[i] = e[idx[i]];
          nodes[i] = ns[idx[i]];
        }
      }
    }
    return top.isLeaf() ? null : top.build();
  }

  /** A node for the ranges of {@code r} under {@code parent}, added as its last child. */
  private static InlineInfo.Builder child(InlineInfo.Builder parent, List<AddressRange> ranges, InlineRecord r) {
    InlineInfo.Builder n = new InlineInfo.Builder(ranges.size() == 1 ? List.of(ranges.getFirst()) : AddressRanges.normalize(ranges), r.name(),
        r.callFile(), r.callLine());
    parent.add(n);
    return n;
  }

  /** Index of the last element of the sorted {@code starts} that is at or below {@code a}, or -1. */
  private static int lastStartAtOrBelow(long[] starts, long a) {
    int lo = 0;
    int hi = starts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(starts[mid], a) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** A range of {@code r} that no range one level up covers: an error, or skipped when lenient. */
  private void outside(InlineRecord r, AddressRange x) {
    String where = r.level() == 0
        ? "FUNC " + func.name() + " [0x" + Long.toHexString(func.address()) + ", 0x"
            + Long.toHexString(func.address() + func.size()) + ")"
        : "any INLINE at level " + (r.level() - 1);
    String msg = "INLINE range [0x" + Long.toHexString(x.start()) + ", 0x" + Long.toHexString(x.end())
        + ") is not inside " + where;
    GsymFormatException e = parser.error(r.lineNo(), msg);
    if (!lenient) throw e;
    inlineRangesOutside++;
    diag.report("Skipped INLINE ranges outside their parent",
        sb -> sb.append("warning: ").append(e.getMessage()).append("; skipped\n"));
  }

  /** Hands the current FUNC to the creator. */
  private void flushFunction() {
    if (func == null) return;
    BreakpadRecord.Func f = func;
    AddressRange range = new AddressRange(f.address(), f.address() + f.size());
    int name = creator.insertString(f.name());
    LineTable lt = nRows > 0 ? lineTable(range) : null;
    InlineInfo ii = inlines.isEmpty() ? null : inlineTree(range, name);
    func = null;
    creator.addFunctionInfo(new FunctionInfo(range, name, lt, ii, null, null));
    nRows = 0;
    inlines.clear();
    maxInlineLevel = 0;
  }

  /**
   * The line table of the current FUNC: its rows sorted by address (stable), and where no line
   * record covers the function's bytes (before the first, between two, after the last) a row in the
   * "no file" entry: GSYM rows have no end, so without it the previous row would answer there.
   */
  private LineTable lineTable(AddressRange range) {
    Integer[] order = null;
    for (int i = 1; i < nRows; i++) {
      if (Long.compareUnsigned(rowAddr[i - 1], rowAddr[i]) > 0) {
        order = new Integer[nRows];
        for (int j = 0; j < nRows; j++) order[j] = j;
        Arrays.sort(order, (x, y) -> Long.compareUnsigned(rowAddr[x], rowAddr[y])); // stable
        break;
      }
    }
    List<LineEntry> rows = new ArrayList<>(nRows + 2);
    long covered = range.start(); // every byte of the function below this is covered
    for (int k = 0; k < nRows; k++) {
      int i = order == null ? k : order[k];
      if (Long.compareUnsigned(rowAddr[i], covered) > 0) rows.add(new LineEntry(covered, creator.insertNoFile(), 0));
      rows.add(new LineEntry(rowAddr[i], rowFile[i], rowLine[i]));
      if (Long.compareUnsigned(rowEnd[i], covered) > 0) covered = rowEnd[i];
    }
    if (Long.compareUnsigned(covered, range.end()) < 0) rows.add(new LineEntry(covered, creator.insertNoFile(), 0));
    return new LineTable(rows);
  }

  /**
   * Adds the PUBLICs no FUNC covers, and for a PUBLIC strictly inside a FUNC a size-0 FunctionInfo
   * of its name at the FUNC's end: Breakpad's processor (and rust-minidump) answer an address that
   * no FUNC covers with the last PUBLIC at or below it, if that PUBLIC lies above the start of the
   * last FUNC starting at or below the address. Returns how many PUBLICs were dropped.
   */
  private long addPublics() {
    // sort FUNCs by start; prefix maximum of ends answers "does any FUNC starting <= a cover a"
    Integer[] order = new Integer[nFunc];
    for (int i = 0; i < nFunc; i++) order[i] = i;
    Arrays.sort(order, (x, y) -> Long.compareUnsigned(funcStart[x], funcStart[y]));
    long[] starts = new long[nFunc];
    long[] maxEnd = new long[nFunc];
    long max = 0;
    for (int i = 0; i < nFunc; i++) {
      starts[i] = funcStart[order[i]];
      long e = funcEnd[order[i]];
      if (i == 0 || Long.compareUnsigned(e, max) > 0) max = e;
      maxEnd[i] = max;
    }
    long dropped = 0;
    for (int p = 0; p < nPub; p++) {
      long a = pubAddr[p];
      if (coveredByFunc(starts, maxEnd, a)) {
        dropped++;
        continue;
      }
      creator.addFunctionInfo(new FunctionInfo(new AddressRange(a, a), pubName[p]));
    }
    addPublicTails(starts, maxEnd);
    return dropped;
  }

  private static boolean coveredByFunc(long[] starts, long[] maxEnd, long a) {
    int i = lastStartAtOrBelow(starts, a);
    return i >= 0 && (starts[i] == a || Long.compareUnsigned(maxEnd[i], a) > 0);
  }

  private long publicTails;

  /** The tails of {@link #addPublics()}: the bytes after a FUNC named by a PUBLIC inside it. */
  private void addPublicTails(long[] starts, long[] maxEnd) {
    if (nPub == 0 || nFunc == 0) return;
    Integer[] pubs = new Integer[nPub]; // by address, file order within an address
    for (int i = 0; i < nPub; i++) pubs[i] = i;
    Arrays.sort(pubs, (x, y) -> Long.compareUnsigned(pubAddr[x], pubAddr[y]));
    long[] pubSorted = new long[nPub];
    for (int i = 0; i < nPub; i++) pubSorted[i] = pubAddr[pubs[i]];
    long[] ends = new long[nFunc];
    int n = 0;
    for (int i = 0; i < nFunc; i++) {
      if (Long.compareUnsigned(funcEnd[i], funcStart[i]) > 0) ends[n++] = funcEnd[i]; // sized, not ending at 2^64
    }
    ends = Arrays.copyOf(ends, n);
    for (int i = 0; i < n; i++) ends[i] ^= Long.MIN_VALUE; // unsigned order
    Arrays.sort(ends);
    for (int k = 0; k < n; k++) {
      if (k > 0 && ends[k] == ends[k - 1]) continue;
      long end = ends[k] ^ Long.MIN_VALUE;
      if (coveredByFunc(starts, maxEnd, end)) continue; // another FUNC goes on there
      int j = lastStartAtOrBelow(pubSorted, end);
      if (j < 0 || pubSorted[j] == end) continue; // none below, or a PUBLIC of its own starts there
      long p = pubSorted[j];
      // it must lie above the start of the last FUNC starting below the end
      if (Long.compareUnsigned(p, starts[lastStartAtOrBelow(starts, end - 1)]) <= 0) continue;
      while (j > 0 && pubSorted[j - 1] == p) j--; // Breakpad keeps the first PUBLIC at an address
      creator.addFunctionInfo(new FunctionInfo(new AddressRange(end, end), pubName[pubs[j]]));
      publicTails++;
    }
  }
}
