package dev.gsym.spark;

import dev.gsym.symbolize.AddressMode;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/** {@code spark-submit --class dev.gsym.spark.SymbolizeJob gsym-spark-*-all.jar --help}. */
public final class SymbolizeJob {
  private SymbolizeJob() {}

  static final String HELP = """
      Usage: SymbolizeJob --store URI --input URI --output URI [options]

      Symbolicates a table of (build-id, address) rows with a GSYM store (ConvertJob writes one):
      every input row comes out once, its columns unchanged, plus
        status    ok | module_not_found | address_not_covered | module_unreadable | bad_build_id
                  | bad_address
        function  the function containing the address (null unless ok)
        file      the source file of the address, deepest inlined frame (null if unknown)
        line      its line (0 if unknown)
        frames    every frame, deepest inlined first: array<struct<function, file, line>>; in CSV
                  a JSON array string: [{"function":..,"file":..,"line":..},...]
      Rows are grouped by module so each executor maps each GSYM once; store files are copied
      through the Hadoop file system API to an executor-local cache. A module the store lacks is a
      status, never a failed job. Output rows are grouped by module, not in input order.

        --store URI            the GSYM store's root (file://, hdfs://, s3a://, ...)
        --input URI            the rows: Parquet, or CSV with a header line
        --input-format F       parquet or csv (default: csv if the input name ends in .csv)
        --output URI           where the result goes (replaced)
        --format F             parquet (default) or csv (with a header line)
        --build-id-column C    default build_id (hex strings)
        --address-column C     default address (0x hex or decimal strings, or integers)
        --relative             addresses are relative to the module's base (default: absolute)
        --grouping G           hash (default): a shuffle on build-id and a hash of the address
                               modulo --spread, so a module's rows go to at most that many
                               partitions; range: a range shuffle on build-id and address (Spark
                               samples the input first); none: no shuffle, each partition sorted
                               by build-id (input already clustered by module)
        --partitions N         partitions of the shuffle (default spark.sql.shuffle.partitions)
        --spread N             partitions per module with hash grouping (default 8)
        --cache-dir DIR        executor-local GSYM cache (default <java.io.tmpdir>/gsym-spark-cache)
        --max-open-modules N   modules each executor keeps mapped (default 256)
        --master URL           Spark master (default: spark-submit's, else local[*])
        --conf KEY=VALUE       a Spark setting (repeatable)
        --verbose              stack traces of errors
        --help                 this text

      Exit status: 0 when the job ran (whatever the rows' statuses), 1 when it could not run, 2 for
      a bad command line.
      """;

  /** Runs the job with the command line {@code args} ({@code --help} lists it); exits with its status unless 0. */
  public static void main(String[] args) {
    int status = JobArgs.run("SymbolizeJob", args, SymbolizeJob::run);
    if (status != 0) System.exit(status);
  }

  static int run(String[] argv) {
    if (java.util.Arrays.asList(argv).contains("--help")) {
      System.out.print(HELP);
      return 0;
    }
    JobArgs a = new JobArgs(argv, Set.of("store", "input", "input-format", "output", "format", "build-id-column",
        "address-column", "grouping", "partitions", "spread", "cache-dir", "max-open-modules"), Set.of("relative", "verbose"));
    String input = a.required("input");
    String output = a.required("output");
    String inFormat = a.get("input-format", input.endsWith(".csv") ? "csv" : "parquet");
    String outFormat = a.get("format", "parquet");
    for (String f : new String[] {inFormat, outFormat}) {
      if (!f.equals("parquet") && !f.equals("csv")) throw new JobArgs.UsageException("unknown format '" + f + "': parquet or csv");
    }
    SymbolizeOptions o = SymbolizeOptions.of(a.required("store"))
        .withColumns(a.get("build-id-column", "build_id"), a.get("address-column", "address"))
        .withCacheDir(a.get("cache-dir", null))
        .withGrouping(a.choice("grouping", SymbolizeOptions.Grouping.class, SymbolizeOptions.Grouping.HASH))
        .withPartitions(a.integer("partitions", 0, 1))
        .withSpread(a.integer("spread", 8, 1))
        .withAddressMode(a.flag("relative") ? AddressMode.RELATIVE : AddressMode.ABSOLUTE)
        .withMaxOpenModules(a.integer("max-open-modules", 256, 1));
    boolean owned = SparkSession.getDefaultSession().isEmpty(); // a caller's session (tests) stays up
    SparkSession spark = a.session("gsym SymbolizeJob");
    try {
      Dataset<Row> in = inFormat.equals("csv") ? spark.read().option("header", "true").csv(input) : spark.read().parquet(input);
      GsymSpark.Counters c = new GsymSpark.Counters(spark.sparkContext().longAccumulator("gsym rows with frames"),
          spark.sparkContext().longAccumulator("gsym rows without frames"));
      long t0 = System.nanoTime();
      Dataset<Row> out = GsymSpark.symbolicate(in, o, c);
      if (outFormat.equals("csv")) {
        Column[] cols = new Column[out.columns().length];
        for (int i = 0; i < cols.length; i++) {
          String n = out.columns()[i];
          cols[i] = n.equals("frames") ? functions.to_json(functions.col(n)).as(n) : functions.col(n);
        }
        out.select(cols).write().mode(SaveMode.Overwrite).option("header", "true").csv(output);
      } else {
        out.write().mode(SaveMode.Overwrite).parquet(output);
      }
      double s = (System.nanoTime() - t0) / 1e9;
      long rows = c.found().value() + c.notFound().value();
      System.err.printf("SymbolizeJob: %d rows (%d with frames, %d without) in %.2f s, %.0f rows/s, output %s%n", rows,
          c.found().value(), c.notFound().value(), s, rows / s, output);
      return 0;
    } finally {
      if (owned) spark.stop();
    }
  }
}
