package dev.gsym.spark;

import dev.gsym.symbolize.AddressMode;
import java.io.Serializable;
import java.util.Objects;

/**
 * How {@link GsymSpark#symbolicate} reads its input and where it finds the modules.
 *
 * @param store the GSYM store's root (any Hadoop file system URI), laid out as the Symbolizer's
 *     ({@code ConvertJob} writes one)
 * @param buildIdColumn the column of build-ids (hex strings, either case)
 * @param addressColumn the column of addresses: strings ({@code 0x} hex or decimal) or integers (a
 *     negative {@code long} is read as unsigned 64-bit)
 * @param cacheDir the executor-local directory store files are copied to before they are mapped
 *     (shared by the executors of a host; null for {@code <java.io.tmpdir>/gsym-spark-cache})
 * @param grouping how rows are brought together by module before the lookups
 * @param partitions partitions after a {@link Grouping#HASH} or {@link Grouping#RANGE} shuffle (0:
 *     {@code spark.sql.shuffle.partitions})
 * @param spread partitions one module's rows are hashed over with {@link Grouping#HASH}, so that a
 *     module with most of the rows does not make one task run longest
 * @param addressMode absolute (the module's own addresses, default) or relative to its base
 * @param maxOpenModules modules each executor keeps mapped at once
 */
public record SymbolizeOptions(String store, String buildIdColumn, String addressColumn, String cacheDir, Grouping grouping,
    int partitions, int spread, AddressMode addressMode, int maxOpenModules) implements Serializable {
  /** How rows are grouped by module. */
  public enum Grouping {
    /**
     * A hash shuffle on (build-id, a hash of the address modulo {@code spread}): each module's rows
     * go to at most {@code spread} partitions, so to at most that many executors.
     */
    HASH,
    /**
     * A range shuffle on (build-id, address): each partition holds a few modules' rows and a module
     * with many rows spans several partitions (Spark samples the input first: one more pass over it).
     */
    RANGE,
    /** No shuffle: each partition is sorted by build-id as it is (for input already clustered by module). */
    NONE
  }

  /** Checks the settings. */
  public SymbolizeOptions {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(buildIdColumn, "buildIdColumn");
    Objects.requireNonNull(addressColumn, "addressColumn");
    Objects.requireNonNull(grouping, "grouping");
    Objects.requireNonNull(addressMode, "addressMode");
    if (partitions < 0) throw new IllegalArgumentException("partitions must not be negative");
    if (spread < 1) throw new IllegalArgumentException("spread must be at least 1");
    if (maxOpenModules < 1) throw new IllegalArgumentException("maxOpenModules must be at least 1");
  }

  /** Columns {@code build_id} and {@code address}, hash grouping with spread 8, absolute addresses. */
  public static SymbolizeOptions of(String store) {
    return new SymbolizeOptions(store, "build_id", "address", null, Grouping.HASH, 0, 8, AddressMode.ABSOLUTE, 256);
  }

  /** These options with other build-id and address columns. */
  public SymbolizeOptions withColumns(String buildId, String address) {
    return new SymbolizeOptions(store, buildId, address, cacheDir, grouping, partitions, spread, addressMode, maxOpenModules);
  }

  /** These options with another executor-local cache directory (null: the default). */
  public SymbolizeOptions withCacheDir(String dir) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, dir, grouping, partitions, spread, addressMode, maxOpenModules);
  }

  /** These options with another grouping. */
  public SymbolizeOptions withGrouping(Grouping g) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, g, partitions, spread, addressMode, maxOpenModules);
  }

  /** These options with {@code n} partitions after the shuffle (0: {@code spark.sql.shuffle.partitions}). */
  public SymbolizeOptions withPartitions(int n) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, grouping, n, spread, addressMode, maxOpenModules);
  }

  /** These options with another address mode. */
  public SymbolizeOptions withAddressMode(AddressMode m) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, grouping, partitions, spread, m, maxOpenModules);
  }

  /** These options with each module's rows hashed over {@code n} partitions. */
  public SymbolizeOptions withSpread(int n) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, grouping, partitions, n, addressMode, maxOpenModules);
  }

  /** These options with {@code n} modules kept mapped per executor. */
  public SymbolizeOptions withMaxOpenModules(int n) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, grouping, partitions, spread, addressMode, n);
  }
}
