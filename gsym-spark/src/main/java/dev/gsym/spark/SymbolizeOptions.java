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
 * @param partitions partitions after {@link Grouping#RANGE} (0: {@code spark.sql.shuffle.partitions})
 * @param addressMode absolute (the module's own addresses, default) or relative to its base
 * @param maxOpenModules modules each executor keeps mapped at once
 */
public record SymbolizeOptions(String store, String buildIdColumn, String addressColumn, String cacheDir, Grouping grouping,
    int partitions, AddressMode addressMode, int maxOpenModules) implements Serializable {
  /** How rows are grouped by module. */
  public enum Grouping {
    /**
     * A range shuffle on (build-id, address): each partition holds a few modules' rows and a module
     * with many rows spans several partitions, so tasks stay even when one module dominates.
     */
    RANGE,
    /** No shuffle: each partition is sorted by build-id as it is (for input already clustered by module). */
    NONE
  }

  public SymbolizeOptions {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(buildIdColumn, "buildIdColumn");
    Objects.requireNonNull(addressColumn, "addressColumn");
    Objects.requireNonNull(grouping, "grouping");
    Objects.requireNonNull(addressMode, "addressMode");
    if (partitions < 0) throw new IllegalArgumentException("partitions must not be negative");
    if (maxOpenModules < 1) throw new IllegalArgumentException("maxOpenModules must be at least 1");
  }

  /** Columns {@code build_id} and {@code address}, range grouping, absolute addresses. */
  public static SymbolizeOptions of(String store) {
    return new SymbolizeOptions(store, "build_id", "address", null, Grouping.RANGE, 0, AddressMode.ABSOLUTE, 256);
  }

  public SymbolizeOptions withColumns(String buildId, String address) {
    return new SymbolizeOptions(store, buildId, address, cacheDir, grouping, partitions, addressMode, maxOpenModules);
  }

  public SymbolizeOptions withCacheDir(String dir) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, dir, grouping, partitions, addressMode, maxOpenModules);
  }

  public SymbolizeOptions withGrouping(Grouping g) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, g, partitions, addressMode, maxOpenModules);
  }

  public SymbolizeOptions withPartitions(int n) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, grouping, n, addressMode, maxOpenModules);
  }

  public SymbolizeOptions withAddressMode(AddressMode m) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, grouping, partitions, m, maxOpenModules);
  }

  public SymbolizeOptions withMaxOpenModules(int n) {
    return new SymbolizeOptions(store, buildIdColumn, addressColumn, cacheDir, grouping, partitions, addressMode, n);
  }
}
