package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./gsymutil} launcher script, run by bash in a copy of the checkout's layout. Its
 * build step calls the checkout's {@code ./mvnw}; here that is a small script that counts its calls
 * and installs a prebuilt one-class jar, so the launcher's own logic (locking, symlinks, messages)
 * is what is tested, in seconds, without a recursive Maven build.
 */
@StartsProcesses
class LauncherTest {
  @TempDir Path tmp;
  Path project;
  Path calls;

  @BeforeEach
  void layOutCheckout() throws Exception {
    Tools.require(Path.of("/bin/bash"), "/bin/bash");
    project = tmp.resolve("checkout");
    Files.createDirectories(project.resolve("gsym-core/src/main/java"));
    Files.copy(TestData.repoRoot().resolve("gsymutil"), project.resolve("gsymutil"));
    Files.setPosixFilePermissions(project.resolve("gsymutil"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(project.resolve("pom.xml"), "<project/>\n");
    Files.writeString(project.resolve("gsym-core/pom.xml"), "<project/>\n");
    Path jar = tmp.resolve("hello.jar");
    buildHelloJar(jar);
    calls = tmp.resolve("mvnw-calls");
    writeMvnw("""
        echo "$*" >> %s
        sleep 1
        mkdir -p gsym-cli/target
        cp %s gsym-cli/target/gsymutil.jar
        """.formatted(calls, jar));
  }

  @Test
  void concurrentFirstUsesBuildOnce() throws Exception {
    List<Process> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) runs.add(launcher(project.resolve("gsymutil"), "run" + i).start());
    for (int i = 0; i < runs.size(); i++) {
      Result r = Result.of(runs.get(i));
      assertThat(r.status).as(r.err).isZero();
      assertThat(r.out).isEqualTo("hello run" + i + "\n");
      assertThat(r.err.lines().count()).as(r.err).isLessThanOrEqualTo(1);
    }
    assertThat(Files.readAllLines(calls)).hasSize(1);
    assertThat(Files.readAllLines(calls).getFirst()).contains("package").contains("-DskipTests");

    Result again = Result.of(launcher(project.resolve("gsymutil"), "x").start());
    assertThat(again.out).isEqualTo("hello x\n");
    assertThat(again.err).isEmpty();
    assertThat(Files.readAllLines(calls)).hasSize(1);
  }

  @Test
  void firstUsePrintsOneLineAndKeepsMavensOutputInALog() throws Exception {
    writeMvnw("""
        echo "[INFO] Scanning for projects..."
        echo " AOTConfiguration recorded: gsym-cli/target/gsymutil.aotconf"
        mkdir -p gsym-cli/target
        cp %s gsym-cli/target/gsymutil.jar
        """.formatted(tmp.resolve("hello.jar")));
    Result r = Result.of(launcher(project.resolve("gsymutil"), "a").start());
    assertThat(r.status).isZero();
    assertThat(r.out).isEqualTo("hello a\n");
    assertThat(r.err.lines().toList()).singleElement().asString()
        .startsWith("gsymutil: building gsym-java").contains(".gsymutil/build.log");
    assertThat(Files.readString(project.resolve(".gsymutil/build.log"))).contains("AOTConfiguration recorded");
  }

  /** The build reads nothing of the command's standard input: the command gets all of it. */
  @Test
  void theBuildDoesNotReadTheCommandsInput() throws Exception {
    Path seen = tmp.resolve("mvnw-stdin");
    writeMvnw("""
        cat > %s
        mkdir -p gsym-cli/target
        cp %s gsym-cli/target/gsymutil.jar
        """.formatted(seen, tmp.resolve("hello.jar")));
    Path input = Files.writeString(tmp.resolve("input.txt"), "0x10 f.gsym\n");
    Result r = Result.of(launcher(project.resolve("gsymutil"), "--addresses-from-stdin").redirectInput(input.toFile())
        .start());
    assertThat(r.status).as(r.err).isZero();
    assertThat(seen).isEmptyFile();
  }

  @Test
  void worksThroughSymlinksOnPath() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path links = Files.createDirectories(tmp.resolve("links"));
    // bin/gsymutil -> ../links/g (relative) -> checkout/gsymutil (absolute)
    Files.createSymbolicLink(links.resolve("g"), project.resolve("gsymutil"));
    Files.createSymbolicLink(bin.resolve("gsymutil"), Path.of("../links/g"));
    ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c", "gsymutil via-path").directory(tmp.toFile());
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Result r = Result.of(pb.start());
    assertThat(r.status).as(r.err).isZero();
    assertThat(r.out).isEqualTo("hello via-path\n");
    assertThat(project.resolve("gsym-cli/target/gsymutil.jar")).exists();
    assertThat(Files.readAllLines(calls)).hasSize(1);
  }

  @Test
  void failedBuildSaysSoInTwoLinesWithoutMavensStackTrace() throws Exception {
    writeMvnw("""
        echo "[INFO] Compiling 12 source files"
        echo "[ERROR] COMPILATION ERROR : Foo.java:[3,1] class, interface, enum, or record expected"
        echo "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.14.0:compile"
        echo "org.apache.maven.lifecycle.LifecycleExecutionException: Failed"
        echo "    at org.apache.maven.lifecycle.internal.MojoExecutor.doExecute (MojoExecutor.java:333)"
        exit 1
        """);
    Result r = Result.of(launcher(project.resolve("gsymutil"), "a").start());
    assertThat(r.status).isEqualTo(1);
    assertThat(r.out).isEmpty();
    assertThat(r.err).doesNotContain(" at org.").doesNotContain("LifecycleExecutionException");
    List<String> lines = r.err.lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(1)).isEqualTo("gsymutil: the build failed: COMPILATION ERROR : Foo.java:[3,1]"
        + " class, interface, enum, or record expected");
    assertThat(lines.get(2)).contains(".gsymutil/build.log");
  }

  @Test
  void sourcesChangedAfterTheBuildRebuild() throws Exception {
    assertThat(Result.of(launcher(project.resolve("gsymutil"), "a").start()).status).isZero();
    Path src = project.resolve("gsym-core/src/main/java/A.java");
    Files.writeString(src, "class A {}\n");
    Files.setLastModifiedTime(src, FileTime.from(Instant.now().plusSeconds(5)));
    Result r = Result.of(launcher(project.resolve("gsymutil"), "b").start());
    assertThat(r.out).isEqualTo("hello b\n");
    assertThat(Files.readAllLines(calls)).hasSize(2);
  }

  @Test
  void batchLookupsDoNotReplayTheAotTrainingProfilesOneShotLookupsDo() throws Exception {
    Result batch = Result.of(launcher(project.resolve("gsymutil"), "--addresses-from-stdin", "--show-jvm").start());
    assertThat(batch.status).as(batch.err).isZero(); // this JDK accepts the flags
    assertThat(batch.out).startsWith("hello --addresses-from-stdin --show-jvm\n").contains("-XX:-AOTReplayTraining");
    Result once = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm").start());
    assertThat(once.status).as(once.err).isZero();
    assertThat(once.out).startsWith("hello --lookup 0x10 f.gsym --show-jvm\n").doesNotContain("AOTReplayTraining")
        .contains("-Dgsym.stdout.tty=false"); // stdout is a pipe here
  }

  /** Stack walking runs on C1 alone, without the training run's profiles; other commands do not. */
  @Test
  void stackwalkRunsOnC1AloneWithoutReplay() throws Exception {
    Result walk = Result.of(launcher(project.resolve("gsymutil"), "stackwalk", "d.dmp", "--show-jvm").start());
    assertThat(walk.status).as(walk.err).isZero();
    assertThat(walk.out).startsWith("hello stackwalk d.dmp --show-jvm\n")
        .contains("-XX:TieredStopAtLevel=1", "-XX:-AOTReplayTraining");
    Result symbolize = Result.of(launcher(project.resolve("gsymutil"), "symbolize", "stackwalk", "--show-jvm").start());
    assertThat(symbolize.out).doesNotContain("TieredStopAtLevel");
  }

  /** A profile of up to 32 MiB is symbolized on C1 alone; a larger one, or none, tiered. */
  @Test
  void smallProfilesRunOnC1Alone() throws Exception {
    Path small = Files.writeString(tmp.resolve("small.pb"), "x");
    Path large = tmp.resolve("large.pb");
    try (var ch = java.nio.channels.FileChannel.open(large, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}), (32L << 20)); // sparse, 32 MiB + 1 byte
    }
    for (String[] args : List.of(new String[] {"symbolize", "--pprof", small.toString(), "--show-jvm"},
        new String[] {"symbolize", "--perf-script=" + small, "--show-jvm"})) {
      Result r = Result.of(launcher(project.resolve("gsymutil"), args).start());
      assertThat(r.status).as(r.err).isZero();
      assertThat(r.out).as(String.join(" ", args)).contains("-XX:TieredStopAtLevel=1");
    }
    Result big = Result.of(launcher(project.resolve("gsymutil"), "symbolize", "--pprof", large.toString(), "--show-jvm")
        .start());
    assertThat(big.out).doesNotContain("TieredStopAtLevel");
    Result lines = Result.of(launcher(project.resolve("gsymutil"), "symbolize", small.toString(), "--show-jvm").start());
    assertThat(lines.out).doesNotContain("TieredStopAtLevel");
  }

  /** Batches from a file of up to 8 MiB run on C1 alone; from a pipe or a larger file, tiered. */
  @Test
  void shortBatchesFromAFileRunOnC1Alone() throws Exception {
    Path small = Files.writeString(tmp.resolve("small.txt"), "0x10 f.gsym\n");
    Path large = tmp.resolve("large.txt");
    try (var ch = java.nio.channels.FileChannel.open(large, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}), (8L << 20)); // sparse, 8 MiB + 1 byte
    }
    Result fromSmall = Result.of(launcher(project.resolve("gsymutil"), "--addresses-from-stdin", "--show-jvm")
        .redirectInput(small.toFile()).start());
    assertThat(fromSmall.status).as(fromSmall.err).isZero();
    assertThat(fromSmall.out).contains("-XX:TieredStopAtLevel=1", "-XX:-AOTReplayTraining");
    Result fromLarge = Result.of(launcher(project.resolve("gsymutil"), "--addresses-from-stdin", "--show-jvm")
        .redirectInput(large.toFile()).start());
    assertThat(fromLarge.out).contains("-XX:-AOTReplayTraining").doesNotContain("TieredStopAtLevel");
    Result fromPipe = Result.of(launcher(project.resolve("gsymutil"), "--addresses-from-stdin", "--show-jvm").start());
    assertThat(fromPipe.out).doesNotContain("TieredStopAtLevel");
    Result oneShot = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm")
        .redirectInput(small.toFile()).start());
    assertThat(oneShot.out).doesNotContain("TieredStopAtLevel");
  }

  /** symbolize from a file of up to 64 MiB runs on C1 alone; from a pipe or a larger file, tiered. */
  @Test
  void shortSymbolizeBatchesFromAFileRunOnC1Alone() throws Exception {
    Path small = Files.writeString(tmp.resolve("small.txt"), "BUILDID:ab 0x10\n");
    Path large = tmp.resolve("large.txt");
    try (var ch = java.nio.channels.FileChannel.open(large, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}), (64L << 20)); // sparse, 64 MiB + 1 byte
    }
    Result fromSmall = Result.of(launcher(project.resolve("gsymutil"), "symbolize", "--show-jvm")
        .redirectInput(small.toFile()).start());
    assertThat(fromSmall.status).as(fromSmall.err).isZero();
    assertThat(fromSmall.out).contains("-XX:TieredStopAtLevel=1");
    Result fromLarge = Result.of(launcher(project.resolve("gsymutil"), "symbolize", "--show-jvm")
        .redirectInput(large.toFile()).start());
    assertThat(fromLarge.status).as(fromLarge.err).isZero();
    assertThat(fromLarge.out).doesNotContain("TieredStopAtLevel");
    Result fromPipe = Result.of(launcher(project.resolve("gsymutil"), "symbolize", "--show-jvm").start());
    assertThat(fromPipe.out).doesNotContain("TieredStopAtLevel");
  }

  /**
   * serve runs on its own AOT cache when there is one, and hands the conversion settings (the main
   * cache, the conversion JIT options) to its child JVMs; other commands use the main cache.
   */
  @Test
  void serveRunsOnItsOwnCacheAndGivesConversionsTheirs() throws Exception {
    assertThat(Result.of(launcher(project.resolve("gsymutil"), "build").start()).status).isZero();
    Path target = project.resolve("gsym-cli/target");
    Path main = Files.writeString(target.resolve("gsymutil.aot"), "not a cache: the JVM ignores it\n");
    Files.setLastModifiedTime(main, FileTime.from(Instant.now().plusSeconds(5)));
    Result onMain = Result.of(launcher(project.resolve("gsymutil"), "serve", "--show-jvm").start());
    assertThat(onMain.status).as(onMain.err).isZero();
    assertThat(onMain.out).contains("-XX:AOTCache=" + main).contains("-XX:CompileThresholdScaling=10");

    Path serve = Files.writeString(target.resolve("gsymutil-serve.aot"), "not a cache either\n");
    Files.setLastModifiedTime(serve, FileTime.from(Instant.now().plusSeconds(5)));
    Result served = Result.of(launcher(project.resolve("gsymutil"), "serve", "--show-jvm").start());
    assertThat(served.status).as(served.err).isZero();
    String jvm = served.out.substring(served.out.indexOf('\n') + 1); // the property spans lines
    assertThat(jvm).contains("-XX:AOTCache=" + serve + ",") // the server's own
        .contains("-Dgsym.conversion.jvmOptions=-XX:AOTCache=" + main + "\n-Xlog:aot*=off\n"
            + "-XX:CompileThresholdScaling=10\n-XX:FreqInlineSize=80");
    Result lookup = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm").start());
    assertThat(lookup.out).contains("-XX:AOTCache=" + main).doesNotContain("gsymutil-serve.aot")
        .doesNotContain("gsym.conversion.jvmOptions");
  }

  /**
   * stackwalk, flamegraph and symbolize --pprof run on the crash and profile cache; a lookup and a
   * symbolize batch on the main one.
   */
  @Test
  void stackwalkAndProfilesRunOnTheirOwnCache() throws Exception {
    assertThat(Result.of(launcher(project.resolve("gsymutil"), "build").start()).status).isZero();
    Path target = project.resolve("gsym-cli/target");
    Path main = Files.writeString(target.resolve("gsymutil.aot"), "not a cache: the JVM ignores it\n");
    Path crash = Files.writeString(target.resolve("gsymutil-crash.aot"), "not a cache either\n");
    for (Path c : List.of(main, crash)) Files.setLastModifiedTime(c, FileTime.from(Instant.now().plusSeconds(5)));
    Path profile = Files.writeString(tmp.resolve("p.pb"), "x");
    for (String[] args : List.of(new String[] {"stackwalk", "d.dmp", "--show-jvm"},
        new String[] {"flamegraph", "p.pb", "-o", "x.html", "--show-jvm"},
        new String[] {"symbolize", "--pprof", profile.toString(), "-o", "x.pb", "--show-jvm"})) {
      Result r = Result.of(launcher(project.resolve("gsymutil"), args).start());
      assertThat(r.status).as(r.err).isZero();
      assertThat(r.out).as(String.join(" ", args)).contains("-XX:AOTCache=" + crash).doesNotContain("gsymutil.aot,");
    }
    for (String[] args : List.of(new String[] {"--lookup", "0x10", "f.gsym", "--show-jvm"},
        new String[] {"symbolize", "--show-jvm"})) {
      Result r = Result.of(launcher(project.resolve("gsymutil"), args).start());
      assertThat(r.out).as(String.join(" ", args)).contains("-XX:AOTCache=" + main).doesNotContain("gsymutil-crash.aot");
    }
  }

  /**
   * A Breakpad conversion runs with a 24 MB young generation (a small one promoted the converting
   * function's objects) and the conversion JIT settings; --to-breakpad and lookups keep the defaults.
   */
  @Test
  void breakpadConversionGetsItsYoungGenerationAndJitSettings() throws Exception {
    assertThat(Result.of(launcher(project.resolve("gsymutil"), "build").start()).status).isZero();
    for (List<String> args : List.of(List.of("--breakpad", "a.sym", "--show-jvm"), List.of("--breakpad=a.sym", "--show-jvm"),
        List.of("convert", "--breakpad", "a.sym", "-o", "a.gsym", "--show-jvm"))) {
      Result r = Result.of(launcher(project.resolve("gsymutil"), args.toArray(String[]::new)).start());
      assertThat(r.status).as(r.err).isZero();
      assertThat(r.out).as("%s", args).contains("-Xmn24m").contains("-XX:CompileThresholdScaling=10")
          .contains("-XX:FreqInlineSize=80").contains("-XX:InitialRAMPercentage=0.15");
    }
    for (List<String> args : List.of(List.of("--to-breakpad", "a.gsym", "--show-jvm"),
        List.of("--lookup", "0x10", "f.gsym", "--show-jvm"))) {
      Result r = Result.of(launcher(project.resolve("gsymutil"), args.toArray(String[]::new)).start());
      assertThat(r.status).as(r.err).isZero();
      assertThat(r.out).as("%s", args).doesNotContain("-Xmn24m").doesNotContain("CompileThresholdScaling");
    }
  }

  /** The fake build's jar, lib/ and two "AOT caches" (files the JVM ignores) with their records, older than now. */
  private Path builtWithCaches(Instant time) throws Exception {
    assertThat(Result.of(launcher(project.resolve("gsymutil"), "build").start()).status).isZero();
    Path target = project.resolve("gsym-cli/target");
    Files.createDirectories(target.resolve("lib"));
    Files.writeString(target.resolve("lib/dep-1.0.jar"), "a library jar\n");
    Files.writeString(target.resolve("lib/Other.jar"), "another\n");
    List<Path> caches = List.of(target.resolve("gsymutil.aot"), target.resolve("gsymutil-serve.aot"));
    for (Path c : caches) Files.writeString(c, "not a cache: the JVM ignores it\n");
    assertThat(AotJars.write(target, caches)).isZero();
    for (Path p : List.of(target.resolve("gsymutil.jar"), target.resolve("lib/dep-1.0.jar"), target.resolve("lib/Other.jar"))) {
      Files.setLastModifiedTime(p, FileTime.from(time));
    }
    for (Path c : caches) Files.setLastModifiedTime(c, FileTime.from(time.plusSeconds(10)));
    return target;
  }

  /**
   * A build with unchanged sources that packages gsym-cli without the AOT caches (bench/spark-local.sh's)
   * rewrites gsymutil.jar with the same bytes and a new time: the launcher keeps using the caches,
   * without a build, and touches them so that the next run finds them newer than the jars again.
   */
  @Test
  void aJarRewrittenWithTheSameBytesKeepsItsAotCaches() throws Exception {
    Instant built = Instant.now().minusSeconds(100);
    Path target = builtWithCaches(built);
    Path jar = target.resolve("gsymutil.jar");
    Files.write(jar, Files.readAllBytes(jar)); // the Spark build's jar: same bytes, written now
    Files.setLastModifiedTime(target.resolve("lib/Other.jar"), FileTime.from(built.plusSeconds(50)));

    Result lookup = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm").start());
    assertThat(lookup.status).as(lookup.err).isZero();
    assertThat(lookup.err).isEmpty();
    assertThat(lookup.out).contains("-XX:AOTCache=" + target.resolve("gsymutil.aot"));
    assertThat(Files.getLastModifiedTime(target.resolve("gsymutil.aot"))).isGreaterThan(Files.getLastModifiedTime(jar));
    Result serve = Result.of(launcher(project.resolve("gsymutil"), "serve", "--show-jvm").start());
    assertThat(serve.out).contains("-XX:AOTCache=" + target.resolve("gsymutil-serve.aot") + ",");
    assertThat(Files.readAllLines(calls)).hasSize(1);
  }

  /** Jars whose bytes are not those the caches were made from: a build remakes the caches. */
  @Test
  void outdatedAotCachesAreRefreshedByABuild() throws Exception {
    Path target = builtWithCaches(Instant.now().minusSeconds(100));
    writeMvnw("""
        echo "$*" >> %s
        cp %s gsym-cli/target/gsymutil.jar
        for c in gsymutil.aot gsymutil-serve.aot; do
          echo remade > gsym-cli/target/$c
          (cd gsym-cli/target && LC_ALL=C && cksum gsymutil.jar lib/*.jar) > gsym-cli/target/$c.jars
        done
        """.formatted(calls, tmp.resolve("hello.jar")));
    Files.writeString(target.resolve("lib/dep-1.0.jar"), "a library jar, changed\n");

    Result r = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm").start());
    assertThat(r.status).as(r.err).isZero();
    assertThat(r.err.lines().toList()).singleElement().asString()
        .startsWith("gsymutil: building gsym-java (the jars changed since its AOT caches were made; log: ");
    assertThat(r.out).contains("-XX:AOTCache=" + target.resolve("gsymutil.aot"));
    assertThat(Files.readString(target.resolve("gsymutil.aot"))).isEqualTo("remade\n");
    assertThat(Files.readAllLines(calls)).hasSize(2);
    Result again = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm").start());
    assertThat(again.err).isEmpty();
    assertThat(again.out).contains("-XX:AOTCache=" + target.resolve("gsymutil.aot"));
    assertThat(Files.readAllLines(calls)).hasSize(2);
  }

  /**
   * A build that does not remake the caches (-Dgsym.aot.skip in the Maven configuration) leaves
   * caches that can never match: they are removed rather than rebuilt for at every run. With
   * GSYMUTIL_NO_AOT an outdated cache builds nothing.
   */
  @Test
  void outdatedAotCachesTheBuildDoesNotRemakeAreRemoved() throws Exception {
    Path target = builtWithCaches(Instant.now().minusSeconds(100));
    Files.writeString(target.resolve("lib/dep-1.0.jar"), "a library jar, changed\n");
    ProcessBuilder noAot = launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm");
    noAot.environment().put("GSYMUTIL_NO_AOT", "1");
    Result without = Result.of(noAot.start());
    assertThat(without.err).isEmpty();
    assertThat(without.out).doesNotContain("AOTCache");
    assertThat(Files.readAllLines(calls)).hasSize(1);

    Result r = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym", "--show-jvm").start());
    assertThat(r.status).as(r.err).isZero();
    assertThat(r.err).contains("gsymutil: building gsym-java (the jars changed");
    assertThat(r.out).doesNotContain("AOTCache");
    assertThat(target.resolve("gsymutil.aot")).doesNotExist();
    assertThat(target.resolve("gsymutil-serve.aot.jars")).doesNotExist();
    Result again = Result.of(launcher(project.resolve("gsymutil"), "--lookup", "0x10", "f.gsym").start());
    assertThat(again.err).isEmpty();
    assertThat(Files.readAllLines(calls)).hasSize(2);
  }

  private ProcessBuilder launcher(Path script, String... args) {
    List<String> cmd = new ArrayList<>(List.of("/bin/bash", script.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    return pb;
  }

  private void writeMvnw(String body) throws IOException {
    Path mvnw = project.resolve("mvnw");
    Files.writeString(mvnw, "#!/bin/bash\nset -e\n" + body);
    Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** A jar whose main class prints "hello" and its arguments. */
  private void buildHelloJar(Path jar) throws IOException {
    Path src = Files.createDirectories(tmp.resolve("hello-src")).resolve("Hello.java");
    Files.writeString(src, """
        public class Hello {
          public static void main(String[] args) {
            System.out.println("hello " + String.join(" ", args));
            if (args.length > 0 && args[args.length - 1].equals("--show-jvm")) {
              System.out.println(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
            }
          }
        }
        """);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Tools.check(javac != null, "the JDK's Java compiler");
    assertThat(javac.run(null, null, null, "-d", src.getParent().toString(), src.toString())).isZero();
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Hello");
    try (OutputStream os = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(os, mf)) {
      jos.putNextEntry(new JarEntry("Hello.class"));
      jos.write(Files.readAllBytes(src.resolveSibling("Hello.class")));
      jos.closeEntry();
    }
  }

  private record Result(int status, String out, String err) {
    static Result of(Process p) throws Exception {
      p.getOutputStream().close();
      var out = p.getInputStream().readAllBytes();
      var err = p.getErrorStream().readAllBytes();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8),
          new String(err, StandardCharsets.UTF_8));
    }
  }
}
