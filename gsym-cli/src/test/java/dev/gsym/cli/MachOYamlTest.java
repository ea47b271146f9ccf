package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hand-made Mach-O edge cases of src-test-data/macho-yaml (regenerate-macho-yaml.sh: yaml2obj-22
 * sources for bad load commands, overlapping sections, segments and addresses, stripped files):
 * gsymutil --convert prints llvm-gsymutil-22's stdout and exits as it did; where llvm refused the
 * file ("Invalid data was encountered while parsing the file") our one-line error carries llvm's
 * own description of the problem (as llvm-size-22 words it); otherwise the same stderr, the same
 * GSYM file, dump and lookups. And the same against llvm-gsymutil-22 live (skipped without it).
 */
@NeedsLlvm
class MachOYamlTest {
  @TempDir Path tmp;

  record Row(String name, int exit) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    for (String line : Files.readAllLines(TestData.path("macho-yaml", "manifest.tsv"))) {
      if (line.startsWith("#")) continue;
      String[] f = line.split("\t");
      rows.add(new Row(f[0], Integer.parseInt(f[1])));
    }
    return rows.stream();
  }

  private static String expected(String file) throws IOException {
    return Files.readString(TestData.path("macho-yaml", "expected", file), StandardCharsets.ISO_8859_1);
  }

  /** Our run on bin/NAME, with stdout and stderr given the names llvm's run (in macho-yaml/) printed. */
  private CliRun ours(Row row, Path out) {
    Path in = TestData.path("macho-yaml", "bin", row.name());
    CliRun r = CliRun.run("--convert", in.toString(), "--out-file", out.toString(), "--num-threads=1");
    return new CliRun(r.status(), r.out().replace(out.toString(), "gsym/" + row.name() + ".gsym").replace(in.toString(), "bin/" + row.name()),
        r.err().replace(in.toString(), "bin/" + row.name()));
  }

  private static void checkErr(Row row, String ourErr, String llvmErr) throws IOException {
    Path description = TestData.path("macho-yaml", "expected", row.name() + ".llvm-size.txt");
    if (Files.exists(description)) {
      assertThat(llvmErr).isEqualTo("bin/" + row.name() + ": Invalid data was encountered while parsing the file\n");
      assertThat(ourErr).startsWith("bin/" + row.name() + ": " + Files.readString(description).strip() + " at offset 0x").hasLineCount(1)
          .doesNotContain("\tat ");
    } else {
      assertThat(CliRun.llvmStderr(ourErr)).isEqualTo(llvmErr);
    }
  }

  @ParameterizedTest
  @MethodSource("rows")
  void convertsOrRefusesAsLlvm(Row row) throws IOException {
    Path out = tmp.resolve(row.name() + ".gsym");
    CliRun r = ours(row, out);
    assertThat(r.status()).isEqualTo(row.exit());
    assertThat(r.out()).isEqualTo(expected(row.name() + ".convert.txt"));
    checkErr(row, r.err(), expected(row.name() + ".stderr.txt"));
    if (row.exit() != 0) {
      assertThat(out).doesNotExist();
      return;
    }
    Path golden = TestData.path("macho-yaml", "gsym", row.name() + ".gsym");
    assertThat(out).hasSameBinaryContentAs(golden);
    String name = row.name() + ".gsym";
    assertThat(CliRun.run(golden.toString()).out()).isEqualTo(expected(name + ".dump.txt"));
    List<String> args = new ArrayList<>();
    for (String a : Files.readAllLines(TestData.path("macho-yaml", "expected", name + ".addrs"))) {
      args.add("--address");
      args.add(a);
    }
    args.add(golden.toString());
    assertThat(CliRun.run(args.toArray(String[]::new)).out().replace(golden.toString(), name)).isEqualTo(expected(name + ".lookup.txt"));
  }

  @ParameterizedTest
  @MethodSource("rows")
  void matchesLiveLlvm(Row row) throws IOException, InterruptedException {
    Path llvm = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Path dir = Files.createDirectories(tmp.resolve("llvm"));
    Path in = Files.copy(TestData.path("macho-yaml", "bin", row.name()), Files.createDirectories(dir.resolve("bin")).resolve(row.name()));
    Files.createDirectories(dir.resolve("gsym"));
    Path out = dir.resolve("llvm.out"), err = dir.resolve("llvm.err");
    Process p = new ProcessBuilder(llvm.toString(), "--convert", "bin/" + row.name(), "--out-file", "gsym/" + row.name() + ".gsym",
        "--num-threads=1").directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    Path ourOut = tmp.resolve(row.name() + ".gsym");
    CliRun r = ours(row, ourOut);
    assertThat(r.status()).isEqualTo(p.exitValue());
    assertThat(r.out()).isEqualTo(Files.readString(out, StandardCharsets.ISO_8859_1));
    checkErr(row, r.err(), Files.readString(err, StandardCharsets.ISO_8859_1));
    if (p.exitValue() == 0) assertThat(ourOut).hasSameBinaryContentAs(dir.resolve("gsym").resolve(row.name() + ".gsym"));
    assertThat(in).hasSameBinaryContentAs(TestData.path("macho-yaml", "bin", row.name()));
  }
}
