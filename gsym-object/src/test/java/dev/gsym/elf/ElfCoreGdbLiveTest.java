package dev.gsym.elf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.Tools;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ElfCore} against gdb run now on the corpus's cores (ElfCoreCorpusTest compares with
 * gdb's answers recorded when the cores were made): threads, registers, signal, process, mapped
 * files, auxiliary vector, memory at each stack pointer, and the frame-pointer walks of
 * CoreUnwindTest against gdb's backtraces. gdb unwinds through the libc and the dynamic loader
 * installed here, which must be the ones the core was made with: the test checks each system
 * library's build-id in the core against the installed file's first and is skipped when one
 * differs (also in CI: a machine condition; the committed answers still check the reader in
 * ElfCoreCorpusTest). Skipped without gdb (a failure under -Dgsym.requireTools=true).
 */
@StartsProcesses
class ElfCoreGdbLiveTest {
  static Stream<String> cores() {
    // one core of each program and architecture, and gdb's own core
    return CrashCorpus.names().stream().filter(n -> n.endsWith("-fp") || n.endsWith(".gdb"));
  }

  @ParameterizedTest
  @MethodSource("cores")
  void readerAgreesWithGdbNow(String name, @TempDir Path tmp) throws Exception {
    boolean aarch64 = CrashCorpus.arch(name).equals("aarch64");
    Path gdb = onPath(aarch64 ? "gdb-multiarch" : "gdb");
    Tools.require(gdb, aarch64 ? "gdb-multiarch (gdb for other architectures)" : "gdb");
    Path corePath = CrashCorpus.core(name);
    try (ElfCore core = ElfCore.open(corePath)) {
      for (ElfCore.CoreModule m : core.modules()) {
        if (m.path().startsWith("/tmp/gsym-crash/") || m.path().equals("[vdso]")) continue;
        Path installed = Path.of(m.path());
        String have = Files.isRegularFile(installed) ? hex(installedBuildId(installed)) : "no such file";
        // a machine condition, not a missing tool: a skip even in CI (a Debian point release
        // changes libc; the committed gdb answers, ElfCoreCorpusTest, still check the reader)
        org.junit.jupiter.api.Assumptions.assumeTrue(have.equals(m.buildIdHex()), "the system library the core " + name
            + " was made with (" + m.path() + ", build-id " + m.buildIdHex() + "; installed: " + have
            + "), which gdb needs to unwind through it, is not installed: skipped");
      }
      GdbAnswers answers = runGdb(gdb, name, corePath, tmp);
      ElfCoreCorpusTest.checkThreadsAndRegisters(name, core, answers);
      ElfCoreCorpusTest.checkSignalAndProcess(name, core, answers);
      ElfCoreCorpusTest.checkMappingsAndAuxv(name, core, answers);
      ElfCoreCorpusTest.checkMemoryAtStackPointers(name, core, answers);
      var cfi = CoreUnwindTest.framePointerRule(core, "-fp");
      for (GdbAnswers.ThreadAnswer t : answers.threads()) {
        List<Long> gdbPcs = t.physicalFrames().stream().map(GdbAnswers.Frame::pc).toList();
        assertThat(CoreUnwindTest.walk(core, core.threads().get(t.number() - 1), cfi))
            .as("%s thread %d", name, t.number()).isEqualTo(CoreUnwindTest.expectedFrames(core, gdbPcs, "-fp"));
      }
    }
  }

  private static byte[] installedBuildId(Path p) throws Exception {
    try (ElfFile f = ElfFile.open(p)) {
      return f.buildId();
    }
  }

  private static String hex(byte[] b) {
    return b == null ? "none" : java.util.HexFormat.of().formatHex(b);
  }

  /** gdb's answers (src-test-data/crash/gdb-answers.gdb), run in the corpus's bin/ so it finds libcrashlib. */
  private static GdbAnswers runGdb(Path gdb, String name, Path core, Path tmp) throws Exception {
    String stack = CrashCorpus.is64(name) ? "x/8xg $sp" : "x/8xw $sp";
    Path script = tmp.resolve("answers.gdb");
    Files.writeString(script, Files.readString(CrashCorpus.dir().resolve("gdb-answers.gdb")).replace("@STACK@", stack));
    Path out = tmp.resolve("answers.txt");
    Process p = new ProcessBuilder(gdb.toString(), "-batch", "-nx", "-x", script.toString(), CrashCorpus.binary(name).toString(),
        core.toString()).directory(CrashCorpus.dir().resolve("bin").toFile()).redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("gdb did not answer within 120 s on " + name);
    }
    assertThat(p.exitValue()).as("gdb's exit status on %s", name).isZero();
    return GdbAnswers.parse(out);
  }

  private static Path onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) return p;
    }
    return null;
  }
}
