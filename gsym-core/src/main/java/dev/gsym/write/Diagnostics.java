package dev.gsym.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Collects warnings by category and forwards messages to an optional sink (LLVM's
 * OutputAggregator). Thread-safe; one per worker can be merged into another.
 */
public final class Diagnostics {
  private final Appendable out;
  private final TreeMap<String, Long> counts = new TreeMap<>();

  /**
   * Diagnostics that write messages to {@code out}.
   *
   * @param out where messages go, or null to only count
   */
  public Diagnostics(Appendable out) {
    this.out = out;
  }

  /** A Diagnostics that only counts. */
  public static Diagnostics silent() {
    return new Diagnostics(null);
  }

  /** True if messages are written somewhere. */
  public boolean isVerbose() {
    return out != null;
  }

  /** Writes {@code text} as is (callers add newlines). */
  public synchronized void log(String text) {
    if (out == null) return;
    try {
      out.append(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Counts one occurrence of {@code category} and, if not silent, writes the detail. */
  public synchronized void report(String category, Consumer<StringBuilder> detail) {
    counts.merge(category, 1L, Long::sum);
    if (out != null) {
      StringBuilder sb = new StringBuilder();
      detail.accept(sb);
      log(sb.toString());
    }
  }

  /** Adds another collector's counts to this one. */
  public synchronized void merge(Diagnostics other) {
    for (Map.Entry<String, Long> e : other.categories().entrySet()) {
      counts.merge(e.getKey(), e.getValue(), Long::sum);
    }
  }

  /** Counts by category, sorted by category. */
  public synchronized Map<String, Long> categories() {
    return new TreeMap<>(counts);
  }

  /** "&lt;category&gt; occurred N time(s)" lines, as llvm-gsymutil prints them last. */
  public synchronized String summary() {
    StringBuilder sb = new StringBuilder();
    counts.forEach((k, v) -> sb.append(k).append(" occurred ").append(v).append(" time(s)\n"));
    return sb.toString();
  }
}
