package dev.gsym.format;

import dev.gsym.GsymFormatException;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Everything known about one function: its range, name and optional line table, inline tree,
 * merged functions, call sites and unwind information. The start address is not stored in the
 * record; it comes from the address table.
 *
 * <pre>
 * ENCODING
 *   u32 Size   strp Name (non-zero; u32 in version 1, u64 in version 2)
 *   repeat { u32 InfoType, u32 InfoLength, u8[InfoLength] } until InfoType 0 (EndOfList, length 0)
 *   InfoTypes: 1 LineTable, 2 InlineInfo, 3 MergedFunctionsInfo, 4 CallSiteInfo, written in that order,
 *   then 0x10000 UnwindInfo (ours, not LLVM's: llvm-gsymutil's lookups skip it, its dump refuses the record)
 * </pre>
 *
 * @param name string-table offset of the name
 * @param lineTable null if none
 * @param inlineInfo null if none
 * @param mergedFunctions null if none
 * @param callSites null if none
 * @param unwind null if none
 */
public record FunctionInfo(AddressRange range, int name, LineTable lineTable, InlineInfo inlineInfo,
    MergedFunctionsInfo mergedFunctions, CallSiteInfoCollection callSites, UnwindInfo unwind) {

  public static final int END_OF_LIST = 0;
  public static final int LINE_TABLE_INFO = 1;
  public static final int INLINE_INFO = 2;
  public static final int MERGED_FUNCTIONS_INFO = 3;
  public static final int CALL_SITE_INFO = 4;
  /**
   * Unwind information ({@link UnwindInfo}): this library's InfoType, far from LLVM's 0-4 so that a
   * later LLVM InfoType cannot take its number.
   */
  public static final int UNWIND_INFO = 0x10000;

  /** A function without unwind information. */
  public FunctionInfo(AddressRange range, int name, LineTable lineTable, InlineInfo inlineInfo,
      MergedFunctionsInfo mergedFunctions, CallSiteInfoCollection callSites) {
    this(range, name, lineTable, inlineInfo, mergedFunctions, callSites, null);
  }

  /** A function with only a range and a name (e.g. from a symbol table). */
  public FunctionInfo(AddressRange range, int name) {
    this(range, name, null, null, null, null, null);
  }

  /** The function's first address. */
  public long startAddress() {
    return range.start();
  }

  /** Has a line table, inline info or call sites. */
  public boolean hasRichInfo() {
    return lineTable != null || inlineInfo != null || callSites != null;
  }

  /** This function with range {@code r}. */
  public FunctionInfo withRange(AddressRange r) {
    return new FunctionInfo(r, name, lineTable, inlineInfo, mergedFunctions, callSites, unwind);
  }

  /** This function with name string offset {@code n}. */
  public FunctionInfo withName(int n) {
    return new FunctionInfo(range, n, lineTable, inlineInfo, mergedFunctions, callSites, unwind);
  }

  /** This function with merged functions {@code m} (null: none). */
  public FunctionInfo withMergedFunctions(MergedFunctionsInfo m) {
    return new FunctionInfo(range, name, lineTable, inlineInfo, m, callSites, unwind);
  }

  /**
   * This FunctionInfo with every string offset and file index translated, for copying it into
   * another string and file table. Translation order (it decides where new strings land): name,
   * line-table files, inline tree in pre-order, call-site regexes, then merged functions.
   */
  public FunctionInfo remap(IntUnaryOperator strings, IntUnaryOperator files) {
    int n = strings.applyAsInt(name);
    LineTable lt = null;
    if (lineTable != null) {
      List<LineEntry> rows = new ArrayList<>(lineTable.size());
      for (LineEntry e : lineTable.rows()) {
        rows.add(new LineEntry(e.address(), e.file() == 0 ? 0 : files.applyAsInt(e.file()), e.line()));
      }
      lt = new LineTable(rows);
    }
    InlineInfo ii = inlineInfo == null ? null : inlineInfo.remap(strings, files);
    CallSiteInfoCollection cs = null;
    if (callSites != null) {
      List<CallSiteInfo> list = new ArrayList<>(callSites.callSites().size());
      for (CallSiteInfo c : callSites.callSites()) {
        List<Integer> regex = new ArrayList<>(c.matchRegex().size());
        for (int r : c.matchRegex()) regex.add(strings.applyAsInt(r));
        list.add(new CallSiteInfo(c.returnOffset(), c.flags(), regex));
      }
      cs = new CallSiteInfoCollection(list);
    }
    MergedFunctionsInfo mf = null;
    if (mergedFunctions != null) {
      List<FunctionInfo> list = new ArrayList<>(mergedFunctions.mergedFunctions().size());
      for (FunctionInfo f : mergedFunctions.mergedFunctions()) list.add(f.remap(strings, files));
      mf = new MergedFunctionsInfo(list);
    }
    return new FunctionInfo(range, n, lt, ii, mf, cs, unwind);
  }

  /** This function with unwind information {@code u} (null for none). */
  public FunctionInfo withUnwind(UnwindInfo u) {
    return new FunctionInfo(range, name, lineTable, inlineInfo, mergedFunctions, callSites, u);
  }

  /** This function with call sites {@code cs} (null: none). */
  public FunctionInfo withCallSites(CallSiteInfoCollection cs) {
    return new FunctionInfo(range, name, lineTable, inlineInfo, mergedFunctions, cs, unwind);
  }

  /** LLVM's equality: range, name, line table and inline info (not merged functions or call sites). */
  public boolean sameAs(FunctionInfo o) {
    return range.equals(o.range) && name == o.name && java.util.Objects.equals(lineTable, o.lineTable)
        && java.util.Objects.equals(inlineInfo, o.inlineInfo);
  }

  /** LLVM's sort order: range, then inline info (by node count), then line table. */
  public static int compare(FunctionInfo a, FunctionInfo b) {
    int c = a.range.compareTo(b.range);
    if (c != 0) return c;
    c = InlineInfo.compare(a.inlineInfo, b.inlineInfo);
    if (c != 0) return c;
    return LineTable.compare(a.lineTable, b.lineTable);
  }

  /**
   * Receives a FunctionInfo record's parts from {@link #parse}, in file order. Both methods return
   * false to stop the walk.
   */
  public interface RecordVisitor {
    /** The Size and Name fields (before the name is checked). */
    boolean header(long size, int name);

    /** One InfoType chunk (EndOfList is not reported): {@code body} covers exactly its payload. */
    boolean chunk(int type, Cursor body);
  }

  /**
   * The one decoder of the record layout: reads Size, Name and the InfoType chunks up to EndOfList
   * at {@code c}, reporting them to {@code v}. A Name of 0 is an error in every mode. {@link
   * Reading#DECODE} and {@link Reading#EXACT} read as LLVM's decode: a missing field is an error
   * with LLVM's message (offsets relative to the record start), as is an unknown InfoType (this
   * library's {@link #UNWIND_INFO} is known: LLVM's decode refuses it). {@link
   * Reading#LOOKUP} reads as LLVM's lookup: a missing Size or Name is 0, then at least one byte must
   * follow; a chunk list that runs past the end is "FunctionInfo data is truncated"; unknown
   * InfoTypes are reported like the others (a lookup ignores them).
   */
  public static void parse(Cursor c, Reading mode, RecordVisitor v) {
    long recordStart = c.position();
    boolean lookup = mode == Reading.LOOKUP;
    long size;
    int name;
    if (lookup) {
      size = c.has(4) ? c.u32() : 0;
      name = c.strpOrZero();
      if (!c.has(1)) throw c.error(TRUNCATED);
    } else {
      if (!c.has(4)) throw err(c, recordStart, "missing FunctionInfo Size");
      size = c.u32();
      if (!c.has(c.strpSize())) throw err(c, recordStart, "missing FunctionInfo Name");
      name = c.strp();
    }
    if (!v.header(size, name)) return;
    if (name == 0) {
      throw relErr(c, c.position() - c.strpSize(), recordStart, "invalid FunctionInfo Name value 0x00000000");
    }
    while (true) {
      int type;
      long len;
      if (lookup) {
        if (!c.has(8)) throw c.error(TRUNCATED);
        type = c.s32();
        len = c.u32();
        if (!c.has(len)) throw c.error(TRUNCATED);
      } else {
        if (!c.has(4)) throw err(c, recordStart, "missing FunctionInfo InfoType value");
        type = c.s32();
        if (!c.has(4)) throw err(c, recordStart, "missing FunctionInfo InfoType length");
        len = c.u32();
        if (!c.has(len)) {
          throw err(c, recordStart, "missing FunctionInfo data for InfoType " + Integer.toUnsignedLong(type));
        }
      }
      long payloadAt = c.position();
      Cursor body = c.split(len);
      if (type == END_OF_LIST) return;
      if (!lookup && (type < LINE_TABLE_INFO || type > CALL_SITE_INFO) && type != UNWIND_INFO) {
        throw relErr(c, payloadAt - 8, recordStart, "unsupported InfoType " + Integer.toUnsignedLong(type));
      }
      if (type == UNWIND_INFO && !lookup) {
        // a chunk of this type that is not valid UnwindInfo (another producer's, or corrupt) reads as
        // LLVM reads every type it does not know
        try {
          if (!v.chunk(type, body)) return;
        } catch (GsymFormatException e) {
          throw relErr(c, payloadAt - 8, recordStart, "unsupported InfoType " + Integer.toUnsignedLong(type));
        }
        continue;
      }
      if (!v.chunk(type, body)) return;
    }
  }

  /** LLVM's lookup message for a record that ends before its EndOfList. */
  private static final String TRUNCATED = "FunctionInfo data is truncated";

  /**
   * Decodes a whole record. Unknown InfoTypes are an error, as in LLVM's decode; error details use
   * LLVM's wording with offsets relative to the record start.
   */
  public static FunctionInfo decode(Cursor c, long start) {
    return decode(c, start, 0);
  }

  /** Deepest nesting of MergedFunctionsInfo records accepted: bounds recursion on hostile input. */
  public static final int MAX_MERGED_DEPTH = 256;

  static FunctionInfo decode(Cursor c, long start, int depth) {
    if (depth > MAX_MERGED_DEPTH) {
      throw c.error("MergedFunctionsInfo nested deeper than " + MAX_MERGED_DEPTH + " levels");
    }
    Decoder d = new Decoder(start, depth);
    parse(c, Reading.DECODE, d);
    return new FunctionInfo(new AddressRange(start, start + d.size), d.name, d.lt, d.ii, d.mf, d.cs, d.uw);
  }

  /** Full decoding: each chunk decoded by its structure's class (a later chunk of a type wins). */
  private static final class Decoder implements RecordVisitor {
    private final long start;
    private final int depth;
    long size;
    int name;
    LineTable lt;
    InlineInfo ii;
    MergedFunctionsInfo mf;
    CallSiteInfoCollection cs;
    UnwindInfo uw;

    Decoder(long start, int depth) {
      this.start = start;
      this.depth = depth;
    }

    @Override
    public boolean header(long size, int name) {
      this.size = size;
      this.name = name;
      return true;
    }

    @Override
    public boolean chunk(int type, Cursor body) {
      switch (type) {
        case LINE_TABLE_INFO -> lt = LineTable.decode(body, start);
        case INLINE_INFO -> ii = InlineInfo.decode(body, start);
        case MERGED_FUNCTIONS_INFO -> mf = MergedFunctionsInfo.decode(body, start, depth);
        case UNWIND_INFO -> uw = UnwindInfo.decode(body, start);
        default -> cs = CallSiteInfoCollection.decode(body);
      }
      return true;
    }
  }

  private static GsymFormatException err(Cursor c, long recordStart, String what) {
    return relErr(c, c.position(), recordStart, what);
  }

  private static GsymFormatException relErr(Cursor c, long at, long recordStart, String what) {
    return c.errorAt(at, Hex.hex32(at - recordStart) + ": " + what);
  }

  /** Encodes the record (no leading alignment: the caller aligns top-level records to 4). */
  public void encode(GsymWriter w) {
    encode(w, IndexMap.IDENTITY);
  }

  /**
   * Encodes the record with every string offset and file index translated by {@code m}: the bytes
   * of {@code remap(m.strings(), m.files()).encode(w)}, without building the copy.
   */
  public void encode(GsymWriter w, IndexMap m) {
    if (name == 0) {
      throw new GsymFormatException("FunctionInfo", -1, "attempted to encode invalid FunctionInfo object");
    }
    long size = range.size();
    if (Long.compareUnsigned(size, 0xffffffffL) > 0) {
      throw new GsymFormatException("FunctionInfo", -1, "function " + range + " is 4 GiB or larger");
    }
    w.u32(size);
    w.strp(Integer.toUnsignedLong(m.string(name)));
    if (lineTable != null) {
      int at = chunk(w, LINE_TABLE_INFO);
      lineTable.encode(w, range.start(), m);
      patch(w, at);
    }
    if (inlineInfo != null) {
      int at = chunk(w, INLINE_INFO);
      inlineInfo.encode(w, range.start(), m);
      patch(w, at);
    }
    if (mergedFunctions != null) {
      int at = chunk(w, MERGED_FUNCTIONS_INFO);
      mergedFunctions.encode(w, m);
      patch(w, at);
    }
    if (callSites != null) {
      int at = chunk(w, CALL_SITE_INFO);
      callSites.encode(w, m);
      patch(w, at);
    }
    if (unwind != null) {
      int at = chunk(w, UNWIND_INFO);
      unwind.encode(w, range.start());
      patch(w, at);
    }
    w.u32(END_OF_LIST);
    w.u32(0);
  }

  private static int chunk(GsymWriter w, int type) {
    w.u32(type);
    return w.reserveU32();
  }

  private static void patch(GsymWriter w, int lenAt) {
    w.patchU32(lenAt, w.length() - lenAt - 4);
  }

  /**
   * The resolved form llvm-gsymutil's dump prints: "[start - end) "name"", then the line table,
   * inline info, call sites and merged functions, every line indented by {@code indent}.
   */
  public void dump(StringBuilder sb, GsymTables t, int indent) {
    sb.repeat(' ', indent);
    range.appendTo(sb).append(" \"").append(t.string(name)).append("\"\n");
    if (lineTable != null) lineTable.dump(sb, t, indent);
    if (inlineInfo != null) inlineInfo.dump(sb, t, indent);
    if (callSites != null) callSites.dump(sb, t, indent);
    if (mergedFunctions != null) mergedFunctions.dump(sb, t);
    if (unwind != null) unwind.dump(sb, indent);
  }

  /** LLVM's operator&lt;&lt;: range and raw name offset, then line table, inline info, call sites. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    range.appendTo(sb).append(": Name=").append(Hex.hex32(Integer.toUnsignedLong(name))).append('\n');
    if (lineTable != null) sb.append(lineTable).append('\n');
    if (inlineInfo != null) sb.append(inlineInfo).append('\n');
    if (callSites != null) {
      for (CallSiteInfo c : callSites.callSites()) sb.append(c).append('\n');
      sb.append('\n');
    }
    return sb.toString();
  }
}
