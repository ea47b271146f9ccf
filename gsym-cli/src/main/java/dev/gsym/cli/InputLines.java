package dev.gsym.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The lines of an input stream as bytes, without their '\n' and with every '\r' removed (as
 * llvm-gsymutil's {@code std::getline} + {@code erase_if} and llvm-symbolizer's {@code fgets}
 * read them). Before a read that would block it runs {@code beforeBlocking}, so that a caller
 * feeding lines interactively gets the answers to what it sent before sending more.
 */
public final class InputLines {
  private final InputStream in;
  private final Runnable beforeBlocking;
  private final boolean cutAtNul;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int limit;
  private byte[] line = new byte[256];
  private int length;

  /** @param cutAtNul a line ends at a NUL byte (a C string), the rest up to '\n' is dropped */
  public InputLines(InputStream in, Runnable beforeBlocking, boolean cutAtNul) {
    this.in = in;
    this.beforeBlocking = beforeBlocking;
    this.cutAtNul = cutAtNul;
  }

  /** Reads the next line into {@link #bytes()}; false at the end of the input. */
  public boolean next() {
    length = 0;
    boolean any = false;
    boolean cut = false;
    while (true) {
      if (pos == limit && !fill()) return any;
      any = true;
      int i = pos;
      byte[] b = buf;
      int lim = limit;
      while (i < lim && b[i] != '\n') i++;
      if (length + (i - pos) > line.length) line = Arrays.copyOf(line, Math.max(line.length * 2, length + (i - pos)));
      for (int k = pos; k < i; k++) {
        byte c = b[k];
        if (c == 0 && cutAtNul) cut = true;
        if (cut || c == '\r') continue;
        line[length++] = c;
      }
      pos = i;
      if (i < lim) {
        pos++;
        return true;
      }
    }
  }

  /** The current line's bytes, {@code [0, length())}; the array is reused by the next line. */
  public byte[] bytes() {
    return line;
  }

  public int length() {
    return length;
  }

  private boolean fill() {
    try {
      if (in.available() <= 0) beforeBlocking.run();
      int n = in.read(buf, 0, buf.length);
      if (n <= 0) return false;
      pos = 0;
      limit = n;
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
