package dev.gsym.read;

import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.format.AddressInfoTable;
import dev.gsym.format.AddressTable;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.GlobalData;
import dev.gsym.format.GlobalDataDirectory;
import dev.gsym.format.GsymHeader;
import dev.gsym.format.GsymTables;
import dev.gsym.format.Header;
import dev.gsym.format.HeaderV2;
import dev.gsym.format.Hex;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.format.StringTable;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.read.internal.AddressSearch;
import dev.gsym.read.internal.FunctionCache;
import dev.gsym.read.internal.PathCache;
import dev.gsym.read.internal.RecordLookup;
import dev.gsym.read.internal.StringCache;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Reads a GSYM file through a memory mapping: open, look addresses up, decode FunctionInfos, walk
 * them, dump the file as llvm-gsymutil does. Opening validates the header and the bounds of every
 * table; FunctionInfo records are decoded only when a lookup needs one, and kept (line table and
 * inline tree, within a bounded budget: {@code dev.gsym.read.internal}) for later lookups in the
 * same function. Thread-safe: the caches are filled with safe publication and never change an
 * answer; {@link #close()} unmaps the file.
 */
public final class GsymReader implements GsymTables, AutoCloseable {
  private final Arena arena;
  private final ByteView file;
  private final GsymHeader header;
  /** The header's BaseAddress, kept in a field for the lookup path. */
  private final long baseAddress;
  /** The version 2 section directory; null in version 1. */
  private final GlobalDataDirectory directory;
  private final byte[] uuid;
  private final AddressTable addresses;
  private final AddressSearch search;
  private final AddressInfoTable infoOffsets;
  private final FileTable files;
  private final StringTable strings;
  // Every cache has a fixed upper size: no heap proportional to the file (files of any size are
  // read through small heaps: BoundedHeapLookupTest).
  private final StringCache stringCache;
  private final PathCache pathCache;
  private final FunctionCache functionCache;
  private final dev.gsym.read.internal.UnwindCache unwindCache;
  /** Set by {@link #close()}: later calls fail naming the file instead of with the mapping's error. */
  private volatile boolean closed;

  private GsymReader(Arena arena, MemorySegment seg, long fileOffset, String source) {
    this.arena = arena;
    ByteOrder order = Header.detectByteOrder(seg, source);
    ByteView raw = new ByteView(seg, fileOffset, order, source);
    if (raw.u16(4) == HeaderV2.VERSION) {
      // version 2: every table is a section the directory places
      HeaderV2 h = HeaderV2.decode(raw);
      ByteView v = raw.withStrpSize(h.stringOffsetSize());
      GlobalDataDirectory dir = GlobalDataDirectory.decode(v, HeaderV2.SIZE);
      GlobalData addr = dir.find(GlobalData.ADDR_OFFSETS);
      GlobalData info = dir.find(GlobalData.ADDR_INFO_OFFSETS);
      GlobalData fis = dir.find(GlobalData.FUNCTION_INFO);
      GlobalData str = dir.find(GlobalData.STRING_TABLE);
      GlobalData ft = dir.find(GlobalData.FILE_TABLE);
      GlobalData id = dir.find(GlobalData.UUID);
      // LLVM compares the products in 64 bits; NumAddresses is a u32, the sizes at most 8
      if (addr.fileSize() != h.numAddresses() * h.addrOffSize()) {
        throw v.error(addr.fileOffset(), "AddrOffsets section size mismatch");
      }
      if (info.fileSize() != h.numAddresses() * h.addressInfoOffsetSize()) {
        throw v.error(info.fileOffset(), "AddrInfoOffsets section size mismatch");
      }
      this.file = v;
      this.header = h;
      this.directory = dir;
      this.addresses = AddressTable.bind(v, addr.fileOffset(), h.addrOffSize(), h.numAddresses());
      this.infoOffsets = AddressInfoTable.bindV2(v, info.fileOffset(), addresses.count(), fis.fileOffset());
      this.strings = StringTable.bind(v, str.fileOffset(), str.fileSize());
      this.files = FileTable.bindV2(v, ft.fileOffset(), ft.fileSize());
      if (id != null && id.fileSize() > Integer.MAX_VALUE - 16) {
        throw v.error(id.fileOffset(), "UUID section of " + id.fileSize() + " bytes is too large");
      }
      this.uuid = id == null ? new byte[0] : v.bytes(id.fileOffset(), (int) id.fileSize());
    } else {
      Header h = Header.decode(raw);
      this.file = raw;
      this.header = h;
      this.directory = null;
      this.uuid = h.uuid();
      this.addresses = AddressTable.decode(file, h);
      this.infoOffsets = AddressInfoTable.decode(file, addresses);
      this.files = FileTable.decode(file, infoOffsets);
      this.strings = StringTable.decode(file, h);
    }
    this.baseAddress = header.baseAddress();
    this.stringCache = new StringCache(strings);
    this.pathCache = new PathCache(files, strings);
    this.search = new AddressSearch(addresses);
    this.functionCache = new FunctionCache(addresses.count(), this::record, this::functionAddress);
    this.unwindCache = new dev.gsym.read.internal.UnwindCache(addresses.count(), this::unwindInfoAtIndex);
  }

  /** Maps and validates {@code path}. */
  public static GsymReader open(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      return open(ch, path.toString());
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
      return new GsymReader(arena, seg, 0, source);
    } catch (IOException | RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  /**
   * Maps only the {@code size} bytes at {@code offset} of the file open in {@code ch}: a GSYM stored
   * inside another file (an object file's {@code .gsym} section), whose offsets are relative to its
   * first byte. Errors name {@code source} and offsets within the whole file.
   *
   * @throws GsymFormatException if the window is not inside the file, or is not a valid GSYM
   */
  public static GsymReader open(FileChannel ch, long offset, long size, String source) throws IOException {
    long fileSize = ch.size();
    if (offset < 0 || size < 0 || offset > fileSize || size > fileSize - offset) {
      throw new GsymFormatException(source, offset, size + " bytes at offset " + Hex.hex(offset) + " are past the end of the file ("
          + fileSize + " bytes)");
    }
    Arena arena = Arena.ofShared();
    try {
      MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, offset, size, arena);
      return new GsymReader(arena, seg, offset, source);
    } catch (GsymFormatException e) {
      arena.close();
      // an error about the whole GSYM (too small, no magic) is placed at the window's start
      throw e.offset() >= 0 ? e : new GsymFormatException(source, offset, e.detail());
    } catch (IOException | RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  /** Reads GSYM bytes held in memory. */
  public static GsymReader of(byte[] bytes, String source) {
    return new GsymReader(null, MemorySegment.ofArray(bytes), 0, source);
  }

  /**
   * Unmaps the file. Later calls throw {@link IllegalStateException} naming the file; the caller
   * makes sure no other thread is using the reader when it closes it.
   */
  @Override
  public void close() {
    closed = true;
    if (arena != null) arena.close();
  }

  /** Fails a call on a closed reader, naming its file. */
  private void ensureOpen() {
    if (closed) throw new IllegalStateException(file.source() + ": the GSYM reader is closed");
  }

  /** The header: a {@link Header} (version 1) or a {@link HeaderV2}. */
  public GsymHeader header() {
    return header;
  }

  /** The format version, 1 or 2. */
  public int version() {
    return header.version();
  }

  /** The UUID (build ID): version 1's header field, version 2's UUID section; empty if none. */
  public byte[] uuid() {
    return uuid.clone();
  }

  /** The version 2 section directory, or null for a version 1 file. */
  public GlobalDataDirectory directory() {
    return directory;
  }

  /** Size in bytes of the whole GSYM (for a GSYM inside another file, of its window). */
  public long size() {
    return file.size();
  }

  /** The address table (for statistics and tests). */
  public AddressTable addressTable() {
    return addresses;
  }

  /** The address-info table (for statistics and tests). */
  public AddressInfoTable addressInfoTable() {
    return infoOffsets;
  }

  /** The file table (for statistics and tests). */
  public FileTable fileTable() {
    return files;
  }

  /** The byte order of the file (from its magic). */
  public ByteOrder byteOrder() {
    return file.order();
  }

  /** The name of the file in messages: its path, or the name given when it was opened. */
  public String source() {
    return file.source();
  }

  /** The number of functions (entries of the address table). */
  public int numFunctions() {
    return addresses.count();
  }

  /** The number of file-table entries, entry 0 ("no file") included. */
  public int numFiles() {
    return files.count();
  }

  /** The string table (for walking every string in order). */
  public StringTable stringTable() {
    return strings;
  }

  /**
   * The string at string-table offset {@code strp}, decoded by {@link dev.gsym.ByteStrings}:
   * UTF-8, each byte that is not part of well-formed UTF-8 appearing as U+DC80 + byte ({@code
   * ByteStrings.encode} gives the file's bytes back).
   */
  @Override
  public String string(int strp) {
    ensureOpen();
    return stringCache.get(strp);
  }

  /** File-table entry {@code index}, or null if out of range. */
  @Override
  public FileEntry file(long index) {
    return files.get(index);
  }

  /** Start address of the function at {@code index}. */
  public long functionAddress(int index) {
    return baseAddress + search.get(index);
  }

  /** Absolute file offset of the FunctionInfo record at {@code index}. */
  public long functionInfoOffset(int index) {
    return infoOffsets.get(index);
  }

  /**
   * Fully decodes the FunctionInfo at {@code index}.
   *
   * @throws GsymFormatException if the record is malformed
   */
  public FunctionInfo functionInfoAtIndex(int index) {
    return FunctionInfo.decode(record(index), functionAddress(index));
  }

  /**
   * The decoded FunctionInfo that answers for {@code addr}.
   *
   * @throws LookupException if no function covers the address
   * @throws GsymFormatException if the record is malformed
   */
  public FunctionInfo functionInfo(long addr) {
    return functionInfoAtIndex(indexForAddress(addr));
  }

  /**
   * Every FunctionInfo in address-table order, decoded one at a time as the stream is consumed.
   *
   * @throws GsymFormatException (from the stream) at a record that cannot be decoded
   */
  public Stream<FunctionInfo> functionInfos() {
    return IntStream.range(0, numFunctions()).mapToObj(this::functionInfoAtIndex);
  }

  /** A cursor at the record of entry {@code index} (for statistics). */
  Cursor recordAt(int index) {
    return record(index);
  }

  private Cursor record(int index) {
    ensureOpen();
    long at = infoOffsets.get(index);
    if (at >= file.size()) {
      throw file.error(infoOffsets.offset() + (long) infoOffsets.entrySize() * index,
          "invalid address info offset " + Hex.hex(at));
    }
    return file.cursor(at);
  }

  // ---------------------------------------------------------------- the address search

  /**
   * Index of the entry that answers for {@code addr} (llvm's selection rules).
   *
   * @throws LookupException if no function covers the address
   * @throws GsymFormatException if a record offset the search reads is past the end of the file
   */
  public int indexForAddress(long addr) {
    int i = indexOrMiss(addr);
    if (i < 0) throw RecordLookup.notInGsym(addr);
    return i;
  }

  /** {@link #indexForAddress} without the exception: -1 if no function covers {@code addr}. */
  private int indexOrMiss(long addr) {
    ensureOpen();
    long base = baseAddress;
    if (Long.compareUnsigned(addr, base) < 0) return -1;
    long off = addr - base;
    // LLVM's getAddressOffsetIndex: lower_bound, step back unless an exact match, then back up
    // over equal offsets (same answer as upper_bound - 1 on a sorted table, and on a corrupt
    // unsorted one the same entry LLVM picks)
    int n = search.count();
    int i = search.nearest(off);
    if (i < 0) return -1;
    long first = search.get(i);
    while (i > 0 && search.get(i - 1) == first) i--;
    long start = base + first;
    for (int j = i; j < n; j++) {
      Cursor rec = record(j); // as LLVM: the record offset is validated before the start is compared
      if (search.get(j) != first) break;
      long size = rec.has(4) ? rec.u32() : 0; // LLVM's getU32 yields 0 when fewer than 4 bytes remain
      if (size == 0 || Long.compareUnsigned(addr - start, size) < 0) return j;
    }
    return -1;
  }

  // ---------------------------------------------------------------- unwind information

  /**
   * The unwind rule in effect at {@code addr}, from the unwind information ({@link
   * dev.gsym.format.UnwindInfo}) of the function whose region (its start up to the next function's
   * start) holds the address, or of the first function for an address before it: fills {@code
   * state}, the allocation-free form for stack walkers (one state per thread). Functions need not
   * cover the address: unwind information also describes code no function names.
   *
   * @return false when the file holds no unwind rule for the address
   * @throws GsymFormatException if the record or its unwind information is malformed
   */
  public boolean unwindRow(long addr, dev.gsym.unwind.UnwindState state) {
    ensureOpen();
    int n = search.count();
    if (n == 0) return false;
    int i = Long.compareUnsigned(addr, baseAddress) < 0 ? 0 : search.nearest(addr - baseAddress);
    if (i < 0) i = 0;
    long first = search.get(i);
    while (i > 0 && search.get(i - 1) == first) i--;
    return unwindCache.lookup(i, addr, state);
  }

  /**
   * The unwind information of the function at {@code index} (its UnwindInfo chunk decoded, the other
   * chunks skipped), or null when it has none.
   *
   * @throws GsymFormatException if the record or its unwind information is malformed
   */
  public dev.gsym.format.UnwindInfo unwindInfoAtIndex(int index) {
    Cursor[] chunk = {null};
    FunctionInfo.parse(record(index), dev.gsym.format.Reading.LOOKUP, new FunctionInfo.RecordVisitor() {
      @Override
      public boolean header(long size, int name) {
        return true;
      }

      @Override
      public boolean chunk(int type, Cursor body) {
        if (type != FunctionInfo.UNWIND_INFO) return true;
        chunk[0] = body;
        return false;
      }
    });
    return chunk[0] == null ? null : dev.gsym.format.UnwindInfo.decode(chunk[0], functionAddress(index));
  }

  /** {@link #unwindRow(long, dev.gsym.unwind.UnwindState)} as an immutable row, if there is one. */
  public java.util.Optional<dev.gsym.unwind.UnwindRow> unwindRow(long addr) {
    dev.gsym.unwind.UnwindState s = new dev.gsym.unwind.UnwindState();
    return unwindRow(addr, s) ? java.util.Optional.of(s.toRow()) : java.util.Optional.empty();
  }

  // ---------------------------------------------------------------- lookups
  //
  // A miss (no function covers the address, or the function has no line-table row for it) is an
  // answer: an empty Optional, false, or a LookupException in the throwing forms. A malformed
  // record is a GsymFormatException naming the file and the offset, whatever the form: the caller
  // can tell "no function here" from "broken file". Its detail() is llvm-gsymutil's message.

  /**
   * Symbolicates {@code addr}: the function that covers it, its source line and inline stack,
   * or empty if no function covers it (the form to use; {@link #lookup(long)} throws instead).
   *
   * @throws GsymFormatException if the record that answers is malformed
   * @throws IllegalStateException if the reader is closed
   */
  public java.util.Optional<LookupResult> find(long addr) {
    LookupFrames frames = new LookupFrames();
    return lookup(addr, frames) ? java.util.Optional.of(frames.toResult()) : java.util.Optional.empty();
  }

  /**
   * Symbolicates {@code addr}, as {@link #find(long)}, throwing for a miss.
   *
   * @throws LookupException with llvm-gsymutil's message if no function covers the address
   * @throws GsymFormatException if the record that answers is malformed
   * @throws IllegalStateException if the reader is closed
   */
  public LookupResult lookup(long addr) {
    LookupFrames frames = new LookupFrames();
    if (!lookup(addr, frames)) throw new LookupException(frames.missMessage());
    return frames.toResult();
  }

  /**
   * Symbolicates {@code addr} into {@code out} (cleared first), the allocation-free form of {@link
   * #find(long)} for batch symbolication. Functions are decoded once and kept in a bounded cache
   * (line rows and the inline tree as arrays), so later lookups in the same function only search
   * arrays. Safe to call from several threads, each with its own {@code out}.
   *
   * @return true if a function covers {@code addr}; false for a miss, whose llvm-gsymutil message
   *     is {@link LookupFrames#missMessage()}
   * @throws GsymFormatException if the record that answers is malformed
   * @throws IllegalStateException if the reader is closed
   */
  public boolean lookup(long addr, LookupFrames out) {
    ensureOpen();
    out.reset(this);
    try {
      // the common case: one function starts at the nearest start at or below addr, it is cached
      // and it covers addr: indexOrMiss would pick it without reading anything else
      if (Long.compareUnsigned(addr, baseAddress) >= 0) {
        int i = search.nearest(addr - baseAddress);
        if (i >= 0 && search.unique(i)
            // outside the function, indexOrMiss validates the next record's offset first
            && functionCache.lookupIfCovered(i, addr, out.sink())) {
          return true;
        }
      }
      int index = indexOrMiss(addr);
      if (index < 0) {
        out.notInGsym(addr);
        return false;
      }
      if (!functionCache.lookup(index, addr, out.sink())) {
        RecordLookup.lookup(record(index), functionAddress(index), addr, out.sink(), false);
      }
      return true;
    } catch (LookupException e) {
      out.miss(addr, e.getMessage()); // the function has no line-table row for addr
      return false;
    }
  }

  /** {@link #lookup(long)} decoding the record at every call, bypassing the cache (for tests). */
  LookupResult lookupUncached(long addr) {
    LookupFrames frames = new LookupFrames();
    frames.reset(this);
    int index = indexForAddress(addr);
    RecordLookup.lookup(record(index), functionAddress(index), addr, frames.sink(), false);
    return frames.toResult();
  }

  /**
   * The primary result and one per merged function at {@code addr} (llvm's lookupAll): if any
   * merged function cannot answer, the whole lookup fails.
   *
   * @throws LookupException with llvm-gsymutil's message if a function cannot answer
   * @throws GsymFormatException if a record is malformed
   */
  public List<LookupResult> lookupAll(long addr) {
    int index = indexForAddress(addr);
    long start = functionAddress(index);
    List<LookupResult> results = new ArrayList<>();
    LookupFrames frames = new LookupFrames();
    frames.reset(this);
    Cursor merged = RecordLookup.lookup(record(index), start, addr, frames.sink(), true);
    results.add(frames.toResult());
    if (merged != null) {
      for (Cursor child : MergedFunctionsInfo.childRecords(merged)) {
        RecordLookup.lookup(child, start, addr, frames.sink(), false);
        results.add(frames.toResult());
      }
    }
    return results;
  }

  /**
   * The functions at {@code addr} for a symbolizer choosing among merged functions: the primary
   * result first, then one per merged function that covers {@code addr}, in the file's order. Unlike
   * {@link #lookupAll}, a merged function that cannot answer (shorter than the primary, a bad file
   * index, a malformed record) is left out instead of failing the whole lookup: the others are
   * still candidates. Each result carries the call-site regexes and flags of its own function at
   * {@code addr}.
   *
   * <p>A function without merged functions or call sites is answered from the lookup cache, as
   * {@link #lookup(long)}; the others are decoded at each call.
   *
   * @throws LookupException with llvm-gsymutil's message if the primary function cannot answer
   * @throws GsymFormatException if the primary function's record is malformed
   */
  public List<LookupResult> lookupCandidates(long addr) {
    return lookupCandidates(addr, addr);
  }

  /**
   * As {@link #lookupCandidates(long)}, with each function's call site taken at {@code
   * callSiteAddr} instead of {@code addr}. A caller frame of a stack holds a return address: its
   * source line is that of the call instruction, found at the return address minus one, while the
   * call-site information is keyed by the return address itself.
   *
   * @throws LookupException with llvm-gsymutil's message if the primary function cannot answer
   * @throws GsymFormatException if the primary function's record is malformed
   */
  public List<LookupResult> lookupCandidates(long addr, long callSiteAddr) {
    ensureOpen();
    LookupFrames frames = new LookupFrames();
    frames.reset(this);
    if (Long.compareUnsigned(addr, baseAddress) >= 0) {
      int i = search.nearest(addr - baseAddress);
      // the cache holds only functions without merged functions and call sites
      if (i >= 0 && search.unique(i) && functionCache.lookupIfCovered(i, addr, frames.sink())) {
        return List.of(frames.toResult());
      }
    }
    int index = indexForAddress(addr);
    long start = functionAddress(index);
    Cursor merged = RecordLookup.lookup(record(index), start, addr, callSiteAddr, frames.sink(), true);
    LookupResult primary = frames.toResult();
    if (merged == null) return List.of(primary);
    List<LookupResult> results = new ArrayList<>();
    results.add(primary);
    for (Cursor child : MergedFunctionsInfo.childRecords(merged)) {
      try {
        RecordLookup.lookup(child, start, addr, callSiteAddr, frames.sink(), false);
        results.add(frames.toResult());
      } catch (LookupException | GsymFormatException e) {
        // this merged function does not cover addr, or cannot be read: not a candidate
      }
    }
    return results;
  }

  /** Appends the raw bytes of the string at {@code strp}, copied from the file. */
  void appendString(int strp, TextBuffer out) {
    ensureOpen();
    strings.appendTo(strp, out);
  }

  /** See {@link PathCache#pathBytes}. */
  byte[] pathBytes(long index) {
    return pathCache.pathBytes(index);
  }

  /**
   * True if file {@code index} has neither directory nor base name (a frame without a location).
   *
   * @throws GsymFormatException "failed to extract file[N]" (llvm's text) if there is no such entry
   */
  boolean fileIsUnnamed(long index) {
    if (index < 0 || index >= files.count()) throw files.noSuchFile(index);
    return files.isUnnamed(index);
  }

  // ---------------------------------------------------------------- dump

  /** Size at which {@link #dump(Appendable)} hands text on. */
  private static final int DUMP_CHUNK = 1 << 16;

  /**
   * The whole-file dump, byte-identical to {@code llvm-gsymutil FILE}, appended to {@code out} in
   * pieces of about 64 KiB (each ending at the end of a line), so that large files are dumped with
   * bounded memory. Names and paths are Strings as {@link #string} gives them: an {@code out} that
   * encodes text with {@link dev.gsym.ByteStrings} writes the file's bytes.
   */
  public void dump(Appendable out) throws IOException {
    ensureOpen();
    StringBuilder sb = out instanceof StringBuilder s ? s : new StringBuilder(DUMP_CHUNK + 4096);
    header.dump(sb);
    sb.append('\n');
    if (directory != null) {
      // llvm main's GsymReaderV2::dump
      directory.dump(sb);
      sb.append('\n');
      if (directory.find(GlobalData.UUID) != null) {
        sb.append("UUID:\n").append(java.util.HexFormat.of().formatHex(uuid)).append("\n\n");
      }
      addresses.dumpV2(sb, header.baseAddress());
      sb.append('\n');
      infoOffsets.dumpV2(sb);
      sb.append('\n');
      files.dumpV2(sb, strings);
      sb.append('\n');
      strings.dump(sb, header.stringOffsetSize());
      sb.append('\n');
    } else {
      addresses.dump(sb, header.baseAddress());
      sb.append('\n');
      infoOffsets.dump(sb);
      sb.append('\n');
      files.dump(sb, strings);
      sb.append('\n');
      strings.dump(sb);
      sb.append('\n');
    }
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
      fi.dump(sb, this, 0);
      if (sb != out && sb.length() >= DUMP_CHUNK) {
        out.append(sb);
        sb.setLength(0);
      }
    }
    if (sb != out) out.append(sb);
  }

  /** {@link #dump(Appendable)} into a StringBuilder. */
  public void dump(StringBuilder sb) {
    try {
      dump((Appendable) sb);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringBuilder does not fail
    }
  }

  /** One FunctionInfo with resolved names and paths, as in llvm-gsymutil's dump. */
  public void dump(StringBuilder sb, FunctionInfo fi, int indent) {
    fi.dump(sb, this, indent);
  }
}
