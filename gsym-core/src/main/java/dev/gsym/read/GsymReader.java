package dev.gsym.read;

import dev.gsym.format.AddressInfoTable;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressTable;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.GsymTables;
import dev.gsym.format.Header;
import dev.gsym.format.Hex;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.InlineTable;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineIndex;
import dev.gsym.format.LineTable;
import dev.gsym.format.LookupException;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.format.Reading;
import dev.gsym.format.StringTable;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymFormatException;
import dev.gsym.io.TextBuffer;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * Reads a GSYM file through a memory mapping. Opening validates the header and the bounds of every
 * table; FunctionInfo records are decoded only when a lookup needs one, and kept (line table and
 * inline tree, within a bounded budget) for later lookups in the same function. Thread-safe: the
 * caches are filled with safe publication and never change an answer; {@link #close()} unmaps the
 * file.
 */
public final class GsymReader implements GsymTables, AutoCloseable {
  private final Arena arena;
  private final ByteView file;
  private final Header header;
  private final AddressTable addresses;
  private final AddressInfoTable infoOffsets;
  private final FileTable files;
  private final StringTable strings;

  private GsymReader(Arena arena, MemorySegment seg, String source) {
    this.arena = arena;
    ByteOrder order = Header.detectByteOrder(seg, source);
    this.file = new ByteView(seg, 0, order, source);
    this.header = Header.decode(file);
    this.addresses = AddressTable.decode(file, header);
    this.infoOffsets = AddressInfoTable.decode(file, addresses);
    this.files = FileTable.decode(file, infoOffsets);
    this.strings = StringTable.decode(file, header);
    // Both caches have a fixed upper size: no heap proportional to the file (files of any size
    // are read through small heaps: BoundedHeapLookupTest).
    this.decodedCache = new AtomicReferenceArray<>(decodedSlots(addresses.count()));
    this.pathCache = new byte[(int) Math.min(files.count(), MAX_CACHED_FILES)][];
  }

  /** Maps and validates {@code path}. */
  public static GsymReader open(Path path) throws IOException {
    Arena arena = Arena.ofShared();
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
      return new GsymReader(arena, seg, path.toString());
    } catch (IOException | RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  /**
   * Maps the file open in {@code ch} (which may be closed afterwards, or already unlinked), naming it
   * {@code source} in errors.
   */
  public static GsymReader open(FileChannel ch, String source) throws IOException {
    Arena arena = Arena.ofShared();
    try {
      MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
      return new GsymReader(arena, seg, source);
    } catch (IOException | RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  /** Reads GSYM bytes held in memory. */
  public static GsymReader of(byte[] bytes, String source) {
    return new GsymReader(null, MemorySegment.ofArray(bytes), source);
  }

  /** Unmaps the file; the reader must not be used afterwards. */
  @Override
  public void close() {
    if (arena != null) arena.close();
  }

  public Header header() {
    return header;
  }

  public ByteOrder byteOrder() {
    return file.order();
  }

  public String source() {
    return file.source();
  }

  public int numFunctions() {
    return addresses.count();
  }

  /** The string table (for walking every string in order). */
  public StringTable stringTable() {
    return strings;
  }

  /**
   * The string at string-table offset {@code strp}, decoded by {@link dev.gsym.io.ByteStrings}:
   * UTF-8, each byte that is not part of well-formed UTF-8 appearing as U+DC80 + byte ({@code
   * ByteStrings.encode} gives the file's bytes back).
   */
  @Override
  public String string(int strp) {
    int slot = Integer.hashCode(strp * 0x9E3779B9) >>> (32 - STRING_CACHE_BITS);
    CachedString e = stringCache[slot];
    if (e != null && e.strp == strp) return e.value;
    String v = strings.get(strp);
    stringCache[slot] = new CachedString(strp, v);
    return v;
  }

  /**
   * Decoded strings by offset, direct-mapped: repeated lookups in the same functions reuse their
   * names and paths instead of decoding them again. Entries are immutable, so unsynchronized
   * sharing between threads is safe (a racing thread at worst decodes a string again).
   */
  private static final int STRING_CACHE_BITS = 13;

  private record CachedString(int strp, String value) {}

  /** Appends the raw bytes of the string at {@code strp}, copied from the file. */
  void appendString(int strp, TextBuffer out) {
    strings.appendTo(strp, out);
  }

  /**
   * Lazily filled, one slot per file-table entry (up to {@link #MAX_CACHED_FILES}): the path printed
   * for the file, {@link #NO_PATH} if it has none, null until computed. Slots are published with
   * release / acquire semantics, so a path's bytes are complete wherever the path is seen.
   */
  private final byte[][] pathCache;

  private static final byte[] NO_PATH = new byte[0];
  private static final VarHandle PATHS = MethodHandles.arrayElementVarHandle(byte[][].class);

  /**
   * The path printed for file {@code index} ("dir/base", "&lt;invalid-file&gt;" for an empty base),
   * or null if both strings are empty (the location has no file).
   */
  byte[] pathBytes(long index) {
    byte[] p = index < pathCache.length ? (byte[]) PATHS.getAcquire(pathCache, (int) index) : null;
    if (p != null) return p == NO_PATH ? null : p;
    FileEntry f = files.get(index);
    if (f == null) throw new LookupException("failed to extract file[" + index + "]");
    byte[] dir = strings.bytes(f.dir());
    byte[] base = strings.bytes(f.base());
    byte[] v;
    if (dir.length == 0 && base.length == 0) {
      v = null;
    } else {
      // as FileTable.appendPath, on the raw bytes
      TextBuffer t = new TextBuffer(dir.length + base.length + 16);
      if (dir.length > 0) t.append(dir).append(separator(dir));
      if (base.length == 0) t.append(INVALID_FILE);
      else t.append(base);
      v = Arrays.copyOf(t.array(), t.length());
    }
    if (index < pathCache.length) PATHS.setRelease(pathCache, (int) index, v == null ? NO_PATH : v);
    return v;
  }

  private static final byte[] INVALID_FILE =
      "<invalid-file>".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private static char separator(byte[] dir) {
    boolean back = false;
    for (byte b : dir) {
      if (b == '/') return '/';
      if (b == '\\') back = true;
    }
    return back ? '\\' : '/';
  }

  private final CachedString[] stringCache = new CachedString[1 << STRING_CACHE_BITS];

  /** File-table entry {@code index}, or null if out of range. */
  @Override
  public FileEntry file(long index) {
    return files.get(index);
  }

  public int numFiles() {
    return files.count();
  }

  /** Start address of the function at {@code index}. */
  public long functionAddress(int index) {
    return header.baseAddress() + addresses.get(index);
  }

  /** Absolute file offset of the FunctionInfo record at {@code index}. */
  public long functionInfoOffset(int index) {
    return infoOffsets.get(index);
  }

  private Cursor record(int index) {
    long at = infoOffsets.get(index);
    if (at >= file.size()) {
      throw file.error(infoOffsets.offset() + 4L * index, "invalid address info offset " + Hex.hex(at));
    }
    return file.cursor(at);
  }

  /** Fully decodes the FunctionInfo at {@code index}. */
  public FunctionInfo functionInfoAtIndex(int index) {
    return FunctionInfo.decode(record(index), functionAddress(index));
  }

  /** Index of the entry that answers for {@code addr} (llvm's selection rules). */
  public int indexForAddress(long addr) {
    long base = header.baseAddress();
    if (Long.compareUnsigned(addr, base) < 0) throw notInGsym(addr);
    long off = addr - base;
    long[] offs = addressOffsets();
    // LLVM's getAddressOffsetIndex: lower_bound, step back unless an exact match, then back up
    // over equal offsets (same answer as upper_bound - 1 on a sorted table, and on a corrupt
    // unsorted one the same entry LLVM picks)
    int n = offs.length;
    int i = lowerBound(offs, off);
    if (i == 0 && (n == 0 || Long.compareUnsigned(off, offs[0]) < 0)) throw notInGsym(addr);
    if (i == n || Long.compareUnsigned(off, offs[i]) < 0) i--;
    long first = offs[i];
    while (i > 0 && offs[i - 1] == first) i--;
    long start = base + first;
    for (int j = i; j < n; j++) {
      Cursor rec = record(j); // as LLVM: the record offset is validated before the start is compared
      if (offs[j] != first) break;
      long size = rec.has(4) ? rec.u32() : 0; // LLVM's getU32 yields 0 when fewer than 4 bytes remain
      if (size == 0 || Long.compareUnsigned(addr - start, size) < 0) return j;
    }
    throw notInGsym(addr);
  }

  /** std::lower_bound over unsigned offsets (the same probes as AddressTable.lowerBound). */
  private static int lowerBound(long[] offs, long off) {
    int first = 0;
    int len = offs.length;
    while (len > 0) {
      int half = len >>> 1;
      int mid = first + half;
      if (Long.compareUnsigned(offs[mid], off) < 0) {
        first = mid + 1;
        len = len - half - 1;
      } else {
        len = half;
      }
    }
    return first;
  }

  /** The address table copied into an array on first use (8 bytes per function). */
  private volatile long[] addressOffsets;

  private long[] addressOffsets() {
    long[] a = addressOffsets;
    if (a == null) {
      a = new long[addresses.count()];
      for (int i = 0; i < a.length; i++) a[i] = addresses.get(i);
      addressOffsets = a;
    }
    return a;
  }

  private static LookupException notInGsym(long addr) {
    return new LookupException("address " + Hex.hex(addr) + " is not in GSYM");
  }

  /** The decoded FunctionInfo that answers for {@code addr}. */
  public FunctionInfo functionInfo(long addr) {
    return functionInfoAtIndex(indexForAddress(addr));
  }

  /**
   * Symbolicates {@code addr}.
   *
   * @throws LookupException with llvm-gsymutil's message if the address cannot be resolved
   */
  public LookupResult lookup(long addr) {
    LookupFrames frames = new LookupFrames();
    lookup(addr, frames);
    return frames.toResult();
  }

  /**
   * Symbolicates {@code addr} into {@code out} (cleared first), the allocation-free form of {@link
   * #lookup(long)} for batch symbolication. Functions are decoded once and kept in a bounded cache
   * (line rows and the inline tree as arrays), so later lookups in the same function only search
   * arrays. Safe to call from several threads, each with its own {@code out}.
   *
   * @throws LookupException with llvm-gsymutil's message if the address cannot be resolved
   */
  public void lookup(long addr, LookupFrames out) {
    try {
      // the common case: one function starts at the nearest start at or below addr, it is cached
      // and it covers addr: indexForAddress would pick it without reading anything else
      long[] offs = addressOffsets();
      long off = addr - header.baseAddress();
      int i = lowerBound(offs, off);
      if (i == offs.length || Long.compareUnsigned(off, offs[i]) < 0) i--; // as indexForAddress
      if (i >= 0 && Long.compareUnsigned(addr, header.baseAddress()) >= 0
          && (i == 0 || offs[i - 1] != offs[i]) && (i + 1 == offs.length || offs[i + 1] != offs[i])) {
        DecodedFunction d = decoded(i);
        // outside the function, indexForAddress validates the next record's offset first
        if (d != null && (d.size == 0 || Long.compareUnsigned(addr - d.start, d.size) < 0)) {
          d.lookup(this, addr, out);
          return;
        }
      }
      int index = indexForAddress(addr);
      DecodedFunction d = decoded(index);
      if (d != null) d.lookup(this, addr, out);
      else lookupInRecord(record(index), functionAddress(index), addr, null, out);
    } catch (GsymFormatException e) {
      throw new LookupException(e.detail()); // llvm-gsymutil prints the bare message
    }
  }

  /** {@link #lookup(long)} decoding the record at every call, bypassing the cache (for tests). */
  LookupResult lookupUncached(long addr) {
    LookupFrames frames = new LookupFrames();
    try {
      int index = indexForAddress(addr);
      lookupInRecord(record(index), functionAddress(index), addr, null, frames);
    } catch (GsymFormatException e) {
      throw new LookupException(e.detail());
    }
    return frames.toResult();
  }

  /**
   * The primary result and one per merged function at {@code addr} (llvm's lookupAll): if any
   * merged function cannot answer, the whole lookup fails.
   */
  public List<LookupResult> lookupAll(long addr) {
    try {
      int index = indexForAddress(addr);
      long start = functionAddress(index);
      Cursor[] merged = new Cursor[1];
      List<LookupResult> results = new ArrayList<>();
      LookupFrames frames = new LookupFrames();
      lookupInRecord(record(index), start, addr, merged, frames);
      results.add(frames.toResult());
      if (merged[0] != null) {
        for (Cursor child : MergedFunctionsInfo.childRecords(merged[0])) {
          lookupInRecord(child, start, addr, null, frames);
          results.add(frames.toResult());
        }
      }
      return results;
    } catch (GsymFormatException e) {
      throw new LookupException(e.detail()); // llvm-gsymutil prints the bare message
    }
  }

  /** LLVM's FunctionInfo::lookup over an encoded record. */
  private void lookupInRecord(Cursor c, long start, long addr, Cursor[] mergedOut, LookupFrames out) {
    RecordLookup v = new RecordLookup(this, start, addr, mergedOut, out);
    FunctionInfo.parse(c, Reading.LOOKUP, v);
    if (v.row == null) {
      out.add(v.name, LookupFrames.NO_FILE, 0, addr - start);
      return;
    }
    addFrame(out, v.name, v.row.file(), v.row.line(), addr - start);
    if (v.inline != null) InlineInfo.lookup(v.inline, start, addr, out.inlineFrames());
  }

  /** The chunks a lookup reads: the line table's row, the inline tree, call sites, merged functions. */
  private static final class RecordLookup implements FunctionInfo.RecordVisitor {
    private final GsymReader reader;
    private final long start;
    private final long addr;
    private final Cursor[] mergedOut;
    private final LookupFrames out;
    int name;
    LineEntry row;
    Cursor inline;

    RecordLookup(GsymReader reader, long start, long addr, Cursor[] mergedOut, LookupFrames out) {
      this.reader = reader;
      this.start = start;
      this.addr = addr;
      this.mergedOut = mergedOut;
      this.out = out;
    }

    @Override
    public boolean header(long size, int nameStrp) {
      if (size > 0 && !new AddressRange(start, start + size).contains(addr)) throw notInGsym(addr);
      if (nameStrp != 0) out.begin(reader, addr, start, start + size, nameStrp);
      name = nameStrp;
      return true;
    }

    @Override
    public boolean chunk(int type, Cursor body) {
      switch (type) {
        case FunctionInfo.LINE_TABLE_INFO -> row = LineTable.lookup(body, start, addr);
        case FunctionInfo.INLINE_INFO -> inline = body;
        case FunctionInfo.MERGED_FUNCTIONS_INFO -> {
          if (mergedOut != null) mergedOut[0] = body;
        }
        case FunctionInfo.CALL_SITE_INFO -> reader.callSiteRegex(body, addr - start, out);
        default -> { /* unknown chunks are skipped in lookups */ }
      }
      return true;
    }
  }

  /** The concrete function's frame, at the line-table row {@code rowFile}:{@code rowLine}. */
  private void addFrame(LookupFrames out, int nameStrp, int rowFile, int rowLine, long offset) {
    long file = Integer.toUnsignedLong(rowFile);
    fileIsUnnamed(file); // only checks that the entry exists
    out.add(nameStrp, file, rowLine, offset);
  }

  // ---------------------------------------------------------------- decoded-function cache

  /**
   * Upper bound of the heap held by decoded functions (rows and inline trees): 256 MiB, or a
   * quarter of the maximum heap if that is less.
   */
  private static final long CACHE_BUDGET = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4);
  /** Slots of the direct-mapped decoded-function cache (a power of two; 1 MiB of references at most). */
  private static final int MAX_DECODED_SLOTS = 1 << 18;
  private static final int MAX_CACHED_FILES = 1 << 16;

  /** Direct-mapped by function index: a slot holds the last function decoded into it. */
  private final AtomicReferenceArray<DecodedFunction> decodedCache;
  private final AtomicLong decodedBytes = new AtomicLong();

  /** Slots for {@code functions} functions: the power of two at or above twice their number, capped. */
  private static int decodedSlots(long functions) {
    int slots = 1;
    while (slots < MAX_DECODED_SLOTS && slots < 2 * functions) slots <<= 1;
    return slots;
  }

  /** The cached decoding of function {@code index}, or null if it is read from its record. */
  private DecodedFunction decoded(int index) {
    int at = index & (decodedCache.length() - 1);
    DecodedFunction s = decodedCache.getAcquire(at);
    if (s != null && s.index == index) return s.cacheable() ? s : null;
    DecodedFunction d = DecodedFunction.read(this, index);
    long old = s == null ? 0 : s.bytes;
    if (decodedBytes.get() - old + d.bytes > CACHE_BUDGET) return d.cacheable() ? d : null; // over budget: use once
    if (decodedCache.compareAndSet(at, s, d)) decodedBytes.addAndGet(d.bytes - old);
    return d.cacheable() ? d : null;
  }

  /**
   * One function's record decoded for lookups: its line rows (sorted by address) and its inline
   * tree. Only records that decode completely, with at most one line table and one inline tree,
   * no call sites and rows in address order are cached; for them {@link #lookup} gives exactly
   * what decoding the record at each lookup gives.
   */
  private static final class DecodedFunction {
    final int index;
    final long start;
    final long size;
    final int name;
    final LineIndex lines; // null without a line table
    final InlineTable inline; // null without inline info
    /** Heap held (0 for an uncacheable marker). */
    final long bytes;
    /** False for the marker of a record that is read at each lookup (unusual or malformed). */
    private final boolean cacheable;

    private DecodedFunction(int index, long start, long size, int name, LineIndex lines,
        InlineTable inline, long bytes, boolean cacheable) {
      this.index = index;
      this.start = start;
      this.size = size;
      this.name = name;
      this.lines = lines;
      this.inline = inline;
      this.bytes = bytes;
      this.cacheable = cacheable;
    }

    boolean cacheable() {
      return cacheable;
    }

    private static DecodedFunction uncacheable(int index) {
      return new DecodedFunction(index, 0, 0, 0, null, null, 0, false);
    }

    static DecodedFunction read(GsymReader r, int index) {
      try {
        return decode(r, index);
      } catch (GsymFormatException | LookupException e) {
        return uncacheable(index);
      }
    }

    private static DecodedFunction decode(GsymReader r, int index) {
      long start = r.functionAddress(index);
      Builder b = new Builder(start);
      FunctionInfo.parse(r.record(index), Reading.LOOKUP, b);
      if (!b.cacheable) return uncacheable(index);
      long bytes = 64 + (b.lines == null ? 0 : b.lines.bytes()) + (b.inline == null ? 0 : b.inline.bytes());
      return new DecodedFunction(index, start, b.size, b.name, b.lines, b.inline, bytes, true);
    }

    /**
     * Reads a record for the cache as a lookup reads it (any error leaves it uncached): at most one
     * line table, that {@link LineIndex} handles, at most one inline tree, no call sites; merged
     * functions and unknown chunks do not change a lookup.
     */
    private static final class Builder implements FunctionInfo.RecordVisitor {
      private final long start;
      long size;
      int name;
      LineIndex lines;
      InlineTable inline;
      boolean cacheable = true;

      Builder(long start) {
        this.start = start;
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
          case FunctionInfo.LINE_TABLE_INFO -> {
            if (lines != null || (lines = LineIndex.build(body, start)) == null) cacheable = false;
          }
          case FunctionInfo.INLINE_INFO -> {
            if (inline != null) cacheable = false;
            else inline = InlineTable.read(body, start);
          }
          case FunctionInfo.CALL_SITE_INFO -> cacheable = false;
          default -> { /* merged functions and unknown chunks do not change a lookup */ }
        }
        return cacheable;
      }
    }

    void lookup(GsymReader r, long addr, LookupFrames out) {
      long end = start + size;
      if (size > 0 && !(Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0)) {
        throw notInGsym(addr); // as AddressRange.contains
      }
      out.begin(r, addr, start, end, name);
      if (lines == null) {
        out.add(name, LookupFrames.NO_FILE, 0, addr - start);
        return;
      }
      long row = lines.lookup(addr);
      int file = (int) (row >>> 32);
      if (file == 0) {
        throw new LookupException("address " + Hex.hex(addr) + " is not in the line table");
      }
      r.addFrame(out, name, file, (int) row, addr - start);
      if (inline != null) inline.lookup(addr, out.inlineFrames());
    }
  }

  /**
   * True if file {@code index} has neither directory nor base name (a frame without a location).
   *
   * @throws LookupException "failed to extract file[N]" (llvm's text) if there is no such entry
   */
  boolean fileIsUnnamed(long index) {
    if (index < 0 || index >= files.count()) {
      throw new LookupException("failed to extract file[" + index + "]");
    }
    return files.isUnnamed(index);
  }

  private void callSiteRegex(Cursor body, long returnOffset, LookupFrames out) {
    CallSiteInfoCollection all = CallSiteInfoCollection.decode(body);
    out.clearRegex();
    for (CallSiteInfo cs : all.callSites()) {
      if (cs.returnOffset() == returnOffset) {
        for (int r : cs.matchRegex()) out.addRegex(r);
        return;
      }
    }
  }

  // ---------------------------------------------------------------- dump

  /** The whole-file dump, byte-identical to {@code llvm-gsymutil FILE}. */
  public void dump(StringBuilder sb) {
    dump(sb, null);
  }

  /**
   * The whole-file dump, handing {@code sb} to {@code drain} whenever it holds 64 KiB or more (and
   * before returning) so that large files are dumped with bounded memory; {@code drain} is expected
   * to write out and clear the buffer. With a null {@code drain}, everything is appended to
   * {@code sb}.
   */
  public void dump(StringBuilder sb, Consumer<StringBuilder> drain) {
    header.dump(sb);
    sb.append('\n');
    addresses.dump(sb, header.baseAddress());
    sb.append('\n');
    infoOffsets.dump(sb);
    sb.append('\n');
    files.dump(sb, strings);
    sb.append('\n');
    strings.dump(sb);
    sb.append('\n');
    for (int i = 0; i < addresses.count(); i++) {
      sb.append("FunctionInfo @ ");
      Hex.append(sb, infoOffsets.get(i), 8).append(": ");
      FunctionInfo fi;
      try {
        fi = functionInfoAtIndex(i);
      } catch (GsymFormatException e) {
        sb.append("FunctionInfo:").append(e.detail()).append('\n');
        continue;
      }
      dump(sb, fi, 0);
      if (drain != null && sb.length() >= 1 << 16) drain.accept(sb);
    }
    if (drain != null) drain.accept(sb);
  }

  /** One FunctionInfo with resolved names and paths, as in llvm-gsymutil's dump. */
  public void dump(StringBuilder sb, FunctionInfo fi, int indent) {
    fi.dump(sb, this, indent);
  }
}
