package dev.gsym.breakpad;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
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
import java.util.Map;
import java.util.TreeMap;

/**
 * Converts a Breakpad symbol file into FunctionInfos of a {@link GsymCreator} in one streaming
 * pass, so that lookups answer as Breakpad's processor ({@code BasicSourceLineResolver}) does:
 *
 * <ul>
 *   <li>FUNC + its line records → a FunctionInfo with a LineTable. As in Breakpad's range maps, a
 *       FUNC that is empty or overlaps an earlier FUNC is ignored with its records (the first of
 *       several FUNCs at one address wins), and so is a line record that is empty or overlaps an
 *       earlier one of its FUNC. The FUNC's bytes that no line record covers get a row in the
 *       creator's "no file" entry ({@link GsymCreator#insertNoFile()}): the function alone.
 *   <li>FILE and INLINE_ORIGIN records may come anywhere, also after their use (Breakpad looks
 *       them up when it answers); the first record of a number counts. A FUNC that uses a number
 *       not defined yet is held until the end of the file.
 *   <li>its INLINE records → an InlineInfo tree nested as Breakpad's {@code ContainedRangeMap}
 *       nests their ranges: by address containment, not by nest level (a range that partly
 *       overlaps another is ignored, a record whose level is more than one below the previous
 *       record's is ignored); the ranges of one record under one parent are one node, whose
 *       inlined frame's offset counts from its first range (Breakpad's from the range holding the
 *       address). A record without
 *       a call file (the older form, or -1) is called from the file of the line record at the
 *       start of the range, where Breakpad takes the line record's file at the address looked up.
 *   <li>PUBLIC → a size-0 FunctionInfo (covers up to the next function, as llvm's size-0 symbols);
 *       a PUBLIC inside or at the start of a FUNC is dropped (FUNC wins), but one strictly inside a
 *       FUNC names the bytes after that FUNC's end up to the next symbol (a size-0 FunctionInfo at
 *       the FUNC's end), as in Breakpad's processor; of several PUBLICs at one address the first
 *       counts, a PUBLIC at address 0 is ignored;
 *   <li>MODULE / INFO CODE_ID → the UUID ({@link BreakpadIds}); STACK records are counted and skipped.
 * </ul>
 *
 * <p>Only the current FUNC's records are held (and FUNCs waiting for a FILE or INLINE_ORIGIN
 * record); a FUNC is handed to the creator when the next FUNC or PUBLIC (or the end of the file)
 * arrives. Bad records throw a {@link GsymFormatException} naming {@code file:line}; in lenient
 * mode they are skipped and counted.
 */
public final class BreakpadTransformer {
  /**
   * What a conversion saw.
   *
   * @param functions FUNC records converted
   * @param publicsInsideFunctions PUBLIC records dropped because a FUNC covers their address
   * @param badRecords records skipped as malformed (lenient mode)
   * @param orphanRecords line and INLINE records skipped in lenient mode because their FUNC was bad
   * @param linesOutsideFunctions line records dropped because they lie outside their FUNC
   * @param ignoredRecords records Breakpad's processor reads but never answers with, ignored as it
   *     does: FUNCs that are empty or overlap an earlier FUNC (and their line and INLINE records),
   *     line records that are empty or overlap an earlier one of their FUNC, INLINE records whose
   *     nest level skips one, INLINE ranges that partly overlap another, PUBLICs at address 0 or at
   *     the address of an earlier PUBLIC, FILE and INLINE_ORIGIN records of a number defined before
   * @param publicTails FunctionInfos added after a FUNC's end for a PUBLIC inside that FUNC
   */
  public record Result(long functions, long publics, long publicsInsideFunctions, long lineRecords,
      long inlineRecords, long stackRecords, long badRecords, long orphanRecords,
      long linesOutsideFunctions, long ignoredRecords, long publicTails, byte[] uuid, Unwind unwind) {}

  /**
   * The STACK records read with {@link #unwind()}: their entries (addresses relocated like the
   * others) for {@code GsymCreator.attachUnwind} after finishing, on the MODULE record's
   * architecture.
   *
   * @param skipped STACK CFI records outside their INIT record and rules for unknown registers
   */
  public record Unwind(dev.gsym.unwind.Arch arch, List<dev.gsym.unwind.UnwindEntry> entries, long skipped) {}

  /** Names quoted in messages are cut to this many characters (a name may be megabytes long). */
  static final int MAX_QUOTED_NAME = 256;
  /** The name Breakpad's processor gives an inlined frame whose INLINE_ORIGIN is not defined. */
  static final String NAME_OMITTED = "<name omitted>";

  private final GsymCreator creator;
  private final boolean lenient;
  private final Diagnostics diag;

  private BreakpadParser parser;
  private final NumberMap<String> files = new NumberMap<>();
  private final IndexCache fileIndex = new IndexCache();
  private final NumberMap<String> origins = new NumberMap<>();
  private final IndexCache originIndex = new IndexCache(); // string table offset of an origin's name
  // the first line that uses a FILE / INLINE_ORIGIN number before it is defined (for the error)
  private final NumberMap<Long> earlyFileInLine = new NumberMap<>();
  private final NumberMap<Long> earlyFileInInline = new NumberMap<>();
  private final NumberMap<Long> earlyOrigin = new NumberMap<>();
  private boolean anyEarlyUse;
  private byte[] moduleUuid;
  private byte[] codeUuid;

  /** The current FUNC (null: none since the start or the last PUBLIC). */
  private Func func;
  /** Accepted FUNCs waiting for a FILE or INLINE_ORIGIN record, in file order. */
  private final List<Func> waiting = new ArrayList<>();
  private Func spare;
  /** The ranges of the FUNCs converted, as Breakpad's function map: the first of overlapping ones counts. */
  private final RangeSet funcRanges = new RangeSet();

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
  private long ignored;
  /** Lenient mode after a bad FUNC: its line and INLINE records are skipped, not given to the previous FUNC. */
  private boolean orphaned;

  /**
   * A transformer that adds the records it is given to its creator.
   *
   * @param lenient skip (and count) bad records instead of failing
   * @param diag receives one warning line per skipped record (may be silent)
   */
  public BreakpadTransformer(GsymCreator creator, boolean lenient, Diagnostics diag) {
    this.creator = creator;
    this.lenient = lenient;
    this.diag = diag;
  }

  private long loadAddress;
  private boolean unwind;
  private StackRecords.Reader stack;
  private dev.gsym.unwind.Arch arch;

  /**
   * Reads the STACK CFI and STACK WIN records into unwind entries ({@link Result#unwind()}) instead
   * of counting and skipping them; they need a MODULE record whose architecture has Breakpad
   * register names.
   */
  public BreakpadTransformer unwind() {
    this.unwind = true;
    return this;
  }

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
        BreakpadRecord r = p.next();
        if (r == null) break;
        if (first) {
          if (r instanceof BreakpadRecord.Line || r instanceof BreakpadRecord.Other) checkFirstLine(p);
          first = false;
        }
        switch (r) {
          case BreakpadRecord.Line l -> { // relocated before the orphan check, as every record
            long address = l.address();
            if (loadAddress != 0) {
              shift(address + l.size());
              address = shift(address);
            }
            if (orphaned) orphanRecords++;
            else line(address, l.size(), l.line(), l.file());
          }
          case BreakpadRecord.Inline n -> {
            long[] ranges = inlineRanges(n);
            if (orphaned) orphanRecords++;
            else inline(n.level(), n.callLine(), n.callFile(), n.origin(), ranges);
          }
          case BreakpadRecord.Stack st -> {
            stackRecords++;
            if (unwind) stack(st);
          }
          case BreakpadRecord.Other o -> throw p.error("unknown record type '" + o.keyword() + "'");
          case BreakpadRecord.Public pub when pub.address() == 0 -> {
            // Breakpad's processor ignores PUBLICs at 0 (seen in ntdll.pdb), but they end the FUNC
            orphaned = false;
            flushFunction();
            ignored++;
          }
          default -> accept(relocate(r));
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
    if (!waiting.isEmpty()) {
      undefinedReferences();
      for (Func f : waiting) emit(f);
      waiting.clear();
    }
    long droppedPublics = addPublics();
    byte[] uuid = codeUuid != null ? codeUuid : moduleUuid;
    if (uuid != null) creator.setUUID(uuid);
    Unwind u = stack == null ? null : new Unwind(arch, relocated(stack.entries()), stack.skipped());
    return new Result(nFunc, keptPublics - droppedPublics, droppedPublics, lineRecords, inlineRecords,
        stackRecords, badRecords, orphanRecords, linesOutside, ignored, publicTails,
        uuid == null ? new byte[0] : uuid, u);
  }

  /** One STACK record into the unwind entries (the architecture is the MODULE record's). */
  private void stack(BreakpadRecord.Stack s) {
    if (stack == null) {
      if (arch == null) {
        throw parser.error("STACK records need a MODULE record before them naming an architecture"
            + " with Breakpad register names (x86, x86_64, arm, arm64, mips, riscv)");
      }
      stack = new StackRecords.Reader(arch);
    }
    try {
      stack.accept(s.kind(), s.text());
    } catch (IllegalArgumentException e) {
      throw parser.error(e.getMessage());
    }
  }

  private List<dev.gsym.unwind.UnwindEntry> relocated(List<dev.gsym.unwind.UnwindEntry> entries) {
    if (loadAddress == 0) return entries;
    List<dev.gsym.unwind.UnwindEntry> out = new ArrayList<>(entries.size());
    for (dev.gsym.unwind.UnwindEntry e : entries) {
      shift(e.start() + e.length());
      out.add(switch (e) {
        case dev.gsym.unwind.CfiTable t -> {
          List<dev.gsym.unwind.UnwindRow> rows = new ArrayList<>(t.rows().size());
          for (dev.gsym.unwind.UnwindRow r : t.rows()) rows.add(r.at(shift(r.address())));
          yield new dev.gsym.unwind.CfiTable(t.source(), t.ordinal(), shift(t.start()), t.length(),
              t.returnAddressRegister(), rows);
        }
        case dev.gsym.unwind.WindowsFrameInfo w -> new dev.gsym.unwind.WindowsFrameInfo(w.source(), w.ordinal(),
            w.type(), shift(w.start()), w.length(), w.prologSize(), w.epilogSize(), w.parameterSize(),
            w.savedRegisterSize(), w.localSize(), w.maxStackSize(), w.programString(), w.allocatesBasePointer());
      });
    }
    return out;
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

  /** A record other than a line, INLINE, STACK or unknown record. */
  private void accept(BreakpadRecord r) {
    if (orphaned && (r instanceof BreakpadRecord.Func || r instanceof BreakpadRecord.Public)) orphaned = false;
    switch (r) {
      case BreakpadRecord.Module m -> {
        moduleUuid = BreakpadIds.fromModuleId(m.os(), m.id());
        if (arch == null) arch = dev.gsym.unwind.Arch.ofName(m.arch());
      }
      case BreakpadRecord.Info i -> {
        if (i.key().equals("CODE_ID")) codeUuid = BreakpadIds.fromCodeId(i.value());
      }
      case BreakpadRecord.File f -> {
        if (files.get(f.number()) != null) ignored++; // Breakpad's file map keeps the first
        else files.put(f.number(), f.name());
      }
      case BreakpadRecord.InlineOrigin o -> {
        if (origins.get(o.number()) != null) ignored++;
        else origins.put(o.number(), o.name());
      }
      case BreakpadRecord.Func f -> {
        flushFunction();
        func = takeFunc(f);
        long end = f.address() + f.size();
        if (f.size() == 0 || funcRanges.overlaps(f.address(), end)) {
          func.ignored = true; // Breakpad's function map refuses it: its records answer nothing
          ignored++;
          return;
        }
        funcRanges.add(f.address(), end);
        if (nFunc == funcStart.length) {
          funcStart = Arrays.copyOf(funcStart, nFunc * 2);
          funcEnd = Arrays.copyOf(funcEnd, nFunc * 2);
        }
        funcStart[nFunc] = f.address();
        funcEnd[nFunc] = end;
        nFunc++;
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
      case BreakpadRecord.Line l -> throw new AssertionError(l); // the loop takes these
      case BreakpadRecord.Inline i -> throw new AssertionError(i);
      case BreakpadRecord.Stack st -> throw new AssertionError(st);
      case BreakpadRecord.Other o -> throw new AssertionError(o);
    }
  }

  /** A FUNC record's state, reusing the arrays of the last one handed to the creator. */
  private Func takeFunc(BreakpadRecord.Func f) {
    Func x = spare != null ? spare : new Func();
    spare = null;
    x.reset(f.name(), f.address(), f.address() + f.size());
    return x;
  }

  /** {@code name}, cut for a message. */
  static String quoted(String name) {
    return name.length() <= MAX_QUOTED_NAME ? name : name.substring(0, MAX_QUOTED_NAME) + "...";
  }

  /** A line record (relocated). */
  private void line(long address, long size, long line, long fileNumber) {
    if (func == null) throw parser.error("line record does not follow a FUNC record");
    if (func.ignored) {
      ignored++;
      return;
    }
    if (size == 0) return; // covers nothing (Breakpad's range map refuses it)
    long end = address + size; // the parser rejects ranges that wrap
    if (func.lines.overlaps(address, end)) {
      ignored++; // Breakpad's line map keeps the first
      return;
    }
    func.lines.add(address, end);
    if (Long.compareUnsigned(end, func.start) <= 0 || Long.compareUnsigned(address, func.end) >= 0) {
      // not malformed, but no address of this function is in it: it answers nothing
      linesOutside++;
      String msg = parser.error("line record address 0x" + Long.toHexString(address) + " is outside FUNC "
          + quoted(func.name) + " [0x" + Long.toHexString(func.start) + ", 0x" + Long.toHexString(func.end)
          + "); dropped").getMessage();
      diag.report("Line records outside their FUNC", sb -> sb.append("warning: ").append(msg).append('\n'));
      return;
    }
    if (files.get(fileNumber) == null) earlyUse(earlyFileInLine, fileNumber);
    func.addRow(address, end, fileNumber, line);
    lineRecords++;
  }

  private void earlyUse(NumberMap<Long> uses, long number) {
    if (uses.get(number) == null) uses.put(number, parser.lineNumber());
    func.early = true;
    anyEarlyUse = true;
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
   * FILE / INLINE_ORIGIN numbers to the creator's non-negative indexes or offsets, looked up once
   * per line-table row and inline node: an int array for small numbers, a hash map for the rest.
   */
  static final class IndexCache {
    private int[] dense = new int[64]; // value + 1; 0: none
    private final HashMap<Long, Integer> sparse = new HashMap<>();

    /** The value of {@code k}, or -1. */
    int get(long k) {
      if (k >= 0 && k < dense.length) return dense[(int) k] - 1;
      if (k >= 0 && k < NumberMap.DENSE_MAX) return -1;
      Integer v = sparse.get(k);
      return v == null ? -1 : v;
    }

    void put(long k, int v) {
      if (k >= 0 && k < NumberMap.DENSE_MAX) {
        if (k >= dense.length) {
          dense = Arrays.copyOf(dense, (int) Math.min(NumberMap.DENSE_MAX, Math.max(2L * dense.length, k + 1)));
        }
        dense[(int) k] = v + 1;
      } else {
        sparse.put(k, v);
      }
    }
  }

  /**
   * Disjoint address ranges [start, end) (unsigned), as Breakpad's {@code RangeMap} stores them: a
   * range that overlaps one stored before is refused by the caller. Ranges added in address order
   * (the usual case) are kept in sorted primitive arrays; the others in a tree.
   */
  static final class RangeSet {
    private long[] starts = new long[16];
    private long[] ends = new long[16];
    private int n;
    private TreeMap<Long, Long> others; // start ^ MIN_VALUE -> end

    void clear() {
      n = 0;
      others = null;
    }

    boolean overlaps(long start, long end) {
      // at or after the end of the last range in the arrays (the usual case): none of them
      if (n > 0 && Long.compareUnsigned(start, ends[n - 1]) < 0) {
        int i = lastStartAtOrBelow(starts, n, start);
        if (i >= 0 && Long.compareUnsigned(ends[i], start) > 0) return true;
        if (i + 1 < n && Long.compareUnsigned(starts[i + 1], end) < 0) return true;
      }
      if (others != null) {
        Map.Entry<Long, Long> below = others.floorEntry(start ^ Long.MIN_VALUE);
        if (below != null && Long.compareUnsigned(below.getValue(), start) > 0) return true;
        Map.Entry<Long, Long> above = others.higherEntry(start ^ Long.MIN_VALUE);
        if (above != null && Long.compareUnsigned(above.getKey() ^ Long.MIN_VALUE, end) < 0) return true;
      }
      return false;
    }

    void add(long start, long end) {
      if (n == 0 || Long.compareUnsigned(start, ends[n - 1]) >= 0) {
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, 2 * n);
          ends = Arrays.copyOf(ends, 2 * n);
        }
        starts[n] = start;
        ends[n] = end;
        n++;
      } else {
        if (others == null) others = new TreeMap<>();
        others.put(start ^ Long.MIN_VALUE, end);
      }
    }
  }

  /** The current or a waiting FUNC: its range, line records and INLINE records. */
  private static final class Func {
    String name;
    long start;
    long end;
    /** Breakpad's function map refused it (empty, or overlapping an earlier FUNC). */
    boolean ignored;
    /** Uses a FILE or INLINE_ORIGIN number that was not defined when it was read. */
    boolean early;
    final RangeSet lines = new RangeSet();
    long[] rowStart = new long[64];
    long[] rowEnd = new long[64];
    long[] rowFile = new long[64];
    int[] rowLine = new int[64];
    int rows;
    /**
     * Its INLINE records, in file order: their non-empty ranges as [start, end) pairs, call file
     * ({@link BreakpadRecord.Inline#NO_CALL_FILE} if none) and origin as numbers, call line, and
     * line in the file, for errors found later. Arrays, not an object per record (there are millions).
     */
    long[][] inRanges = new long[64][];
    long[] inCallFile = new long[64];
    long[] inOrigin = new long[64];
    int[] inCallLine = new int[64];
    long[] inLineNo = new long[64];
    int inlines;
    /** Scratch of {@link #children}: an INLINE record's group among the nodes being grouped, else -1. */
    int[] groupOf = new int[0];
    int lastLevel;

    void reset(String name, long start, long end) {
      this.name = name;
      this.start = start;
      this.end = end;
      ignored = false;
      early = false;
      lines.clear();
      rows = 0;
      Arrays.fill(inRanges, 0, inlines, null);
      inlines = 0;
      lastLevel = 0;
    }

    void addRow(long start, long end, long file, long line) {
      if (rows == rowStart.length) {
        rowStart = Arrays.copyOf(rowStart, 2 * rows);
        rowEnd = Arrays.copyOf(rowEnd, 2 * rows);
        rowFile = Arrays.copyOf(rowFile, 2 * rows);
        rowLine = Arrays.copyOf(rowLine, 2 * rows);
      }
      rowStart[rows] = start;
      rowEnd[rows] = end;
      rowFile[rows] = file;
      rowLine[rows] = (int) line;
      rows++;
    }

    void addInline(long callLine, long callFile, long origin, long[] ranges, long lineNo) {
      if (inlines == inRanges.length) {
        int n = 2 * inlines;
        inRanges = Arrays.copyOf(inRanges, n);
        inCallFile = Arrays.copyOf(inCallFile, n);
        inOrigin = Arrays.copyOf(inOrigin, n);
        inCallLine = Arrays.copyOf(inCallLine, n);
        inLineNo = Arrays.copyOf(inLineNo, n);
      }
      inRanges[inlines] = ranges;
      inCallFile[inlines] = callFile;
      inOrigin[inlines] = origin;
      inCallLine[inlines] = (int) callLine;
      inLineNo[inlines] = lineNo;
      inlines++;
    }
  }

  /** The ranges of an INLINE record, relocated, as [start, end) pairs (its own array when not moved). */
  private long[] inlineRanges(BreakpadRecord.Inline n) {
    long[] r = n.pairs();
    if (loadAddress == 0) return r;
    long[] out = new long[r.length];
    for (int i = 0; i < r.length; i++) out[i] = shift(r[i]);
    return out;
  }

  /**
   * An INLINE record (relocated ranges). Its place in the tree is found when the FUNC ends: the
   * range that contains one of its ranges may come later in the file.
   */
  private void inline(int level, long callLine, long callFile, long origin, long[] ranges) {
    if (func == null) throw parser.error("INLINE record does not follow a FUNC record");
    if (func.ignored) {
      ignored++;
      return;
    }
    // Breakpad's Function::AppendInline: a record more than one level below the last one added
    // (its parent record was bad) is ignored
    if (level > func.lastLevel + 1) {
      ignored++;
      return;
    }
    func.lastLevel = level;
    int n = 0;
    for (int i = 0; i < ranges.length; i += 2) if (ranges[i] != ranges[i + 1]) n++;
    long[] kept = ranges; // read only from here on: the record's own pairs when none is empty
    if (2 * n != ranges.length) {
      kept = new long[2 * n];
      n = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        if (ranges[i] == ranges[i + 1]) continue; // empty: Breakpad's range map refuses it
        kept[n++] = ranges[i];
        kept[n++] = ranges[i + 1];
      }
    }
    if (origins.get(origin) == null) earlyUse(earlyOrigin, origin);
    if (callFile != BreakpadRecord.Inline.NO_CALL_FILE && files.get(callFile) == null) {
      earlyUse(earlyFileInInline, callFile);
    }
    func.addInline(callLine, callFile, origin, kept, parser.lineNumber());
    inlineRecords++;
  }

  /** Hands the current FUNC to the creator, or keeps it until the numbers it uses are defined. */
  private void flushFunction() {
    Func f = func;
    if (f == null) return;
    func = null;
    if (f.ignored) {
      spare = f;
    } else if (f.early || !waiting.isEmpty()) { // waiting FUNCs keep their order
      waiting.add(f);
    } else {
      emit(f);
      spare = f;
    }
  }

  /**
   * At the end of the file, the FILE and INLINE_ORIGIN numbers used before their definition that
   * no record defines: an error at the first such use; lenient: as Breakpad's processor answers
   * (a line record's row has no file, an inlined frame without origin is {@code <name omitted>}, a
   * call file not defined is as none), with a warning.
   */
  private void undefinedReferences() {
    if (!anyEarlyUse) return;
    List<long[]> uses = new ArrayList<>(); // line, kind, number
    collect(earlyFileInLine, files, 0, uses);
    collect(earlyFileInInline, files, 1, uses);
    collect(earlyOrigin, origins, 2, uses);
    uses.sort((a, b) -> Long.compare(a[0], b[0]));
    for (long[] u : uses) {
      String what = switch ((int) u[1]) {
        case 0 -> "line record refers to FILE " + u[2] + ", which no FILE record defines";
        case 1 -> "INLINE record refers to FILE " + u[2] + ", which no FILE record defines";
        default -> "INLINE record refers to INLINE_ORIGIN " + u[2] + ", which no INLINE_ORIGIN record defines";
      };
      GsymFormatException e = parser.error(u[0], what);
      if (!lenient) throw e;
      badRecords++;
      diag.report("Skipped bad Breakpad records", sb -> sb.append("warning: ").append(e.getMessage()).append('\n'));
    }
  }

  private static void collect(NumberMap<Long> early, NumberMap<String> defs, int kind, List<long[]> out) {
    for (int k = 0; k < early.dense.length; k++) {
      Object line = early.dense[k];
      if (line != null && defs.get(k) == null) out.add(new long[] {(Long) line, kind, k});
    }
    for (Map.Entry<Long, Long> e : early.sparse.entrySet()) {
      if (defs.get(e.getKey()) == null) out.add(new long[] {e.getValue(), kind, e.getKey()});
    }
  }

  /** The creator's file index of FILE {@code number}; the "no file" entry if none defines it. */
  private int file(long number) {
    int idx = fileIndex.get(number);
    if (idx >= 0) return idx;
    String path = files.get(number);
    if (path == null) return creator.insertNoFile(); // lenient: Breakpad answers without a file
    PathStyle style = path.indexOf('\\') >= 0 && path.indexOf('/') < 0 ? PathStyle.WINDOWS : PathStyle.POSIX;
    int i = creator.insertFileAsWritten(path, style); // lookups print the path as the FILE record has it
    fileIndex.put(number, i);
    return i;
  }

  private int origin(long number) {
    int name = originIndex.get(number);
    if (name >= 0) return name;
    String s = origins.get(number);
    if (s == null) return creator.insertString(NAME_OMITTED);
    name = creator.insertString(s);
    originIndex.put(number, name);
    return name;
  }

  /** Adds the FunctionInfo of an accepted FUNC. */
  private void emit(Func f) {
    AddressRange range = new AddressRange(f.start, f.end);
    int name = creator.insertString(f.name);
    int[] order = rowOrder(f);
    LineTable lt = f.rows > 0 ? lineTable(f, order) : null;
    InlineInfo ii = f.inlines == 0 ? null : inlineTree(f, name, order);
    creator.addFunctionInfo(new FunctionInfo(range, name, lt, ii, null, null));
  }

  /** The FUNC's rows by address (they are disjoint). */
  private static int[] rowOrder(Func f) {
    int[] order = new int[f.rows];
    boolean sorted = true;
    for (int i = 0; i < f.rows; i++) {
      order[i] = i;
      if (i > 0 && Long.compareUnsigned(f.rowStart[i - 1], f.rowStart[i]) > 0) sorted = false;
    }
    if (!sorted) {
      Integer[] o = new Integer[f.rows];
      for (int i = 0; i < f.rows; i++) o[i] = i;
      Arrays.sort(o, (x, y) -> Long.compareUnsigned(f.rowStart[x], f.rowStart[y]));
      for (int i = 0; i < f.rows; i++) order[i] = o[i];
    }
    return order;
  }

  /**
   * The line table of a FUNC: its rows clipped to the function, by address, and where no line
   * record covers the function's bytes (before the first, between two, after the last) a row in
   * the "no file" entry: GSYM rows have no end, so without it the previous row would answer there.
   */
  private LineTable lineTable(Func f, int[] order) {
    LineEntry[] rows = new LineEntry[2 * f.rows + 1]; // each row, and a gap before it or at the end
    int n = 0;
    long covered = f.start; // every byte of the function below this is covered
    for (int i : order) {
      long s = Long.compareUnsigned(f.rowStart[i], f.start) < 0 ? f.start : f.rowStart[i];
      if (Long.compareUnsigned(s, covered) > 0) rows[n++] = new LineEntry(covered, creator.insertNoFile(), 0);
      rows[n++] = new LineEntry(s, file(f.rowFile[i]), f.rowLine[i]);
      covered = Long.compareUnsigned(f.rowEnd[i], f.end) < 0 ? f.rowEnd[i] : f.end;
    }
    if (Long.compareUnsigned(covered, f.end) < 0) rows[n++] = new LineEntry(covered, creator.insertNoFile(), 0);
    // an immutable list, which LineTable keeps without copying it
    return new LineTable(List.of(n == rows.length ? rows : Arrays.copyOf(rows, n)));
  }

  /**
   * A node of Breakpad's {@code ContainedRangeMap}: a range [base, high] (inclusive, as Breakpad
   * stores it) of an INLINE record, and the ranges stored inside it, sorted by their high address
   * (unsigned; disjoint, so their bases are sorted too). A function has thousands of them: arrays,
   * not tree maps.
   */
  static final class Node {
    final long base;
    final long high;
    final int record;
    Node[] kids;
    /** kids[i].high: searched without loading the nodes. */
    long[] kidHigh;
    int nKids;
    /** This node clipped to the function: [start, end), empty when it lies outside. */
    long start;
    long end;

    Node(long base, long high, int record) {
      this.base = base;
      this.high = high;
      this.record = record;
    }

    /** The index of the first child whose high is at or above {@code a} (nKids: none). */
    int ceiling(long a) {
      int lo = 0;
      int hi = nKids;
      // ranges mostly come in address order: one past the last child is the usual answer
      long[] h = kidHigh;
      if (hi == 0 || Long.compareUnsigned(h[hi - 1], a) < 0) return hi;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Long.compareUnsigned(h[mid], a) < 0) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
  }

  /**
   * Breakpad's {@code ContainedRangeMap::StoreRange} with equal ranges allowed (the map of a
   * function's inlines): the range goes inside the stored range that contains it (an equal one
   * too: the later range is the inner one), and takes the stored ranges it contains as children; a
   * range that partly overlaps a stored one is refused (false).
   */
  static boolean store(Node root, long base, long end, int record) {
    long high = end - 1;
    Node m = root;
    while (true) {
      int n = m.nKids;
      int lo;
      int hi;
      if (n > 0 && Long.compareUnsigned(base, m.kids[n - 1].base) >= 0) {
        // at or after the last child's start (ranges mostly come in address order): the children
        // before it end below its start, so only the last one is to be looked at
        Node last = m.kids[n - 1];
        lo = Long.compareUnsigned(base, last.high) <= 0 ? n - 1 : n;
        hi = lo == n || Long.compareUnsigned(high, last.high) > 0 ? n : n - 1;
      } else {
        lo = m.ceiling(base); // the first child whose high >= base
        hi = lo == n ? n : m.ceiling(high);
      }
      if (lo == hi && lo < n && Long.compareUnsigned(base, m.kids[lo].base) >= 0) {
        m = m.kids[lo]; // entirely within a stored range
        continue;
      }
      boolean containsHigh = hi < n && Long.compareUnsigned(high, m.kids[hi].base) >= 0;
      if ((lo < n && Long.compareUnsigned(base, m.kids[lo].base) > 0)
          || (containsHigh && Long.compareUnsigned(high, m.kids[hi].high) < 0)) {
        return false; // partial overlap
      }
      Node node = new Node(base, high, record);
      // the children from lo up to hi (hi itself if the new range holds it) move into the new node,
      // which takes their place (the children before lo end below base, those after above high)
      int to = containsHigh ? hi + 1 : hi;
      int moved = to - lo;
      if (moved > 0) {
        node.kids = Arrays.copyOfRange(m.kids, lo, to);
        node.kidHigh = Arrays.copyOfRange(m.kidHigh, lo, to);
        node.nKids = moved;
      } else if (m.kids == null) {
        m.kids = new Node[2];
        m.kidHigh = new long[2];
      } else if (n == m.kids.length) {
        m.kids = Arrays.copyOf(m.kids, 2 * n);
        m.kidHigh = Arrays.copyOf(m.kidHigh, 2 * n);
      }
      System.arraycopy(m.kids, to, m.kids, lo + 1, n - to);
      System.arraycopy(m.kidHigh, to, m.kidHigh, lo + 1, n - to);
      m.kids[lo] = node;
      m.kidHigh[lo] = high;
      m.nKids = n - moved + 1;
      if (moved > 1) Arrays.fill(m.kids, m.nKids, n, null);
      return true;
    }
  }

  /**
   * The InlineInfo tree of a FUNC: its INLINE records' ranges stored in file order as Breakpad's
   * processor stores them (see {@link #store}), then one node per stored range, clipped to the
   * function (only its addresses are looked up). Null when no node is left.
   */
  private InlineInfo inlineTree(Func f, int name, int[] rowOrder) {
    Node root = new Node(f.start, f.end - 1, -1);
    for (int r = 0; r < f.inlines; r++) {
      long[] rs = f.inRanges[r];
      for (int i = 0; i < rs.length; i += 2) {
        if (!store(root, rs[i], rs[i + 1], r)) ignored++; // as Breakpad: the range is not stored
      }
    }
    if (f.groupOf.length < f.inlines) f.groupOf = new int[Math.max(f.inlines, 2 * f.groupOf.length)];
    Arrays.fill(f.groupOf, 0, f.inlines, -1);
    List<InlineInfo> kids = children(f, new Node[] {root}, 1, 1, rowOrder);
    if (kids.isEmpty()) return null;
    return new InlineInfo(List.of(new AddressRange(f.start, f.end)), name, 0, 0, kids);
  }

  /**
   * The GSYM nodes of the children of {@code parents[0, nParents)} (the stored ranges of one parent
   * node, by address): the ranges one record has under them become one node, in the order of their
   * first range (GSYM's inlined frame offset counts from the node's first range; Breakpad's from the
   * range holding the address), so that a GSYM tree written back to a {@code .sym} file and read again
   * keeps its nodes.
   */
  private List<InlineInfo> children(Func f, Node[] parents, int nParents, int depth, int[] rowOrder) {
    // group the children by record (f.groupOf: record -> group, -1 between calls), counting each group
    int groups = 0;
    int total = 0;
    boolean multi = false; // some record has several ranges among the children
    int[] count = null;
    int[] groupRecord = null;
    for (int p = 0; p < nParents; p++) {
      Node node = parents[p];
      for (int k = 0; k < node.nKids; k++) {
        Node c = node.kids[k];
        long s = Long.compareUnsigned(c.base, f.start) < 0 ? f.start : c.base;
        long e = c.high + 1 == 0 || Long.compareUnsigned(c.high + 1, f.end) > 0 ? f.end : c.high + 1;
        c.start = s;
        c.end = e;
        if (Long.compareUnsigned(s, e) >= 0) continue; // outside the function: never looked up
        int g = f.groupOf[c.record];
        if (g < 0) {
          if (count == null) {
            count = new int[4];
            groupRecord = new int[4];
          } else if (groups == count.length) {
            count = Arrays.copyOf(count, 2 * groups);
            groupRecord = Arrays.copyOf(groupRecord, 2 * groups);
          }
          g = groups++;
          f.groupOf[c.record] = g;
          groupRecord[g] = c.record;
        }
        if (++count[g] > 1) multi = true;
        total++;
      }
    }
    if (groups == 0) return List.of();
    if (!multi) return singles(f, parents, nParents, groups, groupRecord, depth, rowOrder);
    // the members of each group, in address order, one after another
    int[] first = new int[groups + 1];
    for (int g = 0; g < groups; g++) first[g + 1] = first[g] + count[g];
    int[] fill = Arrays.copyOf(first, groups);
    Node[] members = new Node[total];
    for (int p = 0; p < nParents; p++) {
      Node node = parents[p];
      for (int k = 0; k < node.nKids; k++) {
        Node c = node.kids[k];
        if (Long.compareUnsigned(c.start, c.end) >= 0) continue;
        members[fill[f.groupOf[c.record]]++] = c;
      }
    }
    for (int g = 0; g < groups; g++) f.groupOf[groupRecord[g]] = -1; // free for the calls below
    InlineInfo[] out = new InlineInfo[groups];
    for (int g = 0; g < groups; g++) {
      int r = groupRecord[g];
      checkDepth(f, r, depth);
      int n = first[g + 1] - first[g];
      AddressRange[] ranges = new AddressRange[n];
      for (int i = 0; i < n; i++) {
        Node c = members[first[g] + i];
        ranges[i] = new AddressRange(c.start, c.end);
      }
      Node[] group = Arrays.copyOfRange(members, first[g], first[g + 1]);
      // each node's name and call file are added to the tables before its children's
      int origin = origin(f.inOrigin[r]);
      int callFile = callFile(f, r, ranges[0].start(), rowOrder);
      List<InlineInfo> kids = children(f, group, n, depth + 1, rowOrder);
      out[g] = new InlineInfo(List.of(ranges), origin, callFile, f.inCallLine[r], kids);
    }
    return List.of(out); // immutable: InlineInfo keeps these lists without copying them
  }

  /**
   * {@link #children} where each record has one range among the children (the usual case): a GSYM
   * node per child, in address order.
   */
  private List<InlineInfo> singles(Func f, Node[] parents, int nParents, int groups, int[] groupRecord,
      int depth, int[] rowOrder) {
    for (int g = 0; g < groups; g++) f.groupOf[groupRecord[g]] = -1; // free for the calls below
    InlineInfo[] out = new InlineInfo[groups];
    int g = 0;
    for (int p = 0; p < nParents; p++) {
      Node node = parents[p];
      for (int k = 0; k < node.nKids; k++) {
        Node c = node.kids[k];
        if (Long.compareUnsigned(c.start, c.end) >= 0) continue;
        int r = c.record;
        checkDepth(f, r, depth);
        int origin = origin(f.inOrigin[r]);
        int callFile = callFile(f, r, c.start, rowOrder);
        List<InlineInfo> kids = c.nKids == 0 ? List.of() : children(f, new Node[] {c}, 1, depth + 1, rowOrder);
        out[g++] = new InlineInfo(List.of(new AddressRange(c.start, c.end)), origin, callFile, f.inCallLine[r], kids);
      }
    }
    return List.of(out);
  }

  private void checkDepth(Func f, int r, int depth) {
    if (depth > InlineInfo.MAX_DEPTH) {
      throw parser.error(f.inLineNo[r], "INLINE ranges nest deeper than " + InlineInfo.MAX_DEPTH
          + " levels below FUNC " + quoted(f.name));
    }
  }

  /**
   * The call file of an inlined frame. Breakpad's processor copies the frame of the address into
   * each inlined frame, so one whose record names no call file (or a number no FILE defines) gets
   * the file of the line record at the address; GSYM has one call file per node: that of the line
   * record at the node's start ({@code s}), or no file if none covers it.
   */
  private int callFile(Func f, int r, long s, int[] rowOrder) {
    long callFile = f.inCallFile[r];
    if (callFile != BreakpadRecord.Inline.NO_CALL_FILE && files.get(callFile) != null) {
      return file(callFile);
    }
    int lo = 0;
    int hi = rowOrder.length;
    while (lo < hi) { // the last row starting at or below s
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(f.rowStart[rowOrder[mid]], s) <= 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) {
      int i = rowOrder[lo - 1];
      if (Long.compareUnsigned(f.rowEnd[i], s) > 0) return file(f.rowFile[i]);
    }
    return creator.insertNoFile();
  }

  /** Index of the last of the first {@code n} sorted {@code starts} at or below {@code a}, or -1. */
  private static int lastStartAtOrBelow(long[] starts, int n, long a) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(starts[mid], a) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  private static int lastStartAtOrBelow(long[] starts, long a) {
    return lastStartAtOrBelow(starts, starts.length, a);
  }

  /**
   * Adds the PUBLICs no FUNC covers, and for a PUBLIC strictly inside a FUNC a size-0 FunctionInfo
   * of its name at the FUNC's end: Breakpad's processor (and rust-minidump) answer an address that
   * no FUNC covers with the last PUBLIC at or below it, if that PUBLIC lies above the start of the
   * last FUNC starting at or below the address. Of several PUBLICs at one address the first counts
   * (Breakpad's address map keeps it). Returns how many PUBLICs were dropped as covered by a FUNC.
   */
  private long addPublics() {
    // the converted FUNCs are disjoint: sorted by start, their ends are sorted too
    Integer[] order = new Integer[nFunc];
    for (int i = 0; i < nFunc; i++) order[i] = i;
    Arrays.sort(order, (x, y) -> Long.compareUnsigned(funcStart[x], funcStart[y]));
    long[] starts = new long[nFunc];
    long[] ends = new long[nFunc];
    for (int i = 0; i < nFunc; i++) {
      starts[i] = funcStart[order[i]];
      ends[i] = funcEnd[order[i]];
    }
    Integer[] pubs = new Integer[nPub]; // by address, file order within an address
    for (int i = 0; i < nPub; i++) pubs[i] = i;
    Arrays.sort(pubs, (x, y) -> Long.compareUnsigned(pubAddr[x], pubAddr[y]));
    long[] pubSorted = new long[nPub];
    int[] nameSorted = new int[nPub];
    int kept = 0;
    for (int i = 0; i < nPub; i++) {
      long a = pubAddr[pubs[i]];
      if (kept > 0 && pubSorted[kept - 1] == a) {
        ignored++; // a later PUBLIC at the same address
        continue;
      }
      pubSorted[kept] = a;
      nameSorted[kept] = pubName[pubs[i]];
      kept++;
    }
    long dropped = 0;
    for (int p = 0; p < kept; p++) {
      long a = pubSorted[p];
      if (coveredByFunc(starts, ends, a)) {
        dropped++;
        continue;
      }
      creator.addFunctionInfo(new FunctionInfo(new AddressRange(a, a), nameSorted[p]));
    }
    addPublicTails(starts, ends, Arrays.copyOf(pubSorted, kept), nameSorted);
    keptPublics = kept;
    return dropped;
  }

  /** PUBLICs left after those at the address of an earlier one. */
  private long keptPublics;

  private static boolean coveredByFunc(long[] starts, long[] ends, long a) {
    int i = lastStartAtOrBelow(starts, a);
    return i >= 0 && (starts[i] == a || Long.compareUnsigned(ends[i], a) > 0);
  }

  private long publicTails;

  /** The tails of {@link #addPublics()}: the bytes after a FUNC named by a PUBLIC inside it. */
  private void addPublicTails(long[] starts, long[] ends, long[] pubSorted, int[] names) {
    if (pubSorted.length == 0) return;
    for (int k = 0; k < starts.length; k++) {
      long end = ends[k];
      if (end == 0) continue; // ends at 2^64 (the parser rejects it; for safety)
      if (coveredByFunc(starts, ends, end)) continue; // another FUNC goes on there
      int j = lastStartAtOrBelow(pubSorted, end);
      if (j < 0 || pubSorted[j] == end) continue; // none below, or a PUBLIC of its own starts there
      // it must lie above the start of this FUNC (the last one starting below its end)
      if (Long.compareUnsigned(pubSorted[j], starts[k]) <= 0) continue;
      creator.addFunctionInfo(new FunctionInfo(new AddressRange(end, end), names[j]));
      publicTails++;
    }
  }
}
