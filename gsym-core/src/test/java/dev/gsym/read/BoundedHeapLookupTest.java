package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.SyntheticGsym;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lookups need no heap proportional to the file: a JVM with a 16 MB heap answers 200,000 random
 * lookups correctly in a ~96 MB GSYM (the reader maps the file), while the same JVM cannot even
 * hold the file's bytes in its heap (the control run dies with OutOfMemoryError).
 */
@StartsProcesses
class BoundedHeapLookupTest {
  private static final String HEAP = "-Xmx16m";

  @Test
  void lookupsInAFileSixTimesTheHeap(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("big.gsym");
    long size = new SyntheticGsym(SyntheticGsym.functionsForSize(96_000_000)).write(file);
    assertThat(size).isGreaterThan(90_000_000L);

    Run control = fork("slurp", file.toString());
    assertThat(control.exit()).as(control.output()).isNotZero();
    assertThat(control.output()).contains("OutOfMemoryError");

    Run run = fork("check", file.toString(), "200000", "7");
    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(run.output()).contains("lookups=200000 ").contains(" mismatches=0 ");
    assertThat(run.output()).containsPattern("found=1[0-9]{5} "); // most addresses are in a function
  }

  private record Run(int exit, String output) {}

  /** Runs SyntheticGsym's main in a new JVM (this JVM's java and class path) with a small heap. */
  private static Run fork(String... args) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    List<String> cmd = new java.util.ArrayList<>(List.of(java, HEAP, "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), SyntheticGsym.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("forked JVM did not finish: " + cmd);
    }
    return new Run(p.exitValue(), out);
  }
}
