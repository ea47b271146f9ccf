package dev.gsym.cli.symbolize;

import dev.gsym.TextBuffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --print-source-context-lines=N}: the N source lines around a line, read from the file the
 * debug information names, laid out as llvm's {@code SourceCode::format} does ({@code L  : text},
 * the line asked about as {@code L >: text}, numbers right-aligned to llvm's width, a final CR of a
 * line dropped). Nothing when the file cannot be read or is shorter. Files are cached (a few, up to
 * {@value #MAX_FILE} bytes each) and shared by the lookup threads.
 */
final class SourceContext {
  private static final int MAX_FILES = 16;
  /** Larger files are not shown (llvm maps any size; a source file this large is no source). */
  private static final long MAX_FILE = 64L << 20;

  private final int lines;
  private final Map<String, byte[]> files = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
      return size() > MAX_FILES;
    }
  };

  SourceContext(int lines) {
    this.lines = lines;
  }

  /** True if context is printed at all (N > 0). */
  boolean enabled() {
    return lines > 0;
  }

  /** Appends the context of {@code line} in {@code file} (nothing if disabled or unreadable). */
  void format(TextBuffer out, String file, long line) {
    if (lines <= 0) return;
    byte[] src = load(file);
    if (src == null) return;
    long first = Math.max(1, line - lines / 2);
    long last = first + lines - 1;
    // llvm's pruneSource: the bytes from the start of line `first` to the end of line `last`
    int firstPos = -1;
    int pos = 0;
    for (long l = 1; l <= last; ++l, ++pos) {
      if (l == first) firstPos = pos;
      pos = indexOf(src, (byte) '\n', pos);
      if (pos < 0) break;
    }
    if (firstPos < 0) return;
    int end = pos < 0 ? src.length : pos;
    int width = (int) Math.ceil(Math.log10(last));
    long l = first;
    for (int p = firstPos; p < end; ++l) {
      int lineEnd = indexOf(src, (byte) '\n', p);
      if (lineEnd < 0 || lineEnd > end) lineEnd = end;
      int textEnd = lineEnd > p && src[lineEnd - 1] == '\r' ? lineEnd - 1 : lineEnd;
      String num = Long.toString(l);
      for (int i = num.length(); i < width; i++) out.append(' ');
      out.append(num).append(l == line ? " >: " : "  : ");
      out.append(src, p, textEnd - p).append('\n');
      if (lineEnd >= end) break;
      p = lineEnd + 1;
    }
  }

  private static int indexOf(byte[] b, byte v, int from) {
    for (int i = from; i < b.length; i++) if (b[i] == v) return i;
    return -1;
  }

  private byte[] load(String file) {
    synchronized (files) {
      if (files.containsKey(file)) return files.get(file);
    }
    byte[] bytes = null;
    try {
      Path p = Path.of(file);
      if (Files.isRegularFile(p) && Files.size(p) <= MAX_FILE) bytes = Files.readAllBytes(p);
    } catch (IOException | InvalidPathException | SecurityException e) {
      bytes = null;
    }
    synchronized (files) {
      files.put(file, bytes);
    }
    return bytes;
  }
}
