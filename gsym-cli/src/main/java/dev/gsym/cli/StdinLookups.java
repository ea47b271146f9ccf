package dev.gsym.cli;

import dev.gsym.io.GsymFormatException;
import dev.gsym.read.GsymReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --addresses-from-stdin}: each line is {@code <addr> <gsym-path>}, split at the first space
 * after every {@code \r} is removed. Readers stay open per path (a small LRU cache), so a path is
 * opened again only after it has been evicted. Output is flushed only when stdin has nothing more
 * to read right now, so piping many lines stays fast and interactive use still sees each answer.
 */
final class StdinLookups {
  private static final int MAX_OPEN = 32;

  private final Session session;
  private final Symbolicator sym;
  private final Map<String, GsymReader> open = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, GsymReader> eldest) {
      if (size() <= MAX_OPEN) return false;
      eldest.getValue().close();
      return true;
    }
  };
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int limit;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

  StdinLookups(Session session, Symbolicator sym) {
    this.session = session;
    this.sym = sym;
  }

  int run() {
    try {
      String currentPath = "";
      GsymReader current = null;
      String text;
      StringBuilder sb = session.sb;
      while ((text = readLine()) != null) {
        int space = text.indexOf(' ');
        String addrStr = space < 0 ? text : text.substring(0, space);
        String path = space < 0 ? "" : text.substring(space + 1);
        if (!path.equals(currentPath)) {
          current = reader(path);
          currentPath = path;
        }
        Long addr = Addresses.parse(addrStr);
        if (addr == null) {
          throw CliException.stdout("error: invalid address " + addrStr + ", expected: Address GsymFile.");
        }
        // llvm-gsymutil crashes here (no file was ever named); report the empty path instead.
        if (current == null) current = reader(path);
        try {
          sym.lookup(current, addr, sb);
        } catch (GsymFormatException e) {
          sb.setLength(0);
          throw Session.fileError(path, e.detail(), e);
        }
        sb.append('\n');
        session.emit();
      }
      return 0;
    } finally {
      for (GsymReader r : open.values()) r.close();
      open.clear();
    }
  }

  private GsymReader reader(String path) {
    GsymReader r = open.get(path);
    if (r == null) {
      r = session.open(path);
      open.put(path, r);
    }
    return r;
  }

  /** The next line without '\n' and with every '\r' removed (std::getline + erase_if), or null. */
  private String readLine() {
    line.reset();
    boolean any = false;
    while (true) {
      if (pos == limit && !fill()) {
        return any ? line.toString(StandardCharsets.UTF_8) : null;
      }
      any = true;
      int start = pos;
      while (pos < limit) {
        byte b = buf[pos];
        if (b == '\n') {
          appendStripped(start, pos);
          pos++;
          return line.toString(StandardCharsets.UTF_8);
        }
        pos++;
      }
      appendStripped(start, limit);
    }
  }

  private void appendStripped(int from, int to) {
    int run = from;
    for (int i = from; i < to; i++) {
      if (buf[i] == '\r') {
        line.write(buf, run, i - run);
        run = i + 1;
      }
    }
    line.write(buf, run, to - run);
  }

  /** Refills the buffer, flushing stdout first if reading would block. */
  private boolean fill() {
    InputStream in = session.in;
    try {
      if (in.available() <= 0) session.flush();
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
