package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a one-shot lookup or dump loads, seen in a fresh JVM through {@code -Xlog:class+load}: no
 * logging framework (slf4j, logback) and no picocli, which only the other command lines need.
 */
@StartsProcesses
class StartupClassesTest {
  private static final String F = TestData.path("gsym", "c-clang-O2.gsym").toString();

  @TempDir
  Path tmp;

  /** Runs gsymutil {@code args} in a new JVM; returns the names of the classes it loaded. */
  private List<String> loadedClasses(String... args) throws IOException, InterruptedException {
    Path log = tmp.resolve("classes-" + System.nanoTime() + ".txt");
    Path out = tmp.resolve("out.txt");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xshare:auto", "-Xlog:class+load=info:file=" + log, "-XX:+UseSerialGC",
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        GsymUtil.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(p.waitFor()).as("exit status of gsymutil %s: %s", List.of(args),
        Files.readString(out)).isZero();
    List<String> names = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      // "[0.012s][info][class,load] java.lang.Object source: shared objects file"
      int start = line.indexOf("] ", line.indexOf("class,load"));
      int end = line.indexOf(' ', start + 2);
      if (start >= 0 && end > start) names.add(line.substring(start + 2, end));
    }
    assertThat(names).as("class+load log of %s", List.of(args)).contains(GsymUtil.class.getName());
    return names;
  }

  private static List<String> matching(List<String> classes, String prefix) {
    return classes.stream().filter(c -> c.startsWith(prefix)).toList();
  }

  @Test
  void lookupLoadsNeitherLoggingNorPicocli() throws Exception {
    List<String> classes = loadedClasses("--lookup", "0x1179", "--lookup", "0x11a1", F);
    assertThat(classes).contains("dev.gsym.read.GsymReader");
    assertThat(matching(classes, "ch.qos.logback.")).isEmpty();
    assertThat(matching(classes, "org.slf4j.")).isEmpty();
    assertThat(matching(classes, "picocli.")).isEmpty();
  }

  @Test
  void dumpLoadsNeitherLoggingNorPicocli() throws Exception {
    List<String> classes = loadedClasses(F);
    assertThat(classes).contains("dev.gsym.read.GsymReader");
    assertThat(matching(classes, "ch.qos.logback.")).isEmpty();
    assertThat(matching(classes, "org.slf4j.")).isEmpty();
    assertThat(matching(classes, "picocli.")).isEmpty();
  }

  @Test
  void symbolizeLoadsNeitherLoggingNorPicocli() throws Exception {
    List<String> classes = loadedClasses("symbolize", "--no-debuginfod", "--obj",
        TestData.path("bin", "c-clang-O2").toString(), "--gsym-file-directory", TestData.path("gsym").toString(),
        "--output-style=JSON", "0x1179");
    assertThat(classes).contains("dev.gsym.cli.symbolize.SymbolizeCommand", "dev.gsym.read.GsymReader");
    assertThat(matching(classes, "ch.qos.logback.")).isEmpty();
    assertThat(matching(classes, "org.slf4j.")).isEmpty();
    assertThat(matching(classes, "picocli.")).isEmpty();
  }

  @Test
  void subcommandFormsStillGoThroughPicocliWithoutLogging() throws Exception {
    // also shows that the probe sees classes from the dependency jars
    List<String> classes = loadedClasses("lookup", "-f", F, "0x1179");
    assertThat(matching(classes, "picocli.")).isNotEmpty();
    assertThat(matching(classes, "ch.qos.logback.")).isEmpty();
  }
}
