package dev.gsym.apitest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md's "Library" section as a consumer follows it: its coordinates name real artifacts of
 * the build, and its program (the blocks after {@code <!-- consumer: FILE -->}) compiles against
 * the library's jars and runs, on the class path and, with its {@code module-info.java}, on the
 * module path, giving the answers llvm-gsymutil's own GSYM file of the binary gives.
 */
@StartsProcesses
class ReadmeConsumerTest {
  /** Library modules and their third-party requirements, as jars or class directories. */
  private static final Pattern LIBRARY_ENTRY = Pattern.compile(
      ".*/gsym-(core|object|dwarf|breakpad|convert|demangle|symbolize|serve)(/target/classes|-[^/]*(?<!-tests)\\.jar)"
          + "|.*/(aircompressor-v3|xz)-[^/]*\\.jar");
  private static final Pattern CONSUMER_FILE = Pattern.compile("<!-- consumer: (\\S+) -->\n```java\n(.*?)```\n", Pattern.DOTALL);
  /** The binary and an address in it where three functions are inlined into one another. */
  private static final String BINARY = "c-gcc-O2";
  private static final long ADDRESS = 0x1200;

  private static String libraries;
  private static String readme;

  @TempDir static Path tmp;

  @BeforeAll
  static void setUp() throws IOException {
    List<String> entries = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (LIBRARY_ENTRY.matcher(e.replace('\\', '/')).matches()) entries.add(e);
    }
    assertThat(entries).hasSizeGreaterThanOrEqualTo(9);
    libraries = String.join(File.pathSeparator, entries);
    readme = Files.readString(TestData.repoRoot().resolve("README.md"));
  }

  @Test
  void theReadmeProgramRunsOnTheClassPathAndTheModulePath() throws Exception {
    Map<String, String> files = new LinkedHashMap<>();
    Matcher m = CONSUMER_FILE.matcher(readme);
    while (m.find()) files.put(m.group(1), m.group(2));
    assertThat(files).containsOnlyKeys("module-info.java", "com/example/Example.java");

    List<String> expected = expectedOutput();
    // class path: the program alone, against the jars
    Path cpSrc = write(tmp.resolve("cp-src"), files, false);
    Path cpClasses = tmp.resolve("cp-classes");
    assertThat(compile(cpSrc, cpClasses, "--class-path")).isEmpty();
    Path cpWork = Files.createDirectories(tmp.resolve("cp-work"));
    assertThat(run(cpWork, "--class-path", cpClasses, "--enable-native-access=ALL-UNNAMED", "com.example.Example"))
        .containsExactlyElementsOf(expected);
    // module path: with its module-info.java
    Path mpSrc = write(tmp.resolve("mp-src"), files, true);
    Path mpClasses = tmp.resolve("mp-classes");
    assertThat(compile(mpSrc, mpClasses, "--module-path")).isEmpty();
    Path mpWork = Files.createDirectories(tmp.resolve("mp-work"));
    assertThat(run(mpWork, "--module-path", mpClasses, "--enable-native-access=dev.gsym.object", "-m",
        "com.example.app/com.example.Example")).containsExactlyElementsOf(expected);
    // what it wrote: llvm-gsymutil's file, and the store entry
    assertThat(Files.readAllBytes(mpWork.resolve("app.gsym"))).isEqualTo(Files.readAllBytes(TestData.path("gsym", BINARY + ".gsym")));
    try (var store = Files.walk(mpWork.resolve("store"))) {
      assertThat(store.filter(Files::isRegularFile).map(p -> p.getFileName().toString())).singleElement()
          .satisfies(name -> assertThat(name).endsWith(".gsym"));
    }
  }

  /** The lookup's text and the frames, from llvm-gsymutil's GSYM of the binary (its inline stack, innermost first). */
  private static List<String> expectedOutput() throws IOException {
    List<String> out = new ArrayList<>();
    try (GsymReader llvm = GsymReader.open(TestData.path("gsym", BINARY + ".gsym"))) {
      LookupResult r = llvm.find(ADDRESS).orElseThrow();
      out.addAll(r.toString().lines().toList());
      for (SourceLocation loc : r.locations()) {
        out.add(loc.name() + " " + (loc.dir().isEmpty() ? "" : loc.dir() + "/") + loc.base() + ":" + loc.line());
      }
    }
    assertThat(out).hasSizeGreaterThanOrEqualTo(4); // leaf, middle, outer: a real inline stack
    return out;
  }

  @Test
  void theCoordinatesNameArtifactsOfTheBuild() throws IOException {
    String pom = Files.readString(TestData.repoRoot().resolve("pom.xml"));
    Matcher version = Pattern.compile("<artifactId>gsym-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
    assertThat(version.find()).isTrue();
    assertThat(readme).contains("`dev.gsym:ARTIFACT:" + version.group(1) + "`");
    Matcher dep = Pattern.compile("<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*"
        + "<version>([^<]+)</version>\\s*</dependency>").matcher(readme);
    int n = 0;
    for (; dep.find(); n++) {
      assertThat(dep.group(1)).isEqualTo("dev.gsym");
      assertThat(dep.group(3)).isEqualTo(version.group(1));
      assertThat(pom).contains("<module>" + dep.group(2) + "</module>");
    }
    assertThat(n).isPositive();
    // the table: every library module's artifact and Java module name, as its module-info says
    Matcher row = Pattern.compile("\\| `(gsym-[a-z]+)` \\| `(dev\\.gsym\\.[a-z]+)` \\|").matcher(readme);
    Map<String, String> rows = new LinkedHashMap<>();
    while (row.find()) rows.put(row.group(1), row.group(2));
    Map<String, String> modules = new LinkedHashMap<>();
    try (var dirs = Files.list(TestData.repoRoot())) {
      for (Path d : dirs.sorted().toList()) {
        Path info = d.resolve("src/main/java/module-info.java");
        if (!Files.isRegularFile(info) || d.getFileName().toString().equals("gsym-cli")) continue;
        Matcher name = Pattern.compile("\\bmodule\\s+([\\w.]+)\\s*\\{").matcher(
            Files.readString(info).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", ""));
        assertThat(name.find()).isTrue();
        modules.put(d.getFileName().toString(), name.group(1));
      }
    }
    assertThat(new java.util.TreeMap<>(rows)).isEqualTo(new java.util.TreeMap<>(modules));
  }

  private static Path write(Path dir, Map<String, String> files, boolean withModuleInfo) throws IOException {
    for (var f : files.entrySet()) {
      if (!withModuleInfo && f.getKey().equals("module-info.java")) continue;
      Path p = dir.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue());
    }
    return dir;
  }

  /** Compiles the sources in {@code src} into {@code out} with the libraries on {@code pathOption}; javac's diagnostics. */
  private static String compile(Path src, Path out, String pathOption) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>(List.of(pathOption, libraries, "-d", out.toString(), "-Xlint:all"));
    if (pathOption.equals("--module-path")) args.addAll(List.of("--class-path", Files.createDirectories(tmp.resolve("empty")).toString()));
    try (var files = Files.walk(src)) {
      files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
    String text = diagnostics.toString(StandardCharsets.UTF_8).strip();
    return rc == 0 ? text : "rc=" + rc + "\n" + text;
  }

  /** Runs the program in {@code work}; its standard output lines (it must write nothing on standard error). */
  private static List<String> run(Path work, String pathOption, Path classes, String nativeAccess, String... main)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        pathOption, classes + File.pathSeparator + libraries, nativeAccess));
    cmd.addAll(List.of(main));
    cmd.addAll(List.of(TestData.path("bin", BINARY).toString(), "0x" + Long.toHexString(ADDRESS), work.toString()));
    Process p = new ProcessBuilder(cmd).redirectError(work.resolve("stderr").toFile()).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String err = Files.readString(work.resolve("stderr"));
    assertThat(p.exitValue()).as(output + err).isZero();
    assertThat(err).isEmpty();
    Files.delete(work.resolve("stderr"));
    return output.lines().toList();
  }
}
