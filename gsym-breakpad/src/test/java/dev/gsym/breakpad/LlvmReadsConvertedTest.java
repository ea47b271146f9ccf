package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.ByteStrings;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * llvm-gsymutil-22 answers on a GSYM converted from {@code X.sym} as {@code X.expected.txt} says
 * (what our reader answers, see BreakpadTransformerTest): also in line gaps (the function, no file:
 * an error there would mean the gap rows are in file 0), on split inline nodes and PUBLIC tails.
 * Skipped without the tool.
 */
class LlvmReadsConvertedTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"basic", "crlf", "inline-merged", "line-gaps", "public-tail", "latin1"})
  void llvmLooksUpTheConvertedFile(String name) throws IOException, InterruptedException {
    Path tool = Llvm.gsymutil();
    assumeTrue(tool != null, "llvm-gsymutil-22 not available");
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.convert(TestData.path("breakpad", name + ".sym"), c, false, Diagnostics.silent());
    c.finish(Diagnostics.silent());
    Path gsym = dir.resolve("basic.gsym");
    c.save(gsym);
    String expected = TestData.text(TestData.path("breakpad", name + ".expected.txt")); // exact bytes
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    for (String line : expected.split("\n")) {
      if (line.startsWith("0x")) cmd.add("--address=" + line.substring(0, 18));
    }
    cmd.add("basic.gsym");
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = ByteStrings.decode(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).isZero();
    assertThat(out).isEqualTo("Looking up addresses in \"basic.gsym\":\n" + expected);
  }
}
