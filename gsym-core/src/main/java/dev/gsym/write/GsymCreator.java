package dev.gsym.write;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.Header;
import dev.gsym.format.HeaderV2;
import dev.gsym.format.Hex;
import dev.gsym.format.IndexMap;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.format.StringTable;
import dev.gsym.io.AtomicFile;
import dev.gsym.read.GsymReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Builds a GSYM file in three stages, as LLVM's GsymCreator: add strings, files and
 * FunctionInfos (thread-safe, from any number of producers); {@link #finish(Diagnostics)} once
 * (sort, de-duplicate, resolve overlaps: LLVM's {@code finalize}); then {@link #save} or {@link
 * #encode}. Calls out of this order throw {@link IllegalStateException}.
 *
 * <p>Strings are stored as the bytes {@link dev.gsym.ByteStrings#encode} gives: UTF-8, with
 * each U+DC80..U+DCFF that {@code ByteStrings.decode} made from a byte that is not UTF-8 written as
 * that byte, so names and paths read from DWARF, Breakpad or a GSYM file are written back
 * unchanged. Strings with the same bytes are one entry.
 */
public final class GsymCreator implements AutoCloseable {
  private final Object lock = new Object();
  private final StringTableBuilder strings;
  private final FileTableBuilder files = new FileTableBuilder();
  /**
   * Encoded FunctionInfos. A scratch creator's are encoded against its own tables (string "offsets"
   * are 1 + positions, see {@link StringTableBuilder}); {@link #addAll} relocates their bytes.
   */
  private List<StoredFunction> funcs = new ArrayList<>();
  private final boolean scratch;
  private Long baseAddress;
  private byte[] uuid = new byte[0];
  /** Set once before producers start; read without the lock (a copy nobody else can change). */
  private volatile AddressRanges validTextRanges;
  private boolean finished;
  private boolean unwindAttached;
  /** GSYM version written by encode and save: 1 (LLVM 22's format, the default) or 2. */
  private int outputVersion = Header.VERSION;
  /**
   * Largest string-table size or record offset a version 1 file can hold (its fields are u32).
   * Package-private so tests can lower it instead of writing 4 GiB.
   */
  long version1Limit = 0xffffffffL;
  /** Package-private so tests can spill small creators. */
  long spillThreshold = SPILL_THRESHOLD;
  /** Bytes of encoded records held in the heap by {@link #addFunctionInfo}. */
  private long heldBytes;
  private RecordSpill recordSpill;
  /** True if no spill is to be made: one could not be created, or the creator was closed. */
  private boolean spillFailed;

  public GsymCreator() {
    this(false);
  }

  private GsymCreator(boolean scratch) {
    this.scratch = scratch;
    this.strings = new StringTableBuilder(scratch);
  }

  /** Adds {@code s}'s bytes to the string table (if new) and returns their offset; "" is 0. */
  public int insertString(String s) {
    synchronized (lock) {
      return strings.add(s);
    }
  }

  /** The string at an offset this creator returned (as ByteStrings decodes its bytes). */
  public String getString(int strp) {
    synchronized (lock) {
      return strings.get(strp);
    }
  }

  /** Adds a file by path (split into directory and base name) and returns its index. */
  public int insertFile(String path, PathStyle style) {
    String dir = style.parentPath(path);
    String base = style.filename(path);
    synchronized (lock) {
      int d = strings.add(dir);
      int b = strings.add(base);
      return files.insert(new FileEntry(d, b));
    }
  }

  /**
   * Adds a file by path so that lookups print the path exactly as given: split into directory and
   * base name as {@link #insertFile(String, PathStyle)} does when the two render back as {@code
   * path} (directory, separator, base name), else the whole path is the base name (a file in the
   * root directory such as {@code /a.c}, which the split would print as {@code //a.c}; {@code C:\a.c};
   * doubled or trailing separators).
   */
  public int insertFileAsWritten(String path, PathStyle style) {
    String dir = style.parentPath(path);
    String base = style.filename(path);
    StringBuilder rendered = new StringBuilder(path.length() + 1);
    FileTable.appendPath(rendered, dir, base);
    if (!rendered.toString().equals(path)) {
      dir = "";
      base = path;
    }
    synchronized (lock) {
      int d = strings.add(dir);
      int b = strings.add(base);
      return files.insert(new FileEntry(d, b));
    }
  }

  /** Adds a file by path with POSIX rules. */
  public int insertFile(String path) {
    return insertFile(path, PathStyle.POSIX);
  }

  /**
   * Adds (once) a file-table entry {0, 0} at a non-zero index and returns that index. A line-table
   * row in this file marks addresses without a source line: lookups (ours and llvm-gsymutil's)
   * answer with the function and no {@code @ file:line}, where a row with file 0 makes the whole
   * lookup fail ({@code LineEntry::isValid()} is {@code File != 0}). Copies of the file keep it.
   */
  public int insertNoFile() {
    synchronized (lock) {
      return files.noFile();
    }
  }

  /**
   * An empty creator with this one's valid text ranges, to fill on another thread and hand to
   * {@link #addAll} (parallel conversion with the output of a sequential one).
   */
  public GsymCreator scratch() {
    GsymCreator c = new GsymCreator(true);
    c.validTextRanges = validTextRanges; // no lock: workers must not wait for a running addAll
    return c;
  }

  /**
   * Adds everything {@code part} holds as if its calls had been made on this creator: its strings
   * in table order, its files in index order, then its FunctionInfos (translated), in order.
   */
  public void addAll(GsymCreator part) {
    synchronized (part.lock) {
      synchronized (lock) {
        if (finished) throw new IllegalStateException("GsymCreator already finished");
        // the part's strings in its table order (as a sequential conversion adds them), then its
        // files; then its functions, their encoded bytes relocated to this creator's tables
        StringTableBuilder ps = part.strings;
        int[] global = new int[ps.count() + 1]; // by the part's offset: 1 + position (indexed)
        for (int i = 0; i < ps.count(); i++) global[i + 1] = strings.add(ps.string(i));
        IntUnaryOperator strMap = part.scratch ? o -> global[o] : o -> o == 0 ? 0 : global[ps.indexOf(o) + 1];
        int[] fileMap = new int[part.files.size()];
        for (int i = 1; i < fileMap.length; i++) {
          FileEntry fe = part.files.get(i);
          fileMap[i] = files.insertCopied(i, new FileEntry(strMap.applyAsInt(fe.dir()), strMap.applyAsInt(fe.base())));
        }
        IndexMap m = new IndexMap(strMap, i -> fileMap[i]);
        for (StoredFunction sf : part.funcs) {
          StoredFunction moved = part.scratch ? sf.relocated(global, fileMap) : null;
          funcs.add(moved != null ? moved : StoredFunction.translated(sf.info(), m));
        }
      }
    }
  }

  /** The file entry at {@code index}. */
  public FileEntry getFile(int index) {
    synchronized (lock) {
      return files.get(index);
    }
  }

  /**
   * Adds a FunctionInfo (encoded right away: the creator holds bytes, not object graphs; beyond
   * 4 MiB of records, further records wait in an unlinked temporary file
   * instead of the heap).
   */
  public void addFunctionInfo(FunctionInfo fi) {
    StoredFunction sf = StoredFunction.of(fi); // encoding needs no lock
    RecordSpill to = null;
    synchronized (lock) {
      if (finished) throw new IllegalStateException("GsymCreator already finished");
      if (!scratch && heldBytes >= spillThreshold) to = spill();
      if (to == null) heldBytes += sf.heldBytes();
    }
    if (to != null) {
      try {
        sf = sf.spilled(to); // outside the creator's lock: the spill has its own
      } catch (IOException e) {
        synchronized (lock) {
          spillFailed = true; // kept in memory, as without a spill
          heldBytes += sf.heldBytes();
        }
      }
    }
    synchronized (lock) {
      if (finished) throw new IllegalStateException("GsymCreator already finished");
      funcs.add(sf);
    }
  }

  /**
   * Gives back the temporary file that holds the records beyond 4 MiB (see {@link
   * #addFunctionInfo}) now rather than when the creator is garbage-collected: a process that
   * converts many files (a symbolization service, a Spark executor) would otherwise keep their disk
   * space for as long as the creators stay in the heap. Once closed, a creator that spilled cannot be
   * encoded ({@link IllegalStateException}).
   */
  @Override
  public void close() {
    synchronized (lock) {
      spillFailed = true;
      if (recordSpill != null) recordSpill.close();
    }
  }

  /** Records held in memory beyond which {@link #addFunctionInfo} spills them: 4 MiB. */
  static final long SPILL_THRESHOLD = 4L << 20;

  /** The spill file, created on first need (the caller holds the lock); null if it cannot be made. */
  private RecordSpill spill() {
    if (recordSpill == null && !spillFailed) {
      try {
        recordSpill = RecordSpill.create();
      } catch (IOException e) {
        spillFailed = true;
      }
    }
    return recordSpill;
  }

  public int numFunctionInfos() {
    synchronized (lock) {
      return funcs.size();
    }
  }

  /** A snapshot of the FunctionInfos (sorted and de-duplicated once finished), decoded. */
  public List<FunctionInfo> functionInfos() {
    synchronized (lock) {
      List<FunctionInfo> out = new ArrayList<>(funcs.size());
      for (StoredFunction sf : funcs) out.add(sf.info());
      return out;
    }
  }

  public void setBaseAddress(long base) {
    synchronized (lock) {
      baseAddress = base;
    }
  }

  /**
   * Selects the GSYM version that {@link #encode} and the {@code save} methods write: 1 (the
   * default, what LLVM 22 writes and reads) or 2 (LLVM main's {@code --output-version=2}: a section
   * directory, 64-bit offsets, files over 4 GiB).
   */
  public void setOutputVersion(int version) {
    if (version != Header.VERSION && version != HeaderV2.VERSION) {
      throw new IllegalArgumentException("unsupported GSYM output version " + version);
    }
    synchronized (lock) {
      outputVersion = version;
    }
  }

  public int outputVersion() {
    synchronized (lock) {
      return outputVersion;
    }
  }

  public void setUUID(byte[] id) {
    synchronized (lock) {
      uuid = id.clone();
    }
  }

  /** Executable address ranges: used to extend a trailing size-0 function. */
  public void setValidTextRanges(AddressRanges ranges) {
    AddressRanges copy = new AddressRanges();
    for (int i = 0; i < ranges.size(); i++) copy.insert(ranges.get(i));
    validTextRanges = copy;
  }

  public boolean isValidTextAddress(long addr) {
    AddressRanges text = validTextRanges;
    return text == null || text.contains(addr);
  }

  /**
   * Folds FunctionInfos with identical ranges into MergedFunctionsInfo of the first one (llvm's
   * {@code --merged-functions}); call before adding symbol-table entries.
   */
  public void prepareMergedFunctions(Diagnostics out) {
    synchronized (lock) {
      if (funcs.size() < 2) return;
      funcs.sort(StoredFunction::compare); // List.sort is stable
      List<StoredFunction> top = new ArrayList<>();
      List<List<StoredFunction>> children = new ArrayList<>();
      top.add(funcs.getFirst());
      children.add(null);
      for (int i = 1; i < funcs.size(); i++) {
        StoredFunction cur = funcs.get(i);
        int t = top.size() - 1;
        if (top.get(t).range.equals(cur.range)) {
          List<StoredFunction> kids = children.get(t);
          if (kids == null) {
            kids = new ArrayList<>();
            children.set(t, kids);
          } else if (kids.getLast().sameAs(cur)) {
            continue;
          }
          kids.add(cur);
        } else {
          top.add(cur);
          children.add(null);
        }
      }
      int merged = funcs.size() - top.size();
      if (merged != 0) out.log("Have " + merged + " merged functions as children of other functions\n");
      List<StoredFunction> result = new ArrayList<>(top.size());
      for (int i = 0; i < top.size(); i++) {
        List<StoredFunction> kids = children.get(i);
        if (kids == null) {
          result.add(top.get(i));
        } else {
          List<FunctionInfo> infos = new ArrayList<>(kids.size());
          for (StoredFunction k : kids) infos.add(k.info());
          result.add(StoredFunction.of(top.get(i).info().withMergedFunctions(new MergedFunctionsInfo(infos))));
        }
      }
      for (StoredFunction sf : funcs) sf.forget();
      funcs = result;
    }
  }

  /**
   * Attaches call sites to functions by name, as llvm's {@code CallSiteInfoLoader} does for
   * {@code --callsites-yaml-file}, before {@link #finish}: each entry's name is looked up among
   * the names of all FunctionInfos and of their merged functions, in the order they were added (the
   * first with that name wins; a name listed twice adds to the same function). The function gets a
   * CallSiteInfo chunk even if the entry lists no call sites; call sites are appended after any it
   * already has (e.g. from {@code --dwarf-callsites}), their regexes added to the string table in
   * order. Return offsets are not checked against the function's size, as in llvm.
   *
   * @throws IllegalArgumentException with llvm's message ({@code Can't find function 'NAME'
   *     specified in callsite YAML}) for an unknown name; the FunctionInfos are unchanged then
   */
  public void loadCallSites(List<FunctionCallSites> functions) {
    synchronized (lock) {
      if (finished) throw new IllegalStateException("GsymCreator already finished");
      CallSiteInfoLoader.load(funcs, strings, functions);
    }
  }

  /**
   * Sorts, removes duplicates and resolves overlaps exactly as llvm-gsymutil 22: an identical
   * duplicate is dropped; of two entries with the same range the later-sorting (richer) wins;
   * overlapping different ranges are both kept (with a warning); a size-0 entry is replaced by a
   * following entry that contains its start; a trailing size-0 function is extended to the end of
   * its text range. LLVM calls this step {@code finalize}.
   *
   * @throws IllegalStateException if called twice
   */
  public void finish(Diagnostics out) {
    synchronized (lock) {
      if (finished) throw new IllegalStateException("GsymCreator already finished");
      finished = true;
      int before = funcs.size();
      if (before > 1) {
        funcs.sort(StoredFunction::compare);
        ArrayList<StoredFunction> kept = new ArrayList<>(before);
        kept.add(funcs.getFirst());
        for (int i = 1; i < before; i++) {
          StoredFunction prev = kept.getLast();
          StoredFunction curr = funcs.get(i);
          boolean rangesEqual = prev.range.equals(curr.range);
          if (rangesEqual || prev.range.intersects(curr.range)) {
            if (rangesEqual) {
              if (!prev.sameAs(curr)) {
                if (prev.richInfo && curr.richInfo) {
                  out.report("Duplicate address ranges with different debug info.", sb -> sb
                      .append("warning: same address range contains different debug info. Removing:\n")
                      .append(prev).append("\nIn favor of this one:\n").append(curr).append('\n'));
                }
                kept.set(kept.size() - 1, curr);
              }
            } else {
              out.report("Overlapping function ranges", sb -> sb
                  .append("warning: function ranges overlap:\n").append(prev).append('\n')
                  .append(curr).append('\n'));
              kept.add(curr);
            }
          } else if (prev.range.size() == 0 && curr.range.contains(prev.range.start())) {
            kept.set(kept.size() - 1, curr);
          } else {
            kept.add(curr);
          }
        }
        for (StoredFunction sf : funcs) sf.forget();
        funcs = kept;
      }
      if (!funcs.isEmpty() && funcs.getLast().range.size() == 0 && validTextRanges != null) {
        StoredFunction last = funcs.getLast();
        AddressRange text = validTextRanges.rangeContaining(last.start());
        if (text != null) {
          FunctionInfo grown = last.info().withRange(new AddressRange(last.start(), text.end()));
          funcs.set(funcs.size() - 1, StoredFunction.of(grown));
        }
      }
      out.log("Pruned " + (before - funcs.size()) + " functions, ended with " + funcs.size() + " total\n");
    }
  }

  /**
   * Attaches unwind information to the finished functions (call after {@link #finish}, before
   * {@link #encode} or {@link #save}). Each entry goes to the record of the function whose region,
   * from its start up to the next function's start, holds the entry's start (the first function's,
   * for an entry before it); an entry that runs on past later functions' starts is repeated in their
   * records, marked continued, so that the record found for any address answers for it. Of several
   * functions at one address the first holds the entries. Entries are ordered by start address,
   * then by ordinal. The records' bytes are kept, the UnwindInfo chunk added before their EndOfList.
   *
   * @return the number of records that received entries
   */
  public int attachUnwind(dev.gsym.unwind.Arch arch, List<? extends dev.gsym.unwind.UnwindEntry> entries) {
    List<dev.gsym.unwind.UnwindEntry> sorted = new ArrayList<>(entries);
    sorted.sort(java.util.Comparator.comparing(dev.gsym.unwind.UnwindEntry::start, Long::compareUnsigned)
        .thenComparingLong(dev.gsym.unwind.UnwindEntry::ordinal));
    synchronized (lock) {
      if (!finished) throw notFinished();
      if (unwindAttached) throw new IllegalStateException("unwind information is already attached");
      unwindAttached = true;
      if (funcs.isEmpty() || sorted.isEmpty()) return 0;
      int n = funcs.size();
      // the first index of each distinct start: the records that hold entries
      int[] owners = new int[n];
      int owned = 0;
      for (int i = 0; i < n; i++) if (i == 0 || funcs.get(i).start() != funcs.get(i - 1).start()) owners[owned++] = i;
      List<List<dev.gsym.unwind.UnwindEntry>> own = new ArrayList<>(owned);
      List<List<dev.gsym.unwind.UnwindEntry>> cont = new ArrayList<>(owned);
      for (int k = 0; k < owned; k++) {
        own.add(new ArrayList<>());
        cont.add(new ArrayList<>());
      }
      int k = 0;
      for (dev.gsym.unwind.UnwindEntry e : sorted) {
        while (k + 1 < owned && Long.compareUnsigned(funcs.get(owners[k + 1]).start(), e.start()) <= 0) k++;
        own.get(k).add(e);
        long end = e.start() + e.length();
        for (int j = k + 1; j < owned && Long.compareUnsigned(funcs.get(owners[j]).start(), end) < 0; j++) {
          cont.get(j).add(e);
        }
      }
      int attached = 0;
      for (int j = 0; j < owned; j++) {
        if (own.get(j).isEmpty() && cont.get(j).isEmpty()) continue;
        int i = owners[j];
        StoredFunction old = funcs.get(i);
        dev.gsym.format.UnwindInfo u = new dev.gsym.format.UnwindInfo(arch, own.get(j), cont.get(j));
        StoredFunction sf = old.withChunk(FunctionInfo.UNWIND_INFO, u.encode(old.start()), fi -> fi.withUnwind(u));
        heldBytes -= old.heldBytes();
        old.forget();
        RecordSpill to = !scratch && heldBytes >= spillThreshold ? spill() : null;
        if (to != null) {
          try {
            sf = sf.spilled(to);
          } catch (IOException e) {
            spillFailed = true;
            heldBytes += sf.heldBytes();
          }
        } else {
          heldBytes += sf.heldBytes();
        }
        funcs.set(i, sf);
        attached++;
      }
      return attached;
    }
  }

  /** Encodes the finished GSYM to bytes, little endian. */
  public byte[] encode() {
    return encode(ByteOrder.LITTLE_ENDIAN);
  }

  /** Encodes the finished GSYM to bytes. */
  public byte[] encode(ByteOrder order) {
    synchronized (lock) {
      return contents().encode(order);
    }
  }

  /** {@link #save(Path, ByteOrder)} in little-endian byte order. */
  public void save(Path path) throws IOException {
    save(path, ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Writes the finished GSYM to {@code path} with {@link AtomicFile}: a regular file through a
   * temporary file in the same directory that is renamed into place, so a failure never leaves a
   * partial file; a symbolic link's target likewise; a device or FIFO in place.
   */
  public void save(Path path, ByteOrder order) throws IOException {
    synchronized (lock) {
      write(path, contents(), order);
    }
  }

  /**
   * Writes the finished GSYM to {@code out} (flushed, not closed). The file is assembled in an
   * unlinked temporary file first (the header and tables are written after the records), so nothing
   * reaches {@code out} if encoding fails.
   */
  public void save(OutputStream out, ByteOrder order) throws IOException {
    synchronized (lock) {
      Contents c = contents();
      FileLayout layout = FileLayout.of(c);
      AtomicFile.write(out, ch -> {
        c.writeTo(ch, layout, order);
        return null;
      });
    }
  }

  /**
   * Writes the finished GSYM into the empty channel {@code ch} (for instance an {@link
   * AtomicFile#scratch} file to read back with {@code GsymReader.open(FileChannel, String)}).
   */
  public void save(FileChannel ch, ByteOrder order) throws IOException {
    synchronized (lock) {
      Contents c = contents();
      c.writeTo(ch, FileLayout.of(c), order);
    }
  }

  /** The finished contents to write (the caller holds the lock). */
  private Contents contents() {
    Contents c = new Contents(funcs, files.entries(), strings, baseAddress, uuid, outputVersion, version1Limit);
    if (!finished) throw notFinished();
    return c;
  }

  /** Writes {@code c} to {@code path} with {@link AtomicFile}, its layout checked first. */
  private static void write(Path path, Contents c, ByteOrder order) throws IOException {
    FileLayout layout = FileLayout.of(c);
    AtomicFile.write(path, ch -> {
      c.writeTo(ch, layout, order);
      return null;
    });
  }

  /**
   * Splits the finished functions into GSYM files of about {@code segmentSize} bytes named
   * {@code <path>-0x<first function address>} (llvm's {@code --segment-size}). Merged functions
   * and call sites are not copied into segments, as in llvm.
   *
   * @return the paths written
   */
  public List<Path> saveSegments(Path path, ByteOrder order, long segmentSize) throws IOException {
    if (segmentSize <= 0) throw new IllegalArgumentException("invalid segment size zero");
    List<Segment> segments = new ArrayList<>();
    synchronized (lock) {
      if (!finished) throw notFinished();
      int idx = 0;
      while (idx < funcs.size()) {
        Segment seg = new Segment(strings, files);
        long funcBytes = 0;
        for (; idx < funcs.size(); idx++) {
          long est = seg.headerAndTableSize(baseAddress, uuid, outputVersion);
          if (est + funcBytes >= segmentSize) {
            if (funcBytes == 0) {
              throw new IllegalArgumentException("a segment size of " + segmentSize
                  + " is to small to fit any function infos, specify a larger value");
            }
            break;
          }
          funcBytes += FileLayout.alignTo(seg.add(funcs.get(idx).info()), 4);
        }
        segments.add(seg);
      }
    }
    List<Path> written = new ArrayList<>();
    for (Segment seg : segments) {
      Contents c = seg.contents(baseAddress, uuid, outputVersion, version1Limit);
      Path p = path.resolveSibling(path.getFileName() + "-" + Hex.hex(c.funcs().getFirst().start()));
      write(p, c, order);
      written.add(p);
    }
    return written;
  }

  /**
   * A creator holding everything in {@code r}: its strings in table order, its files in index
   * order, base address, UUID and every FunctionInfo with string offsets and file indexes
   * translated. For a file written by LLVM the translation is the identity, so finishing and
   * encoding reproduces the file byte for byte (in either byte order).
   */
  public static GsymCreator from(GsymReader r) {
    return from(r, java.util.function.UnaryOperator.identity());
  }

  /**
   * As {@link #from(GsymReader)}, passing each translated FunctionInfo through {@code edit} (its
   * string offsets and file indexes are valid in the new creator) before it is added.
   */
  public static GsymCreator from(GsymReader r, java.util.function.UnaryOperator<FunctionInfo> edit) {
    return from(r, edit, SPILL_THRESHOLD);
  }

  /** As {@link #from(GsymReader, java.util.function.UnaryOperator)} with a spill threshold (tests). */
  static GsymCreator from(GsymReader r, java.util.function.UnaryOperator<FunctionInfo> edit, long spillThreshold) {
    GsymCreator c = new GsymCreator();
    c.spillThreshold = spillThreshold;
    StringTable table = r.stringTable();
    HashMap<Integer, Integer> strMap = new HashMap<>();
    for (long off = 1; off < table.size(); off = table.next(off)) {
      strMap.put((int) off, c.insertString(table.get(off)));
    }
    IntUnaryOperator str = o -> o == 0 ? 0 : strMap.computeIfAbsent(o, k -> c.insertString(r.string(k)));
    int[] fileMap = new int[r.numFiles()];
    for (int i = 1; i < fileMap.length; i++) {
      FileEntry fe = r.file(i);
      synchronized (c.lock) {
        fileMap[i] = c.files.insertCopied(i, new FileEntry(str.applyAsInt(fe.dir()), str.applyAsInt(fe.base())));
      }
    }
    IntUnaryOperator file = i -> {
      if (i < 0 || i >= fileMap.length) {
        throw new GsymFormatException(r.source(), -1, "file index " + Integer.toUnsignedLong(i)
            + " is past the end of the file table (" + fileMap.length + " entries)");
      }
      return fileMap[i];
    };
    c.setBaseAddress(r.header().baseAddress());
    c.setOutputVersion(r.version());
    c.setUUID(r.uuid());
    for (int i = 0; i < r.numFunctions(); i++) c.addFunctionInfo(edit.apply(r.functionInfoAtIndex(i).remap(str, file)));
    return c;
  }

  /** Encoding or saving before {@link #finish}: a misuse (LLVM words it as an encoding error). */
  private static IllegalStateException notFinished() {
    return new IllegalStateException("GsymCreator wasn't finished (finish()) prior to encoding");
  }
}
