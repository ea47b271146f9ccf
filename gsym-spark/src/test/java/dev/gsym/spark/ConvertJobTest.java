package dev.gsym.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conversion job in local[2] over the test binaries and Breakpad files: the store holds, file by
 * file, the bytes gsymutil writes (and exactly the files a Symbolizer publishes for the same inputs),
 * the manifest has a row per input, a corrupt input is one failed row, a second run converts nothing.
 */
@Slow
class ConvertJobTest {
  @TempDir static Path work;
  static Path tree;
  static Path store;
  static List<Path> inputs = new ArrayList<>();
  static Map<String, Row> manifest = new TreeMap<>();

  @BeforeAll
  static void convert() throws IOException {
    tree = work.resolve("in");
    copyAll(TestData.path("bin"), tree.resolve("bin"), n -> true);
    copyAll(TestData.path("breakpad"), tree.resolve("sym"), n -> n.endsWith(".sym"));
    copyAll(TestData.path("breakpad", "elf"), tree.resolve("sym-elf"), n -> n.endsWith(".sym"));
    Path bad = Files.createDirectories(tree.resolve("bad"));
    byte[] elf = Files.readAllBytes(TestData.path("bin", "c-clang-O2"));
    Files.write(bad.resolve("truncated-elf"), java.util.Arrays.copyOf(elf, 1200));
    Files.writeString(bad.resolve("notes.txt"), "not a debug file\n");
    try (Stream<Path> s = Files.walk(tree)) {
      s.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".dwo") && !p.toString().endsWith(".dwp"))
          .sorted().forEach(inputs::add);
    }
    store = work.resolve("store");
    for (Row r : GsymSpark.convert(LocalSpark.get(), ConvertOptions.of(tree.toUri().toString(), store.toUri().toString()))
        .collectAsList()) {
      assertThat(manifest.put(Path.of(java.net.URI.create(r.getString(0))).toString(), r)).as("one row per input").isNull();
    }
  }

  private static void copyAll(Path from, Path to, java.util.function.Predicate<String> names) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path p : s.filter(Files::isRegularFile).filter(p -> names.test(p.getFileName().toString())).toList()) {
        Files.copy(p, to.resolve(p.getFileName()));
      }
    }
  }

  private static String status(Path input) {
    return manifest.get(input.toString()).getString(6);
  }

  @Test
  void theManifestListsEveryInputOnce() {
    assertThat(manifest.keySet()).containsExactlyInAnyOrderElementsOf(inputs.stream().map(Path::toString).toList());
    assertThat(inputs).hasSizeGreaterThan(50);
  }

  @Test
  void aCorruptInputIsOneFailedRow() {
    Row truncated = manifest.get(tree.resolve("bad/truncated-elf").toString());
    assertThat(truncated.getString(6)).isEqualTo("failed");
    assertThat(truncated.getString(7)).contains("truncated-elf");
    assertThat(truncated.getLong(9)).isEqualTo(-1);
    Row junk = manifest.get(tree.resolve("bad/notes.txt").toString());
    assertThat(junk.getString(6)).isEqualTo("failed");
    assertThat(junk.getString(7)).contains("notes.txt").contains("not an ELF file or a Breakpad symbol file");
  }

  /** Inputs the job does not convert, below the input tree: the manifest's status, and a part of its reason. */
  private static final Map<String, List<String>> NOT_CONVERTED = Map.of(
      "bad/notes.txt", List.of("failed", "not an ELF file or a Breakpad symbol file"),
      "bad/truncated-elf", List.of("failed", "section headers past end of file"),
      // llvm 22 does not read .zdebug_* sections as DWARF: a symbol table alone is not published
      "bin/c-gcc-O2-zdebug", List.of("skipped", "a symbol table only (no DWARF)"),
      "sym/stack-only.sym", List.of("failed", "no FUNC or PUBLIC records"));

  /**
   * Exactly the inputs above fail or are skipped, each for its reason: a job that refused good
   * inputs (or a parser that rejected them) fails here, not only one that refused most.
   */
  @Test
  void exactlyTheKnownInputsAreNotConverted() {
    Map<String, String> actual = new TreeMap<>();
    for (Map.Entry<String, Row> e : manifest.entrySet()) {
      String status = e.getValue().getString(6);
      if (status.equals("converted") || status.equals("exists")) continue;
      actual.put(tree.relativize(Path.of(e.getKey())).toString(), status + ": " + e.getValue().getString(7));
    }
    assertThat(actual.keySet()).as("inputs not converted: %s", actual).isEqualTo(NOT_CONVERTED.keySet());
    NOT_CONVERTED.forEach((input, why) -> assertThat(actual.get(input)).as(input).startsWith(why.get(0) + ": ").contains(why.get(1)));
  }

  /**
   * Every input the job stored is, byte for byte, what gsymutil makes of it, and every input it
   * failed, gsymutil fails too. ELF: {@code gsymutil --dwarf FILE -o OUT} (llvm-gsymutil's bytes).
   * Breakpad: the store's form differs from {@code gsymutil --breakpad}'s, whose BaseAddress is the
   * lowest function (the store's is 0, docs/symbolize.md "Relocation"), so the file that {@code
   * gsymutil symbolize --store=DIR --obj=FILE} publishes, with {@code gsymutil --breakpad --lenient}
   * agreeing on which files convert.
   */
  @Test
  void theStoreHoldsGsymutilsBytesFileByFile() throws IOException {
    int compared = 0;
    for (Path in : inputs) {
      Row r = manifest.get(in.toString());
      boolean breakpad = in.toString().endsWith(".sym");
      Path out = work.resolve("cli").resolve(work.resolve("in").relativize(in).toString());
      Files.createDirectories(out);
      LocalSpark.Run cli = breakpad
          ? LocalSpark.run("", "--breakpad", in.toString(), "--lenient", "-o", out.resolve("x.gsym").toString())
          : LocalSpark.run("", "--dwarf", in.toString(), "-o", out.resolve("x.gsym").toString());
      switch (r.getString(6)) {
        case "converted", "exists" -> {
          assertThat(cli.status()).as(cli.err()).isZero();
          byte[] expected;
          if (breakpad) {
            Path perFile = out.resolve("store");
            LocalSpark.gsymutil("", "symbolize", "--store=" + perFile, "--obj=" + in, "0x0");
            expected = Files.readAllBytes(perFile.resolve(r.getString(5)));
          } else {
            expected = Files.readAllBytes(out.resolve("x.gsym"));
          }
          assertThat(Files.readAllBytes(store.resolve(r.getString(5)))).as(in.toString()).isEqualTo(expected);
          assertThat(r.getLong(9)).isEqualTo(expected.length);
          assertThat(r.getInt(10)).isPositive();
          compared++;
        }
        case "failed" -> assertThat(cli.status()).as(in + ": " + r.getString(7)).isNotZero();
        case "skipped" -> assertThat(r.getString(7)).contains(in.toString());
        default -> throw new AssertionError(r);
      }
    }
    assertThat(compared).isGreaterThan(40);
  }

  /** The same inputs through a Symbolizer with a store, one by one: the same store files, same bytes. */
  @Test
  void theStoreIsWhatTheSymbolizerPublishes() throws IOException {
    Path ref = work.resolve("symbolizer-store");
    try (Symbolizer s = Symbolizer.builder().store(ref).threads(1).build()) {
      for (Path in : inputs) s.symbolize(ModuleRef.file(in), 0);
    }
    Map<String, byte[]> expected = gsyms(ref);
    Map<String, byte[]> actual = gsyms(store);
    assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    for (String k : expected.keySet()) assertThat(actual.get(k)).as(k).isEqualTo(expected.get(k));
    // nothing but GSYM files: no temporaries, no checksum side files
    try (Stream<Path> s = Files.walk(store)) {
      assertThat(s.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".gsym")).toList()).isEmpty();
    }
  }

  @Test
  void aSecondRunConvertsNothing() throws IOException {
    Map<String, Long> mtimes = new HashMap<>();
    for (Map.Entry<String, byte[]> e : gsyms(store).entrySet()) {
      mtimes.put(e.getKey(), Files.getLastModifiedTime(store.resolve(e.getKey())).toMillis());
    }
    List<Row> again = GsymSpark.convert(LocalSpark.get(), ConvertOptions.of(tree.toUri().toString(), store.toUri().toString()))
        .collectAsList();
    assertThat(again).hasSize(manifest.size());
    for (Row r : again) {
      Row first = manifest.get(Path.of(java.net.URI.create(r.getString(0))).toString());
      String expected = first.getString(6).equals("converted") ? "exists" : first.getString(6);
      assertThat(r.getString(6)).as(r.getString(0)).isEqualTo(expected);
    }
    for (Map.Entry<String, Long> e : mtimes.entrySet()) {
      assertThat(Files.getLastModifiedTime(store.resolve(e.getKey())).toMillis()).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  /** A text listing, through the job's command line: the same rows, a CSV manifest. */
  @Test
  void convertJobReadsATextListing() throws IOException {
    Path listing = work.resolve("listing.txt");
    List<String> lines = new ArrayList<>(List.of("# a comment", ""));
    for (Path in : inputs) lines.add(work.relativize(in).toString()); // relative to the listing's directory
    Files.write(listing, lines);
    Path out = work.resolve("manifest-csv");
    assertThat(ConvertJob.run(new String[] {"--input", listing.toString(), "--store", store.toString(), "--manifest",
        out.toString(), "--manifest-format", "csv"})).isZero();
    List<Row> rows = LocalSpark.get().read().option("header", "true").csv(out.toString()).collectAsList();
    assertThat(rows).hasSize(inputs.size());
    assertThat(rows).extracting(r -> r.getString(6)).doesNotContain("converted");
  }

  @Test
  void helpAndBadCommandLines() {
    assertThat(ConvertJob.HELP).contains("--input").contains("--store").contains("--manifest");
    assertThat(JobArgs.run("ConvertJob", new String[] {"--input", "x"}, ConvertJob::run)).isEqualTo(2);
    assertThat(JobArgs.run("ConvertJob", new String[] {"--bogus"}, ConvertJob::run)).isEqualTo(2);
    assertThat(JobArgs.run("ConvertJob", new String[] {"--help"}, ConvertJob::run)).isZero();
  }

  private static Map<String, byte[]> gsyms(Path root) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(p -> p.toString().endsWith(".gsym")).toList()) {
        out.put(root.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    return out;
  }
}
