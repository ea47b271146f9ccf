package dev.gsym.testing;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.Header;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.io.AtomicFile;
import dev.gsym.io.GsymWriter;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A deterministic synthetic GSYM of any size up to about 1.5 GB (8 million functions), streamed
 * to disk function by function with gsym-core's encoders and never held in memory, together with
 * the answer every address must get: the oracle for lookup tests over files far larger than the
 * heap.
 *
 * <p>Function {@code i} starts at {@code BASE_ADDRESS + i * SLOT} and is 256..508 bytes long (the
 * rest of its slot is a gap no function covers). It is named {@code gen_function_<i>}; most have a
 * line table with a row every 4 bytes that switches file half-way, and most of those an inline tree
 * (two inlined calls, one with a nested call, one with two ranges). Every 16th function has only a
 * name and a range, as symbol-table functions do.
 *
 * <p>The layout is llvm-gsymutil's: header, address table (4-byte offsets), address-info table,
 * file table, string table, then the 4-aligned FunctionInfo records. The string table is sized in
 * a first pass that only counts bytes; the second pass writes the four regions side by side
 * through 1 MiB buffers, so memory use does not depend on the number of functions.
 *
 * <p>{@code main} generates a file ({@code generate FILE --functions N | --size BYTES}) or checks
 * random lookups in one against the oracle ({@code check FILE LOOKUPS SEED}); the check exits 1 on
 * any wrong answer. {@code addresses FILE COUNT SEED} prints the check's addresses as
 * {@code --addresses-from-stdin} lines, {@code expect FILE ADDR...} the oracle's answers as
 * llvm-gsymutil prints them, {@code slurp FILE} reads a file into the heap (a control for
 * heap-bound tests).
 */
public final class SyntheticGsym {
  /** Start address of function 0. */
  public static final long BASE_ADDRESS = 0x40_0000L;
  /** Address distance between consecutive functions. */
  public static final int SLOT = 512;
  /** Address distance between line-table rows. */
  static final int ROW_STRIDE = 4;
  static final int NUM_DIRS = 4;
  static final int NUM_FILES = 64;
  static final int NUM_INLINE_NAMES = 256;
  /** Largest function count whose address offsets and record offsets fit the format's u32 fields. */
  public static final int MAX_FUNCTIONS = (int) (0xffff_ffffL / SLOT) - 1;

  private static final String NAME_PREFIX = "gen_function_";

  private final int numFunctions;

  /** The model of a file with {@code numFunctions} functions. */
  public SyntheticGsym(int numFunctions) {
    if (numFunctions < 1 || numFunctions > MAX_FUNCTIONS) {
      throw new IllegalArgumentException("function count must be in [1, " + MAX_FUNCTIONS + "]: " + numFunctions);
    }
    this.numFunctions = numFunctions;
  }

  public int numFunctions() {
    return numFunctions;
  }

  // ------------------------------------------------------------------ the model

  private static long mix(long x) { // SplitMix64 finalizer: a fixed pseudo-random value per index
    x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
    x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
    return x ^ (x >>> 31);
  }

  public static long start(int i) {
    return BASE_ADDRESS + (long) i * SLOT;
  }

  /** Byte size of function {@code i}: a multiple of 4 in [256, 508]. */
  public static int size(int i) {
    return 256 + 4 * (int) Long.remainderUnsigned(mix(i), 64);
  }

  public static String name(int i) {
    return NAME_PREFIX + i;
  }

  /** 0: line table and inline tree, 1: line table only, 2: name and range only. */
  static int kind(int i) {
    int k = (int) Long.remainderUnsigned(mix(i) >>> 8, 16);
    return k == 15 ? 2 : k % 4 == 1 ? 1 : 0;
  }

  static int file1(int i) {
    return 1 + i % NUM_FILES;
  }

  static int file2(int i) {
    return 1 + (i * 7 + 3) % NUM_FILES;
  }

  static int file3(int i) {
    return 1 + (i * 11 + 5) % NUM_FILES;
  }

  static String dir(int file) {
    return "/src/gen/mod" + (file % NUM_DIRS);
  }

  static String base(int file) {
    return "gen_file_" + file + (file % 3 == 0 ? ".h" : ".c");
  }

  static String inlineName(int k) {
    return "gen_inline_helper_" + k + "<int>";
  }

  static int rowLine(int i, int r) {
    int first = 1 + (int) Long.remainderUnsigned(mix(i) >>> 16, 5000);
    return first + r + (r % 5 == 4 ? -3 : 0);
  }

  static int rowFile(int i, int r) {
    return r < size(i) / ROW_STRIDE / 2 ? file1(i) : file2(i);
  }

  /** One inlined call of function {@code i}: ranges relative to the function start. */
  private record Call(long[] ranges, int nameIndex, int callFile, int callLine, Call child) {}

  private static Call callA(int i) {
    int q = size(i) / 4 & ~3;
    Call b = new Call(new long[] {q + 8, q + 24}, (i * 13 + 1) % NUM_INLINE_NAMES, file3(i), 2000 + i % 89, null);
    return new Call(new long[] {q, 2L * q}, i * 7 % NUM_INLINE_NAMES, file1(i), 1000 + i % 97, b);
  }

  private static Call callC(int i) {
    int q = size(i) / 4 & ~3;
    return new Call(new long[] {3L * q, 3L * q + 16, 3L * q + 32, 3L * q + 48},
        (i * 29 + 2) % NUM_INLINE_NAMES, file2(i), 3000 + i % 83, null);
  }

  private static boolean covers(Call c, long off) {
    for (int k = 0; k < c.ranges.length; k += 2) {
      if (off >= c.ranges[k] && off < c.ranges[k + 1]) return true;
    }
    return false;
  }

  /**
   * What {@code GsymReader.lookup(addr)} and llvm-gsymutil must answer, or null if no function
   * covers {@code addr} ("address … is not in GSYM").
   */
  public LookupResult expected(long addr) {
    long rel = addr - BASE_ADDRESS;
    if (rel < 0 || rel >= (long) numFunctions * SLOT) return null;
    int i = (int) (rel / SLOT);
    long off = rel % SLOT;
    if (off >= size(i)) return null;
    long start = start(i);
    String fname = name(i);
    AddressRange range = new AddressRange(start, start + size(i));
    List<SourceLocation> locs = new ArrayList<>();
    if (kind(i) == 2) {
      locs.add(new SourceLocation(fname, "", "", 0, off));
      return new LookupResult(addr, range, fname, locs, List.of());
    }
    int r = (int) (off / ROW_STRIDE);
    int f = rowFile(i, r);
    locs.add(new SourceLocation(fname, dir(f), base(f), rowLine(i, r), off));
    if (kind(i) == 0) {
      List<Call> chain = new ArrayList<>(); // deepest first
      Call a = callA(i);
      Call c = callC(i);
      if (covers(a, off)) {
        if (covers(a.child, off)) chain.add(a.child);
        chain.add(a);
      } else if (covers(c, off)) {
        chain.add(c);
      }
      for (Call call : chain) {
        SourceLocation last = locs.getLast();
        locs.set(locs.size() - 1, new SourceLocation(inlineName(call.nameIndex), last.dir(), last.base(),
            last.line(), off - call.ranges[0]));
        locs.add(new SourceLocation(last.name(), dir(call.callFile), base(call.callFile), call.callLine,
            last.offset()));
      }
    }
    return new LookupResult(addr, range, fname, locs, List.of());
  }

  /** Function {@code i} as a FunctionInfo whose name is at string offset {@code nameStrp}. */
  FunctionInfo functionInfo(int i, int nameStrp, Strings s) {
    long start = start(i);
    AddressRange range = new AddressRange(start, start + size(i));
    if (kind(i) == 2) return new FunctionInfo(range, nameStrp);
    int rows = size(i) / ROW_STRIDE;
    List<LineEntry> lines = new ArrayList<>(rows);
    for (int r = 0; r < rows; r++) lines.add(new LineEntry(start + (long) r * ROW_STRIDE, rowFile(i, r), rowLine(i, r)));
    InlineInfo inline = null;
    if (kind(i) == 0) {
      inline = new InlineInfo(List.of(range), nameStrp, 0, 0,
          List.of(inlineNode(start, callA(i), s), inlineNode(start, callC(i), s)));
    }
    return new FunctionInfo(range, nameStrp, new LineTable(lines), inline, null, null);
  }

  private static InlineInfo inlineNode(long start, Call c, Strings s) {
    List<AddressRange> ranges = new ArrayList<>();
    for (int k = 0; k < c.ranges.length; k += 2) ranges.add(new AddressRange(start + c.ranges[k], start + c.ranges[k + 1]));
    List<InlineInfo> kids = c.child == null ? List.of() : List.of(inlineNode(start, c.child, s));
    return new InlineInfo(ranges, s.inline[c.nameIndex], c.callFile, c.callLine, kids);
  }

  /** The fixed strings at the start of the string table (everything except function names). */
  static final class Strings {
    final byte[] pool; // "" then the fixed strings, NUL-terminated
    final int[] dir = new int[NUM_FILES + 1];
    final int[] base = new int[NUM_FILES + 1];
    final int[] inline = new int[NUM_INLINE_NAMES];

    Strings() {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      out.write(0);
      java.util.HashMap<String, Integer> seen = new java.util.HashMap<>();
      java.util.function.ToIntFunction<String> add = str -> seen.computeIfAbsent(str, k -> {
        int at = out.size();
        out.writeBytes(k.getBytes(StandardCharsets.UTF_8));
        out.write(0);
        return at;
      });
      for (int f = 1; f <= NUM_FILES; f++) {
        dir[f] = add.applyAsInt(dir(f));
        base[f] = add.applyAsInt(base(f));
      }
      for (int k = 0; k < NUM_INLINE_NAMES; k++) inline[k] = add.applyAsInt(inlineName(k));
      pool = out.toByteArray();
    }
  }

  private static int decimalDigits(int v) {
    int d = 1;
    while (v >= 10) {
      v /= 10;
      d++;
    }
    return d;
  }

  // ------------------------------------------------------------------ writing

  /** A region of the output written sequentially from a fixed offset through a buffer. */
  private static final class Region {
    private final FileChannel ch;
    private final ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private long pos;

    Region(FileChannel ch, long pos) {
      this.ch = ch;
      this.pos = pos;
    }

    long position() {
      return pos + buf.position();
    }

    void put(byte[] b, int off, int len) throws IOException {
      while (len > 0) {
        if (!buf.hasRemaining()) flush();
        int n = Math.min(len, buf.remaining());
        buf.put(b, off, n);
        off += n;
        len -= n;
      }
    }

    void u32(long v) throws IOException {
      if (buf.remaining() < 4) flush();
      buf.putInt((int) v);
    }

    void u8(int v) throws IOException {
      if (!buf.hasRemaining()) flush();
      buf.put((byte) v);
    }

    void flush() throws IOException {
      buf.flip();
      while (buf.hasRemaining()) pos += ch.write(buf, pos);
      buf.clear();
    }
  }

  /**
   * Writes the file (little endian) through a temporary file renamed into place.
   *
   * @return the file size in bytes
   */
  public long write(Path path) throws IOException {
    Strings s = new Strings();
    long names = 0;
    for (int i = 0; i < numFunctions; i++) names += NAME_PREFIX.length() + decimalDigits(i) + 1;
    long strtabSize = s.pool.length + names;
    long n = numFunctions;
    long infoAt = Header.SIZE + 4 * n;
    long fileAt = infoAt + 4 * n;
    long strAt = fileAt + 4 + 8L * (NUM_FILES + 1);
    long recordsAt = (strAt + strtabSize + 3) & ~3L;
    if (recordsAt > 0xffff_ffffL) throw new IllegalArgumentException("string table past 4 GiB");
    return AtomicFile.write(path, ch -> {
      GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 0, 4096);
      new Header(Header.VERSION, 4, BASE_ADDRESS, n, strAt, strtabSize, new byte[0]).encode(w);
      List<FileEntry> files = new ArrayList<>();
      files.add(FileEntry.NONE);
      for (int f = 1; f <= NUM_FILES; f++) files.add(new FileEntry(s.dir[f], s.base[f]));
      GsymWriter ft = new GsymWriter(ByteOrder.LITTLE_ENDIAN, fileAt, 1024);
      FileTable.encode(ft, files);
      Region addrs = new Region(ch, 0);
      Region infos = new Region(ch, infoAt);
      Region strings = new Region(ch, fileAt);
      Region records = new Region(ch, recordsAt);
      addrs.put(w.toByteArray(), 0, w.length());
      strings.put(ft.toByteArray(), 0, ft.length());
      strings.put(s.pool, 0, s.pool.length);
      long nameStrp = s.pool.length;
      byte[] nameBytes = new byte[64];
      for (int i = 0; i < numFunctions; i++) {
        addrs.u32((long) i * SLOT);
        long at = records.position();
        if (at > 0xffff_ffffL - 4096) throw new IllegalArgumentException("FunctionInfo records past 4 GiB");
        infos.u32(at);
        String name = name(i);
        int len = name.length(); // ASCII
        for (int k = 0; k < len; k++) nameBytes[k] = (byte) name.charAt(k);
        nameBytes[len] = 0;
        strings.put(nameBytes, 0, len + 1);
        w.reset();
        functionInfo(i, (int) nameStrp, s).encode(w);
        while (w.length() % 4 != 0) w.u8(0);
        records.put(w.toByteArray(), 0, w.length()); // small copies; records go to disk as they come
        nameStrp += len + 1;
      }
      for (Region r : new Region[] {addrs, infos, strings, records}) r.flush();
      if (strings.position() != strAt + strtabSize) throw new IllegalStateException("string table size mismatch");
      while (records.position() < recordsAt) records.u8(0);
      return ch.size();
    });
  }

  /** A function count giving a file of about {@code bytes} bytes (from the first 4096 records). */
  public static int functionsForSize(long bytes) {
    Strings s = new Strings();
    int sample = 4096;
    long total = 0;
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 0, 4096);
    for (int i = 0; i < sample; i++) {
      w.reset();
      new SyntheticGsym(sample).functionInfo(i, 1, s).encode(w);
      total += (w.length() + 3) & ~3;
    }
    double perFunction = (double) total / sample + 8 + NAME_PREFIX.length() + 8; // tables, name
    long n = (long) Math.ceil(bytes / perFunction);
    return (int) Math.max(1, Math.min(MAX_FUNCTIONS, n));
  }

  // ------------------------------------------------------------------ checking

  /** Outcome of {@link #check}. */
  public record CheckResult(long lookups, long found, long notFound, long mismatches, List<String> firstMismatches) {}

  /**
   * Looks up {@code lookups} random addresses (fixed {@code seed}, a few past the last function)
   * in {@code reader} and compares every answer with {@link #expected}.
   */
  public CheckResult check(GsymReader reader, long lookups, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long span = (long) numFunctions * SLOT + SLOT;
    long found = 0;
    long notFound = 0;
    long bad = 0;
    List<String> first = new ArrayList<>();
    for (long k = 0; k < lookups; k++) {
      long addr = BASE_ADDRESS + rnd.nextLong(span);
      LookupResult want = expected(addr);
      LookupResult got;
      try {
        got = reader.lookup(addr);
      } catch (LookupException e) {
        got = null;
      }
      if (got != null) found++;
      else notFound++;
      if (want == null ? got != null : !want.equals(got)) {
        bad++;
        if (first.size() < 5) first.add("expected " + want + "but got " + got);
      }
    }
    return new CheckResult(lookups, found, notFound, bad, first);
  }

  /** Sum of the peak usage of every heap memory pool (an upper bound of the peak heap in use). */
  public static long peakHeapUsed() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
    }
    return sum;
  }

  /**
   * " rss_anon=…MB rss_file=…MB" from /proc/self/status (Linux): anonymous memory (heap, JIT,
   * metaspace) apart from the mapped file's resident pages; "" where unavailable.
   */
  static String residentSplit() {
    try {
      StringBuilder sb = new StringBuilder();
      for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
        String[] f = line.split("\\s+");
        if (f.length >= 2 && (f[0].equals("RssAnon:") || f[0].equals("RssFile:"))) {
          sb.append(f[0].equals("RssAnon:") ? " rss_anon=" : " rss_file=")
              .append(String.format("%.1fMB", Long.parseLong(f[1]) * 1024 / 1e6));
        }
      }
      return sb.toString();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** See the class comment. */
  public static void main(String[] args) throws IOException {
    PrintStream out = System.out;
    if (args.length == 4 && args[0].equals("generate")) {
      Path file = Path.of(args[1]);
      int n = switch (args[2]) {
        case "--functions" -> Integer.parseInt(args[3]);
        case "--size" -> functionsForSize(Long.parseLong(args[3]));
        default -> throw new IllegalArgumentException("expected --functions N or --size BYTES: " + args[2]);
      };
      long t0 = System.nanoTime();
      long size = new SyntheticGsym(n).write(file);
      out.printf("wrote %s: %,d bytes, %,d functions in %.2f s, peak heap used %.1f MB%n", file, size, n,
          (System.nanoTime() - t0) / 1e9, peakHeapUsed() / 1e6);
      return;
    }
    if (args.length == 4 && args[0].equals("check")) {
      Path file = Path.of(args[1]);
      long lookups = Long.parseLong(args[2]);
      long seed = Long.parseLong(args[3]);
      long t0 = System.nanoTime();
      CheckResult r;
      String rss;
      try (GsymReader reader = GsymReader.open(file)) {
        r = new SyntheticGsym(reader.numFunctions()).check(reader, lookups, seed);
        rss = residentSplit(); // before close() unmaps the file
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      out.printf("lookups=%d found=%d not_in_gsym=%d mismatches=%d wall=%.2fs max_heap=%.1fMB peak_heap_used=%.1fMB%s%n",
          r.lookups(), r.found(), r.notFound(), r.mismatches(), secs,
          Runtime.getRuntime().maxMemory() / 1e6, peakHeapUsed() / 1e6, rss);
      r.firstMismatches().forEach(out::println);
      out.flush();
      if (r.mismatches() != 0) System.exit(1);
      return;
    }
    if (args.length == 4 && args[0].equals("addresses")) {
      // the check's addresses as "<addr> <file>" lines, for --addresses-from-stdin
      SplittableRandom rnd = new SplittableRandom(Long.parseLong(args[3]));
      int n;
      try (GsymReader reader = GsymReader.open(Path.of(args[1]))) {
        n = reader.numFunctions();
      }
      long span = (long) n * SLOT + SLOT;
      StringBuilder sb = new StringBuilder();
      for (long k = 0, count = Long.parseLong(args[2]); k < count; k++) {
        sb.append("0x").append(Long.toHexString(BASE_ADDRESS + rnd.nextLong(span))).append(' ').append(args[1]).append('\n');
        if (sb.length() > 1 << 16) {
          out.append(sb);
          sb.setLength(0);
        }
      }
      out.append(sb).flush();
      return;
    }
    if (args.length >= 3 && args[0].equals("expect")) {
      // the oracle's answers in llvm-gsymutil's --address output format
      SyntheticGsym model;
      try (GsymReader reader = GsymReader.open(Path.of(args[1]))) {
        model = new SyntheticGsym(reader.numFunctions());
      }
      StringBuilder sb = new StringBuilder("Looking up addresses in \"" + args[1] + "\":\n");
      for (int k = 2; k < args.length; k++) {
        long a = Long.decode(args[k]);
        LookupResult e = model.expected(a);
        if (e != null) e.appendTo(sb);
        else sb.append(String.format("0x%016x: error: address 0x%x is not in GSYM%n", a, a));
      }
      out.print(sb);
      return;
    }
    if (args.length == 2 && args[0].equals("slurp")) {
      // the control of the bounded-heap test: what reading the whole file into the heap costs
      byte[] all = java.nio.file.Files.readAllBytes(Path.of(args[1]));
      out.println("read " + all.length + " bytes into the heap");
      return;
    }
    System.err.println("usage: SyntheticGsym generate FILE (--functions N | --size BYTES)\n"
        + "       SyntheticGsym check FILE LOOKUPS SEED\n"
        + "       SyntheticGsym addresses FILE COUNT SEED\n"
        + "       SyntheticGsym expect FILE ADDR...\n"
        + "       SyntheticGsym slurp FILE");
    System.exit(2);
  }
}
