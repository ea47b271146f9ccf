package dev.gsym.breakpad;

import dev.gsym.ByteStrings;
import dev.gsym.demangle.Demangler;
import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.io.AtomicFile;
import dev.gsym.read.GsymReader;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a GSYM file as a Breakpad symbol file (see docs/breakpad.md for the mapping) in the layout
 * Breakpad's {@code dump_syms} writes: {@code MODULE}, {@code INFO CODE_ID}, the {@code FILE}s that
 * line and INLINE records cite, numbered from 0 in byte order of their paths, the {@code
 * INLINE_ORIGIN}s numbered from 0 in byte order of their names, then in address order a {@code FUNC}
 * with its {@code INLINE} and line records for every function with a size, and last, in address
 * order, a {@code PUBLIC} for every size-0 function (and, with {@link Options#symbolsAsPublic}, for
 * every function with neither line table nor inline info). Names are written demangled ({@link
 * Options#demangle}), as dump_syms writes them.
 *
 * <p>The functions are decoded twice, one at a time: a first pass finds the files and inline origins
 * the records cite (their numbers depend on all of them), the second writes the records. The
 * PUBLIC records of the second pass go to a spill (memory up to {@value #SPILL_IN_MEMORY} bytes,
 * then a temporary file) appended after the last FUNC: memory does not grow with the file beyond
 * the file and origin tables. Text is produced as bytes directly; names and paths are written as
 * the bytes they were read from ({@link ByteStrings}).
 */
public final class BreakpadWriter {
  /** The name written for an empty one. */
  static final String UNNAMED = "<unnamed>";
  /** PUBLIC records up to this size are spilled in memory, beyond it to a temporary file. */
  static final int SPILL_IN_MEMORY = 4 << 20;

  /**
   * MODULE fields, and the load address subtracted from every address (Breakpad addresses are
   * module-relative; 0 writes GSYM's addresses unchanged).
   *
   * @param debugId the MODULE id, and {@code codeId} the {@code INFO CODE_ID} value (null: no such
   *     record); both come from the GSYM UUID (see {@link BreakpadIds}) when {@code debugId} is null
   * @param symbolsAsPublic write a sized function that has neither line table nor inline info as a
   *     {@code PUBLIC} record, as dump_syms writes symbol-table entries (its end is then lost: a
   *     PUBLIC extends to the next symbol); otherwise as a {@code FUNC} without line records
   * @param demangle write FUNC, PUBLIC and INLINE_ORIGIN names as {@link Demangler#llvm()} demangles
   *     them (C++ {@code _Z}, Rust and D names; others unchanged), as dump_syms writes demangled
   *     names; false writes the GSYM's names unchanged (a lossless GSYM → .sym → GSYM round trip)
   * @param cfi write the GSYM's unwind information (InfoType UnwindInfo) as STACK CFI and STACK WIN
   *     records after the PUBLIC records, as dump_syms writes them ({@link StackRecords}); false
   *     writes none, as {@code dump_syms -c}
   */
  public record Options(String os, String arch, String moduleName, long loadAddress, String debugId,
      String codeId, boolean symbolsAsPublic, boolean demangle, boolean cfi) {
    /** Ids from the GSYM UUID, sized functions as FUNC, names demangled, STACK records written. */
    public Options(String os, String arch, String moduleName, long loadAddress) {
      this(os, arch, moduleName, loadAddress, null, null, false, true, true);
    }

    /**
     * Options for a Linux x86-64 module named {@code moduleName} at load address 0 (ids from the
     * GSYM UUID).
     */
    public static Options defaults(String moduleName) {
      return new Options("Linux", "x86_64", moduleName, 0);
    }

    /** The MODULE fields, ids and load address of an ELF file as dump_syms makes them. */
    public static Options of(ElfModule m) {
      return new Options(m.os(), m.arch(), m.name(), m.loadAddress(), m.debugId(), m.codeId(), true, true, true);
    }

    /** These options with names demangled or not. */
    public Options withDemangle(boolean demangle) {
      return new Options(os, arch, moduleName, loadAddress, debugId, codeId, symbolsAsPublic, demangle, cfi);
    }

    /** These options with STACK records written or not. */
    public Options withCfi(boolean cfi) {
      return new Options(os, arch, moduleName, loadAddress, debugId, codeId, symbolsAsPublic, demangle, cfi);
    }
  }

  /**
   * What was written.
   *
   * @param stackRecords STACK CFI INIT, STACK CFI and STACK WIN lines
   */
  public record Result(long functions, long publics, long files, long inlineOrigins, long stackRecords) {}

  private final GsymReader reader;
  private final Options options;
  private final Demangler demangler = Demangler.llvm();
  /** Per GSYM file index: its path is not empty (it can be cited). */
  private final boolean[] hasPath;
  /** Per GSYM file index: the FILE number, -1 while not cited (first pass: 0 = cited). */
  private final int[] fileIds;
  /** Name strp -> INLINE_ORIGIN number (first pass: -> 0, the names met). */
  private final IntIntMap originIds = new IntIntMap();
  private long origins;
  private Path spillDir;
  private int spillLimit = SPILL_IN_MEMORY;

  /** A writer of {@code reader}'s functions as a Breakpad symbol file with {@code options}. */
  public BreakpadWriter(GsymReader reader, Options options) {
    this.reader = reader;
    this.options = options;
    this.hasPath = new boolean[reader.numFiles()];
    this.fileIds = new int[reader.numFiles()];
    Arrays.fill(fileIds, -1);
  }

  /**
   * Writes to {@code path} with {@link AtomicFile} (a regular file through a temporary file renamed
   * into place, so no partial output; a symbolic link's target likewise; a device or FIFO in place).
   */
  public static Result write(GsymReader reader, Options options, Path path) throws IOException {
    Path dir = AtomicFile.temporaryDirectory(path);
    return AtomicFile.write(path, ch -> {
      BreakpadWriter w = new BreakpadWriter(reader, options);
      w.spillDir = dir;
      return w.write(Channels.newOutputStream(ch));
    });
  }

  /** Writes to {@code out} (flushed, not closed) once the whole text is made: nothing on failure. */
  public static Result write(GsymReader reader, Options options, OutputStream out) throws IOException {
    return AtomicFile.write(out, ch -> new BreakpadWriter(reader, options).write(Channels.newOutputStream(ch)));
  }

  /** Spill to a temporary file in {@code dir} beyond {@code inMemory} bytes (tests). */
  BreakpadWriter spill(Path dir, int inMemory) {
    this.spillDir = dir;
    this.spillLimit = inMemory;
    return this;
  }

  /** Writes the symbol file to {@code out} (flushed, not closed). Call once. */
  public Result write(OutputStream out) throws IOException {
    Text text = new Text(out);
    byte[] uuid = reader.uuid();
    boolean fromUuid = options.debugId() == null;
    text.ascii("MODULE ").text(options.os()).put(' ').text(options.arch()).put(' ')
        .text(fromUuid ? BreakpadIds.moduleId(options.os(), uuid) : options.debugId()).put(' ')
        .text(options.moduleName()).put('\n');
    String codeId = fromUuid ? BreakpadIds.codeId(uuid) : options.codeId();
    if (codeId != null) text.ascii("INFO CODE_ID ").text(codeId).put('\n');
    for (int i = 1; i < hasPath.length; i++) hasPath[i] = !path(reader.file(i)).isEmpty();
    // first pass: the files and origins the records cite
    int n = reader.numFunctions();
    for (int i = 0; i < n; i++) records(reader.functionInfoAtIndex(i), null);
    long files = numberFiles(text);
    numberOrigins(text);
    // second pass: the records
    long funcs = 0;
    long publics = 0;
    try (Spill spill = new Spill(spillDir, spillLimit)) {
      Text tail = new Text(spill);
      for (int i = 0; i < n; i++) {
        FunctionInfo fi = reader.functionInfoAtIndex(i);
        if (isPublic(fi)) {
          tail.ascii(merged(fi) ? "PUBLIC m " : "PUBLIC ").hex(rel(fi.range().start())).ascii(" 0 ")
              .name(name(fi.name())).put('\n');
          publics++;
        } else {
          records(fi, text);
          funcs++;
        }
      }
      tail.flush();
      text.flush();
      spill.copyTo(out);
    }
    long stack = options.cfi() ? stackRecords(out) : 0;
    out.flush();
    return new Result(funcs, publics, files, origins, stack);
  }

  /**
   * The STACK records of every unwind entry, each once (from the record it starts in), in the order
   * of their ordinals: the order their source listed them, as dump_syms writes them.
   */
  private long stackRecords(OutputStream out) throws IOException {
    int n = reader.numFunctions();
    long[] keys = new long[16]; // ordinal, index: sorted as pairs
    int count = 0;
    for (int i = 0; i < n; i++) {
      dev.gsym.format.UnwindInfo u = reader.unwindInfoAtIndex(i);
      if (u == null) continue;
      for (dev.gsym.unwind.UnwindEntry e : u.entries()) {
        if (count + 2 > keys.length) keys = Arrays.copyOf(keys, keys.length * 2);
        keys[count++] = e.ordinal();
        keys[count++] = i;
      }
    }
    Integer[] order = new Integer[count / 2];
    for (int k = 0; k < order.length; k++) order[k] = k;
    final long[] kv = keys;
    Arrays.sort(order, (a, b) -> a.equals(b) ? 0 : kv[2 * a] != kv[2 * b] ? Long.compare(kv[2 * a], kv[2 * b])
        : Long.compare(kv[2 * a + 1], kv[2 * b + 1]));
    long lines = 0;
    int cachedIndex = -1;
    dev.gsym.format.UnwindInfo cached = null;
    StringBuilder sb = new StringBuilder();
    for (Integer k : order) {
      int index = (int) kv[2 * k + 1];
      if (index != cachedIndex) {
        cached = reader.unwindInfoAtIndex(index);
        cachedIndex = index;
      }
      for (dev.gsym.unwind.UnwindEntry e : cached.entries()) {
        if (e.ordinal() != kv[2 * k]) continue;
        String text = StackRecords.write(cached.arch(), e, options.loadAddress());
        sb.append(text);
        for (int c = 0; c < text.length(); c++) if (text.charAt(c) == '\n') lines++;
        break;
      }
      if (sb.length() > 1 << 16) {
        out.write(sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        sb.setLength(0);
      }
    }
    out.write(sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return lines;
  }

  private static boolean merged(FunctionInfo fi) {
    return fi.mergedFunctions() != null && !fi.mergedFunctions().mergedFunctions().isEmpty();
  }

  /** Written as a PUBLIC record: size 0, or (symbolsAsPublic) neither line table nor inline info. */
  private boolean isPublic(FunctionInfo fi) {
    return fi.range().size() == 0 || options.symbolsAsPublic() && fi.inlineInfo() == null
        && (fi.lineTable() == null || fi.lineTable().rows().isEmpty());
  }

  /**
   * The FUNC record of {@code fi} with its INLINE and line records to {@code out}; with {@code out}
   * null (first pass) only the files and origin names they cite are noted. Both passes make the
   * same choices because both run this code.
   */
  private void records(FunctionInfo fi, Text out) throws IOException {
    if (out == null && isPublic(fi)) return;
    if (out != null) {
      out.ascii(merged(fi) ? "FUNC m " : "FUNC ").hex(rel(fi.range().start())).put(' ').hex(fi.range().size())
          .ascii(" 0 ").name(name(fi.name())).put('\n');
    }
    if (fi.inlineInfo() != null) {
      for (InlineInfo c : fi.inlineInfo().children()) inlineRecords(c, 0, out);
    }
    if (fi.lineTable() != null) lineRecords(fi.lineTable().rows(), fi.range(), out);
  }

  /** The name to write for the string {@code strp}: demangled if so configured. */
  private String name(int strp) {
    String s = reader.string(strp);
    return options.demangle() ? demangler.demangle(s) : s;
  }

  /**
   * FILE records for the cited files, numbered from 0 in byte order of their paths (dump_syms'
   * order; one number for equal paths); {@link #fileIds} then maps GSYM file indexes to them.
   */
  private long numberFiles(Text out) throws IOException {
    List<byte[]> paths = new ArrayList<>();
    List<Integer> indexes = new ArrayList<>();
    for (int i = 1; i < fileIds.length; i++) {
      if (fileIds[i] == 0 && hasPath[i]) {
        paths.add(written(path(reader.file(i))));
        indexes.add(i);
      }
    }
    Integer[] order = new Integer[paths.size()];
    for (int k = 0; k < order.length; k++) order[k] = k;
    Arrays.sort(order, (x, y) -> Arrays.compareUnsigned(paths.get(x), paths.get(y)));
    Arrays.fill(fileIds, -1);
    int next = -1;
    byte[] last = null;
    for (int k : order) {
      byte[] p = paths.get(k);
      if (last == null || !Arrays.equals(p, last)) {
        next++;
        out.ascii("FILE ").dec(next).put(' ').bytes(p).put('\n');
        last = p;
      }
      fileIds[indexes.get(k)] = next;
    }
    return next + 1;
  }

  /**
   * INLINE_ORIGIN records for the cited names, numbered from 0 in byte order of the names as written
   * (dump_syms' order; one number for equal names, also when they come from different strings).
   */
  private void numberOrigins(Text out) throws IOException {
    int[] strps = originIds.keys();
    byte[][] names = new byte[strps.length][];
    Integer[] order = new Integer[strps.length];
    for (int k = 0; k < strps.length; k++) {
      String s = name(strps[k]);
      names[k] = written(s.isEmpty() ? UNNAMED : s);
      order[k] = k;
    }
    Arrays.sort(order, (x, y) -> Arrays.compareUnsigned(names[x], names[y]));
    int next = -1;
    byte[] last = null;
    for (int k : order) {
      if (last == null || !Arrays.equals(names[k], last)) {
        next++;
        out.ascii("INLINE_ORIGIN ").dec(next).put(' ').bytes(names[k]).put('\n');
        last = names[k];
      }
      originIds.put(strps[k], next);
    }
    origins = next + 1;
  }

  /** The bytes {@link Text#text} writes for {@code s}. */
  private static byte[] written(String s) {
    return ByteStrings.encode(s.replace('\n', ' ').replace('\r', ' '));
  }

  /** {@code a} relative to the load address. */
  private long rel(long a) {
    long load = options.loadAddress();
    if (Long.compareUnsigned(a, load) < 0) {
      throw new GsymFormatException(reader.source(), -1, "address 0x" + Long.toHexString(a)
          + " is below the load address 0x" + Long.toHexString(load));
    }
    return a - load;
  }

  private String path(FileEntry fe) {
    String dir = fe.dir() == 0 ? "" : reader.string(fe.dir());
    String base = fe.base() == 0 ? "" : reader.string(fe.base());
    if (dir.isEmpty() && base.isEmpty()) return "";
    StringBuilder sb = new StringBuilder();
    FileTable.appendPath(sb, dir, base);
    return sb.toString();
  }

  /** A file a record can cite: a GSYM file index other than 0 whose path is not empty. */
  private boolean citable(int f) {
    return f > 0 && f < hasPath.length && hasPath[f];
  }

  /**
   * INLINE records in pre-order (first pass: {@code out} null, the call files and names noted). A
   * node without a usable call file never becomes a frame in a GSYM lookup; it is left out and its
   * children take its place (same lookups).
   */
  private void inlineRecords(InlineInfo node, int level, Text out) throws IOException {
    if (!citable(node.callFile())) {
      for (InlineInfo c : node.children()) inlineRecords(c, level, out);
      return;
    }
    if (out == null) {
      fileIds[node.callFile()] = 0;
      originIds.put(node.name(), 0);
    } else {
      out.ascii("INLINE ").dec(level).put(' ').dec(Integer.toUnsignedLong(node.callLine())).put(' ')
          .dec(fileIds[node.callFile()]).put(' ').dec(originIds.get(node.name()));
      for (AddressRange r : node.ranges()) out.put(' ').hex(rel(r.start())).put(' ').hex(r.size());
      out.put('\n');
    }
    for (InlineInfo c : node.children()) inlineRecords(c, level + 1, out);
  }

  /**
   * One line record per distinct row address: the last row at an address (the one GSYM lookups
   * answer with) from its address to the next row's address or the function end. Rows whose file
   * is 0 (or has no path) get no record. First pass ({@code out} null): the files noted.
   */
  private void lineRecords(List<LineEntry> rows, AddressRange range, Text out) throws IOException {
    for (int i = 0; i < rows.size(); i++) {
      LineEntry row = rows.get(i);
      long a = row.address();
      int j = i + 1;
      if (j < rows.size() && rows.get(j).address() == a) continue; // a later row at a wins
      long end = j < rows.size() ? rows.get(j).address() : range.end();
      if (Long.compareUnsigned(a, range.start()) < 0 || Long.compareUnsigned(a, range.end()) >= 0) continue;
      if (Long.compareUnsigned(end, range.end()) > 0) end = range.end();
      int f = row.file();
      if (!citable(f)) continue;
      if (out == null) {
        fileIds[f] = 0;
        continue;
      }
      out.hex(rel(a)).put(' ').hex(end - a).put(' ').dec(Integer.toUnsignedLong(row.line())).put(' ')
          .dec(fileIds[f]).put('\n');
    }
  }

  /** int keys to non-negative int values (open addressing, no boxing); -1 for a missing key. */
  static final class IntIntMap {
    private int[] keys = new int[1024];
    private int[] values = new int[1024]; // value + 1; 0 = empty slot
    private int size;

    int size() {
      return size;
    }

    private int slot(int key) {
      int mask = keys.length - 1;
      int h = key * 0x9E3779B9;
      int i = (h ^ (h >>> 16)) & mask;
      while (values[i] != 0 && keys[i] != key) i = (i + 1) & mask;
      return i;
    }

    int get(int key) {
      return values[slot(key)] - 1;
    }

    /** The keys, in no particular order. */
    int[] keys() {
      int[] out = new int[size];
      int n = 0;
      for (int i = 0; i < keys.length; i++) if (values[i] != 0) out[n++] = keys[i];
      return out;
    }

    void put(int key, int value) {
      int i = slot(key);
      if (values[i] == 0) {
        if (2 * (size + 1) > keys.length) {
          int[] k = keys;
          int[] v = values;
          keys = new int[k.length * 2];
          values = new int[k.length * 2];
          for (int j = 0; j < k.length; j++) {
            if (v[j] != 0) {
              int t = slot(k[j]);
              keys[t] = k[j];
              values[t] = v[j];
            }
          }
          i = slot(key);
        }
        size++;
      }
      keys[i] = key;
      values[i] = value + 1;
    }
  }

  /** Buffered text output with number formatting straight into the buffer. */
  static final class Text {
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private int pos;

    Text(OutputStream out) {
      this.out = out;
    }

    private void room(int n) throws IOException {
      if (buf.length - pos < n) flush();
    }

    void flush() throws IOException {
      out.write(buf, 0, pos);
      pos = 0;
    }

    Text put(char c) throws IOException {
      room(1);
      buf[pos++] = (byte) c;
      return this;
    }

    /** Lower-case hex without leading zeros (as Long.toHexString). */
    Text hex(long v) throws IOException {
      room(16);
      int digits = v == 0 ? 1 : (67 - Long.numberOfLeadingZeros(v)) >> 2;
      for (int i = pos + digits - 1; i >= pos; i--) {
        buf[i] = DIGITS[(int) (v & 15)];
        v >>>= 4;
      }
      pos += digits;
      return this;
    }

    /** A non-negative decimal. */
    Text dec(long v) throws IOException {
      room(20);
      int digits = 1;
      for (long t = v; t >= 10; t /= 10) digits++;
      for (int i = pos + digits - 1; i >= pos; i--) {
        buf[i] = (byte) ('0' + v % 10);
        v /= 10;
      }
      pos += digits;
      return this;
    }

    /** ASCII text without line ends. */
    Text ascii(String s) throws IOException {
      room(s.length());
      for (int i = 0; i < s.length(); i++) buf[pos++] = (byte) s.charAt(i);
      return this;
    }

    /** A name or path on one line: CR/LF (which would end the record) become spaces. */
    Text text(String s) throws IOException {
      int n = s.length();
      for (int i = 0; i < n; i++) {
        if (s.charAt(i) >= 0x80) {
          byte[] b = ByteStrings.encode(s.replace('\n', ' ').replace('\r', ' '));
          if (b.length > buf.length - pos) {
            flush();
            if (b.length > buf.length) {
              out.write(b);
              return this;
            }
          }
          System.arraycopy(b, 0, buf, pos, b.length);
          pos += b.length;
          return this;
        }
      }
      for (int i = 0; i < n; i += buf.length) { // ASCII: copy in buffer-sized pieces
        int m = Math.min(n - i, buf.length);
        room(m);
        for (int k = i; k < i + m; k++) {
          char c = s.charAt(k);
          buf[pos++] = (byte) (c == '\n' || c == '\r' ? ' ' : c);
        }
      }
      return this;
    }

    /** As {@link #text}, with {@code <unnamed>} for an empty name. */
    Text name(String s) throws IOException {
      return text(s.isEmpty() ? UNNAMED : s);
    }

    /** Bytes as they are (a name or path already without line ends). */
    Text bytes(byte[] b) throws IOException {
      if (b.length > buf.length - pos) {
        flush();
        if (b.length > buf.length) {
          out.write(b);
          return this;
        }
      }
      System.arraycopy(b, 0, buf, pos, b.length);
      pos += b.length;
      return this;
    }
  }

  /** Bytes kept in memory up to a limit, then in a temporary file (deleted on close). */
  private static final class Spill extends OutputStream implements Closeable {
    private final Path dir;
    private final int limit;
    private byte[] mem = new byte[1 << 16];
    private int size;
    /** Beyond the limit: a temporary file unlinked as soon as it is opened (POSIX), never left over. */
    private FileChannel file;
    private OutputStream fileOut;

    Spill(Path dir, int limit) {
      this.dir = dir;
      this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (fileOut == null && size + len <= limit) {
        if (size + len > mem.length) mem = Arrays.copyOf(mem, Math.max(size + len, Math.min(limit, 2 * mem.length)));
        System.arraycopy(b, off, mem, size, len);
        size += len;
        return;
      }
      if (fileOut == null) {
        file = open(dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir")));
        fileOut = new BufferedOutputStream(Channels.newOutputStream(file), 1 << 16);
        fileOut.write(mem, 0, size);
        mem = null;
      }
      fileOut.write(b, off, len);
    }

    private static FileChannel open(Path dir) throws IOException {
      for (int attempt = 0; ; attempt++) {
        Path p = dir.resolve(".gsymutil-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1)
            + ".sym.part");
        try {
          return FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
              StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
        } catch (FileAlreadyExistsException e) {
          if (attempt > 100) throw e;
        }
      }
    }

    /** Appends everything written to {@code out}. */
    void copyTo(OutputStream out) throws IOException {
      if (fileOut == null) {
        out.write(mem, 0, size);
        return;
      }
      fileOut.flush();
      file.position(0);
      InputStream in = Channels.newInputStream(file);
      byte[] b = new byte[1 << 18];
      for (int n; (n = in.read(b)) > 0; ) out.write(b, 0, n);
    }

    @Override
    public void close() throws IOException {
      if (file != null) file.close();
    }
  }
}
