package dev.gsym.cli.gsymutil;

import dev.gsym.ByteStrings;
import dev.gsym.cli.Addresses;
import dev.gsym.cli.CliException;
import dev.gsym.cli.InputLines;
import dev.gsym.cli.Session;
import dev.gsym.read.GsymReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --addresses-from-stdin}: each line is {@code <addr> <gsym-path>}, split at the first space
 * after every {@code \r} is removed. Lines are read as bytes from a 64 KiB buffer and gathered
 * into {@link Batches} chunks, symbolicated on {@code --threads} workers and written in input
 * order. Readers stay open per path (a small LRU cache), so a path is opened again only after it
 * has been evicted. Output is flushed only when stdin has nothing more to read right now, so
 * piping many lines stays fast and interactive use still sees each answer.
 */
final class StdinLookups {
  private static final int MAX_OPEN = 32;
  private static final byte[] NO_PATH = new byte[0];

  private final Session session;
  private final Batches batches;
  private GsymReader evicted;
  private final List<GsymReader> toClose = new ArrayList<>();
  private final Map<String, GsymReader> open = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, GsymReader> eldest) {
      if (size() <= MAX_OPEN) return false;
      evicted = eldest.getValue();
      return true;
    }
  };
  private Batches.Chunk chunk;

  StdinLookups(Session session, Symbolicator sym, int threads) {
    this.session = session;
    this.batches = new Batches(session, sym, true, threads);
  }

  int run() {
    try {
      byte[] currentPath = NO_PATH;
      String currentPathString = "";
      GsymReader current = null;
      long[] addr = new long[1];
      chunk = batches.chunk();
      InputLines lines = new InputLines(session.in, () -> {
        submit();
        batches.drain();
        session.flush();
      }, false);
      while (lines.next()) {
        byte[] line = lines.bytes();
        int lineLen = lines.length();
        int space = indexOf(line, lineLen, (byte) ' ');
        int addrEnd = space < 0 ? lineLen : space;
        int pathFrom = space < 0 ? lineLen : space + 1;
        try {
          if (!Arrays.equals(line, pathFrom, lineLen, currentPath, 0, currentPath.length)) {
            currentPath = Arrays.copyOfRange(line, pathFrom, lineLen);
            currentPathString = ByteStrings.decode(currentPath);
            current = reader(currentPathString);
          }
          if (!Addresses.parse(line, 0, addrEnd, addr)) {
            String addrStr = ByteStrings.decode(line, 0, addrEnd);
            throw CliException.stdout("error: invalid address " + addrStr + ", expected: Address GsymFile.");
          }
          // llvm-gsymutil crashes here (no file was ever named); report the empty path instead.
          if (current == null) current = reader(currentPathString);
        } catch (RuntimeException e) {
          chunk.endError = e; // after the lines before it have been looked up and printed
          submit();
          batches.drain();
          throw new IllegalStateException("unreachable: the chunk's error was thrown", e);
        }
        chunk.add(current, currentPathString, addr[0]);
        if (chunk.isFull()) submit();
      }
      submit();
      batches.drain();
      return 0;
    } finally {
      batches.close();
      for (GsymReader r : open.values()) r.close();
      for (GsymReader r : toClose) r.close();
      open.clear();
    }
  }

  private void submit() {
    if (chunk.isEmpty()) return;
    Batches.Chunk c = chunk;
    chunk = null;
    batches.submit(c);
    chunk = batches.chunk();
  }

  private static int indexOf(byte[] b, int n, byte v) {
    for (int i = 0; i < n; i++) {
      if (b[i] == v) return i;
    }
    return -1;
  }

  private GsymReader reader(String path) {
    GsymReader r = open.get(path);
    if (r == null) {
      r = session.open(path);
      open.put(path, r);
      if (evicted != null) {
        // queued lookups may still use the evicted reader: finish them before unmapping it
        GsymReader old = evicted;
        evicted = null;
        toClose.add(old);
        submit();
        batches.drain();
        toClose.remove(old);
        old.close();
      }
    }
    return r;
  }
}
