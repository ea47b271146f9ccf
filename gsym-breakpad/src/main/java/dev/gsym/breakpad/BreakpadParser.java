package dev.gsym.breakpad;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a Breakpad symbol file one record at a time: a byte-level scanner over a reusable read
 * buffer (the file is read, not mapped, and never held in memory). Numbers are parsed straight
 * from the bytes; only names and paths become Strings, decoded by {@link ByteStrings} (bytes that are
 * not UTF-8 become U+DC80 + byte, so that they are written back unchanged). Lines
 * end with LF, CRLF or CR; blank lines are skipped.
 *
 * <p>A malformed line makes {@link #next()} throw a {@link GsymFormatException} whose source is
 * {@code <file>:<line>}; the line is consumed, so a lenient caller may count it and continue.
 */
public final class BreakpadParser implements Closeable {
  /** Longest accepted line, in bytes: bounds memory on hostile input. */
  public static final int MAX_LINE = 1 << 24;
  static final int DEFAULT_BUFFER = 1 << 18;

  // record kinds of advance()
  static final int EOF = 0;
  static final int LINE = 1;
  static final int INLINE = 2;
  /** Any other record: see {@link #record()}. */
  static final int OTHER = 3;
  /** A STACK record (built only by {@link #next()}). */
  static final int STACK = 4;
  /** The call file of an INLINE record that names none (the older form, or -1). */
  static final long NO_CALL_FILE = BreakpadRecord.Inline.NO_CALL_FILE;

  private static final byte[] HEX = new byte[256];
  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  static {
    Arrays.fill(HEX, (byte) -1);
    for (int c = '0'; c <= '9'; c++) HEX[c] = (byte) (c - '0');
    for (int c = 'a'; c <= 'f'; c++) HEX[c] = (byte) (c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; c++) HEX[c] = (byte) (c - 'A' + 10);
  }

  /** Where the bytes come from. */
  private interface Source extends Closeable {
    /** Reads at least one byte into {@code b[off, off+len)} ({@code len > 0}); -1 at the end. */
    int read(byte[] b, int off, int len) throws IOException;
  }

  private final Source in;
  private final String source;
  private final int bufferSize;
  private byte[] buf;
  private int pos;
  private int lim;
  private boolean eof;
  private long lineNumber;
  // the line last read: buf[ls, le), or (too long) its first bytes in longHead
  private int ls;
  private int le;
  private byte[] longHead;
  // scan cursor and status of the fast paths
  private int p;
  private boolean ok;

  // fields of the last LINE record
  long lineAddress;
  long lineSize;
  long lineLine;
  long lineFile;
  // fields of the last INLINE record; ranges as [start, end) pairs
  int inlineLevel;
  long inlineCallLine;
  long inlineCallFile;
  long inlineOrigin;
  long[] inlineRanges = new long[16];
  int inlineRangeCount;
  // the last record of kind OTHER
  private BreakpadRecord record;

  /** Reads text, encoded back to bytes for the scanner by {@link ByteStrings#CHARSET}. */
  public BreakpadParser(Reader in, String source) {
    this(new ReaderSource(in), source, DEFAULT_BUFFER);
  }

  /** Reads a UTF-8 byte stream, e.g. standard input. */
  public BreakpadParser(InputStream in, String source) {
    this(in, source, DEFAULT_BUFFER);
  }

  /** As {@link #BreakpadParser(InputStream, String)} with a given initial buffer size (tests). */
  BreakpadParser(InputStream in, String source, int bufferSize) {
    this(new Source() {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, len);
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    }, source, bufferSize);
  }

  private BreakpadParser(Source in, String source, int bufferSize) {
    if (bufferSize < 1) throw new IllegalArgumentException("buffer size " + bufferSize);
    this.in = in;
    this.source = source;
    this.bufferSize = bufferSize;
    this.buf = new byte[bufferSize];
  }

  /** Opens {@code path} for reading. */
  public static BreakpadParser open(Path path) throws IOException {
    return open(path, dev.gsym.Progress.NONE);
  }

  /** Opens {@code path} for reading; {@code progress} gets (MiB read, MiB in all) after each read. */
  public static BreakpadParser open(Path path, dev.gsym.Progress progress) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
    long size = ch.size();
    return new BreakpadParser(new Source() {
      private long done;

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = ch.read(ByteBuffer.wrap(b, off, len));
        if (n > 0) {
          done += n;
          progress.update(done >> 20, Math.max(size, done) >> 20);
        }
        return n;
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    }, path.toString(), DEFAULT_BUFFER);
  }

  public String source() {
    return source;
  }

  /** True if the line last read starts with {@code prefix} (ASCII; e.g. to tell a bad FUNC line). */
  public boolean lastLineStartsWith(String prefix) {
    byte[] b = longHead != null ? longHead : buf;
    int start = longHead != null ? 0 : ls;
    int end = longHead != null ? longHead.length : le;
    if (end - start < prefix.length()) return false;
    for (int i = 0; i < prefix.length(); i++) {
      if (b[start + i] != prefix.charAt(i)) return false;
    }
    return true;
  }

  /** Number of the line last read (1-based). */
  public long lineNumber() {
    return lineNumber;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** An error for the line last read. */
  public GsymFormatException error(String detail) {
    return error(lineNumber, detail);
  }

  /** An error for line {@code lineNo} of this file. */
  public GsymFormatException error(long lineNo, String detail) {
    return new GsymFormatException(source + ":" + lineNo, -1, detail);
  }

  /**
   * Moves the unread bytes to the start of the buffer (growing it if they fill it) and reads more.
   * Returns {@code i} adjusted to the move.
   */
  private int fill(int i) throws IOException {
    int keep = lim - pos;
    if (pos == 0 && keep == buf.length) {
      buf = Arrays.copyOf(buf, (int) Math.min(2L * buf.length, MAX_LINE + 2L));
    } else if (buf.length > bufferSize && keep <= bufferSize / 2) {
      byte[] b = new byte[bufferSize]; // back to the usual size after a long line
      System.arraycopy(buf, pos, b, 0, keep);
      buf = b;
    } else if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, keep);
    }
    i -= pos;
    ls -= pos;
    le -= pos;
    pos = 0;
    lim = keep;
    int n = in.read(buf, lim, buf.length - lim);
    if (n < 0) eof = true;
    else lim += n;
    return i;
  }

  /** Finds the next line: buf[ls, le); false at the end of the input. */
  private boolean readLine() throws IOException {
    longHead = null;
    int i = pos;
    while (true) {
      byte[] b = buf;
      int l = lim;
      while (i + 8 <= l) { // 8 bytes at a time while none is LF or CR
        long x = (long) LONGS.get(b, i);
        long lf = x ^ 0x0A0A0A0A0A0A0A0AL;
        long cr = x ^ 0x0D0D0D0D0D0D0D0DL;
        long zero = ((lf - 0x0101010101010101L) & ~lf) | ((cr - 0x0101010101010101L) & ~cr);
        if ((zero & 0x8080808080808080L) != 0) break; // a zero byte: LF or CR in these 8
        i += 8;
      }
      while (i < l) {
        byte c = b[i];
        if (c == '\n' || c == '\r') break;
        i++;
      }
      if (i < l) {
        if (b[i] == '\r' && i + 1 == l && !eof) { // CR at the buffer end: is LF next?
          if (i - pos <= MAX_LINE) {
            i = fill(i);
            continue;
          }
          longHead = Arrays.copyOfRange(b, pos, pos + 64); // too long anyway: drop it, then eat an LF
          ls = le = pos = lim = 0;
          int n = in.read(buf, 0, buf.length);
          if (n < 0) eof = true;
          else lim = n;
          if (lim > 0 && buf[0] == '\n') pos = 1;
          lineNumber++;
          throw tooLong();
        }
        ls = pos;
        le = i;
        int next = i + 1;
        if (b[i] == '\r' && next < l && b[next] == '\n') next++;
        pos = next;
        lineNumber++;
        if (le - ls > MAX_LINE) throw tooLong();
        return true;
      }
      if (l - pos > MAX_LINE) {
        skipLongLine();
        throw tooLong();
      }
      if (eof) {
        if (pos == l) return false;
        ls = pos;
        le = l;
        pos = l;
        lineNumber++;
        return true;
      }
      i = fill(i);
    }
  }

  private GsymFormatException tooLong() {
    if (longHead == null) longHead = Arrays.copyOfRange(buf, ls, ls + 64);
    return error("line longer than " + MAX_LINE + " bytes");
  }

  /** Consumes the rest of a line longer than MAX_LINE (nothing more of it is kept). */
  private void skipLongLine() throws IOException {
    ls = pos;
    le = pos + 64;
    longHead = Arrays.copyOfRange(buf, ls, le);
    pos = lim;
    while (true) {
      if (pos == lim) {
        if (eof) break;
        pos = 0;
        lim = 0;
        ls = le = 0;
        int n = in.read(buf, 0, buf.length);
        if (n < 0) {
          eof = true;
          break;
        }
        lim = n;
      }
      byte c = buf[pos++];
      if (c == '\n') break;
      if (c == '\r') {
        if (pos == lim && !eof) {
          pos = lim = 0;
          int n = in.read(buf, 0, buf.length);
          if (n < 0) eof = true;
          else lim = n;
        }
        if (pos < lim && buf[pos] == '\n') pos++;
        break;
      }
    }
    lineNumber++;
  }

  /**
   * The next record, or null at the end of the file.
   *
   * @throws GsymFormatException for a malformed line (which is then skipped)
   * @throws IOException if reading fails
   */
  public BreakpadRecord next() throws IOException {
    return switch (advance()) {
      case EOF -> null;
      case LINE -> new BreakpadRecord.Line(lineAddress, lineSize, lineLine, lineFile);
      case STACK -> parse(ByteStrings.decode(buf, ls, le - ls));
      case INLINE -> {
        List<AddressRange> ranges = new ArrayList<>(inlineRangeCount);
        for (int i = 0; i < inlineRangeCount; i++) {
          ranges.add(new AddressRange(inlineRanges[2 * i], inlineRanges[2 * i + 1]));
        }
        yield new BreakpadRecord.Inline(inlineLevel, inlineCallLine, inlineCallFile, inlineOrigin, ranges);
      }
      default -> record;
    };
  }

  /** The record of the last {@link #advance()} that returned OTHER. */
  BreakpadRecord record() {
    return record;
  }

  /**
   * Reads the next record: EOF, LINE (fields in {@code line*}), INLINE (fields in {@code inline*})
   * or OTHER ({@link #record()}).
   */
  int advance() throws IOException {
    while (readLine()) {
      if (isBlank()) continue;
      int k = fast();
      if (k != EOF) return k;
      // not well-formed, or a rare record type: the String parser gives the exact result or error
      BreakpadRecord r = parse(ByteStrings.decode(buf, ls, le - ls));
      switch (r) {
        case BreakpadRecord.Line l -> {
          lineAddress = l.address();
          lineSize = l.size();
          lineLine = l.line();
          lineFile = l.file();
          return LINE;
        }
        case BreakpadRecord.Inline n -> {
          inlineLevel = n.level();
          inlineCallLine = n.callLine();
          inlineCallFile = n.callFile();
          inlineOrigin = n.origin();
          inlineRangeCount = 0;
          for (AddressRange a : n.ranges()) addRange(a.start(), a.end());
          return INLINE;
        }
        default -> {
          record = r;
          return OTHER;
        }
      }
    }
    return EOF;
  }

  private boolean isBlank() {
    for (int i = ls; i < le; i++) {
      byte c = buf[i];
      if (c != ' ' && c != '\t') return false;
    }
    return true;
  }

  // ---- fast paths: well-formed records straight from the bytes; EOF means "use parse(String)"

  private int fast() {
    byte[] b = buf;
    int kwEnd = ls;
    while (kwEnd < le && b[kwEnd] != ' ') kwEnd++;
    ok = true;
    if (kwEnd == le) return EOF;
    p = kwEnd + 1;
    int n = kwEnd - ls;
    byte c0 = b[ls];
    if (n == 4 && c0 == 'F' && is("FUNC")) return func();
    if (n == 6 && c0 == 'I' && is("INLINE")) return inline();
    if (n == 13 && c0 == 'I' && is("INLINE_ORIGIN")) return fileOrOrigin(false);
    if (n == 4 && c0 == 'F' && is("FILE")) return fileOrOrigin(true);
    if (n == 6 && c0 == 'P' && is("PUBLIC")) return pub();
    if (n == 5 && c0 == 'S' && is("STACK")) return STACK;
    if (HEX[c0 & 0xff] >= 0) {
      p = ls;
      return line();
    }
    return EOF;
  }

  private boolean is(String kw) {
    for (int i = 1; i < kw.length(); i++) {
      if (buf[ls + i] != kw.charAt(i)) return false;
    }
    return true;
  }

  /** A hex field of 1..16 digits ending at a space or the line end; clears ok otherwise. */
  private long hex() {
    byte[] b = buf;
    int i = p;
    int start = i;
    int end = le;
    long v = 0;
    while (i < end) {
      int d = HEX[b[i] & 0xff];
      if (d < 0) break;
      v = (v << 4) | d;
      i++;
    }
    int n = i - start;
    if (n == 0 || n > 16 || (i < end && b[i] != ' ')) ok = false;
    p = i;
    return v;
  }

  /** A decimal field of 1..18 digits ending at a space or the line end; clears ok otherwise. */
  private long decimal() {
    byte[] b = buf;
    int i = p;
    int start = i;
    int end = le;
    long v = 0;
    while (i < end) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      i++;
    }
    int n = i - start;
    if (n == 0 || n > 18 || (i < end && b[i] != ' ')) ok = false;
    p = i;
    return v;
  }

  /** Steps over the space after a field; false (and ok cleared) at the line end. */
  private boolean space() {
    if (p < le) {
      p++;
      return true;
    }
    ok = false;
    return false;
  }

  private boolean mFlag() {
    if (p + 1 < le && buf[p] == 'm' && buf[p + 1] == ' ') {
      p += 2;
      return true;
    }
    return false;
  }

  /** The rest of the line as a name; null if empty. */
  private String rest() {
    return p < le ? ByteStrings.decode(buf, p, le - p) : null;
  }

  private static boolean wraps(long addr, long size) {
    return Long.compareUnsigned(addr + size, addr) < 0;
  }

  private int line() {
    long a = hex();
    if (!ok || !space()) return EOF;
    long s = hex();
    if (!ok || !space()) return EOF;
    long l = decimal();
    if (!ok || !space()) return EOF;
    long f = decimal();
    if (!ok || p != le || l > 0xFFFF_FFFFL || wraps(a, s)) return EOF;
    lineAddress = a;
    lineSize = s;
    lineLine = l;
    lineFile = f;
    return LINE;
  }

  private int inline() {
    // the older form has no call file: "INLINE level call_line origin [address size]+"; as in
    // Breakpad's parser, the parity of the field count tells the two apart
    int fields = 1;
    for (int i = p; i < le; i++) if (buf[i] == ' ') fields++;
    boolean hasCallFile = fields % 2 == 0;
    long level = decimal();
    if (!ok || !space()) return EOF;
    long callLine = decimal();
    if (!ok || !space()) return EOF;
    long callFile = NO_CALL_FILE;
    if (hasCallFile) {
      if (p + 2 < le && buf[p] == '-' && buf[p + 1] == '1' && buf[p + 2] == ' ') {
        p += 2; // -1: "no call file", as Breakpad reads it
      } else {
        callFile = decimal();
        if (!ok) return EOF;
      }
      if (!space()) return EOF;
    }
    long origin = decimal();
    if (!ok || level > dev.gsym.format.InlineInfo.MAX_DEPTH - 1 || callLine > 0xFFFF_FFFFL) return EOF;
    inlineRangeCount = 0;
    while (p < le) {
      p++;
      long a = hex();
      if (!ok || !space()) return EOF;
      long z = hex();
      if (!ok || wraps(a, z)) return EOF;
      addRange(a, a + z);
    }
    if (inlineRangeCount == 0) return EOF;
    inlineLevel = (int) level;
    inlineCallLine = callLine;
    inlineCallFile = callFile;
    inlineOrigin = origin;
    return INLINE;
  }

  private void addRange(long start, long end) {
    if (2 * inlineRangeCount + 2 > inlineRanges.length) {
      inlineRanges = Arrays.copyOf(inlineRanges, inlineRanges.length * 2);
    }
    inlineRanges[2 * inlineRangeCount] = start;
    inlineRanges[2 * inlineRangeCount + 1] = end;
    inlineRangeCount++;
  }

  private int func() {
    boolean m = mFlag();
    long addr = hex();
    if (!ok || !space()) return EOF;
    long size = hex();
    if (!ok || !space()) return EOF;
    long param = hex();
    if (!ok || !space()) return EOF;
    String name = rest();
    if (name == null || Long.compareUnsigned(size, 0xFFFF_FFFFL) > 0 || wraps(addr, size)) return EOF;
    record = new BreakpadRecord.Func(m, addr, size, param, name);
    return OTHER;
  }

  private int pub() {
    boolean m = mFlag();
    long addr = hex();
    if (!ok || !space()) return EOF;
    long param = hex();
    if (!ok || !space()) return EOF;
    String name = rest();
    if (name == null) return EOF;
    record = new BreakpadRecord.Public(m, addr, param, name);
    return OTHER;
  }

  private int fileOrOrigin(boolean file) {
    long n = decimal();
    if (!ok || !space()) return EOF;
    if (!file && originHasFileField(p)) return EOF; // the older form: the String parser
    String name = rest();
    if (name == null) return EOF;
    record = file ? new BreakpadRecord.File(n, name) : new BreakpadRecord.InlineOrigin(n, name);
    return OTHER;
  }

  /**
   * Breakpad's test for the older {@code INLINE_ORIGIN number file name} form: the word after the
   * number is a decimal (or starts with '-' followed by digits).
   */
  private boolean originHasFileField(int from) {
    for (int i = from; i < le && buf[i] != ' '; i++) {
      byte c = buf[i];
      if (!(c >= '0' && c <= '9') && !(c == '-' && i == from)) return false;
    }
    return true;
  }

  // ---- the String parser: rare records and exact error messages

  /** Splits on single spaces, at most {@code max} fields; the last field keeps the rest. */
  private static List<String> split(String s, int from, int max) {
    List<String> out = new ArrayList<>(Math.min(max, 8));
    int i = from;
    while (out.size() < max - 1) {
      int sp = s.indexOf(' ', i);
      if (sp < 0) break;
      out.add(s.substring(i, sp));
      i = sp + 1;
    }
    out.add(s.substring(i));
    return out;
  }

  BreakpadRecord parse(String s) {
    int sp = s.indexOf(' ');
    String kw = sp < 0 ? s : s.substring(0, sp);
    int rest = sp < 0 ? s.length() : sp + 1;
    return switch (kw) {
      case "MODULE" -> module(s, rest);
      case "INFO" -> info(s, rest);
      case "FILE" -> file(s, rest);
      case "INLINE_ORIGIN" -> origin(s, rest);
      case "FUNC" -> func(s, rest);
      case "INLINE" -> inline(s, rest);
      case "PUBLIC" -> pub(s, rest);
      case "STACK" -> stack(s, rest);
      default -> lineRecord(s, kw);
    };
  }

  private BreakpadRecord module(String s, int from) {
    List<String> f = split(s, from, 4);
    if (f.size() < 4 || f.get(0).isEmpty() || f.get(1).isEmpty() || f.get(2).isEmpty()) {
      throw error("MODULE record needs 'MODULE os arch id name'");
    }
    return new BreakpadRecord.Module(f.get(0), f.get(1), f.get(2), f.get(3));
  }

  private BreakpadRecord info(String s, int from) {
    List<String> f = split(s, from, 2);
    if (f.get(0).isEmpty()) throw error("INFO record without a type");
    return new BreakpadRecord.Info(f.get(0), f.size() > 1 ? f.get(1) : "");
  }

  private BreakpadRecord file(String s, int from) {
    List<String> f = split(s, from, 2);
    if (f.size() < 2) throw error("FILE record needs 'FILE number name'");
    long n = decimal(f.get(0), "FILE number");
    if (f.get(1).isEmpty()) throw error("FILE " + n + " has an empty name");
    return new BreakpadRecord.File(n, f.get(1));
  }

  private BreakpadRecord origin(String s, int from) {
    List<String> f = split(s, from, 2);
    if (f.size() < 2) throw error("INLINE_ORIGIN record needs 'INLINE_ORIGIN number name'");
    long n = decimal(f.get(0), "INLINE_ORIGIN number");
    String name = f.get(1);
    if (isOriginFileField(name)) {
      // the older form, INLINE_ORIGIN number file name: Breakpad's processor ignores the file
      List<String> g = split(name, 0, 2);
      if (g.size() < 2 || g.get(1).isEmpty()) {
        throw error("INLINE_ORIGIN " + n + " has a file number but no name ('INLINE_ORIGIN number [file] name')");
      }
      if (!g.get(0).equals("-1")) decimal(g.get(0), "INLINE_ORIGIN file number");
      name = g.get(1);
    }
    if (name.isEmpty()) throw error("INLINE_ORIGIN " + n + " has an empty name");
    return new BreakpadRecord.InlineOrigin(n, name);
  }

  /** As {@link #originHasFileField(int)} on a String: the first word is digits (or '-' digits). */
  private static boolean isOriginFileField(String t) {
    if (t.isEmpty()) return false;
    for (int i = 0; i < t.length() && t.charAt(i) != ' '; i++) {
      char c = t.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c == '-' && i == 0)) return false;
    }
    return true;
  }

  private BreakpadRecord func(String s, int from) {
    boolean m = s.startsWith("m ", from);
    if (m) from += 2;
    List<String> f = split(s, from, 4);
    if (f.size() < 4) throw error("FUNC record needs 'FUNC [m] address size parameter_size name'");
    long addr = hex(f.get(0), "FUNC address");
    long size = hex(f.get(1), "FUNC size");
    long param = hex(f.get(2), "FUNC parameter_size");
    if (f.get(3).isEmpty()) throw error("FUNC has an empty name");
    if (Long.compareUnsigned(size, 0xFFFF_FFFFL) > 0) {
      throw error("FUNC size 0x" + Long.toHexString(size) + " does not fit GSYM's 32-bit function size");
    }
    checkRange(addr, size, "FUNC");
    return new BreakpadRecord.Func(m, addr, size, param, f.get(3));
  }

  private BreakpadRecord pub(String s, int from) {
    boolean m = s.startsWith("m ", from);
    if (m) from += 2;
    List<String> f = split(s, from, 3);
    if (f.size() < 3) throw error("PUBLIC record needs 'PUBLIC [m] address parameter_size name'");
    long addr = hex(f.get(0), "PUBLIC address");
    long param = hex(f.get(1), "PUBLIC parameter_size");
    if (f.get(2).isEmpty()) throw error("PUBLIC has an empty name");
    return new BreakpadRecord.Public(m, addr, param, f.get(2));
  }

  private BreakpadRecord inline(String s, int from) {
    List<String> f = split(s, from, Integer.MAX_VALUE);
    // the older form has no call file; as in Breakpad's parser, the parity of the count tells
    boolean hasCallFile = f.size() % 2 == 0;
    int first = hasCallFile ? 4 : 3;
    if (f.size() < 5 || (f.size() - first) % 2 != 0) {
      throw error("INLINE record needs 'INLINE nest_level call_line [call_file] origin [address size]+'");
    }
    long level = decimal(f.get(0), "INLINE nest level");
    // the top node (the FUNC) is depth 0, so level L is decoded at depth L + 1
    long maxLevel = dev.gsym.format.InlineInfo.MAX_DEPTH - 1;
    if (level > maxLevel) throw error("INLINE nest level " + level + " is deeper than " + maxLevel);
    long callLine = decimal(f.get(1), "INLINE call line");
    if (callLine > 0xFFFF_FFFFL) throw error("INLINE call line " + callLine + " does not fit in 32 bits");
    long callFile = NO_CALL_FILE;
    if (hasCallFile && !f.get(2).equals("-1")) callFile = decimal(f.get(2), "INLINE call file");
    long origin = decimal(f.get(first - 1), "INLINE origin");
    List<AddressRange> ranges = new ArrayList<>((f.size() - first) / 2);
    for (int i = first; i < f.size(); i += 2) {
      long a = hex(f.get(i), "INLINE address");
      long z = hex(f.get(i + 1), "INLINE size");
      checkRange(a, z, "INLINE");
      ranges.add(new AddressRange(a, a + z));
    }
    return new BreakpadRecord.Inline((int) level, callLine, callFile, origin, ranges);
  }

  private BreakpadRecord stack(String s, int from) {
    List<String> f = split(s, from, 2);
    return new BreakpadRecord.Stack(f.get(0), f.size() > 1 ? f.get(1) : "");
  }

  private BreakpadRecord lineRecord(String s, String kw) {
    if (!kw.isEmpty() && isUpperWord(kw)) throw error("unknown record type '" + kw + "'");
    List<String> f = split(s, 0, 5);
    if (f.size() != 4) throw error("invalid line record (expected 'address size line filenum')");
    long addr = hex(f.get(0), "line record address");
    long size = hex(f.get(1), "line record size");
    long line = decimal(f.get(2), "line number");
    if (line > 0xFFFF_FFFFL) throw error("line number " + line + " does not fit in 32 bits");
    long file = decimal(f.get(3), "line record file number");
    checkRange(addr, size, "line record");
    return new BreakpadRecord.Line(addr, size, line, file);
  }

  private static boolean isUpperWord(String s) {
    boolean letter = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 'G' && c <= 'Z') letter = true; // not a hex digit
      else if (!(c >= 'A' && c <= 'Z') && c != '_' && !(c >= '0' && c <= '9')) return false;
    }
    return letter;
  }

  private void checkRange(long addr, long size, String what) {
    if (wraps(addr, size)) {
      throw error(what + " range 0x" + Long.toHexString(addr) + " + 0x" + Long.toHexString(size)
          + " wraps past the end of the 64-bit address space");
    }
  }

  /** An unsigned hex number of 1 to 16 digits without 0x (either case). */
  long hex(String t, String what) {
    if (t.isEmpty() || t.length() > 16) throw error("invalid " + what + " '" + clip(t) + "'");
    long v = 0;
    for (int i = 0; i < t.length(); i++) {
      int d = Character.digit(t.charAt(i), 16);
      if (d < 0 || t.charAt(i) > 'f') throw error("invalid " + what + " '" + clip(t) + "'");
      v = (v << 4) | d;
    }
    return v;
  }

  /** A non-negative decimal that fits in a signed 64-bit value. */
  long decimal(String t, String what) {
    if (t.isEmpty() || t.length() > 18) throw error("invalid " + what + " '" + clip(t) + "'");
    long v = 0;
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c < '0' || c > '9') throw error("invalid " + what + " '" + clip(t) + "'");
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static String clip(String t) {
    return t.length() <= 40 ? t : t.substring(0, 40) + "...";
  }

  /** A Reader as bytes (escaped bytes as themselves, other unpaired surrogates as '?'). */
  private static final class ReaderSource implements Source {
    private final Reader reader;
    private final CharsetEncoder enc = ByteStrings.CHARSET.newEncoder()
        .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final CharBuffer chars = CharBuffer.allocate(1 << 13).flip();
    private final ByteBuffer bytes = ByteBuffer.allocate(1 << 15).flip();
    private boolean end;
    private boolean flushed;

    ReaderSource(Reader reader) {
      this.reader = reader;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      while (!bytes.hasRemaining()) {
        if (flushed) return -1;
        bytes.clear();
        if (!end) {
          chars.compact();
          int n = reader.read(chars);
          chars.flip();
          if (n < 0) end = true;
        }
        enc.encode(chars, bytes, end);
        if (end && !chars.hasRemaining()) {
          enc.flush(bytes);
          flushed = true;
        }
        bytes.flip();
      }
      int n = Math.min(len, bytes.remaining());
      bytes.get(b, off, n);
      return n;
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }
}
