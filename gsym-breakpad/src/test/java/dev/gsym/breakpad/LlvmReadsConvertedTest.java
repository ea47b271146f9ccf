package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** llvm-gsymutil-22 answers on a GSYM converted from basic.sym as basic.expected.txt says. Skipped without the tool. */
class LlvmReadsConvertedTest {
  @TempDir
  Path dir;

  @Test
  void llvmLooksUpTheConvertedFile() throws IOException, InterruptedException {
    Path tool = Llvm.gsymutil();
    assumeTrue(tool != null, "llvm-gsymutil-22 not available");
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.convert(TestData.path("breakpad", "basic.sym"), c, false, Diagnostics.silent());
    c.finalize(Diagnostics.silent());
    Path gsym = dir.resolve("basic.gsym");
    c.save(gsym);
    String expected = Files.readString(TestData.path("breakpad", "basic.expected.txt"));
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    for (String line : expected.split("\n")) {
      if (line.startsWith("0x")) cmd.add("--address=" + line.substring(0, 18));
    }
    cmd.add("basic.gsym");
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(out).isEqualTo("Looking up addresses in \"basic.gsym\":\n" + expected);
  }
}
