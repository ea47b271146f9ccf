package dev.gsym.spark;

import java.io.Serializable;
import java.util.Objects;

/**
 * What {@link GsymSpark#convert} converts and where to.
 *
 * @param input a directory tree of debug files and {@code .sym} files, or a listing of them: a
 *     text file (one path or URI per line; relative paths are relative to the listing's directory)
 *     or a Parquet table with a {@code path} column; any Hadoop file system URI
 * @param listing how to read {@code input}
 * @param store the GSYM store's root (any Hadoop file system URI), laid out as the Symbolizer's
 * @param force convert and replace modules the store already has (default: skip them)
 * @param mergedFunctions convert DWARF with merged functions and call sites, into the store's
 *     {@code merged/} subdirectory (as {@code Symbolizer.Builder.mergedFunctions})
 * @param partitions Spark partitions (tasks) the inputs are spread over; 0 for one per input up to
 *     four per core of the application
 * @param threadsPerTask threads one DWARF conversion uses (default 1: Spark runs a task per core)
 */
public record ConvertOptions(String input, Listing listing, String store, boolean force, boolean mergedFunctions,
    int partitions, int threadsPerTask) implements Serializable {
  /** How the input names the files. */
  public enum Listing {
    /** A directory: its tree; a file: Parquet if it starts with {@code PAR1}, else text. */
    AUTO,
    /** Every file below a directory ({@code .dwo}, {@code .dwp} and names starting with '.' or '_' left out). */
    TREE,
    /** One path per line. */
    TEXT,
    /** A Parquet table with a string column {@code path}. */
    PARQUET
  }

  /** Checks the settings. */
  public ConvertOptions {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(listing, "listing");
    Objects.requireNonNull(store, "store");
    if (partitions < 0) throw new IllegalArgumentException("partitions must not be negative");
    if (threadsPerTask < 0) throw new IllegalArgumentException("threadsPerTask must not be negative");
  }

  /** Converts {@code input} (listing {@link Listing#AUTO}) into {@code store}, skipping modules it has. */
  public static ConvertOptions of(String input, String store) {
    return new ConvertOptions(input, Listing.AUTO, store, false, false, 0, 1);
  }

  /** These options with another listing. */
  public ConvertOptions withListing(Listing l) {
    return new ConvertOptions(input, l, store, force, mergedFunctions, partitions, threadsPerTask);
  }

  /** These options, replacing modules the store has ({@code on}) or skipping them. */
  public ConvertOptions withForce(boolean on) {
    return new ConvertOptions(input, listing, store, on, mergedFunctions, partitions, threadsPerTask);
  }

  /** These options, with merged functions and call sites ({@code on}) or without. */
  public ConvertOptions withMergedFunctions(boolean on) {
    return new ConvertOptions(input, listing, store, force, on, partitions, threadsPerTask);
  }

  /** These options with {@code n} partitions (0: one per input up to four per core). */
  public ConvertOptions withPartitions(int n) {
    return new ConvertOptions(input, listing, store, force, mergedFunctions, n, threadsPerTask);
  }

  /** These options with {@code n} threads per DWARF conversion. */
  public ConvertOptions withThreadsPerTask(int n) {
    return new ConvertOptions(input, listing, store, force, mergedFunctions, partitions, n);
  }
}
