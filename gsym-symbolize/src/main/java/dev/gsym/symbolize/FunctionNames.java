package dev.gsym.symbolize;

import dev.gsym.demangle.Demangler;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a symbolizer shows function names: as the module stores them, or demangled, with the
 * demangled names of recent functions kept (a module's hot functions come back in every batch).
 * Thread-safe.
 */
final class FunctionNames {
  /** Names kept; the cache is emptied when full (a bound, not an LRU: demangling is cheap). */
  private static final int MAX_CACHED = 1 << 16;

  /** Names as the module stores them. */
  static final FunctionNames RAW = new FunctionNames(null);

  private final Demangler demangler;
  private final ConcurrentHashMap<String, String> cache;

  /** @param demangler the demangler, or null for raw names */
  FunctionNames(Demangler demangler) {
    this.demangler = demangler;
    this.cache = demangler == null ? null : new ConcurrentHashMap<>();
  }

  /** The name shown for {@code raw}. */
  String shown(String raw) {
    if (demangler == null) return raw;
    String d = cache.get(raw);
    if (d != null) return d;
    d = demangler.demangle(raw);
    if (cache.size() >= MAX_CACHED) cache.clear();
    cache.put(raw, d);
    return d;
  }
}
