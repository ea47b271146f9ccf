package dev.gsym.spark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;

/**
 * Bulk conversion to a GSYM store, bulk symbolication and bulk stack walking of minidumps on Apache
 * Spark (docs/spark.md).
 *
 * <pre>{@code
 * Dataset<Row> manifest = GsymSpark.convert(spark, ConvertOptions.of("hdfs:///debug", "hdfs:///gsym"));
 * Dataset<Row> frames = GsymSpark.symbolicate(spark.read().parquet("s3a://b/samples"),
 *     SymbolizeOptions.of("hdfs:///gsym"));
 * }</pre>
 */
public final class GsymSpark {
  private GsymSpark() {}

  /**
   * Converts every input file into the store, one manifest row per input (schema in docs/spark.md).
   * The conversion runs during this call, once: the manifest returned is checkpointed on the
   * executors, so using it again does not convert again.
   *
   * @throws IllegalArgumentException if the input cannot be listed
   */
  public static Dataset<Row> convert(SparkSession spark, ConvertOptions options) {
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    Listed listed = list(spark, options.input(), options.listing());
    Dataset<String> paths = listed.paths();
    int n = listed.count();
    int cores = spark.sparkContext().defaultParallelism();
    int parts = options.partitions() > 0 ? options.partitions() : n < 0 ? 4 * cores : Math.max(1, Math.min(n, 4 * cores));
    Broadcast<byte[]> bc = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(HadoopFiles.serialize(conf));
    return paths.repartition(parts).mapPartitions(new ConvertPartition(bc, options), Encoders.row(ManifestRow.SCHEMA))
        .localCheckpoint(true);
  }

  /** Input paths, and how many (-1 when not counted: a Parquet listing). */
  private record Listed(Dataset<String> paths, int count) {}

  /**
   * The paths of {@code input}: every file below a directory, the {@code path} column of a Parquet
   * table, or the lines of a text listing (docs/spark.md, ConvertJob's "Input").
   *
   * @throws IllegalArgumentException if the input cannot be listed
   */
  private static Listed list(SparkSession spark, String input, ConvertOptions.Listing listing) {
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    try {
      Path in = new Path(input);
      FileSystem fs = HadoopFiles.fileSystem(in, conf);
      FileStatus st = fs.getFileStatus(in);
      ConvertOptions.Listing l = listing;
      if (l == ConvertOptions.Listing.AUTO) l = st.isDirectory() ? ConvertOptions.Listing.TREE : isParquet(fs, in)
          ? ConvertOptions.Listing.PARQUET : ConvertOptions.Listing.TEXT;
      if (l == ConvertOptions.Listing.PARQUET) {
        Dataset<String> paths = spark.read().parquet(input).select(functions.col("path").cast("string")).as(Encoders.STRING())
            .filter((org.apache.spark.api.java.function.FilterFunction<String>) s -> s != null && !s.isBlank());
        return new Listed(paths, -1);
      }
      List<String> list = l == ConvertOptions.Listing.TREE ? tree(fs, in) : textListing(fs, in);
      return new Listed(spark.createDataset(list, Encoders.STRING()), list.size());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list " + input + ": " + e.getMessage(), e);
    }
  }

  /**
   * Walks every minidump of {@code input} (a directory: every file below it; a Parquet table with a
   * string column {@code path}; or a text listing, one path or URI per line), one row per dump
   * (schema in docs/spark.md, "StackwalkJob"). Lazy; rows are not in input order.
   *
   * @throws IllegalArgumentException if the input cannot be listed
   */
  public static Dataset<Row> stackwalk(SparkSession spark, String input, StackwalkOptions options) {
    return stackwalk(spark, input, options, null);
  }

  static Dataset<Row> stackwalk(SparkSession spark, String input, StackwalkOptions options, Counters counters) {
    Listed listed = list(spark, input, ConvertOptions.Listing.AUTO);
    int cores = spark.sparkContext().defaultParallelism();
    int parts = options.partitions() > 0 ? options.partitions()
        : listed.count() < 0 ? 4 * cores : Math.max(1, Math.min(listed.count(), 4 * cores));
    return stackwalk(listed.paths().repartition(parts), options, counters);
  }

  /** Walks the minidump at each of {@code paths} (paths or URIs of any Hadoop file system), one row per dump, partitioned as they are. */
  public static Dataset<Row> stackwalk(Dataset<String> paths, StackwalkOptions options) {
    return stackwalk(paths, options, null);
  }

  static Dataset<Row> stackwalk(Dataset<String> paths, StackwalkOptions options, Counters counters) {
    SparkSession spark = paths.sparkSession();
    if (counters == null) {
      counters = new Counters(spark.sparkContext().longAccumulator("gsym dumps walked"),
          spark.sparkContext().longAccumulator("gsym dumps failed"));
    }
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    Broadcast<byte[]> bc = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(HadoopFiles.serialize(conf));
    ExecutorSymbols.Key key = new ExecutorSymbols.Key(options.store(), options.breakpadSymbols(), options.cacheDir());
    return paths.mapPartitions(new StackwalkPartition(bc, key, counters.found(), counters.notFound()),
        Encoders.row(StackwalkColumns.SCHEMA));
  }

  /**
   * The rows of {@code input} with the symbolication columns appended (docs/spark.md, "Output").
   * Lazy, as any Dataset transformation; rows come out grouped by module, not in input order.
   *
   * @throws IllegalArgumentException if a named column is missing or an output column's name is taken
   */
  public static Dataset<Row> symbolicate(Dataset<Row> input, SymbolizeOptions options) {
    return symbolicate(input, options, null);
  }

  /** Counters of a symbolication (rows answered with frames and rows without) or a stack walk (dumps walked and failed). */
  record Counters(LongAccumulator found, LongAccumulator notFound) {}

  static Dataset<Row> symbolicate(Dataset<Row> input, SymbolizeOptions options, Counters counters) {
    StructType schema = input.schema();
    List<String> names = Arrays.asList(schema.fieldNames());
    for (String c : List.of(options.buildIdColumn(), options.addressColumn())) {
      if (!names.contains(c)) throw new IllegalArgumentException("no column '" + c + "' in the input (columns: " + names + ")");
    }
    StructType out = SymbolizedColumns.outputSchema(schema);
    SparkSession spark = input.sparkSession();
    if (counters == null) {
      counters = new Counters(spark.sparkContext().longAccumulator("gsym rows with frames"),
          spark.sparkContext().longAccumulator("gsym rows without frames"));
    }
    int parts = options.partitions() > 0 ? options.partitions()
        : Integer.parseInt(spark.conf().get("spark.sql.shuffle.partitions", "200"));
    Dataset<Row> grouped = switch (options.grouping()) {
      case HASH -> input.repartition(parts, functions.col(options.buildIdColumn()),
              functions.pmod(functions.xxhash64(functions.col(options.addressColumn())), functions.lit(options.spread())))
          .sortWithinPartitions(options.buildIdColumn());
      case RANGE -> input.repartitionByRange(parts, functions.col(options.buildIdColumn()), functions.col(options.addressColumn()))
          .sortWithinPartitions(options.buildIdColumn());
      case NONE -> input.sortWithinPartitions(options.buildIdColumn());
    };
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    Broadcast<byte[]> bc = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(HadoopFiles.serialize(conf));
    ExecutorModules.Key key = new ExecutorModules.Key(options.store(), options.cacheDir(), options.addressMode(),
        options.maxOpenModules());
    return grouped.mapPartitions(new SymbolizePartition(bc, key, names.indexOf(options.buildIdColumn()),
        names.indexOf(options.addressColumn()), names.size(), counters.found(), counters.notFound()), Encoders.row(out));
  }

  private static boolean isParquet(FileSystem fs, Path p) throws IOException {
    byte[] magic = new byte[4];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, magic);
    } catch (java.io.EOFException e) {
      return false;
    }
    return magic[0] == 'P' && magic[1] == 'A' && magic[2] == 'R' && magic[3] == '1';
  }

  /** Every file below {@code root}, split-DWARF companions and hidden or underscore names left out, sorted. */
  private static List<String> tree(FileSystem fs, Path root) throws IOException {
    List<String> out = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
    while (it.hasNext()) {
      LocatedFileStatus s = it.next();
      String name = s.getPath().getName();
      if (name.startsWith(".") || name.startsWith("_") || name.endsWith(".dwo") || name.endsWith(".dwp")) continue;
      out.add(fs.makeQualified(s.getPath()).toString());
    }
    out.sort(null);
    return out;
  }

  /** The paths of a text listing (blank lines and lines starting with '#' skipped), relative ones resolved against its directory. */
  private static List<String> textListing(FileSystem fs, Path listing) throws IOException {
    List<String> out = new ArrayList<>();
    Path dir = fs.makeQualified(listing).getParent();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(listing), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        String t = line.strip();
        if (t.isEmpty() || t.startsWith("#")) continue;
        Path p = new Path(t);
        out.add((p.isAbsolute() || p.toUri().getScheme() != null ? p : new Path(dir, t)).toString());
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return out;
  }
}
