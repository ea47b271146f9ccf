package dev.gsym.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/spark-local.sh builds gsym-spark with the modules it depends on, gsym-cli among them (a
 * test dependency), packaged without the AOT caches ({@code -Dgsym.aot.skip}): gsymutil.jar is
 * written again. The {@code ./gsymutil} launcher must still start on its AOT caches afterwards (it
 * stopped using them, since the jar was newer, until a source changed and it rebuilt).
 *
 * <p>Runs the script's real Maven build, offline, in a copy of this checkout that includes its build
 * output, so the jars and caches are the ones this build's gsym-cli package phase made. Whether a JVM
 * started by the launcher ran on the cache is read from its {@code -Xlog:class+load} log (given by
 * {@code JAVA_TOOL_OPTIONS}): a class from the cache is loaded from the "shared objects file".
 */
@StartsProcesses
class SparkLocalBuildAotCacheTest {
  @TempDir Path tmp;

  static final String FROM_CACHE = "dev.gsym.cli.GsymUtil source: shared objects file";

  @Test
  void theLauncherKeepsItsAotCachesAfterTheSparkBuild() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs /bin/bash (the launcher and bench/spark-local.sh)");
    Path root = TestData.repoRoot();
    Path target = root.resolve("gsym-cli/target");
    Path jar = target.resolve("gsymutil.jar");
    assumeTrue(Files.isRegularFile(jar), "gsym-cli is not packaged (a test phase before its package phase)");
    assumeTrue(Files.isRegularFile(target.resolve("gsymutil.aot")) && Files.isRegularFile(target.resolve("gsymutil.aot.jars"))
        && Files.isRegularFile(target.resolve("gsymutil-serve.aot")), "gsym-cli was packaged without its AOT caches"
        + " (-Dgsym.aot.skip)");
    Path newer = newerSource(root, Files.getLastModifiedTime(jar));
    assumeTrue(newer == null, "gsym-cli/target is older than the sources (" + newer + "): package first");

    Path copy = tmp.resolve("checkout");
    copyCheckout(root, copy);
    // the launcher's own stamp: these sources are the ones it built (it builds from no stamp)
    Files.writeString(copy.resolve("gsym-cli/target/gsymutil.stamp"), "");
    Path gsym = root.resolve("src-test-data/gsym/c-clang-O2.gsym");

    Run before = launcher(copy, "--lookup", "0x1179", gsym.toString());
    assertThat(before.status).as(before.err).isZero();
    assertThat(before.classLog).as("a lookup before the Spark build runs on the AOT cache").contains(FROM_CACHE);
    FileTime built = Files.getLastModifiedTime(copy.resolve("gsym-cli/target/gsymutil.jar"));

    Run spark = run(copy, List.of("/bin/bash", copy.resolve("bench/spark-local.sh").toString(), "ConvertJob", "--help"),
        false);
    assertThat(spark.status).as(spark.out + spark.err + log(copy.resolve("gsym-spark/target/spark-local-build.log")))
        .isZero();
    assertThat(spark.err).contains("spark-local: building gsym-spark");
    assertThat(Files.getLastModifiedTime(copy.resolve("gsym-cli/target/gsymutil.jar")))
        .as("the Spark build writes gsymutil.jar again (else this test's case is gone)").isGreaterThan(built);

    Run after = launcher(copy, "--lookup", "0x1179", gsym.toString());
    assertThat(after.status).as(after.err).isZero();
    assertThat(after.out).isEqualTo(before.out);
    assertThat(after.err.lines().filter(l -> !l.startsWith("Picked up JAVA_TOOL_OPTIONS")).toList())
        .as("no build, no message").isEmpty();
    assertThat(after.classLog).as("a lookup after the Spark build runs on the AOT cache").contains(FROM_CACHE);
    Run serve = launcher(copy, "serve", "--help");
    assertThat(serve.status).as(serve.err).isZero();
    assertThat(serve.classLog).as("serve after the Spark build runs on its AOT cache").contains(FROM_CACHE);
  }

  /** A source or pom of the checkout newer than {@code time}, or null. */
  private static Path newerSource(Path root, FileTime time) throws IOException {
    List<Path> roots = new ArrayList<>(List.of(root.resolve("pom.xml")));
    try (Stream<Path> modules = Files.list(root)) {
      modules.filter(m -> m.getFileName().toString().startsWith("gsym-")).forEach(m -> {
        roots.add(m.resolve("pom.xml"));
        roots.add(m.resolve("src/main"));
      });
    }
    for (Path r : roots) {
      if (!Files.exists(r)) continue;
      try (Stream<Path> s = Files.walk(r)) {
        var hit = s.filter(Files::isRegularFile).filter(p -> {
          try {
            return Files.getLastModifiedTime(p).compareTo(time) > 0;
          } catch (IOException e) {
            return true;
          }
        }).findFirst();
        if (hit.isPresent()) return hit.get();
      }
    }
    return null;
  }

  /**
   * The checkout with its build output (times kept, so that Maven and the launcher see what they
   * would here), without git, the launcher's state, the AOT training files and the output of the
   * modules the Spark build does not need; src-test-data is linked.
   */
  private static void copyCheckout(Path root, Path copy) throws IOException {
    Set<Path> skipped = Set.of(root.resolve(".git"), root.resolve(".gsymutil"), root.resolve("src-test-data"),
        root.resolve("gsym-spark/target"), root.resolve("gsym-bench/target"), root.resolve("gsym-api-test/target"),
        root.resolve("gsym-cli/target/aot-training"));
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        if (skipped.contains(dir)) return FileVisitResult.SKIP_SUBTREE;
        Files.createDirectories(copy.resolve(root.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        if (!file.getFileName().toString().endsWith(".aotconf")) {
          Files.copy(file, copy.resolve(root.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES,
              LinkOption.NOFOLLOW_LINKS);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null) throw e;
        Files.setLastModifiedTime(copy.resolve(root.relativize(dir).toString()), Files.getLastModifiedTime(dir));
        return FileVisitResult.CONTINUE;
      }
    });
    Files.createSymbolicLink(copy.resolve("src-test-data"), root.resolve("src-test-data"));
    // maven-compiler-plugin lists a module's sources by absolute path (target/maven-status/...): the
    // copy's own paths, so that it finds its classes up to date as it would here (else it compiles
    // everything again, which changes nothing but the time this test takes)
    try (Stream<Path> s = Files.walk(copy)) {
      for (Path lst : s.filter(p -> p.toString().contains("maven-status") && p.toString().endsWith(".lst")).toList()) {
        FileTime time = Files.getLastModifiedTime(lst);
        Files.writeString(lst, Files.readString(lst).replace(root + "/", copy + "/"));
        Files.setLastModifiedTime(lst, time);
      }
    }
  }

  private record Run(int status, String out, String err, String classLog) {}

  /** {@code ./gsymutil ARGS} in the copy, its JVM logging where each class came from. */
  private Run launcher(Path copy, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/bin/bash", copy.resolve("gsymutil").toString()));
    cmd.addAll(List.of(args));
    return run(copy, cmd, true);
  }

  private Run run(Path copy, List<String> cmd, boolean classLog) throws Exception {
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    Path log = Files.createTempFile(tmp, "classes", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(copy.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    var env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("MAVEN_") || k.startsWith("GSYMUTIL_") || k.equals("JAVA_TOOL_OPTIONS"));
    env.put("JAVA_HOME", System.getProperty("java.home"));
    // the outer build's local repository, offline: every plugin and library is there already
    String repo = System.getProperty("gsym.maven.repo.local", "");
    env.put("MAVEN_ARGS", "-o" + (repo.isEmpty() ? "" : " -Dmaven.repo.local=" + repo));
    if (classLog) env.put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + log);
    Process p = pb.start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(cmd + " did not end within 10 minutes: " + log(err));
    }
    return new Run(p.exitValue(), log(out), log(err), log(log));
  }

  private static String log(Path p) throws IOException {
    return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
  }
}
