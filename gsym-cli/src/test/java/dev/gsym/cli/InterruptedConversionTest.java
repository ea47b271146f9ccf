package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.SyntheticGsym;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conversion stopped by SIGTERM while it writes its output leaves neither a temporary file nor a
 * partial output, and the previous output file is intact: the real CLI runs in its own JVM and is
 * signalled once its temporary file has appeared.
 */
@StartsProcesses
class InterruptedConversionTest {
  /** Enough functions that writing the Breakpad text takes seconds, not milliseconds. */
  private static final int FUNCTIONS = 100_000;

  @TempDir
  Path tmp;

  @Test
  void sigtermWhileWritingLeavesThePreviousOutputAndNoTemporaryFile() throws Exception {
    Path big = tmp.resolve("big.gsym");
    new SyntheticGsym(FUNCTIONS).write(big);
    Path out = Files.writeString(tmp.resolve("out.sym"), "previous content\n");
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        GsymUtil.class.getName(), "--to-breakpad", big.toString(), "-o", out.toString());
    Path log = tmp.resolve("log.txt");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + 120_000_000_000L;
      Path temporary = null;
      while (temporary == null && p.isAlive() && System.nanoTime() < deadline) {
        temporary = temporaryFile();
        if (temporary == null) Thread.sleep(5);
      }
      assertThat(temporary).as("the temporary output file, seen while gsymutil was still running (log: %s)",
          Files.exists(log) ? Files.readString(log) : "").isNotNull();
      assertThat(p.isAlive()).as("gsymutil still running when signalled").isTrue();
      p.destroy(); // SIGTERM
      assertThat(p.waitFor()).as("exit status after SIGTERM").isEqualTo(128 + 15);
    } finally {
      p.destroyForcibly();
    }
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(f -> f.getFileName().toString()).sorted())
          .containsExactly("big.gsym", "log.txt", "out.sym");
    }
    assertThat(Files.readString(out)).isEqualTo("previous content\n");
  }

  /** AtomicFile's temporary file for out.sym ({@code .out.sym.<random>.tmp}), or null. */
  private Path temporaryFile() throws Exception {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(f -> f.getFileName().toString().startsWith(".out.sym.")).findFirst().orElse(null);
    }
  }
}
