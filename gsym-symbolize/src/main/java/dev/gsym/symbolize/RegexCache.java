package dev.gsym.symbolize;

import dev.gsym.read.PosixRegex;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Call-site regexes compiled once (llvm's POSIX ERE through {@link PosixRegex}), shared by the
 * threads of one {@link Symbolizer}. Bounded: when it holds {@code max} expressions it is emptied
 * and refilled, which keeps memory fixed whatever the modules hold and costs nothing while the
 * working set fits.
 */
final class RegexCache {
  /** What an expression llvm rejects becomes: it matches nothing, as in llvm-gsymutil. */
  private static final Pattern NEVER = Pattern.compile("(?!)");

  private final ConcurrentHashMap<String, Pattern> patterns = new ConcurrentHashMap<>();
  private final int max;

  RegexCache(int max) {
    if (max < 1) throw new IllegalArgumentException("max must be at least 1");
    this.max = max;
  }

  /** True if {@code regex} matches somewhere in {@code name} (llvm's unanchored {@code Regex::match}). */
  boolean find(String regex, String name) {
    return pattern(regex).matcher(name).find();
  }

  Pattern pattern(String regex) {
    Pattern p = patterns.get(regex);
    if (p != null) return p;
    Pattern compiled = PosixRegex.compile(regex);
    p = compiled == null ? NEVER : compiled;
    if (patterns.size() >= max) patterns.clear();
    Pattern raced = patterns.putIfAbsent(regex, p);
    return raced != null ? raced : p;
  }

  int size() {
    return patterns.size();
  }
}
