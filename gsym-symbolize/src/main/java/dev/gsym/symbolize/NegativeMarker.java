package dev.gsym.symbolize;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A store's negative-cache marker, {@code <key>.missing}: the sources that did not have a module
 * and when they said so, so that other processes and hosts sharing the store do not ask again
 * before each source's negative time has passed.
 *
 * <pre>
 * gsym-negative-cache 1
 * &lt;epoch ms&gt; TAB &lt;not-found|unreadable&gt; TAB &lt;source id&gt; TAB &lt;message&gt;
 * ...
 * </pre>
 *
 * <p>One line per source (the latest answer). Tabs and line breaks inside fields are written as
 * spaces. Readers ignore lines they do not understand and read at most {@link #MAX_BYTES}. The
 * file is replaced atomically (written beside it, then renamed) by the process holding the
 * module's lock; the time each source's answer is believed is the reader's configuration, not the
 * writer's.
 */
final class NegativeMarker {
  static final String HEADER = "gsym-negative-cache 1";
  /** Longest marker read; the rest is ignored. */
  static final int MAX_BYTES = 64 * 1024;
  /** Longest message kept per line. */
  private static final int MAX_MESSAGE = 1024;

  /** One line: a source's answer. */
  record Entry(long at, Miss reason, String sourceId, String message) {}

  private NegativeMarker() {}

  /** The entries of {@code file}; empty if it does not exist or is not a marker. */
  static List<Entry> read(Path file) throws IOException {
    byte[] bytes;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate((int) Math.min(MAX_BYTES, ch.size()));
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // fill
      }
      bytes = new byte[b.position()];
      b.flip().get(bytes);
    } catch (NoSuchFileException e) {
      return List.of();
    }
    String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
    List<Entry> out = new ArrayList<>();
    if (lines.length == 0 || !lines[0].equals(HEADER)) return out;
    for (int i = 1; i < lines.length; i++) {
      String[] f = lines[i].split("\t", 4);
      if (f.length != 4) continue;
      Miss kind = switch (f[1]) {
        case "not-found" -> Miss.NOT_FOUND;
        case "unreadable" -> Miss.UNREADABLE;
        default -> null;
      };
      long at;
      try {
        at = Long.parseLong(f[0]);
      } catch (NumberFormatException e) {
        continue;
      }
      if (kind != null) out.add(new Entry(at, kind, f[2], f[3]));
    }
    return out;
  }

  /** The marker's text for {@code entries} ({@link Miss#UNAVAILABLE} entries are not written). */
  static byte[] encode(List<Entry> entries) {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (Entry e : entries) {
      if (e.reason() == Miss.UNAVAILABLE) continue;
      sb.append(e.at()).append('\t').append(e.reason() == Miss.NOT_FOUND ? "not-found" : "unreadable").append('\t')
          .append(clean(e.sourceId(), Integer.MAX_VALUE)).append('\t').append(clean(e.message(), MAX_MESSAGE)).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String clean(String s, int max) {
    String t = s.length() > max ? s.substring(0, max) : s;
    return t.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }
}
