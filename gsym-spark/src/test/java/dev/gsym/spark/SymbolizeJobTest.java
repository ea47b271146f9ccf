package dev.gsym.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The symbolication job in local[2] on a generated table (system property gsym.spark.rows, default
 * 1,000,000 rows) over the test binaries' modules, unknown build-ids, bad build-ids and addresses,
 * addresses outside every function: every row carries its columns unchanged and answers what {@code
 * gsymutil symbolize --store --output-style=JSON} answers for its pair.
 */
@Slow
class SymbolizeJobTest {
  @TempDir static Path work;
  static Path store;
  static Dataset<Row> expected;
  static Dataset<Row> pairs;
  static int pairCount;

  static final StructType PAIR = new StructType().add("idx", DataTypes.IntegerType).add("build_id", DataTypes.StringType)
      .add("address", DataTypes.StringType);
  static final StructType EXPECTED = new StructType().add("build_id", DataTypes.StringType)
      .add("address", DataTypes.StringType).add("e_status", DataTypes.StringType).add("e_function", DataTypes.StringType)
      .add("e_file", DataTypes.StringType).add("e_line", DataTypes.LongType)
      .add("e_frames", DataTypes.createArrayType(SymbolizedColumns.FRAME, false));

  @BeforeAll
  static void storeAndPairs() throws IOException {
    SparkSession spark = LocalSpark.get();
    store = work.resolve("store");
    Path listing = work.resolve("bin.txt");
    try (Stream<Path> s = Files.list(TestData.path("bin"))) {
      Files.write(listing, s.map(Path::toString).filter(p -> !p.endsWith(".dwo") && !p.endsWith(".dwp")).sorted().toList());
    }
    List<Row> manifest = GsymSpark.convert(spark, ConvertOptions.of(listing.toString(), store.toString())).collectAsList();
    List<String[]> modules = new ArrayList<>(); // build-id, store path
    for (Row r : manifest) {
      if ((r.getString(6).equals("converted") || r.getString(6).equals("exists"))
          && r.getString(2) != null && modules.stream().noneMatch(m -> m[0].equals(r.getString(2)))) {
        modules.add(new String[] {r.getString(2), r.getString(5)});
      }
    }
    assertThat(modules).hasSizeGreaterThan(20);

    // the pairs: per module every function's start, start + 1 and its last byte, and addresses
    // outside every function; unknown build-ids; bad build-ids and addresses
    List<String[]> list = new ArrayList<>();
    Random random = new Random(20261126);
    for (String[] m : modules) {
      try (GsymReader r = GsymReader.open(store.resolve(m[1]))) {
        long last = 0;
        for (int i = 0; i < r.numFunctions(); i++) {
          FunctionInfo f = r.functionInfoAtIndex(i);
          long start = f.startAddress();
          long size = f.range().size();
          list.add(new String[] {m[0], hex(start)});
          list.add(new String[] {m[0].toUpperCase(java.util.Locale.ROOT), hex(start + 1)});
          if (size > 1) list.add(new String[] {m[0], Long.toString(start + size - 1)}); // decimal
          last = Math.max(last, start + size);
        }
        list.add(new String[] {m[0], "0x0"});
        list.add(new String[] {m[0], hex(last + 0x100000)});
        list.add(new String[] {m[0], "0xffffffffffffffff"});
      }
    }
    for (int i = 0; i < 3; i++) {
      list.add(new String[] {String.format("%040x", random.nextLong() & Long.MAX_VALUE), "0x1000"});
    }
    list.add(new String[] {"not-a-build-id", "0x1000"});
    list.add(new String[] {modules.get(0)[0], "0xnot-hex"});
    list.add(new String[] {modules.get(0)[0], null});
    list.add(new String[] {modules.get(0)[0], "-5"});
    pairCount = list.size();
    List<Row> pairRows = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) pairRows.add(RowFactory.create(i, list.get(i)[0], list.get(i)[1]));
    pairs = spark.createDataFrame(pairRows, PAIR);
    expected = spark.createDataFrame(expectedAnswers(list), EXPECTED);
  }

  /** gsymutil symbolize's JSON answer for each pair, as the columns the job adds. */
  static List<Row> expectedAnswers(List<String[]> list) throws IOException {
    StringBuilder in = new StringBuilder();
    List<Integer> asked = new ArrayList<>();
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String[] p = list.get(i);
      String status = !p[0].matches("[0-9a-fA-F]+") ? "bad_build_id"
          : p[1] == null || !p[1].matches("0x[0-9a-f]+|[0-9]+") ? "bad_address" : null;
      if (status != null) {
        out.add(RowFactory.create(p[0], p[1], status, null, null, null, null));
      } else {
        asked.add(i);
        out.add(null);
        in.append("BUILDID:").append(p[0]).append(' ').append(p[1]).append('\n');
      }
    }
    Path noDebug = Files.createDirectories(work.resolve("no-debug-files"));
    String json = LocalSpark.gsymutil(in.toString(), "symbolize", "--store=" + store, "--output-style=JSON",
        "--no-demangle", "--debug-file-directory=" + noDebug);
    ObjectMapper mapper = new ObjectMapper();
    String[] lines = json.split("\n");
    assertThat(lines).hasSize(asked.size());
    for (int k = 0; k < lines.length; k++) {
      String[] p = list.get(asked.get(k));
      JsonNode a = mapper.readTree(lines[k]);
      Row row;
      if (a.has("Error")) {
        assertThat(a.get("Error").get("Message").asText()).contains("could not find build ID");
        row = RowFactory.create(p[0], p[1], "module_not_found", null, null, null, null);
      } else {
        JsonNode symbols = a.get("Symbol");
        if (symbols.isEmpty() || symbols.get(0).get("FunctionName").asText().isEmpty()) {
          row = RowFactory.create(p[0], p[1], "address_not_covered", null, null, null, null);
        } else {
          List<Row> frames = new ArrayList<>();
          for (JsonNode f : symbols) {
            String file = f.get("FileName").asText();
            frames.add(RowFactory.create(f.get("FunctionName").asText(), file.isEmpty() ? null : file, f.get("Line").asLong()));
          }
          Row deepest = frames.get(0);
          row = RowFactory.create(p[0], p[1], "ok", frames.get(frames.size() - 1).getString(0), deepest.get(1),
              deepest.get(2), frames);
        }
      }
      out.set(asked.get(k), row);
    }
    return out;
  }

  private static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  /** {@code n} rows: id, a tag carried through, the pair (build-id, address) id → pair by a hash. */
  static Dataset<Row> table(long n) {
    return LocalSpark.get().range(n).withColumn("idx", functions.pmod(functions.xxhash64(functions.col("id")),
        functions.lit(pairCount)).cast("int"))
        .join(functions.broadcast(pairs), "idx").drop("idx")
        .withColumn("tag", functions.concat(functions.lit("row-"), functions.col("id").cast("string")));
  }

  /** Rows of {@code out} (from {@link #table}) whose answer differs from gsymutil's, at most 10. */
  static List<Row> mismatches(Dataset<Row> out) {
    Column same = functions.col("status").eqNullSafe(functions.col("e_status"))
        .and(functions.col("function").eqNullSafe(functions.col("e_function")))
        .and(functions.col("file").eqNullSafe(functions.col("e_file")))
        .and(functions.col("line").eqNullSafe(functions.col("e_line")))
        .and(functions.col("frames").eqNullSafe(functions.col("e_frames")));
    Dataset<Row> joined = out.join(functions.broadcast(expected), out.col("build_id").eqNullSafe(expected.col("build_id"))
        .and(out.col("address").eqNullSafe(expected.col("address"))), "left");
    return joined.filter(functions.not(same).or(functions.col("e_status").isNull())).limit(10).collectAsList();
  }

  @Test
  void everyRowAnswersWhatGsymutilAnswers() {
    long n = Long.getLong("gsym.spark.rows", 1_000_000L);
    Path cache = work.resolve("cache");
    Dataset<Row> out = GsymSpark.symbolicate(table(n), SymbolizeOptions.of(store.toUri().toString())
        .withCacheDir(cache.toString()).withPartitions(8)).cache();
    try {
      assertThat(out.columns()).containsExactly("id", "build_id", "address", "tag", "status", "function", "file", "line",
          "frames");
      assertThat(out.count()).isEqualTo(n);
      assertThat(out.select("id").distinct().count()).isEqualTo(n);
      // the carried columns are unchanged
      assertThat(out.filter(functions.not(functions.col("tag").equalTo(
          functions.concat(functions.lit("row-"), functions.col("id").cast("string"))))).count()).isZero();
      assertThat(mismatches(out)).isEmpty();
      List<String> statuses = out.select("status").distinct().as(org.apache.spark.sql.Encoders.STRING()).collectAsList();
      assertThat(statuses).contains("ok", "module_not_found", "address_not_covered", "bad_build_id", "bad_address");
    } finally {
      out.unpersist();
    }
    // the store files were read through the executor-local cache
    assertThat(cache.resolve(expectedFirstStorePath())).exists();
  }

  private static String expectedFirstStorePath() {
    Row first = pairs.filter(functions.col("build_id").rlike("^[0-9a-f]+$")).first();
    String id = first.getString(1);
    return id.substring(0, 2) + "/" + id.substring(2) + ".gsym";
  }

  /** Through the command line: CSV in and out, frames as a JSON string; no shuffle (grouping none). */
  @Test
  void symbolizeJobReadsAndWritesCsv() throws IOException {
    Path in = work.resolve("in.csv");
    table(20_000).write().option("header", "true").csv(in.toString());
    Path out = work.resolve("out-csv");
    assertThat(SymbolizeJob.run(new String[] {"--store", store.toString(), "--input", in.toString(), "--input-format", "csv",
        "--output", out.toString(), "--format", "csv", "--grouping", "none", "--cache-dir", work.resolve("cache2").toString()}))
        .isZero();
    SparkSession spark = LocalSpark.get();
    Dataset<Row> back = spark.read().option("header", "true").option("inferSchema", "false").csv(out.toString());
    assertThat(back.count()).isEqualTo(20_000);
    Dataset<Row> typed = back.withColumn("line", functions.col("line").cast("long"))
        .withColumn("frames", functions.from_json(functions.col("frames"), DataTypes.createArrayType(SymbolizedColumns.FRAME)));
    assertThat(mismatches(typed)).isEmpty();
  }

  /** Integer addresses answer as their hex spelling does (and range grouping as hash grouping). */
  @Test
  void integerAddresses() {
    Dataset<Row> hexRows = table(5_000).filter(functions.col("address").rlike("^0x[0-9a-f]{1,15}$"));
    Dataset<Row> ints = hexRows.withColumn("address", functions.conv(functions.substring(functions.col("address"), 3, 20), 16, 10)
        .cast("long"));
    SymbolizeOptions o = SymbolizeOptions.of(store.toString()).withCacheDir(work.resolve("cache3").toString());
    List<Row> a = GsymSpark.symbolicate(hexRows, o.withGrouping(SymbolizeOptions.Grouping.RANGE)).orderBy("id").select("id", "status", "function", "file", "line", "frames")
        .collectAsList();
    List<Row> b = GsymSpark.symbolicate(ints, o).orderBy("id").select("id", "status", "function", "file", "line", "frames")
        .collectAsList();
    assertThat(a).hasSizeGreaterThan(1000);
    assertThat(b).isEqualTo(a);
  }

  @Test
  void addressCells() {
    assertThat(SymbolizePartition.address("0x10")).isEqualTo(16);
    assertThat(SymbolizePartition.address(" 4096 ")).isEqualTo(4096);
    assertThat(SymbolizePartition.address("0xffffffffffffffff")).isEqualTo(-1L);
    assertThat(SymbolizePartition.address(-1L)).isEqualTo(-1L);
    assertThat(SymbolizePartition.address(new java.math.BigDecimal("18446744073709551615"))).isEqualTo(-1L);
    for (Object bad : new Object[] {null, "", "0x", "-1", "+1", "0x-1", "0x10000000000000000", "18446744073709551616", -1,
        new java.math.BigDecimal("1.5"), 1.0}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> SymbolizePartition.address(bad))
          .as(String.valueOf(bad)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void badOptions() {
    Dataset<Row> t = table(10);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> GsymSpark.symbolicate(t,
        SymbolizeOptions.of(store.toString()).withColumns("module", "address"))).hasMessageContaining("no column 'module'");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> GsymSpark.symbolicate(t.withColumn("status", functions.lit(1)),
        SymbolizeOptions.of(store.toString()))).hasMessageContaining("'status'");
    assertThat(JobArgs.run("SymbolizeJob", new String[] {"--store", "x"}, SymbolizeJob::run)).isEqualTo(2);
    assertThat(JobArgs.run("SymbolizeJob", new String[] {"--help"}, SymbolizeJob::run)).isZero();
  }
}
