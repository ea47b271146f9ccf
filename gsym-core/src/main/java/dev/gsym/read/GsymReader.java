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
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.LookupException;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.format.StringTable;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a GSYM file through a memory mapping. Opening validates the header and the bounds of every
 * table; FunctionInfo records are decoded only when a lookup needs one. Immutable and thread-safe;
 * {@link #close()} unmaps the file.
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

  /** The string at string-table offset {@code strp}. */
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
    // LLVM's getAddressOffsetIndex: lower_bound, step back unless an exact match, then back up
    // over equal offsets (same answer as upper_bound - 1 on a sorted table, and on a corrupt
    // unsorted one the same entry LLVM picks)
    int n = addresses.count();
    int i = addresses.lowerBound(off);
    if (i == 0 && (n == 0 || Long.compareUnsigned(off, addresses.get(0)) < 0)) throw notInGsym(addr);
    if (i == n || Long.compareUnsigned(off, addresses.get(i)) < 0) i--;
    long first = addresses.get(i);
    while (i > 0 && addresses.get(i - 1) == first) i--;
    long start = base + first;
    for (int j = i; j < n; j++) {
      Cursor rec = record(j); // as LLVM: the record offset is validated before the start is compared
      if (addresses.get(j) != first) break;
      long size = rec.has(4) ? rec.u32() : 0; // LLVM's getU32 yields 0 when fewer than 4 bytes remain
      if (size == 0 || Long.compareUnsigned(addr - start, size) < 0) return j;
    }
    throw notInGsym(addr);
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
    try {
      int index = indexForAddress(addr);
      return lookupInRecord(record(index), functionAddress(index), addr, null);
    } catch (GsymFormatException e) {
      throw new LookupException(e.detail()); // llvm-gsymutil prints the bare message
    }
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
      results.add(lookupInRecord(record(index), start, addr, merged));
      if (merged[0] != null) {
        for (Cursor child : MergedFunctionsInfo.childRecords(merged[0])) {
          results.add(lookupInRecord(child, start, addr, null));
        }
      }
      return results;
    } catch (GsymFormatException e) {
      throw new LookupException(e.detail()); // llvm-gsymutil prints the bare message
    }
  }

  /** LLVM's FunctionInfo::lookup over an encoded record. */
  private LookupResult lookupInRecord(Cursor c, long start, long addr, Cursor[] mergedOut) {
    // As LLVM's FunctionInfo::lookup: a missing Size or Name reads as 0, then at least one byte
    // must follow them
    long recordStart = c.position();
    long size = c.has(4) ? c.u32() : 0;
    int nameStrp = c.has(4) ? c.s32() : 0;
    if (!c.has(1)) throw new LookupException("FunctionInfo data is truncated");
    AddressRange range = new AddressRange(start, start + size);
    if (size > 0 && !range.contains(addr)) throw notInGsym(addr);
    if (nameStrp == 0) {
      throw new LookupException(String.format("0x%08x: invalid FunctionInfo Name value 0x00000000",
          c.position() - recordStart - 4));
    }
    String funcName = string(nameStrp);
    LineEntry row = null;
    Cursor inline = null;
    List<String> regex = List.of();
    while (true) {
      if (!c.has(8)) throw new LookupException("FunctionInfo data is truncated");
      int type = c.s32();
      long len = c.u32();
      if (!c.has(len)) throw new LookupException("FunctionInfo data is truncated");
      Cursor body = c.split(len);
      if (type == FunctionInfo.END_OF_LIST) break;
      switch (type) {
        case FunctionInfo.LINE_TABLE_INFO -> row = LineTable.lookup(body, start, addr);
        case FunctionInfo.INLINE_INFO -> inline = body;
        case FunctionInfo.MERGED_FUNCTIONS_INFO -> {
          if (mergedOut != null) mergedOut[0] = body;
        }
        case FunctionInfo.CALL_SITE_INFO -> regex = callSiteRegex(body, addr - start);
        default -> { /* unknown chunks are skipped in lookups */ }
      }
    }
    List<SourceLocation> locs = new ArrayList<>(inline != null ? 4 : 1);
    if (row == null) {
      locs.add(new SourceLocation(funcName, "", "", 0, addr - start));
      return new LookupResult(addr, range, funcName, locs, regex);
    }
    FileEntry f = fileOrThrow(row.file());
    locs.add(new SourceLocation(funcName, string(f.dir()), string(f.base()), row.line(),
        addr - start));
    if (inline != null) {
      InlineInfo.lookup(inline, start, addr, (name, callFile, callLine, firstStart) -> {
        FileEntry cf = fileOrThrow(Integer.toUnsignedLong(callFile));
        if (cf.dir() == 0 && cf.base() == 0) return;
        SourceLocation last = locs.getLast();
        locs.set(locs.size() - 1, new SourceLocation(string(name), last.dir(), last.base(),
            last.line(), addr - firstStart));
        locs.add(new SourceLocation(last.name(), string(cf.dir()), string(cf.base()),
            callLine, last.offset()));
      });
    }
    return new LookupResult(addr, range, funcName, locs, regex);
  }

  private FileEntry fileOrThrow(long index) {
    FileEntry f = files.get(index);
    if (f == null) throw new LookupException("failed to extract file[" + index + "]");
    return f;
  }

  private List<String> callSiteRegex(Cursor body, long returnOffset) {
    CallSiteInfoCollection all = CallSiteInfoCollection.decode(body);
    for (CallSiteInfo cs : all.callSites()) {
      if (cs.returnOffset() == returnOffset) {
        List<String> out = new ArrayList<>(cs.matchRegex().size());
        for (int r : cs.matchRegex()) out.add(string(r));
        return out;
      }
    }
    return List.of();
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
