package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batch lookups on several threads (--threads N) print exactly what one thread prints, in input
 * order, across chunk boundaries: llvm's goldens repeated ten times, and 50,000 generated stdin
 * lines mixing files, failing lookups, CRs and a fatal error at the end; compared with
 * llvm-gsymutil-22 too when it is installed.
 */
@StartsProcesses
class BatchLookupTest {
  @TempDir
  Path tmp;

  private static Path data(String first, String... more) {
    return TestData.repoRoot().resolve("src-test-data").resolve(Path.of(first, more));
  }

  /** Every lookup and verbose golden of the manifest, addresses repeated 10 times, 1 and 4 threads. */
  @Test
  void goldensRepeatedAreIdenticalOnAnyThreadCount() throws Exception {
    List<String> manifest = Files.readAllLines(data("expected", "manifest.tsv"));
    int checked = 0;
    for (String line : manifest) {
      String[] f = line.split("\t");
      if (f.length < 6 || !(f[0].equals("lookup") || f[0].equals("verbose")) || !f[5].equals("0")) continue;
      Path gsym = data(f[1], f[2]);
      Path addrsFile = data(f[1]).resolve(f[3]).normalize();
      List<String> addrs = Files.readAllLines(addrsFile).stream().filter(s -> !s.isBlank()).toList();
      String golden = TestData.text(data(f[4]));
      String header = "Looking up addresses in \"" + f[2] + "\":\n";
      assertThat(golden).startsWith(header);
      String body = golden.substring(header.length());
      String path = gsym.toString();
      List<String> args = new ArrayList<>();
      if (f[0].equals("verbose")) args.add("--verbose");
      for (int rep = 0; rep < 10; rep++) {
        for (String a : addrs) {
          args.add("--address");
          args.add(a);
        }
      }
      args.add(path);
      String expected = "Looking up addresses in \"" + path + "\":\n" + body.repeat(10);
      for (String threads : new String[] {"1", "4"}) {
        List<String> withThreads = new ArrayList<>(args);
        withThreads.addFirst(threads);
        withThreads.addFirst("--threads");
        CliRun run = CliRun.run(withThreads.toArray(String[]::new));
        assertThat(run.out()).as("%s %s with %s threads", f[0], f[2], threads).isEqualTo(expected);
        assertThat(run.status()).isZero();
      }
      checked++;
    }
    assertThat(checked).isGreaterThan(20);
  }

  /** GSYM files to mix in stdin input: the vectors and the converted test binaries. */
  private static List<Path> files() throws Exception {
    List<Path> out = new ArrayList<>();
    for (String d : new String[] {"vectors", "gsym"}) {
      try (Stream<Path> s = Files.list(data(d))) {
        s.filter(p -> p.getFileName().toString().endsWith(".gsym")).sorted().forEach(out::add);
      }
    }
    return out;
  }

  /** Lines "ADDR PATH" in runs of one file, with failing lookups and stray CRs. */
  private static String stdinLines(int n, long seed) throws Exception {
    Random rnd = new Random(seed);
    List<Path> files = files();
    List<List<Long>> addrs = new ArrayList<>();
    for (Path p : files) addrs.add(LlvmDifferentialTest.interestingAddresses(p));
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < n) {
      int which = rnd.nextInt(files.size());
      List<Long> a = addrs.get(which);
      int run = 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 3000);
      for (int k = 0; k < run && i < n; k++, i++) {
        long addr = rnd.nextInt(20) == 0 ? rnd.nextLong() : a.get(rnd.nextInt(a.size()));
        String text = switch (rnd.nextInt(4)) {
          case 0 -> Long.toUnsignedString(addr);
          default -> "0x" + Long.toHexString(addr).toLowerCase(Locale.ROOT);
        };
        sb.append(text).append(' ').append(files.get(which));
        if (rnd.nextInt(50) == 0) sb.append('\r');
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static void assertSameOnThreads(String stdin, String... args) {
    List<String> one = new ArrayList<>(List.of("--threads", "1"));
    one.addAll(List.of(args));
    CliRun expected = CliRun.stdin(stdin, one.toArray(String[]::new));
    for (String threads : new String[] {"2", "4", "7"}) {
      List<String> many = new ArrayList<>(List.of("--threads", threads));
      many.addAll(List.of(args));
      CliRun run = CliRun.stdin(stdin, many.toArray(String[]::new));
      assertThat(run.out()).as("stdout with %s threads", threads).isEqualTo(expected.out());
      assertThat(run.err()).as("stderr with %s threads", threads).isEqualTo(expected.err());
      assertThat(run.status()).as("status with %s threads", threads).isEqualTo(expected.status());
    }
  }

  /** llvm-gsymutil-22 answers as we do on 4 threads (the test is skipped without it). */
  private void assertSameAsLlvm(String stdin, String... args) throws Exception {
    Path exe = LlvmDifferentialTest.llvmExecutable();
    Path in = Files.write(tmp.resolve("in.txt"), ByteStrings.encode(stdin));
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    List<String> cmd = new ArrayList<>(List.of(exe.toString()));
    cmd.addAll(List.of(args));
    int status = new ProcessBuilder(cmd).redirectInput(in.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile()).start().waitFor();
    List<String> ours = new ArrayList<>(List.of("--threads", "4"));
    ours.addAll(List.of(args));
    CliRun run = CliRun.stdin(stdin, ours.toArray(String[]::new));
    assertThat(run.out()).isEqualTo(TestData.text(out));
    assertThat(run.err()).isEqualTo(TestData.text(err));
    assertThat(run.status()).isEqualTo(status);
  }

  @Test
  void fiftyThousandStdinLinesAreIdenticalOnAnyThreadCount() throws Exception {
    String stdin = stdinLines(50_000, 1);
    assertThat(stdin.lines().count()).isEqualTo(50_000);
    assertSameOnThreads(stdin, "--addresses-from-stdin");
    CliRun run = CliRun.stdin(stdin, "--threads", "4", "--addresses-from-stdin");
    assertThat(run.out()).contains(": error: address ").contains(" [inlined]");
    // order: the n-th result answers the n-th line
    List<String> firstLines = run.out().lines().filter(l -> l.startsWith("0x")).toList();
    assertThat(firstLines).hasSize(50_000);
    assertNoLookupThreadAlive();
  }

  @Test
  void fiftyThousandStdinLinesAsLlvm() throws Exception {
    assertSameAsLlvm(stdinLines(50_000, 1), "--addresses-from-stdin");
  }

  /** 30,000 lines with a line that ends the run (bad address, missing file) in the middle. */
  private String withBadLine(String bad) throws Exception {
    String lines = stdinLines(30_000, 2);
    int cut = lines.indexOf('\n', lines.length() / 2) + 1;
    return lines.substring(0, cut) + bad + "\n" + lines.substring(cut);
  }

  @Test
  void errorsEndTheOutputAtTheSameLineOnAnyThreadCount() throws Exception {
    String badAddress = withBadLine("0xZZ " + files().getFirst());
    assertSameOnThreads(badAddress, "--addresses-from-stdin");
    assertThat(CliRun.stdin(badAddress, "--threads", "4", "--addresses-from-stdin").out())
        .endsWith("error: invalid address 0xZZ, expected: Address GsymFile.\n");

    String missing = withBadLine("0x1000 " + tmp.resolve("missing.gsym"));
    assertSameOnThreads(missing, "--addresses-from-stdin");
    CliRun run = CliRun.stdin(missing, "--threads", "4", "--addresses-from-stdin");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).isEqualTo(tmp.resolve("missing.gsym") + ": No such file or directory\n");
    assertNoLookupThreadAlive();
  }

  @Test
  void errorsEndTheOutputAtTheSameLineAsLlvm() throws Exception {
    assertSameAsLlvm(withBadLine("0xZZ " + files().getFirst()), "--addresses-from-stdin");
    assertSameAsLlvm(withBadLine("0x1000 " + tmp.resolve("missing.gsym")), "--addresses-from-stdin");
  }

  /** Every lookup thread has ended when a run returns, also after a failed one. */
  private static void assertNoLookupThreadAlive() {
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("gsymutil-lookup"));
  }

  @Test
  void verboseAndMergedModesAreIdenticalOnAnyThreadCount() throws Exception {
    String stdin = stdinLines(5_000, 3);
    assertSameOnThreads(stdin, "--verbose", "--addresses-from-stdin");
    assertSameOnThreads(stdin, "--merged-functions", "--addresses-from-stdin");
  }

  @Test
  void verboseAndMergedModesAsLlvm() throws Exception {
    assertSameAsLlvm(stdinLines(5_000, 3), "--verbose", "--merged-functions", "--addresses-from-stdin");
  }

  @Test
  void threadsMustBePositive() {
    CliRun run = CliRun.run("--threads", "0", "--address", "0x1000", data("vectors", "A.gsym").toString());
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("gsymutil: --threads must be at least 1, got 0\n");
  }
}
