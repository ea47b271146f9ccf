package dev.gsym.breakpad;

import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.io.GsymFormatException;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import dev.gsym.write.PathStyle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;

/**
 * Converts a Breakpad symbol file into FunctionInfos of a {@link GsymCreator} in one streaming pass.
 *
 * <ul>
 *   <li>FUNC + its line records → a FunctionInfo with a LineTable (one row per line record, sorted
 *       by address; FILE numbers become file-table indexes);
 *   <li>its INLINE records → an InlineInfo tree (top node = the function; nest level n is a child
 *       of the last level n-1 record; INLINE_ORIGIN names; call file/line);
 *   <li>PUBLIC → a size-0 FunctionInfo (covers up to the next function, as llvm's size-0 symbols);
 *       a PUBLIC inside or at the start of a FUNC is dropped (FUNC wins);
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
   */
  public record Result(long functions, long publics, long publicsInsideFunctions, long lineRecords,
      long inlineRecords, long stackRecords, long badRecords, long orphanRecords,
      long linesOutsideFunctions, byte[] uuid) {}

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
  private int[] rowFile = new int[256];
  private int[] rowLine = new int[256];
  private int nRows;
  private final ArrayList<AddressRange> rangeScratch = new ArrayList<>();
  private final List<Node> topChildren = new ArrayList<>();
  private final List<Node> levels = new ArrayList<>(); // last node seen at each nest level

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
    return convert(path, creator, lenient, diag, loadAddress, dev.gsym.io.Progress.NONE);
  }

  /** As above, reporting (MiB read, MiB in all) to {@code progress} as the file is read. */
  public static Result convert(Path path, GsymCreator creator, boolean lenient, Diagnostics diag,
      long loadAddress, dev.gsym.io.Progress progress) throws IOException {
    try (BreakpadParser p = BreakpadParser.open(path, progress)) {
      return new BreakpadTransformer(creator, lenient, diag).loadAddress(loadAddress).convert(p);
    }
  }

  /** Reads every record of {@code p} into the creator (not finalized). */
  public Result convert(BreakpadParser p) throws IOException {
    this.parser = p;
    while (true) {
      try {
        int kind = p.advance();
        if (kind == BreakpadParser.EOF) break;
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
        stackRecords, badRecords, orphanRecords, linesOutside, uuid == null ? new byte[0] : uuid);
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
      rowFile = Arrays.copyOf(rowFile, nRows * 2);
      rowLine = Arrays.copyOf(rowLine, nRows * 2);
    }
    rowAddr[nRows] = address;
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

  private static final class Node {
    final List<AddressRange> ranges;
    final int name;
    final int callFile;
    final int callLine;
    final List<Node> children = new ArrayList<>();

    Node(List<AddressRange> ranges, int name, int callFile, int callLine) {
      this.ranges = ranges;
      this.name = name;
      this.callFile = callFile;
      this.callLine = callLine;
    }

    InlineInfo toInlineInfo() {
      List<InlineInfo> kids = new ArrayList<>(children.size());
      for (Node c : children) kids.add(c.toInlineInfo());
      return new InlineInfo(ranges, name, callFile, callLine, kids);
    }
  }

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

  /** An INLINE record (relocated ranges, not normalized). */
  private void inline(int level, long callLine, long callFileNumber, long origin, List<AddressRange> inRanges) {
    if (func == null) throw parser.error("INLINE record does not follow a FUNC record");
    if (level > levels.size()) {
      throw parser.error("INLINE nest level " + level + " has no enclosing INLINE at level " + (level - 1));
    }
    List<AddressRange> parent = level == 0
        ? List.of(new AddressRange(func.address(), func.address() + func.size()))
        : levels.get(level - 1).ranges;
    List<AddressRange> ranges = inRanges.size() == 1 && inRanges.getFirst().size() > 0
        ? List.of(inRanges.getFirst()) : AddressRanges.normalize(inRanges);
    if (ranges.isEmpty()) throw parser.error("INLINE record has only empty ranges");
    int j = 0; // both lists are sorted and disjoint: one merge walk
    for (AddressRange r : ranges) {
      while (j < parent.size() && Long.compareUnsigned(parent.get(j).end(), r.start()) <= 0) j++;
      boolean ok = j < parent.size() && parent.get(j).contains(r);
      if (!ok) {
        throw parser.error("INLINE range [0x" + Long.toHexString(r.start()) + ", 0x" + Long.toHexString(r.end())
            + ") is not inside its parent " + (level == 0 ? "FUNC " + func.name() : "INLINE at level " + (level - 1)));
      }
    }
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
    Node n = new Node(ranges, name, callFile, (int) callLine);
    if (level == 0) topChildren.add(n);
    else levels.get(level - 1).children.add(n);
    while (levels.size() > level) levels.removeLast();
    levels.add(n);
    inlineRecords++;
  }

  /** Hands the current FUNC to the creator. */
  private void flushFunction() {
    if (func == null) return;
    BreakpadRecord.Func f = func;
    func = null;
    AddressRange range = new AddressRange(f.address(), f.address() + f.size());
    int name = creator.insertString(f.name());
    LineTable lt = null;
    if (nRows > 0) {
      LineEntry[] rows = new LineEntry[nRows];
      boolean sorted = true;
      for (int i = 0; i < nRows; i++) {
        rows[i] = new LineEntry(rowAddr[i], rowFile[i], rowLine[i]);
        if (i > 0 && Long.compareUnsigned(rowAddr[i - 1], rowAddr[i]) > 0) sorted = false;
      }
      if (!sorted) Arrays.sort(rows, Comparator.comparing(LineEntry::address, Long::compareUnsigned)); // stable
      lt = new LineTable(Arrays.asList(rows));
    }
    InlineInfo ii = null;
    if (!topChildren.isEmpty() && f.size() != 0) {
      List<InlineInfo> kids = new ArrayList<>(topChildren.size());
      for (Node c : topChildren) kids.add(c.toInlineInfo());
      ii = new InlineInfo(List.of(range), name, 0, 0, kids);
    }
    creator.addFunctionInfo(new FunctionInfo(range, name, lt, ii, null, null));
    nRows = 0;
    topChildren.clear();
    levels.clear();
  }

  /** Adds the PUBLICs no FUNC covers; returns how many were dropped. */
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
      int lo = 0;
      int hi = nFunc; // first start > a
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Long.compareUnsigned(starts[mid], a) <= 0) lo = mid + 1;
        else hi = mid;
      }
      int i = lo - 1;
      boolean covered = i >= 0 && (starts[i] == a || Long.compareUnsigned(maxEnd[i], a) > 0);
      if (covered) {
        dropped++;
        continue;
      }
      creator.addFunctionInfo(new FunctionInfo(new AddressRange(a, a), pubName[p]));
    }
    return dropped;
  }
}
