package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CfiLlvmGoldenTest} against the installed llvm-dwarfdump-22 instead of its recorded output:
 * the same inputs, run live (a visible skip without the tool).
 */
@NeedsLlvm
class CfiLlvmLiveTest {
  static List<CfiCorpus> corpus() {
    return CfiCorpus.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void rowsEqualLiveLlvmDwarfdump(CfiCorpus in) throws IOException, InterruptedException {
    Path tool = Tools.require(Llvm.tool("llvm-dwarfdump-22"), "llvm-dwarfdump-22");
    Path errFile = Files.createTempFile("dwarfdump", ".err");
    try {
      Process p = new ProcessBuilder(tool.toString(), "--eh-frame", "--debug-frame", in.input().getFileName().toString())
          .directory(in.input().getParent().toFile()).redirectError(errFile.toFile()).start();
      String out;
      try (var stdout = p.getInputStream()) {
        out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
      }
      p.waitFor(60, TimeUnit.SECONDS);
      String err = Files.readString(errFile);
      assertEquals(0, p.exitValue(), in + ": llvm-dwarfdump-22 failed: " + err);
      CfiLlvmComparison.check(in, out, CfiLlvmComparison.rowErrors(err));
    } finally {
      Files.deleteIfExists(errFile);
    }
  }
}
