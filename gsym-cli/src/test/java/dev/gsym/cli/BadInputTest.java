package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Truncated and garbage files through the CLI: either a normal run, or exactly one stderr line
 * naming the file with exit status 1; never a stack trace or an internal error.
 */
@StartsProcesses
class BadInputTest {
  private static final String[] LOOKUP = {"--address", "0x1141", "--address", "0x2008", "--address",
      "0x6c0", "--address", "0x401005", "--address", "0x100"};
  private static final String[] VECTORS = {"t1.gsym", "t2.gsym", "t3gmc.gsym", "A.gsym", "B.gsym",
      "C.gsym", "D.gsym", "E.gsym", "F.gsym", "G.gsym"};

  @TempDir
  Path tmp;

  private static void assertWellBehaved(CliRun r, Path file) {
    assertThat(r.status()).as("exit status for %s", file).isIn(0, 1);
    if (r.status() == 1) {
      assertThat(r.err()).as("stderr for %s", file).startsWith(file + ": ").endsWith("\n")
          .hasLineCount(1);
    } else {
      assertThat(r.err()).as("stderr for %s", file).isEmpty();
    }
    assertThat(r.err()).doesNotContain("Exception", "\tat ", "gsymutil: error");
    assertThat(r.out()).doesNotContain("Exception", "\tat ");
  }

  private List<Path> truncations(int step, String... vectors) throws Exception {
    List<Path> out = new ArrayList<>();
    for (String v : vectors) {
      byte[] whole = Files.readAllBytes(TestData.path("vectors", v));
      for (int n = 0; n < whole.length; n += step) {
        out.add(Files.write(tmp.resolve(v + "-" + n), Arrays.copyOf(whole, n)));
      }
    }
    return out;
  }

  @Test
  void truncatedFiles() throws Exception {
    for (Path p : truncations(9, VECTORS)) {
      CliRun dump = CliRun.run(p.toString());
      assertWellBehaved(dump, p);
      String[] args = Arrays.copyOf(LOOKUP, LOOKUP.length + 1);
      args[LOOKUP.length] = p.toString();
      assertWellBehaved(CliRun.run(args), p);
      String[] merged = new String[args.length + 1];
      merged[0] = "--merged-functions";
      System.arraycopy(args, 0, merged, 1, args.length);
      assertWellBehaved(CliRun.run(merged), p);
      String[] verbose = merged.clone();
      verbose[0] = "--verbose";
      CliRun v = CliRun.run(verbose);
      assertThat(v.status()).isIn(0, 1);
      if (v.status() == 1) {
        // --verbose adds the stack trace after the one line
        assertThat(v.err()).startsWith(p + ": ");
      }
      assertWellBehaved(CliRun.stdin("0x1141 " + p + "\n0x100 " + p + "\n", "--addresses-from-stdin"), p);
    }
  }

  @Test
  void oneLinePerBadFile() throws Exception {
    Path text = Files.writeString(tmp.resolve("text.gsym"), "hello, world\n".repeat(10));
    CliRun r = CliRun.run(text.toString());
    assertThat(r).isEqualTo(new CliRun(1, "", text + ": not a GSYM file\n"));
    CliRun verbose = CliRun.run("--verbose", text.toString());
    assertThat(verbose.status()).isEqualTo(1);
    assertThat(verbose.err()).startsWith(text + ": not a GSYM file\n").contains("GsymFormatException");
    Path version = Files.write(tmp.resolve("v9.gsym"),
        ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN).putInt(0x4753594d).putShort((short) 9)
            .array());
    assertThat(CliRun.run(version.toString()))
        .isEqualTo(new CliRun(1, "", version + ": unsupported GSYM version 9\n"));
  }

  /**
   * The dump of truncated files against llvm-gsymutil-22, when it is installed. Little-endian
   * files only: for byte-swapped (big-endian) files llvm skips some table bounds checks (e.g. it
   * dumps B.gsym cut inside its string table), which we do not imitate.
   */
  @Test
  void truncatedDumpsMatchLlvm() throws Exception {
    Path exe = LlvmDifferentialTest.llvmExecutable();
    for (Path p : truncations(23, Arrays.stream(VECTORS).filter(v -> !v.equals("B.gsym"))
        .toArray(String[]::new))) {
      Process proc = new ProcessBuilder(exe.toString(), p.toString())
          .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(new File("/dev/null")).start();
      String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int status = proc.waitFor();
      CliRun ours = CliRun.run(p.toString());
      assertThat(ours.out()).as("dump of %s", p).isEqualTo(out);
      assertThat(ours.status()).as("exit status for %s", p).isEqualTo(status);
    }
  }
}
