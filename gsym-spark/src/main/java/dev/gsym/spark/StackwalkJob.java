package dev.gsym.spark;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/** {@code spark-submit --class dev.gsym.spark.StackwalkJob gsym-spark-*-all.jar --help}. */
public final class StackwalkJob {
  private StackwalkJob() {}

  static final String HELP = """
      Usage: StackwalkJob --input DIR|LISTING --output URI (--store URI | --breakpad-symbols URI)... [options]

      Walks minidumps as Breakpad's minidump_stackwalk does (context, CFI, frame pointers, stack
      scanning) and symbolicates their frames, one output row per dump (Parquet):
        dump, status (ok | failed), error (why it failed: the file, the offset, the problem),
        os, cpu, crash_reason, crash_address, crashing_thread (index), thread_id,
        frames    the crashing (or dump-requesting) thread's frames, innermost first, inlined
                  frames included: array<struct<trust, module, function, file, line, address,
                  module_offset, function_offset>>
        modules   array<struct<code_file, code_id, debug_file, debug_id, version, base, size>>
        threads, millis
      A dump that cannot be read fails only its own row.

        --input DIR|LISTING      a directory (every file below it), a Parquet table with a string
                                 column path, or a text listing (one path or URI per line)
        --output URI             where the rows go (replaced)
        --store URI              a GSYM store: breakpad/NAME/ID.gsym, then by build-id
        --breakpad-symbols URI   a Breakpad symbol directory (NAME/ID/NAME.sym), after the store;
                                 repeatable; each .sym is converted to GSYM once per executor host
        --cache-dir DIR          executor-local cache (default <java.io.tmpdir>/gsym-spark-cache)
        --partitions N           tasks (default one per dump, at most 4 per core)
        --master URL             Spark master (default: spark-submit's, else local[*])
        --conf KEY=VALUE         a Spark setting (repeatable)
        --verbose                stack traces of errors
        --help                   this text

      Exit status: 0 when the job ran (whatever the rows' statuses), 1 when it could not run, 2 for
      a bad command line.
      """;

  /** Runs the job with the command line {@code args} ({@code --help} lists it); exits with its status unless 0. */
  public static void main(String[] args) {
    int status = JobArgs.run("StackwalkJob", args, StackwalkJob::run);
    if (status != 0) System.exit(status);
  }

  static int run(String[] argv) {
    if (Arrays.asList(argv).contains("--help")) {
      System.out.print(HELP);
      return 0;
    }
    // --breakpad-symbols repeats: collected before JobArgs, which keeps one value per option
    List<String> symbolDirs = new java.util.ArrayList<>();
    List<String> rest = new java.util.ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (a.equals("--breakpad-symbols")) {
        if (i + 1 >= argv.length) throw new JobArgs.UsageException("--breakpad-symbols: missing value");
        symbolDirs.add(argv[++i]);
      } else if (a.startsWith("--breakpad-symbols=")) {
        symbolDirs.add(a.substring("--breakpad-symbols=".length()));
      } else {
        rest.add(a);
      }
    }
    JobArgs a = new JobArgs(rest.toArray(String[]::new), Set.of("input", "output", "store", "cache-dir", "partitions"),
        Set.of("verbose"));
    String input = a.required("input");
    String output = a.required("output");
    String store = a.get("store", null);
    if (store == null && symbolDirs.isEmpty()) throw new JobArgs.UsageException("--store or --breakpad-symbols is required");
    StackwalkOptions o = new StackwalkOptions(store, symbolDirs, a.get("cache-dir", null), a.integer("partitions", 0, 1));
    boolean owned = SparkSession.getDefaultSession().isEmpty(); // a caller's session (tests) stays up
    SparkSession spark = a.session("gsym StackwalkJob");
    try {
      GsymSpark.Counters c = new GsymSpark.Counters(spark.sparkContext().longAccumulator("gsym dumps walked"),
          spark.sparkContext().longAccumulator("gsym dumps failed"));
      long t0 = System.nanoTime();
      Dataset<Row> out = GsymSpark.stackwalk(spark, input, o, c);
      out.write().mode(SaveMode.Overwrite).parquet(output);
      double s = (System.nanoTime() - t0) / 1e9;
      long dumps = c.found().value() + c.notFound().value();
      System.err.printf("StackwalkJob: %d dumps (%d walked, %d failed) in %.2f s, %.1f dumps/s, output %s%n", dumps,
          c.found().value(), c.notFound().value(), s, dumps / s, output);
      return 0;
    } finally {
      if (owned) spark.stop();
    }
  }
}
