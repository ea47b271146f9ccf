package dev.gsym.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streamed synthetic GSYM is a valid file and its oracle is right. */
@NeedsLlvm
class SyntheticGsymTest {
  @TempDir Path dir;

  @Test
  void everyAddressAnswersAsTheOracleSays() throws Exception {
    SyntheticGsym model = new SyntheticGsym(300);
    Path file = dir.resolve("s.gsym");
    long size = model.write(file);
    assertThat(Files.size(file)).isEqualTo(size);
    long found = 0;
    try (GsymReader r = GsymReader.open(file)) {
      assertThat(r.numFunctions()).isEqualTo(300);
      for (long a = SyntheticGsym.BASE_ADDRESS - 4; a < SyntheticGsym.start(301); a++) {
        LookupResult want = model.expected(a);
        LookupResult got;
        try {
          got = r.lookup(a);
          found++;
        } catch (LookupException e) {
          got = null;
        }
        assertThat(got).as("address 0x%x", a).isEqualTo(want);
      }
    }
    assertThat(found).isGreaterThan(300L * 256);
    // all three kinds of function and both inlined calls occur
    try (GsymReader r = GsymReader.open(file)) {
      assertThat(r.lookup(SyntheticGsym.start(0) + 0x58).locations()).hasSize(2);
      assertThat(r.lookup(SyntheticGsym.start(0) + 0x48).locations()).hasSize(3);
    }
  }

  @Test
  void llvmGsymutilReadsTheFileAndAgreesWithTheOracle() throws Exception {
    Path llvm = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    SyntheticGsym model = new SyntheticGsym(5000);
    Path file = dir.resolve("l.gsym");
    model.write(file);
    List<String> cmd = new ArrayList<>(List.of(llvm.toString()));
    StringBuilder want = new StringBuilder("Looking up addresses in \"" + file + "\":\n");
    SplittableRandom rnd = new SplittableRandom(3);
    for (int k = 0; k < 400; k++) {
      long a = SyntheticGsym.BASE_ADDRESS + rnd.nextLong(5001L * SyntheticGsym.SLOT);
      cmd.add("--address=0x" + Long.toHexString(a));
      LookupResult e = model.expected(a);
      if (e != null) e.appendTo(want);
      else want.append(String.format("0x%016x: error: address 0x%x is not in GSYM%n", a, a));
    }
    cmd.add(file.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String got = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(got).isEqualTo(want.toString());
  }

  @Test
  void theCheckReportsWrongAnswers() throws Exception {
    SyntheticGsym model = new SyntheticGsym(4);
    Path file = dir.resolve("c.gsym");
    model.write(file);
    try (GsymReader r = GsymReader.open(file)) {
      assertThat(model.check(r, 2000, 1).mismatches()).isZero();
    }
    // function 0 has a line table: bump its FirstLine (u32 size, u32 name, u32 type, u32 length,
    // SLEB MinDelta, SLEB MaxDelta, ULEB FirstLine), so every line it reports is off by one
    long at;
    try (GsymReader r = GsymReader.open(file)) {
      at = r.functionInfoOffset(0) + 18;
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      assertThat(b).isLessThan(0x7f);
      f.seek(at);
      f.write(b + 1);
    }
    try (GsymReader r = GsymReader.open(file)) {
      SyntheticGsym.CheckResult res = model.check(r, 2000, 1);
      assertThat(res.mismatches()).isPositive();
      assertThat(res.firstMismatches().getFirst()).contains("gen_function_0");
    }
  }
}
