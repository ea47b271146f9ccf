package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.testing.StartsProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record of the jars an AOT cache was made from ({@code CACHE.jars}) is what the launcher
 * compares it with: the output of POSIX {@code cksum gsymutil.jar lib/*.jar} in the target
 * directory, names in bytewise order (the launcher globs under {@code LC_ALL=C}).
 */
@StartsProcesses
class AotJarsTest {
  @TempDir Path target;

  @Test
  void recordIsWhatCksumPrintsInTheLaunchersOrder() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs /bin/bash");
    Files.createDirectories(target.resolve("lib"));
    Random random = new Random(42);
    // sizes around the byte boundaries of the length cksum appends, names whose order depends on the locale
    List<String> names = List.of("gsymutil.jar", "lib/a.jar", "lib/B.jar", "lib/c-1.2.jar", "lib/Z_.jar", "lib/_x.jar");
    int[] sizes = {245_280, 0, 1, 255, 256, 65_536 + 3};
    for (int i = 0; i < names.size(); i++) {
      byte[] b = new byte[sizes[i]];
      random.nextBytes(b);
      Files.write(target.resolve(names.get(i)), b);
    }
    Files.writeString(target.resolve("lib/not-a-jar.txt"), "x");
    Process p = new ProcessBuilder("/bin/bash", "-c", "LC_ALL=C && cksum gsymutil.jar lib/*.jar")
        .directory(target.toFile()).redirectErrorStream(true).start();
    String cksum = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assumeTrue(p.exitValue() == 0, "needs cksum: " + cksum);
    assertThat(AotJars.record(target)).isEqualTo(cksum);
    assertThat(cksum.lines().map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList())
        .containsExactly("gsymutil.jar", "lib/B.jar", "lib/Z_.jar", "lib/_x.jar", "lib/a.jar", "lib/c-1.2.jar");
  }

  @Test
  void writesOneRecordPerCache() throws Exception {
    Files.writeString(target.resolve("gsymutil.jar"), "jar");
    Path a = target.resolve("gsymutil.aot");
    Path b = target.resolve("gsymutil-serve.aot");
    assertThat(AotJars.write(target, List.of(a, b))).isZero();
    // `printf jar | cksum` prints "286719360 3"
    assertThat(Files.readString(target.resolve("gsymutil.aot.jars"))).isEqualTo("286719360 3 gsymutil.jar\n");
    assertThat(Files.readString(target.resolve("gsymutil-serve.aot.jars"))).isEqualTo(AotJars.record(target));
  }
}
