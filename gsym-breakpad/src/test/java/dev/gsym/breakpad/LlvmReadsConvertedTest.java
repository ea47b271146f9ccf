package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.breakpad.ResolverOracle.Difference;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * llvm-gsymutil-22 reads the GSYM we convert from {@code X.sym} as our reader does, on every
 * address Breakpad's resolver answered ({@code X.resolver.txt}), and our reader's answers are the
 * resolver's (documented differences aside, {@link BreakpadResolverTest}): so llvm's are too. Also
 * in line gaps (the function, no file: an error there would mean the gap rows are in file 0), on
 * split inline nodes and PUBLIC tails. The committed fixture {@code basic.gsym} (our conversion)
 * is checked the same way, and against the resolver's answers by a test that needs no tool. The
 * comparisons with llvm are skipped without it (failed under -Dgsym.requireTools=true).
 */
@NeedsLlvm
class LlvmReadsConvertedTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"basic", "crlf", "inline-merged", "line-gaps", "public-tail", "latin1", "file-after-use",
      "inline-old-form", "inline-outside-parent", "overlapping-records", "root-paths"})
  void llvmLooksUpTheConvertedFile(String name) throws IOException, InterruptedException {
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.convert(TestData.path("breakpad", name + ".sym"), c, false, Diagnostics.silent());
    c.finish(Diagnostics.silent());
    Path gsym = dir.resolve("converted.gsym");
    c.save(gsym);
    assertLlvmAnswersAsOurReader(gsym, ResolverOracle.committed(name).keySet());
  }

  /** The fixture basic.gsym answers as Breakpad's resolver on basic.sym (documented differences counted). */
  @Test
  void committedBasicGsymAnswersAsTheResolver() throws IOException {
    try (GsymReader r = GsymReader.open(TestData.path("breakpad", "basic.gsym"))) {
      List<String> mismatches = new ArrayList<>();
      assertThat(ResolverOracle.compare(r, ResolverOracle.committed("basic"), mismatches)).isEqualTo(
          Map.of(Difference.PUBLIC_TAIL_BASE, 1, Difference.INLINE_OFFSET_FROM_FIRST_RANGE, 2));
      assertThat(ResolverOracle.report(mismatches)).isEmpty();
    }
  }

  /** llvm-gsymutil-22 reads the fixture basic.gsym as our reader does. */
  @Test
  void llvmReadsTheCommittedBasicGsym() throws IOException, InterruptedException {
    Path copy = Files.copy(TestData.path("breakpad", "basic.gsym"), dir.resolve("converted.gsym"));
    assertLlvmAnswersAsOurReader(copy, ResolverOracle.committed("basic").keySet());
  }

  private void assertLlvmAnswersAsOurReader(Path gsym, Iterable<Long> addrs) throws IOException, InterruptedException {
    Path tool = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    StringBuilder ours = new StringBuilder("Looking up addresses in \"" + gsym.getFileName() + "\":\n");
    try (GsymReader r = GsymReader.open(gsym)) {
      for (long a : addrs) {
        cmd.add(String.format("--address=0x%016x", a));
        ours.append(Conv.lookup(r, a));
      }
    }
    cmd.add(gsym.getFileName().toString());
    Process p = new ProcessBuilder(cmd).directory(gsym.getParent().toFile()).redirectErrorStream(true).start();
    String out = ByteStrings.decode(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).isZero();
    assertThat(out).isEqualTo(ours.toString());
  }
}
