package dev.gsym.spark;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * Where {@link GsymSpark#stackwalk} finds symbols for the dumps it walks.
 *
 * @param store a GSYM store's root (any Hadoop file system URI), laid out as the Symbolizer's: a
 *     module is looked up as {@code breakpad/<debug file>/<DEBUG ID>.gsym}, then, for a Linux
 *     module with a build-id, as {@code <id[0:2]>/<id[2:]>.gsym}; null for none
 * @param breakpadSymbols Breakpad symbol directories ({@code NAME/DEBUG_ID/NAME.sym}; any Hadoop
 *     file system URI), searched in order after the store; each {@code .sym} file an executor needs
 *     is copied (when not local) and converted to GSYM with its STACK records once per executor
 *     host, in the cache directory
 * @param cacheDir the executor-local directory store files are copied to and symbol files converted
 *     in (null for {@code <java.io.tmpdir>/gsym-spark-cache})
 * @param partitions tasks the dumps are spread over (0: one per dump, at most 4 per core)
 */
public record StackwalkOptions(String store, List<String> breakpadSymbols, String cacheDir, int partitions)
    implements Serializable {
  /** Checks the options: some symbols, and no negative partition count. */
  public StackwalkOptions {
    breakpadSymbols = List.copyOf(Objects.requireNonNull(breakpadSymbols, "breakpadSymbols"));
    if (store == null && breakpadSymbols.isEmpty()) {
      throw new IllegalArgumentException("no symbols: give a GSYM store, Breakpad symbol directories, or both");
    }
    if (partitions < 0) throw new IllegalArgumentException("partitions must not be negative");
  }

  /** Symbols from the GSYM store {@code store}. */
  public static StackwalkOptions ofStore(String store) {
    return new StackwalkOptions(Objects.requireNonNull(store, "store"), List.of(), null, 0);
  }

  /** Symbols from Breakpad symbol directories. */
  public static StackwalkOptions ofBreakpadSymbols(List<String> directories) {
    return new StackwalkOptions(null, directories, null, 0);
  }

  /** These options with the GSYM store {@code s} (null for none). */
  public StackwalkOptions withStore(String s) {
    return new StackwalkOptions(s, breakpadSymbols, cacheDir, partitions);
  }

  /** These options with the Breakpad symbol directories {@code dirs}, searched in order. */
  public StackwalkOptions withBreakpadSymbols(List<String> dirs) {
    return new StackwalkOptions(store, dirs, cacheDir, partitions);
  }

  /** These options with the executor-local cache directory {@code dir}. */
  public StackwalkOptions withCacheDir(String dir) {
    return new StackwalkOptions(store, breakpadSymbols, dir, partitions);
  }

  /** These options with {@code n} tasks (0: one per dump, at most 4 per core). */
  public StackwalkOptions withPartitions(int n) {
    return new StackwalkOptions(store, breakpadSymbols, cacheDir, n);
  }
}
