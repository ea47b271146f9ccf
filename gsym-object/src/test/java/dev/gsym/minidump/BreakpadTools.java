package dev.gsym.minidump;

import dev.gsym.ByteStrings;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Breakpad's minidump_dump for the live tests: the npm package minidump@0.26.0's binary
 * ({@code $BREAKPAD_PKG/bin/linux-x64}, default /work/peers/package), else one built from its
 * sources by {@code src-test-data/minidump/regenerate.sh --build-minidump-dump} into
 * target/breakpad-tools, else a skip (a failure under {@code -Dgsym.requireTools=true}).
 */
final class BreakpadTools {
  private BreakpadTools() {}

  private static boolean triedBuild;

  static synchronized Path minidumpDump() throws IOException, InterruptedException {
    String pkg = System.getenv().getOrDefault("BREAKPAD_PKG", "/work/peers/package");
    Path installed = Path.of(pkg, "bin", "linux-x64", "minidump_dump");
    if (Files.isExecutable(installed)) return installed;
    Path dir = Path.of("target", "breakpad-tools").toAbsolutePath();
    Path bin = dir.resolve("minidump_dump");
    if (!Files.isExecutable(bin) && !triedBuild) {
      triedBuild = true;
      Files.createDirectories(dir);
      Path script = TestData.path("minidump", "regenerate.sh");
      Process p = new ProcessBuilder("bash", script.toString(), "--build-minidump-dump", dir.toString())
          .redirectErrorStream(true).redirectOutput(dir.resolve("build.log").toFile()).start();
      if (!p.waitFor(10, TimeUnit.MINUTES)) p.destroyForcibly();
    }
    return Tools.require(Files.isExecutable(bin) ? bin : null,
        "Breakpad's minidump_dump (npm minidump@0.26.0, or built by src-test-data/minidump/regenerate.sh --build-minidump-dump)");
  }

  /** minidump_dump's stdout for the dump at {@code path}. */
  static String run(Path tool, Path path) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(tool.toString(), path.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] out = p.getInputStream().readAllBytes();
    p.waitFor();
    return ByteStrings.decode(out);
  }
}
