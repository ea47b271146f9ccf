package dev.gsym.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.stackwalk.CodeModule;
import dev.gsym.stackwalk.ModuleSymbols;
import dev.gsym.stackwalk.SourceInfo;
import dev.gsym.stackwalk.SystemDescription;
import dev.gsym.symbolize.StoreConversion;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.XZInputStream;

/**
 * The stack walking job in local[2] over the minidump corpus (src-test-data/minidump/dumps: x86-64,
 * i386, ARM and AArch64 dumps Breakpad's handler and core2md wrote) plus a truncated dump, a file
 * that is no minidump and a missing path: each corpus dump's row has the crash, the modules and the
 * crashing thread's frames (module, function, file, line, offset, trust) that Breakpad's
 * minidump_stackwalk printed with the same symbols (the committed goldens, {@code
 * stackwalk-sym-m.txt} and {@code stackwalk-sym.txt}); each bad input fails only its own row.
 */
class StackwalkJobTest {
  @TempDir static Path work;
  static Path corpus;
  static Path symbols;
  static List<Path> dumps;
  static Path truncated;
  static Path notADump;
  static Path missing;

  @BeforeAll
  static void inputs() throws IOException {
    corpus = TestData.repoRoot().resolve("src-test-data/minidump");
    symbols = unpack(corpus.resolve("symbols"), work.resolve("symbols"));
    try (Stream<Path> s = Files.list(corpus.resolve("dumps"))) {
      dumps = s.filter(p -> p.toString().endsWith(".dmp")).sorted().toList();
    }
    assertThat(dumps).hasSizeGreaterThan(20);
    byte[] whole = Files.readAllBytes(corpus.resolve("dumps/x86_64-fp-thread.dmp"));
    truncated = Files.write(work.resolve("truncated.dmp"), java.util.Arrays.copyOf(whole, 200));
    notADump = Files.writeString(work.resolve("notes.dmp"), "not a minidump\n");
    missing = work.resolve("missing.dmp");
  }

  /** {@code src} with its .sym.xz files unpacked into {@code out}. */
  static Path unpack(Path src, Path out) throws IOException {
    try (Stream<Path> s = Files.walk(src)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String n = src.relativize(p).toString();
        Path to = out.resolve(n.endsWith(".xz") ? n.substring(0, n.length() - 3) : n);
        Files.createDirectories(to.getParent());
        if (n.endsWith(".xz")) {
          try (InputStream in = new XZInputStream(Files.newInputStream(p))) {
            Files.copy(in, to);
          }
        } else {
          Files.copy(p, to);
        }
      }
    }
    return out;
  }

  @Test
  void jobWalksEveryDumpAsMinidumpStackwalkAndFailsOnlyBadOnes() throws IOException {
    Path listing = work.resolve("dumps.txt");
    List<String> lines = new ArrayList<>();
    for (Path d : dumps) lines.add(d.toString());
    lines.add(truncated.toString());
    lines.add(notADump.toString());
    lines.add(missing.toString());
    Files.write(listing, lines);
    Path out = work.resolve("out");
    Path cache = work.resolve("cache");
    // two symbol directories, searched in order: an empty one first (and both spellings of the option)
    Path empty = Files.createDirectories(work.resolve("no-symbols"));
    int status = StackwalkJob.run(new String[] {"--input", listing.toString(), "--output", out.toString(),
        "--breakpad-symbols=" + empty, "--breakpad-symbols", symbols.toString(), "--cache-dir", cache.toString(),
        "--partitions", "3"});
    assertThat(status).isZero();
    Map<String, Row> rows = byDump(LocalSpark.get().read().parquet(out.toString()));
    assertThat(rows).hasSize(lines.size());
    for (Path d : dumps) checkAgainstGoldens(d, rows.get(d.toString()));

    Row t = rows.get(truncated.toString());
    assertThat(t.<String>getAs("status")).isEqualTo("failed");
    assertThat(t.<String>getAs("error")).startsWith(truncated.toString()).doesNotContain("Exception");
    assertThat(t.<Object>getAs("frames")).isNull();
    assertThat(rows.get(notADump.toString()).<String>getAs("status")).isEqualTo("failed");
    assertThat(rows.get(notADump.toString()).<String>getAs("error")).startsWith(notADump.toString());
    assertThat(rows.get(missing.toString()).<String>getAs("error")).isEqualTo(missing + ": no such file");
    // converted once: the cache holds each needed .sym's GSYM
    try (Stream<Path> s = Files.walk(cache.resolve("breakpad-gsym"))) {
      assertThat(s.filter(p -> p.toString().endsWith(".gsym")).count()).isGreaterThan(5);
    }
  }

  @Test
  void storeFilledByGsymutilStackwalkGivesTheSameFrames() throws IOException {
    // the shared store as a CLI stack walker leaves it: gsymutil stackwalk --store converts each
    // module it needs with its CFI into the store's unwind/ part (Symbolizer.Builder.unwind), keyed
    // by build-id for these Linux modules
    Path store = work.resolve("store");
    // only the corpus's symbols, as the goldens were made (not this machine's /usr/lib/debug, whose
    // libc may be the dumps' own and would give DWARF names)
    Path noDebug = Files.createDirectories(work.resolve("no-debug-files"));
    List<String> args = new ArrayList<>(List.of("stackwalk", "--store", store.toString(), "--breakpad-symbols",
        symbols.toString(), "--debug-file-directory", noDebug.toString(), "--no-debuginfod"));
    for (Path d : dumps) args.add(d.toString());
    LocalSpark.gsymutil("", args.toArray(String[]::new));
    try (Stream<Path> s = Files.walk(store.resolve("unwind"))) {
      assertThat(s.filter(p -> p.toString().endsWith(".gsym")).count()).isGreaterThan(5);
    }
    // beside them, the same modules without CFI where ConvertJob and symbolizers publish them:
    // the unwind/ part must win, or frames after the first would be found by scanning
    try (Stream<Path> s = Files.walk(symbols)) {
      for (Path sym : s.filter(p -> p.toString().endsWith(".sym")).toList()) {
        Path rel = symbols.relativize(sym); // NAME/ID/NAME.sym
        Path target = store.resolve("breakpad").resolve(rel.getName(0).toString()).resolve(rel.getName(1) + ".gsym");
        Files.createDirectories(target.getParent());
        LocalSpark.gsymutil("", "convert", "--breakpad", sym.toString(), "--lenient", "--quiet", "-o", target.toString());
      }
    }
    SparkSession spark = LocalSpark.get();
    Dataset<String> paths = spark.createDataset(dumps.stream().map(Path::toString).toList(), Encoders.STRING()).repartition(2);
    Map<String, Row> rows = byDump(GsymSpark.stackwalk(paths, StackwalkOptions.ofStore(store.toUri().toString())
        .withCacheDir(work.resolve("cache2").toString())));
    assertThat(rows).hasSize(dumps.size());
    for (Path d : dumps) checkAgainstGoldens(d, rows.get(d.toString()));
  }

  @Test
  void dumpsAndSymbolsOnAnotherFileSystemAreCopiedToTheExecutor() throws IOException {
    SparkSession spark = LocalSpark.get();
    spark.sparkContext().hadoopConfiguration().set("fs." + RemoteLikeFileSystem.SCHEME + ".impl",
        RemoteLikeFileSystem.class.getName());
    List<Path> some = dumps.stream().filter(d -> d.getFileName().toString().matches("(x86_64|i386)-nofp-(lib|thread)\\.dmp"))
        .toList();
    assertThat(some).hasSize(4);
    List<String> uris = new ArrayList<>();
    for (Path d : some) uris.add(RemoteLikeFileSystem.uri(d));
    uris.add(RemoteLikeFileSystem.uri(truncated));
    Path cache = work.resolve("remote-cache");
    Map<String, Row> rows = byDump(GsymSpark.stackwalk(spark.createDataset(uris, Encoders.STRING()),
        StackwalkOptions.ofBreakpadSymbols(List.of(RemoteLikeFileSystem.uri(symbols))).withCacheDir(cache.toString())
            // a store without these modules: asked first, then the symbol directory
            .withStore(RemoteLikeFileSystem.uri(Files.createDirectories(work.resolve("empty-store"))))));
    assertThat(rows).hasSize(uris.size());
    for (Path d : some) checkAgainstGoldens(d, rows.get(RemoteLikeFileSystem.uri(d)));
    // the error names the dump as listed, not its local copy
    assertThat(rows.get(RemoteLikeFileSystem.uri(truncated)).<String>getAs("error"))
        .startsWith(RemoteLikeFileSystem.uri(truncated));
    // the symbol files came through the file system API into the executor's mirror, then were converted
    try (Stream<Path> s = Files.walk(cache.resolve("breakpad-mirror"))) {
      assertThat(s.filter(p -> p.toString().endsWith(".sym")).map(p -> p.getFileName().toString()))
          .contains("crasher.sym", "libcrashlib.so.sym");
    }
  }

  @Test
  void storeFileOfADebugFileIsAskedByOffsetFromItsBase() throws IOException {
    // a non-PIE executable: its GSYM's BaseAddress is 0x400000, the walker asks by offset from the module's base
    Path exe = TestData.path("bin").resolve("symtab-gcc-O0-nopie");
    StoreConversion.Module m = StoreConversion.identify(exe);
    Path store = work.resolve("elf-store");
    Path target = store.resolve(m.storePath());
    Files.createDirectories(target.getParent());
    try (FileChannel ch = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
        StandardOpenOption.READ)) {
      StoreConversion.convert(exe, m.format(), ch, false, 1);
    }
    ExecutorSymbols source = ExecutorSymbols.get(new ExecutorSymbols.Key(store.toString(), List.of(),
        work.resolve("cache3").toString()), HadoopFiles.serialize(new Configuration()));
    CodeModule module = new CodeModule(0x7f0000000000L, 0x10000, "/bin/x", m.buildId(), "x", "0123", "");
    SystemDescription linux = new SystemDescription("Linux", "linux", "", "amd64", "", 1);
    ModuleSymbols s = source.find(module, linux);
    assertThat(s).isNotNull();
    // llvm-symbolizer-22 --obj=bin/symtab-gcc-O0-nopie 0x4011e5 is main (docs/symbolize.md, "Relocation")
    SourceInfo main = s.lookup(0x11e5);
    assertThat(main).isNotNull();
    assertThat(main.function()).isEqualTo("main");
    assertThat(main.functionBase()).isLessThanOrEqualTo(0x11e5L).isGreaterThan(0x1000L);
    assertThat(s.lookup(0x4011e5L)).isNull();
    // a Windows module's code identifier is no build-id
    assertThat(source.find(module, new SystemDescription("Windows NT", "windows", "", "amd64", "", 1))).isNull();
  }

  @Test
  void helpAndBadCommandLines() {
    LocalSpark.get(); // the session a job run by the tests finds (and leaves running)
    assertThat(StackwalkJob.HELP).contains("--input").contains("--store").contains("--breakpad-symbols");
    assertThat(JobArgs.run("StackwalkJob", new String[] {"--help"}, StackwalkJob::run)).isZero();
    // no symbols at all, a missing value, an unknown option: usage errors
    assertThat(JobArgs.run("StackwalkJob", new String[] {"--input", "x", "--output", "y"}, StackwalkJob::run)).isEqualTo(2);
    assertThat(JobArgs.run("StackwalkJob", new String[] {"--input", "x", "--output", "y", "--breakpad-symbols"},
        StackwalkJob::run)).isEqualTo(2);
    assertThat(JobArgs.run("StackwalkJob", new String[] {"--bogus"}, StackwalkJob::run)).isEqualTo(2);
    // an input that cannot be listed: the job cannot run
    assertThat(JobArgs.run("StackwalkJob", new String[] {"--input", work.resolve("nowhere").toString(), "--output",
        work.resolve("never").toString(), "--store", work.toString()}, StackwalkJob::run)).isEqualTo(1);
    assertThat(Files.exists(work.resolve("never"))).isFalse();
  }

  static Map<String, Row> byDump(Dataset<Row> out) {
    Map<String, Row> rows = new HashMap<>();
    for (Row r : out.collectAsList()) assertThat(rows.put(r.getString(0), r)).isNull();
    return rows;
  }

  /** The row of {@code dump} against minidump_stackwalk -m (crash, modules, frames) and its text output (trust). */
  static void checkAgainstGoldens(Path dump, Row row) throws IOException {
    String name = dump.getFileName().toString().replaceFirst("\\.dmp$", "");
    assertThat(row).as(name).isNotNull();
    assertThat(row.<String>getAs("status")).as(name + " " + row.getAs("error")).isEqualTo("ok");
    List<String> m = Files.readAllLines(corpus.resolve("expected/" + name + ".stackwalk-sym-m.txt"), StandardCharsets.UTF_8);
    String[] crash = m.stream().filter(l -> l.startsWith("Crash|")).findFirst().orElseThrow().split("\\|", -1);
    assertThat(row.<String>getAs("crash_reason")).as(name).isEqualTo(crash[1]);
    assertThat("0x" + Long.toHexString(row.<Long>getAs("crash_address"))).as(name).isEqualTo(crash[2]);
    int thread = Integer.parseInt(crash[3]);
    assertThat(row.<Integer>getAs("crashing_thread")).as(name).isEqualTo(thread);

    List<String> expectedModules = new ArrayList<>();
    for (String l : m) if (l.startsWith("Module|")) expectedModules.add(l.substring(0, l.lastIndexOf('|')));
    List<String> modules = new ArrayList<>();
    for (Row r : row.<Row>getList(row.fieldIndex("modules"))) {
      long base = r.getAs("base");
      modules.add(String.join("|", "Module", CodeModule.fileName(r.getAs("code_file")), r.getAs("version"),
          CodeModule.fileName(r.getAs("debug_file")), r.getAs("debug_id"), hex8(base), hex8(base + r.<Long>getAs("size") - 1)));
    }
    assertThat(modules).as(name).isEqualTo(expectedModules);

    List<String> expectedFrames = new ArrayList<>();
    for (String l : m) if (l.startsWith(thread + "|")) expectedFrames.add(l.substring(l.indexOf('|', l.indexOf('|') + 1) + 1));
    List<String> frames = new ArrayList<>();
    List<String> trusts = new ArrayList<>();
    for (Row f : row.<Row>getList(row.fieldIndex("frames"))) {
      String module = f.getAs("module");
      String function = f.getAs("function");
      String file = f.getAs("file");
      long address = f.getAs("address");
      String line;
      if (module == null) line = "||||0x" + Long.toHexString(address);
      else if (function == null) line = module + "||||0x" + Long.toHexString(f.<Long>getAs("module_offset"));
      else if (file == null) line = module + "|" + function + "|||0x" + Long.toHexString(f.<Long>getAs("function_offset"));
      else line = module + "|" + function + "|" + file + "|" + f.<Long>getAs("line"); // the offset is from the line's start
      frames.add(line);
      trusts.add(f.getAs("trust"));
    }
    List<String> expectedWithoutLineOffsets = new ArrayList<>();
    for (String e : expectedFrames) {
      String[] p = e.split("\\|", -1);
      expectedWithoutLineOffsets.add(p[2].isEmpty() ? e : String.join("|", p[0], p[1], p[2], p[3]));
    }
    assertThat(frames).as(name).isEqualTo(expectedWithoutLineOffsets);
    assertThat(trusts).as(name + " trust").isEqualTo(goldenTrust(name, thread));
  }

  /** The "Found by" of each frame of thread {@code thread} in minidump_stackwalk's text output, as the job names them. */
  static List<String> goldenTrust(String name, int thread) throws IOException {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String l : Files.readAllLines(corpus.resolve("expected/" + name + ".stackwalk-sym.txt"), StandardCharsets.UTF_8)) {
      if (l.startsWith("Thread ")) in = l.startsWith("Thread " + thread + " ") || l.equals("Thread " + thread);
      else if (in && l.strip().startsWith("Found by: ")) {
        out.add(switch (l.strip().substring("Found by: ".length())) {
          case "given as instruction pointer in context" -> "context";
          case "call frame info" -> "cfi";
          case "call frame info with scanning" -> "cfi_scan";
          case "previous frame's frame pointer" -> "frame_pointer";
          case "stack scanning" -> "scan";
          case "inline record" -> "inline";
          case "simulating a return from leaf function" -> "leaf";
          case "recovered by external stack walker" -> "prewalked";
          default -> "none";
        });
      }
    }
    return out;
  }

  private static String hex8(long v) {
    return String.format("0x%08x", v);
  }
}
