package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where conversions write: what the user pointed {@code -o} (or {@code --json-summary-file}) at is
 * never destroyed. Devices and FIFOs are written in place, symbolic links stay links, {@code -o -}
 * is stdout, an output that is an input is refused, and output errors name the output. Inputs are
 * copies in a temporary directory, so a regression cannot damage the checked-in test data.
 */
@StartsProcesses
class OutputFilesTest {
  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFIFO = 0010000;

  @TempDir
  Path tmp;

  private Path bin;
  private Path sym;
  private Path gsym;

  @BeforeEach
  void copyInputs() throws IOException {
    bin = Files.copy(TestData.path("bin", "c-clang-O2"), tmp.resolve("prog"));
    sym = Files.copy(TestData.path("breakpad", "basic.sym"), tmp.resolve("basic.sym"));
    gsym = Files.copy(TestData.path("gsym", "c-clang-O2.gsym"), tmp.resolve("prog.gsym"));
  }

  record Run(int status, byte[] out, String err) {
    String text() {
      return new String(out, StandardCharsets.UTF_8);
    }
  }

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = GsymUtil.run(args, new ByteArrayInputStream(new byte[0]), o, e);
    }
    return new Run(status, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }

  private static Run ok(String... args) {
    Run r = run(args);
    assertThat(r.status()).as("gsymutil %s: %s", List.of(args), r.err()).isZero();
    return r;
  }

  /** The conversions, each written to {@code out}. */
  private List<String[]> conversions(String out) {
    return List.of(new String[] {"--dwarf", bin.toString(), "-o", out},
        new String[] {"--breakpad", sym.toString(), "-o", out},
        new String[] {"--to-breakpad", gsym.toString(), "-o", out},
        new String[] {"--to-breakpad", bin.toString(), "-o", out});
  }

  /** What each conversion writes to a plain new file. */
  private List<byte[]> expectedOutputs() throws IOException {
    List<byte[]> expected = new ArrayList<>();
    int i = 0;
    for (String[] args : conversions(null)) {
      Path p = tmp.resolve("expected-" + i++);
      args[3] = p.toString();
      ok(args);
      expected.add(Files.readAllBytes(p));
      Files.delete(p);
    }
    return expected;
  }

  private static int fileType(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & S_IFMT;
  }

  private List<String> names() throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void devNullStaysACharacterDevice() throws Exception {
    Path devNull = Path.of("/dev/null");
    assumeTrue(Files.exists(devNull) && fileType(devNull) == S_IFCHR, "no /dev/null character device");
    try {
      for (String[] args : conversions("/dev/null")) {
        ok(args);
        assertThat(fileType(devNull)).as("/dev/null after gsymutil %s", List.of(args)).isEqualTo(S_IFCHR);
      }
      ok("--dwarf", bin.toString(), "-o", tmp.resolve("x.gsym").toString(), "--json-summary-file", "/dev/null");
      assertThat(fileType(devNull)).as("/dev/null after --json-summary-file /dev/null").isEqualTo(S_IFCHR);
      assertThat(Files.list(Path.of("/dev")).map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith(".null."));
    } finally {
      if (fileType(devNull) != S_IFCHR) restoreDevNull(devNull); // a regression must not break the machine
    }
  }

  private static void restoreDevNull(Path devNull) throws Exception {
    Files.deleteIfExists(devNull);
    new ProcessBuilder("mknod", "-m", "666", devNull.toString(), "c", "1", "3").inheritIO().start().waitFor();
  }

  @Test
  void fifoIsWrittenInPlaceForAReader() throws Exception {
    Path fifo = tmp.resolve("pipe");
    Process mk = new ProcessBuilder(Tools.require("mkfifo").toString(), fifo.toString()).start();
    assertThat(mk.waitFor()).as("mkfifo").isZero();
    List<byte[]> expected = expectedOutputs();
    List<String[]> conversions = conversions(fifo.toString());
    for (int i = 0; i < conversions.size(); i++) {
      CompletableFuture<byte[]> reader = CompletableFuture.supplyAsync(() -> {
        try (InputStream in = Files.newInputStream(fifo)) {
          return in.readAllBytes();
        } catch (IOException e) {
          throw new RuntimeException(e);
        }
      });
      ok(conversions.get(i));
      assertThat(reader.get(60, TimeUnit.SECONDS)).as("read from the FIFO: %s", List.of(conversions.get(i)))
          .isEqualTo(expected.get(i));
      assertThat(fileType(fifo)).isEqualTo(S_IFIFO);
    }
  }

  @Test
  void symbolicLinksStayLinksAndTheirTargetsAreReplaced() throws Exception {
    List<byte[]> expected = expectedOutputs();
    Path sub = Files.createDirectory(tmp.resolve("sub"));
    Path target = Files.writeString(sub.resolve("target"), "previous");
    Path middle = Files.createSymbolicLink(tmp.resolve("middle"), Path.of("sub/target"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), middle.getFileName());
    List<String[]> conversions = conversions(link.toString());
    for (int i = 0; i < conversions.size(); i++) {
      ok(conversions.get(i));
      assertThat(Files.isSymbolicLink(link)).isTrue();
      assertThat(Files.isSymbolicLink(middle)).isTrue();
      assertThat(Files.readAllBytes(target)).isEqualTo(expected.get(i));
      try (Stream<Path> s = Files.list(sub)) {
        assertThat(s).containsExactly(target); // no temporary file left beside the target
      }
    }
    // a dangling link creates its target
    Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), Path.of("sub/new.gsym"));
    ok("--dwarf", bin.toString(), "-o", dangling.toString());
    assertThat(Files.isSymbolicLink(dangling)).isTrue();
    assertThat(Files.readAllBytes(sub.resolve("new.gsym"))).isEqualTo(expected.get(0));
    // and --json-summary-file through a link
    Path json = Files.createSymbolicLink(tmp.resolve("summary.json"), Path.of("sub/summary"));
    ok("--dwarf", bin.toString(), "-o", tmp.resolve("x.gsym").toString(), "--json-summary-file", json.toString());
    assertThat(Files.isSymbolicLink(json)).isTrue();
    assertThat(Files.readString(sub.resolve("summary"))).startsWith("{\"error-categories\":");
  }

  @Test
  void outputThatIsTheInputIsRefusedAndNothingIsTouched() throws Exception {
    Path hard = tmp.resolve("hard-link");
    Files.createLink(hard, bin);
    Path link = Files.createSymbolicLink(tmp.resolve("sym-link"), bin.getFileName());
    Files.createDirectory(tmp.resolve("d"));
    String[][] cases = {
        {"--dwarf", bin.toString(), "-o", bin.toString()},
        {"--dwarf", bin.toString(), "-o", tmp.resolve("d/../prog").toString()},
        {"--dwarf", bin.toString(), "-o", link.toString()},
        {"--dwarf", hard.toString(), "-o", bin.toString()},
        {"--convert", link.toString(), "--out-file", hard.toString()},
        {"--dwarf", bin.toString(), "-o", tmp.resolve("x.gsym").toString(), "--json-summary-file", hard.toString()},
        {"--breakpad", sym.toString(), "-o", sym.toString()},
        {"--to-breakpad", gsym.toString(), "-o", gsym.toString()},
    };
    List<String> before = names();
    byte[] binBytes = Files.readAllBytes(bin);
    for (String[] args : cases) {
      Run r = run(args);
      assertThat(r.status()).as("status of %s", List.of(args)).isEqualTo(1);
      assertThat(r.out()).as("stdout of %s", List.of(args)).isEmpty();
      assertThat(r.err()).as("stderr of %s", List.of(args))
          .matches("gsymutil: output file '.*' is the input file '.*'; refusing to overwrite it\n");
      assertThat(names()).isEqualTo(before);
      assertThat(Files.isSymbolicLink(link)).isTrue();
    }
    assertThat(Files.readAllBytes(bin)).isEqualTo(binBytes);
    assertThat(Files.readAllBytes(sym)).isEqualTo(Files.readAllBytes(TestData.path("breakpad", "basic.sym")));
    assertThat(Files.readAllBytes(gsym)).isEqualTo(Files.readAllBytes(TestData.path("gsym", "c-clang-O2.gsym")));
  }

  @Test
  void jsonSummaryThatIsTheOutputIsRefused() throws Exception {
    Path out = Files.writeString(tmp.resolve("out.gsym"), "previous");
    Path alias = Files.createSymbolicLink(tmp.resolve("alias.json"), out.getFileName());
    Run r = run("--dwarf", bin.toString(), "-o", out.toString(), "--json-summary-file", alias.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("gsymutil: output file '" + alias + "' is the output file '" + out
        + "'; refusing to overwrite it\n");
    assertThat(Files.readString(out)).isEqualTo("previous");
    // neither exists yet: the same path, spelled differently
    Path fresh = tmp.resolve("fresh.gsym");
    Path spelled = tmp.resolve("sub/../fresh.gsym");
    Files.createDirectory(tmp.resolve("sub"));
    Run twice = run("--dwarf", bin.toString(), "-o", fresh.toString(), "--json-summary-file", spelled.toString());
    assertThat(twice.status()).isEqualTo(1);
    assertThat(twice.err()).isEqualTo("gsymutil: output file '" + spelled + "' is the output file '" + fresh
        + "'; refusing to overwrite it\n");
    assertThat(fresh).doesNotExist();
  }

  @Test
  void segmentThatWouldReplaceTheInputIsRefused() throws Exception {
    // c-clang-O2's first segment of 200 bytes starts at 0x1000
    Path prefix = tmp.resolve("seg.gsym");
    Path segmentName = tmp.resolve("seg.gsym-0x1000");
    Files.createLink(segmentName, bin);
    byte[] binBytes = Files.readAllBytes(bin);
    Run r = run("--dwarf", bin.toString(), "-o", prefix.toString(), "--segment-size", "200");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("gsymutil: output file '" + segmentName + "' is the input file '" + bin
        + "'; refusing to overwrite it\n");
    assertThat(Files.readAllBytes(bin)).isEqualTo(binBytes);
    Files.delete(segmentName);
    ok("--dwarf", bin.toString(), "-o", prefix.toString(), "--segment-size", "200");
    assertThat(Files.exists(segmentName)).as("the first segment's name").isTrue();
  }

  @Test
  void dashWritesTheOutputToStdoutAndTheSummaryToStderr() throws Exception {
    List<byte[]> expected = expectedOutputs();
    List<String[]> conversions = conversions("-");
    for (int i = 0; i < conversions.size(); i++) {
      Path file = tmp.resolve("file-" + i);
      String[] toFile = conversions.get(i).clone();
      toFile[3] = file.toString();
      Run fileRun = ok(toFile);
      Run r = ok(conversions.get(i));
      assertThat(r.out()).as("stdout of %s", List.of(conversions.get(i))).isEqualTo(expected.get(i));
      assertThat(r.err()).isEqualTo(fileRun.text().replace("Output file: " + file, "Output file: -")
          .replace("): " + file + "\n", "): -\n") + fileRun.err());
      assertThat(r.err()).startsWith("Input file: ");
    }
    Run seg = run("--dwarf", bin.toString(), "-o", "-", "--segment-size", "200");
    assertThat(seg.status()).isEqualTo(1);
    assertThat(seg.err()).isEqualTo("gsymutil: -o - (standard output) cannot be used with --segment-size"
        + " (it writes several files)\n");
    Run verify = run("--dwarf", bin.toString(), "-o", "-", "--verify");
    assertThat(verify.status()).isEqualTo(1);
    assertThat(verify.err()).isEqualTo("gsymutil: -o - (standard output) cannot be used with --verify"
        + " (it reads the output back)\n");
    assertThat(names()).doesNotContain("-");
  }

  @Test
  void jsonSummaryDashGoesToStdoutAfterTheSummary() throws Exception {
    Path out = tmp.resolve("out.gsym");
    Run r = ok("--dwarf", bin.toString(), "-o", out.toString(), "--json-summary-file", "-");
    assertThat(r.text()).startsWith("Input file: ").endsWith("total\n{\"error-categories\":{},\"error-count\":0}");
    assertThat(names()).doesNotContain("-");
    Run both = run("--dwarf", bin.toString(), "-o", "-", "--json-summary-file", "-");
    assertThat(both.status()).isEqualTo(1);
    assertThat(both.err()).isEqualTo("gsymutil: -o - and --json-summary-file - cannot both write to standard output\n");
  }

  @Test
  void outputErrorsNameTheOutput() {
    String out = "/nonexistent/dir/x.out";
    for (String[] args : conversions(out)) {
      Run r = run(args);
      assertThat(r.status()).as("status of %s", List.of(args)).isEqualTo(1);
      assertThat(r.err()).as("stderr of %s", List.of(args)).isEqualTo(out + ": No such file or directory\n");
    }
    Run dir = run("--dwarf", bin.toString(), "-o", tmp.toString());
    assertThat(dir.err()).isEqualTo(tmp + ": Is a directory\n");
  }

  /**
   * An output that cannot be written is reported before the input is read, so a long conversion
   * does not end in it: the inputs here are bad, and the error is the output's. For every conversion
   * kind, --segment-size and --json-summary-file, with nothing left behind.
   */
  @Test
  void unwritableOutputIsReportedBeforeTheInputIsRead() throws IOException {
    Path garbage = Files.writeString(tmp.resolve("garbage"), "not a symbol file\n".repeat(20));
    Path badSym = Files.writeString(tmp.resolve("bad.sym"), "MODULE Linux x86_64 0123 bad\nFUNC zz\n");
    Path file = Files.writeString(tmp.resolve("file"), "");
    List<String> before = names();
    for (String out : List.of("/nonexistent/dir/x.out", file + "/x.out")) {
      String reason = out.startsWith("/nonexistent") ? "No such file or directory" : "Not a directory";
      for (String[] args : List.of(new String[] {"--dwarf", garbage.toString(), "-o", out},
          new String[] {"--dwarf", garbage.toString(), "--embed", "-o", out},
          new String[] {"--breakpad", badSym.toString(), "-o", out},
          new String[] {"--breakpad", badSym.toString(), "--segment-size", "400", "-o", out},
          new String[] {"--dwarf", garbage.toString(), "--segment-size", "400", "-o", out},
          new String[] {"--to-breakpad", garbage.toString(), "-o", out},
          new String[] {"convert", "--output-version", "2", garbage.toString(), "-o", out},
          new String[] {"embed", garbage.toString(), garbage.toString(), "-o", out})) {
        Run r = run(args);
        assertThat(r.status()).as("status of %s", List.of(args)).isEqualTo(1);
        assertThat(r.err()).as("stderr of %s", List.of(args)).isEqualTo(out + ": " + reason + "\n");
        assertThat(r.text()).as("stdout of %s", List.of(args)).isEmpty();
      }
      Path gsymOut = tmp.resolve("never.gsym");
      Run json = run("--dwarf", garbage.toString(), "-o", gsymOut.toString(), "--json-summary-file", out);
      assertThat(json.status()).isEqualTo(1);
      assertThat(json.err()).isEqualTo("error opening aggregate error json file '" + out + "' for writing: " + reason + "\n");
      assertThat(json.text()).isEmpty();
    }
    assertThat(names()).isEqualTo(before);
    // a missing input is still reported first, as llvm reports it
    assertThat(run("--dwarf", tmp.resolve("nope").toString(), "-o", "/nonexistent/dir/x.gsym").err())
        .isEqualTo(tmp.resolve("nope") + ": No such file or directory\n");
  }
}
