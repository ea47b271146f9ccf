package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.elf.ElfCore;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.XZInputStream;

/**
 * An ELF core walked by {@link ElfCoreProcess} prints what Breakpad's minidump_stackwalk prints for
 * the minidump Breakpad's core2md makes of the core, with the same symbols (dump_syms' of the
 * core's modules): the committed goldens of src-test-data/crash/core2md (regenerate-core2md.sh),
 * text and {@code -m}, for every x86-64 and i386 core the kernel wrote (gdb's leaves out mappings
 * the /proc files core2md reads cannot do without), byte for byte after the system lines (which
 * core2md fills with the machine it runs on: a core does not say them). The walker gets exactly the
 * symbol files minidump_stackwalk got, so no symbols for the vDSO (none can be dumped from a file).
 */
class ElfCoreCore2mdTest {
  @TempDir
  static Path tmp;

  static Path symbols;

  static Path dir() {
    return TestData.repoRoot().resolve("src-test-data/crash/core2md");
  }

  static Stream<String> cores() throws IOException {
    try (Stream<Path> s = Files.list(dir())) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".stackwalk-m.txt"))
          .map(n -> n.substring(0, n.length() - ".stackwalk-m.txt".length())).sorted().toList().stream();
    }
  }

  /** The golden's symbol directory with its .sym.xz files unpacked, as minidump_stackwalk read it. */
  @BeforeAll
  static void unpackSymbols() throws IOException {
    symbols = tmp.resolve("symbols");
    Path src = dir().resolve("symbols");
    try (Stream<Path> s = Files.walk(src)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = src.relativize(p).toString();
        Path to = symbols.resolve(rel.endsWith(".xz") ? rel.substring(0, rel.length() - 3) : rel);
        Files.createDirectories(to.getParent());
        try (InputStream in = rel.endsWith(".xz") ? new XZInputStream(Files.newInputStream(p)) : Files.newInputStream(p)) {
          Files.copy(in, to);
        }
      }
    }
  }

  /** {@code text} from its line beginning with {@code from}. */
  private static String from(String text, String from) {
    int i = text.indexOf("\n" + from);
    assertThat(i).as("a line beginning with %s", from).isGreaterThanOrEqualTo(0);
    return text.substring(i + 1);
  }

  @ParameterizedTest
  @MethodSource("cores")
  void minidumpStackwalksOutputOnCore2mdsMinidump(String name) throws Exception {
    String text = TestData.text(dir().resolve(name + ".stackwalk.txt"));
    String machine = TestData.text(dir().resolve(name + ".stackwalk-m.txt"));
    try (ElfCore core = ElfCore.open(ElfCoreWalkTest.core(name));
        BreakpadSymbolDirectories syms = new BreakpadSymbolDirectories(java.util.List.of(symbols), null)) {
      ProcessState state = Stackwalker.builder().symbols(syms).build().walk(ElfCoreProcess.of(core));
      String cpu = name.contains("i386") ? "x86" : "amd64";
      String ours = StackwalkPrinter.machineReadable(state);
      assertThat(ours).startsWith("OS|Linux|\nCPU|" + cpu + "||0\n");
      assertThat(machine).startsWith("OS|Linux|");
      assertThat(from(ours, "GPU|")).isEqualTo(from(machine, "GPU|"));
      StringBuilder sb = new StringBuilder();
      StackwalkPrinter.text(state, false, false, sb);
      assertThat(sb.toString()).startsWith("Operating system: Linux\n                  \nCPU: " + cpu + "\n     0 CPUs\n\n");
      assertThat(from(sb.toString(), "GPU: ")).isEqualTo(from(text, "GPU: "));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
