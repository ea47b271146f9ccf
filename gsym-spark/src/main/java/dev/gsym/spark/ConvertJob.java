package dev.gsym.spark;

import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/** {@code spark-submit --class dev.gsym.spark.ConvertJob gsym-spark-*-all.jar --help}. */
public final class ConvertJob {
  private ConvertJob() {}

  static final String HELP = """
      Usage: ConvertJob --input DIR|LISTING --store DIR --manifest OUT [options]

      Converts debug files (ELF with DWARF) and Breakpad .sym files into a GSYM store laid out as
      gsym-symbolize's Symbolizer reads it (<store>/<id[0:2]>/<id[2:]>.gsym by build-id,
      <store>/breakpad/<debug file>/<DEBUG ID>.gsym), byte-identical with `gsymutil` file by file,
      and writes a manifest with one row per input. Modules the store has are not converted again
      (status exists) unless --force; each GSYM is published atomically (temporary name, rename); an
      input that cannot be converted is one failed row. Any Hadoop file system URI works (file://,
      hdfs://, s3a://).

        --input URI            a directory tree, or a listing: a text file (one path per line) or
                               a Parquet table with a `path` column
        --listing KIND         auto (default), tree, text or parquet
        --store URI            the GSYM store's root
        --manifest URI         where the manifest goes (replaced)
        --manifest-format F    parquet (default) or csv (with a header line)
        --force                convert and replace modules the store already has
        --merged-functions     DWARF with merged functions and call sites, into <store>/merged/
        --partitions N         tasks the inputs are spread over (default: one per input, at most
                               4 per core)
        --threads-per-task N   threads of one DWARF conversion (default 1; 0: every core)
        --master URL           Spark master (default: spark-submit's, else local[*])
        --conf KEY=VALUE       a Spark setting (repeatable)
        --verbose              stack traces of errors
        --help                 this text

      Manifest columns: input, format (elf|breakpad), build_id, debug_file, debug_id, store_path,
      status (converted|exists|skipped|failed), error, input_bytes, output_bytes, functions, millis.
      Exit status: 0 when the job ran (whatever the rows' statuses), 1 when it could not run, 2 for
      a bad command line.
      """;

  /** Runs the job with the command line {@code args} ({@code --help} lists it); exits with its status unless 0. */
  public static void main(String[] args) {
    int status = JobArgs.run("ConvertJob", args, ConvertJob::run);
    if (status != 0) System.exit(status);
  }

  static int run(String[] argv) {
    if (java.util.Arrays.asList(argv).contains("--help")) {
      System.out.print(HELP);
      return 0;
    }
    JobArgs a = new JobArgs(argv, Set.of("input", "listing", "store", "manifest", "manifest-format", "partitions",
        "threads-per-task"), Set.of("force", "merged-functions", "verbose"));
    ConvertOptions o = ConvertOptions.of(a.required("input"), a.required("store"))
        .withListing(a.choice("listing", ConvertOptions.Listing.class, ConvertOptions.Listing.AUTO))
        .withForce(a.flag("force")).withMergedFunctions(a.flag("merged-functions"))
        .withPartitions(a.integer("partitions", 0, 0)).withThreadsPerTask(a.integer("threads-per-task", 1, 0));
    String manifest = a.required("manifest");
    String format = a.get("manifest-format", "parquet");
    if (!format.equals("parquet") && !format.equals("csv")) throw new JobArgs.UsageException("--manifest-format: parquet or csv");
    boolean owned = SparkSession.getDefaultSession().isEmpty(); // a caller's session (tests) stays up
    SparkSession spark = a.session("gsym ConvertJob");
    try {
      Dataset<Row> m = GsymSpark.convert(spark, o);
      var w = m.coalesce(1).write().mode(SaveMode.Overwrite);
      if (format.equals("csv")) w.option("header", "true").csv(manifest);
      else w.parquet(manifest);
      StringBuilder sb = new StringBuilder("ConvertJob: ");
      for (Row r : m.groupBy("status").count().orderBy("status").collectAsList()) {
        sb.append(r.getString(0)).append(' ').append(r.getLong(1)).append(", ");
      }
      sb.append("manifest ").append(manifest);
      System.err.println(sb);
      return 0;
    } finally {
      if (owned) spark.stop();
    }
  }
}
