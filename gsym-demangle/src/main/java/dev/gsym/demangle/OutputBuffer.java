package dev.gsym.demangle;

import java.util.Arrays;

/**
 * The growable byte buffer the demanglers print into (llvm's {@code OutputBuffer}), with the
 * printing state the Itanium nodes share, and the bounds that make hostile names cheap: a cap on
 * the output length, on the nesting depth of print calls and on their total number. Exceeding one
 * throws {@link #ABORT}; the caller then returns the name unchanged.
 */
final class OutputBuffer {
  /** No pack expansion in progress (llvm: {@code std::numeric_limits<unsigned>::max()}). */
  static final int NO_PACK = Integer.MAX_VALUE;

  /** Thrown when a bound is exceeded; carries no stack trace, so throwing it costs nothing. */
  static final class Abort extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private Abort() {
      super("demangling bound exceeded", null, false, false);
    }
  }

  static final Abort ABORT = new Abort();

  private byte[] buf;
  private int pos;
  private final int maxLength;
  private final int maxDepth;
  private int stepsLeft;
  private int depth;

  /** Index into the pack being expanded ({@code ParameterPackExpansion}), or NO_PACK. */
  int currentPackIndex = NO_PACK;
  /** Size of the pack being expanded, or NO_PACK. */
  int currentPackMax = NO_PACK;
  /** True while printing template arguments (llvm's TemplateTracker.InsideTemplate). */
  boolean insideTemplate;
  /**
   * Parentheses opened while inside template arguments and not yet closed (llvm's unsigned
   * TemplateTracker.ParenDepth: a '>' outside them is parenthesized).
   */
  int parenDepth;

  OutputBuffer(int initialCapacity, int maxLength, int maxDepth, int maxSteps) {
    this.buf = new byte[Math.max(16, Math.min(initialCapacity, maxLength))];
    this.maxLength = maxLength;
    this.maxDepth = maxDepth;
    this.stepsLeft = maxSteps;
  }

  /** Counts one nested print (or type query) call; aborts past the depth or step bound. */
  void enter() {
    if (++depth > maxDepth || --stepsLeft < 0) throw ABORT;
  }

  void exit() {
    depth--;
  }

  /** Counts work that prints nothing (pack and reference chains). */
  void step() {
    if (--stepsLeft < 0) throw ABORT;
  }

  void printLeft(Node n) {
    enter();
    n.printLeft(this);
    depth--;
  }

  void printRight(Node n) {
    enter();
    n.printRight(this);
    depth--;
  }

  boolean isInParensInTemplateArgs() {
    return parenDepth != 0;
  }

  void printOpen() {
    printOpen('(');
  }

  void printOpen(char open) {
    if (insideTemplate) parenDepth++;
    append(open);
  }

  void printClose() {
    printClose(')');
  }

  void printClose(char close) {
    if (insideTemplate) parenDepth--;
    append(close);
  }

  private void ensure(int more) {
    int need = pos + more;
    if (need > maxLength || need < 0) throw ABORT;
    if (need > buf.length) {
      buf = Arrays.copyOf(buf, (int) Math.min(maxLength, Math.max(need, 2L * buf.length)));
    }
  }

  OutputBuffer append(char c) {
    ensure(1);
    buf[pos++] = (byte) c;
    return this;
  }

  /** Appends a raw byte (0..255). */
  OutputBuffer appendByte(int b) {
    ensure(1);
    buf[pos++] = (byte) b;
    return this;
  }

  OutputBuffer append(String ascii) {
    int n = ascii.length();
    ensure(n);
    for (int i = 0; i < n; i++) buf[pos++] = (byte) ascii.charAt(i);
    return this;
  }

  OutputBuffer append(Sv s) {
    return append(s.bytes(), s.off(), s.len());
  }

  OutputBuffer append(byte[] b, int off, int len) {
    if (len == 0) return this;
    ensure(len);
    System.arraycopy(b, off, buf, pos, len);
    pos += len;
    return this;
  }

  /** Appends {@code n} in decimal, read as an unsigned 64-bit number (llvm's writeUnsigned). */
  OutputBuffer appendUnsigned(long n) {
    return append(Long.toUnsignedString(n));
  }

  /** Inserts bytes at {@code at}, moving what follows. */
  void insert(int at, byte[] b, int off, int len) {
    if (len == 0) return;
    ensure(len);
    System.arraycopy(buf, at, buf, at + len, pos - at);
    System.arraycopy(b, off, buf, at, len);
    pos += len;
  }

  void prepend(String ascii) {
    byte[] b = ascii.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    insert(0, b, 0, b.length);
  }

  int position() {
    return pos;
  }

  void setPosition(int p) {
    pos = p;
  }

  /** The last byte, or 0 when empty. */
  int back() {
    return pos == 0 ? 0 : buf[pos - 1] & 0xff;
  }

  int byteAt(int i) {
    return buf[i] & 0xff;
  }

  void setByteAt(int i, int b) {
    buf[i] = (byte) b;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, pos);
  }
}
