package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.XZInputStream;

/**
 * {@code gsymutil stackwalk}: minidump_stackwalk's options and output (the committed goldens of
 * Breakpad's own tool), several dumps in one run, the symbol cache, and the errors.
 */
class StackwalkCliTest {
  @TempDir
  static Path tmp;

  static Path symbols;

  static Path corpus() {
    return TestData.repoRoot().resolve("src-test-data").resolve("minidump");
  }

  static Path dump(String name) {
    return corpus().resolve("dumps").resolve(name + ".dmp");
  }

  static String golden(String name, String kind) {
    return TestData.text(corpus().resolve("expected").resolve(name + "." + kind + ".txt"));
  }

  /** The corpus's symbol directory with its .sym.xz files unpacked, as the goldens were made. */
  @BeforeAll
  static void unpackSymbols() throws IOException {
    symbols = tmp.resolve("symbols");
    Path src = corpus().resolve("symbols");
    try (Stream<Path> s = Files.walk(src)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = src.relativize(p).toString();
        Path to = symbols.resolve(rel.endsWith(".xz") ? rel.substring(0, rel.length() - 3) : rel);
        Files.createDirectories(to.getParent());
        if (rel.endsWith(".xz")) {
          try (InputStream in = new XZInputStream(Files.newInputStream(p))) {
            Files.copy(in, to);
          }
        } else {
          Files.copy(p, to);
        }
      }
    }
  }

  private static CliRun run(String... args) {
    return CliRun.run(args);
  }

  @Test
  void printsMinidumpStackwalksOutput() {
    Path cache = tmp.resolve("cache-1");
    String d = dump("x86_64-nofp-lib").toString();
    CliRun text = run("stackwalk", d, symbols.toString(), "--symbol-cache", cache.toString());
    assertThat(text.err()).isEmpty();
    assertThat(text.status()).isZero();
    assertThat(text.out()).isEqualTo(golden("x86_64-nofp-lib", "stackwalk-sym"));
    CliRun machine = run("stackwalk", "-m", d, symbols.toString(), "--symbol-cache=" + cache);
    assertThat(machine.out()).isEqualTo(golden("x86_64-nofp-lib", "stackwalk-sym-m"));
    // options after the dump, as getopt permutes them; no symbol path: no symbols
    CliRun noSymbols = run("stackwalk", d, "-m");
    assertThat(noSymbols.out()).isEqualTo(golden("x86_64-nofp-lib", "stackwalk-m"));
  }

  @Test
  void severalDumpsPrintOneAfterTheOther() {
    String[] names = {"i386-fp-lib", "aarch64-core2md", "x86_64-fp-thread"};
    String[] args = Stream.concat(Stream.of("stackwalk", "-m"), Stream.concat(Arrays.stream(names).map(n -> dump(n).toString()),
        Stream.of(symbols.toString(), "--symbol-cache", tmp.resolve("cache-2").toString()))).toArray(String[]::new);
    CliRun r = run(args);
    assertThat(r.status()).isZero();
    StringBuilder expected = new StringBuilder();
    for (String n : names) expected.append(golden(n, "stackwalk-sym-m"));
    assertThat(r.out()).isEqualTo(expected.toString());
  }

  @Test
  void symbolFilesAreConvertedOnceIntoTheCache() {
    Path cache = tmp.resolve("cache-3");
    String d = dump("i386-nofp-lib").toString();
    assertThat(run("stackwalk", d, symbols.toString(), "--symbol-cache", cache.toString()).status()).isZero();
    // each module a frame fell into with symbols: its GSYM and the record of the .sym it came from
    try (Stream<Path> s = Files.walk(cache)) {
      assertThat(s.filter(p -> p.toString().endsWith(".gsym")).map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("crasher.gsym", "libcrashlib.so.gsym");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    CliRun again = run("stackwalk", d, symbols.toString(), "--symbol-cache", cache.toString());
    assertThat(again.out()).isEqualTo(golden("i386-nofp-lib", "stackwalk-sym"));
  }

  @Test
  void helpAndUsageErrors() {
    CliRun help = run("stackwalk", "-h");
    assertThat(help.status()).isZero();
    assertThat(help.out()).startsWith("Usage: gsymutil stackwalk [options] <minidump-or-core-file>... [symbol-path ...]\n")
        .contains("  -m         Output in machine-readable format\n");
    assertThat(run("help", "stackwalk").out()).isEqualTo(help.out());
    assertThat(run("stackwalk", "--help").out()).isEqualTo(help.out());

    CliRun missing = run("stackwalk", "-m");
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.out()).isEmpty();
    assertThat(missing.err()).startsWith("gsymutil stackwalk: Missing minidump file\nUsage: gsymutil stackwalk");

    CliRun unknown = run("stackwalk", "-mx", dump("i386-fp-lib").toString());
    assertThat(unknown.status()).isEqualTo(1);
    assertThat(unknown.out()).isEmpty();
    assertThat(unknown.err()).startsWith("gsymutil stackwalk: invalid option -- 'x'\n");
  }

  @Test
  void aBadDumpIsOneLineAndTheOthersAreStillWalked() throws IOException {
    Path truncated = tmp.resolve("truncated.dmp");
    byte[] whole = Files.readAllBytes(dump("x86_64-fp-null"));
    Files.write(truncated, Arrays.copyOf(whole, 200));
    Path missing = tmp.resolve("missing.dmp");
    CliRun r = run("stackwalk", "-m", truncated.toString(), dump("i386-fp-null").toString(), missing.toString());
    assertThat(r.status()).isEqualTo(1);
    // the good dump's output alone on stdout
    assertThat(r.out()).isEqualTo(golden("i386-fp-null", "stackwalk-m"));
    String[] lines = r.err().split("\n");
    assertThat(lines).hasSize(1);
    assertThat(lines[0]).startsWith("gsymutil stackwalk: " + truncated + ": offset 0x").doesNotContain("Exception");
    // a later argument that is no minidump is a symbol path (minidump_stackwalk's rule for all of them)
    CliRun v = run("stackwalk", "--verbose", truncated.toString());
    assertThat(v.status()).isEqualTo(1);
    assertThat(v.err()).contains("GsymFormatException");
  }

  @Test
  void aMissingFirstDumpIsAnError() {
    CliRun r = run("stackwalk", tmp.resolve("nope.dmp").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("gsymutil stackwalk: " + tmp.resolve("nope.dmp") + ": No such file or directory\n");
  }
}
