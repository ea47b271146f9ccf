package dev.gsym.breakpad;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
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
  // the line being parsed: the cursor, and the first problem found in it in the grammar's order
  private int p;
  private String problem;

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

  /** The name of the input in messages (its path, or the name it was given). */
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
   * The next record, or null at the end of the file. A line that starts with a keyword this parser
   * does not know (an upper-case word that is not a hex number) is an {@link BreakpadRecord.Other}.
   *
   * @throws GsymFormatException for a malformed line (which is then skipped)
   * @throws IOException if reading fails
   */
  public BreakpadRecord next() throws IOException {
    while (readLine()) {
      if (!isBlank()) return record();
    }
    return null;
  }

  private boolean isBlank() {
    for (int i = ls; i < le; i++) {
      byte c = buf[i];
      if (c != ' ' && c != '\t') return false;
    }
    return true;
  }

  // ---- the grammar: Breakpad's records as dump_syms writes them and its processor reads them.
  // Fields are separated by single spaces; a record's last text field keeps the rest of the line.
  // Each record's checks run in one order (the field count first, then field by field); the first
  // that fails is the error, whatever follows.

  private static final String FUNC_USAGE = "FUNC record needs 'FUNC [m] address size parameter_size name'";
  private static final String PUBLIC_USAGE = "PUBLIC record needs 'PUBLIC [m] address parameter_size name'";
  private static final String FILE_USAGE = "FILE record needs 'FILE number name'";
  private static final String ORIGIN_USAGE = "INLINE_ORIGIN record needs 'INLINE_ORIGIN number name'";
  private static final String INLINE_USAGE =
      "INLINE record needs 'INLINE nest_level call_line [call_file] origin [address size]+'";
  private static final String LINE_USAGE = "invalid line record (expected 'address size line filenum')";
  private static final long U32 = 0xFFFF_FFFFL;

  /** The record on {@code buf[ls, le)}, a non-blank line. */
  private BreakpadRecord record() {
    byte[] b = buf;
    // a first word of digits and lower-case hex letters is no keyword (those are upper-case words):
    // a line record, the most common record (the check below would come to the same answer)
    int w = ls;
    while (w < le && ((b[w] >= '0' && b[w] <= '9') || (b[w] >= 'a' && b[w] <= 'f'))) w++;
    if (w > ls && (w == le || b[w] == ' ')) {
      p = ls;
      problem = null;
      return lineRecord();
    }
    int kwEnd = ls;
    while (kwEnd < le && b[kwEnd] != ' ') kwEnd++;
    p = kwEnd < le ? kwEnd + 1 : le;
    problem = null;
    byte c0 = b[ls];
    switch (kwEnd - ls) {
      case 4 -> {
        if (c0 == 'F' && is("FUNC")) return func();
        if (c0 == 'F' && is("FILE")) return fileOrOrigin(true);
        if (c0 == 'I' && is("INFO")) return info();
      }
      case 5 -> {
        if (c0 == 'S' && is("STACK")) return stack();
      }
      case 6 -> {
        if (c0 == 'I' && is("INLINE")) return inline();
        if (c0 == 'P' && is("PUBLIC")) return pub();
        if (c0 == 'M' && is("MODULE")) return module();
      }
      case 13 -> {
        if (c0 == 'I' && is("INLINE_ORIGIN")) return fileOrOrigin(false);
      }
      default -> {
        // a line record, or an unknown keyword below
      }
    }
    if (kwEnd > ls && isUpperWord(ls, kwEnd)) return new BreakpadRecord.Other(decode(ls, kwEnd), decode(p, le));
    p = ls;
    return lineRecord();
  }

  private boolean is(String kw) {
    for (int i = 1; i < kw.length(); i++) {
      if (buf[ls + i] != kw.charAt(i)) return false;
    }
    return true;
  }

  /** The number of spaces in {@code buf[from, to)}, counted 8 bytes at a time. */
  private int spaces(int from, int to) {
    byte[] b = buf;
    int n = 0;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONGS.get(b, i) ^ 0x2020202020202020L; // spaces become zero bytes
      // exactly the zero bytes get their high bit set (no borrow between bytes)
      long y = ~(((x & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | x | 0x7F7F7F7F7F7F7F7FL);
      n += Long.bitCount(y);
    }
    for (; i < to; i++) if (b[i] == ' ') n++;
    return n;
  }

  /** Upper-case letters, digits and '_' with a letter past F: a keyword, not a hex address. */
  private boolean isUpperWord(int from, int to) {
    boolean letter = false;
    for (int i = from; i < to; i++) {
      byte c = buf[i];
      if (c >= 'G' && c <= 'Z') letter = true;
      else if (!(c >= 'A' && c <= 'Z') && c != '_' && !(c >= '0' && c <= '9')) return false;
    }
    return letter;
  }

  /** {@code address size line filenum}: exactly four fields. */
  private BreakpadRecord lineRecord() {
    long addr = hex("line record address");
    if (!space()) throw error(LINE_USAGE);
    long size = hex("line record size");
    if (!space()) throw error(LINE_USAGE);
    long line = decimal("line number");
    if (line > U32) fail("line number " + line + " does not fit in 32 bits");
    if (!space()) throw error(LINE_USAGE);
    long file = decimal("line record file number");
    if (p < le) throw error(LINE_USAGE);
    checkRange(addr, size, "line record");
    if (problem != null) throw error(problem);
    return new BreakpadRecord.Line(addr, size, line, file);
  }

  /**
   * {@code INLINE nest_level call_line [call_file] origin [address size]+}: the older form has no
   * call file; as in Breakpad's parser, the parity of the field count tells the two apart.
   */
  private BreakpadRecord inline() {
    int fields = 1 + spaces(p, le);
    boolean hasCallFile = fields % 2 == 0;
    int first = hasCallFile ? 4 : 3;
    if (fields < 5) throw error(INLINE_USAGE);
    long level = decimal("INLINE nest level");
    // the top node (the FUNC) is depth 0, so level L is decoded at depth L + 1
    long maxLevel = dev.gsym.format.InlineInfo.MAX_DEPTH - 1;
    if (level > maxLevel) fail("INLINE nest level " + level + " is deeper than " + maxLevel);
    space();
    long callLine = decimal("INLINE call line");
    if (callLine > U32) fail("INLINE call line " + callLine + " does not fit in 32 bits");
    space();
    long callFile = BreakpadRecord.Inline.NO_CALL_FILE;
    if (hasCallFile) {
      if (p + 2 < le && buf[p] == '-' && buf[p + 1] == '1' && buf[p + 2] == ' ') p += 2; // -1: no call file
      else callFile = decimal("INLINE call file");
      space();
    }
    long origin = decimal("INLINE origin");
    long[] pairs = new long[fields - first];
    for (int i = 0; i < pairs.length; i += 2) {
      space();
      long a = hex("INLINE address");
      space();
      long z = hex("INLINE size");
      checkRange(a, z, "INLINE");
      pairs[i] = a;
      pairs[i + 1] = a + z;
    }
    if (problem != null) throw error(problem);
    return new BreakpadRecord.Inline((int) level, callLine, callFile, origin, new AddressPairs(pairs));
  }

  /** {@code FUNC [m] address size parameter_size name}. */
  private BreakpadRecord func() {
    boolean m = multiple();
    long addr = hex("FUNC address");
    if (!space()) throw error(FUNC_USAGE);
    long size = hex("FUNC size");
    if (!space()) throw error(FUNC_USAGE);
    long param = hex("FUNC parameter_size");
    if (!space()) throw error(FUNC_USAGE);
    if (p == le) fail("FUNC has an empty name");
    if (Long.compareUnsigned(size, U32) > 0) {
      fail("FUNC size 0x" + Long.toHexString(size) + " does not fit GSYM's 32-bit function size");
    }
    checkRange(addr, size, "FUNC");
    if (problem != null) throw error(problem);
    return new BreakpadRecord.Func(m, addr, size, param, decode(p, le));
  }

  /** {@code PUBLIC [m] address parameter_size name}. */
  private BreakpadRecord pub() {
    boolean m = multiple();
    long addr = hex("PUBLIC address");
    if (!space()) throw error(PUBLIC_USAGE);
    long param = hex("PUBLIC parameter_size");
    if (!space()) throw error(PUBLIC_USAGE);
    if (p == le) fail("PUBLIC has an empty name");
    if (problem != null) throw error(problem);
    return new BreakpadRecord.Public(m, addr, param, decode(p, le));
  }

  /**
   * {@code FILE number name}, {@code INLINE_ORIGIN number name}, or the older {@code INLINE_ORIGIN
   * number file name} (told apart as Breakpad's parser does: the word after the number is a
   * decimal, or '-' and digits), whose file Breakpad's processor ignores.
   */
  private BreakpadRecord fileOrOrigin(boolean file) {
    String what = file ? "FILE" : "INLINE_ORIGIN";
    long n = decimal(what + " number");
    if (!space()) throw error(file ? FILE_USAGE : ORIGIN_USAGE);
    if (!file && originHasFileField()) {
      int fileStart = p;
      while (p < le && buf[p] != ' ') p++;
      if (p + 1 >= le) {
        fail("INLINE_ORIGIN " + n + " has a file number but no name ('INLINE_ORIGIN number [file] name')");
      } else if (!(p - fileStart == 2 && buf[fileStart] == '-' && buf[fileStart + 1] == '1')) {
        int nameStart = p;
        p = fileStart;
        decimal("INLINE_ORIGIN file number");
        p = nameStart;
      }
      p = Math.min(p + 1, le);
    }
    if (p == le) fail(what + " " + n + " has an empty name");
    if (problem != null) throw error(problem);
    String name = decode(p, le);
    return file ? new BreakpadRecord.File(n, name) : new BreakpadRecord.InlineOrigin(n, name);
  }

  /** At the cursor: a word of digits, or of '-' and digits (the older INLINE_ORIGIN's file field). */
  private boolean originHasFileField() {
    if (p == le) return false;
    for (int i = p; i < le && buf[i] != ' '; i++) {
      byte c = buf[i];
      if (!(c >= '0' && c <= '9') && !(c == '-' && i == p)) return false;
    }
    return true;
  }

  /** {@code MODULE os arch id name}. */
  private BreakpadRecord module() {
    String[] f = texts(4);
    if (f.length < 4 || f[0].isEmpty() || f[1].isEmpty() || f[2].isEmpty()) {
      throw error("MODULE record needs 'MODULE os arch id name'");
    }
    return new BreakpadRecord.Module(f[0], f[1], f[2], f[3]);
  }

  /** {@code INFO key value}. */
  private BreakpadRecord info() {
    String[] f = texts(2);
    if (f[0].isEmpty()) throw error("INFO record without a type");
    return new BreakpadRecord.Info(f[0], f.length > 1 ? f[1] : "");
  }

  /** {@code STACK kind text}: the text is read by {@link StackRecords}. */
  private BreakpadRecord stack() {
    String[] f = texts(2);
    return new BreakpadRecord.Stack(f[0], f.length > 1 ? f[1] : "");
  }

  /** The fields from the cursor as text, at most {@code max}, the last keeping the rest of the line. */
  private String[] texts(int max) {
    List<String> out = new ArrayList<>(max);
    while (out.size() < max - 1) {
      int end = p;
      while (end < le && buf[end] != ' ') end++;
      if (end == le) break;
      out.add(decode(p, end));
      p = end + 1;
    }
    out.add(decode(p, le));
    return out.toArray(String[]::new);
  }

  /** Steps over an {@code m} field. */
  private boolean multiple() {
    if (p + 1 < le && buf[p] == 'm' && buf[p + 1] == ' ') {
      p += 2;
      return true;
    }
    return false;
  }

  /** Steps over the space after a field; false at the line end (the record has fewer fields). */
  private boolean space() {
    if (p < le) {
      p++;
      return true;
    }
    return false;
  }

  /** Notes a problem of the line being parsed unless an earlier check found one. */
  private void fail(String detail) {
    if (problem == null) problem = detail;
  }

  /** A hex field of 1 to 16 digits (either case) up to the next space or the line end. */
  private long hex(String what) {
    byte[] b = buf;
    int start = p;
    int i = start;
    int end = le;
    long v = 0;
    int d;
    while (i < end && (d = HEX[b[i] & 0xff]) >= 0) {
      v = (v << 4) | d;
      i++;
    }
    return field(start, i, 16, what, v);
  }

  /** A decimal field of 1 to 18 digits up to the next space or the line end. */
  private long decimal(String what) {
    byte[] b = buf;
    int start = p;
    int i = start;
    int end = le;
    long v = 0;
    while (i < end) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      i++;
    }
    return field(start, i, 18, what, v);
  }

  /** Ends a numeric field whose digits are {@code [start, digitsEnd)}: at a space or the line end, 1 to max digits. */
  private long field(int start, int digitsEnd, int max, String what, long v) {
    int end = digitsEnd;
    if (end < le && buf[end] != ' ') {
      while (end < le && buf[end] != ' ') end++;
    }
    p = end;
    int n = end - start;
    if (digitsEnd != end || n == 0 || n > max) {
      String t = decode(start, end);
      fail("invalid " + what + " '" + (t.length() <= 40 ? t : t.substring(0, 40) + "...") + "'");
    }
    return v;
  }

  private void checkRange(long addr, long size, String what) {
    if (Long.compareUnsigned(addr + size, addr) < 0) {
      fail(what + " range 0x" + Long.toHexString(addr) + " + 0x" + Long.toHexString(size)
          + " wraps past the end of the 64-bit address space");
    }
  }

  private String decode(int from, int to) {
    return ByteStrings.decode(buf, from, to - from);
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
