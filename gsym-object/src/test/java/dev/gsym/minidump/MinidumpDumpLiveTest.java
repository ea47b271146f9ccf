package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.StartsProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live differential test against Breakpad's minidump_dump: on every corpus dump and on the hostile
 * variants of three of them ({@link HostileDumps}: each breaks one rule Breakpad checks), our
 * reader prints what minidump_dump prints ({@link MinidumpDumpText}): a stream Breakpad refuses
 * is refused here, a dump it refuses is refused here, everything it reads reads the same. Skipped
 * without minidump_dump ({@link BreakpadTools}).
 */
@StartsProcesses
class MinidumpDumpLiveTest {
  @Test
  void corpusAndHostileVariantsPrintAsMinidumpDump(@TempDir Path tmp) throws Exception {
    Path tool = BreakpadTools.minidumpDump();
    List<Path> inputs = new ArrayList<>(MinidumpDumpTest.dumps().toList());
    for (String base : List.of("dumps/x86_64-fp-thread.dmp", "dumps/i386-nofp-lib.dmp", "external/rust-minidump-test.dmp",
        "external/rust-minidump-pipeline-inlines-macos-segv.dmp", "dumps/aarch64-core2md.dmp", "dumps/arm-core2md.dmp")) {
      Path p = MinidumpDumpTest.dir().resolve(base);
      if (!Files.exists(p)) continue;
      String stem = MinidumpDumpTest.name(p);
      for (Map.Entry<String, byte[]> v : HostileDumps.of(Files.readAllBytes(p)).entrySet()) {
        if (!HostileDumps.comparableWithBreakpad(v.getKey())) continue;
        Path f = tmp.resolve(stem + "-" + v.getKey() + ".dmp");
        Files.write(f, v.getValue());
        inputs.add(f);
      }
    }
    // the current arm64 context layout (Windows, Crashpad), from the old one of the aarch64 dump
    Path arm64 = MinidumpDumpTest.dir().resolve("dumps").resolve("aarch64-core2md.dmp");
    Path converted = tmp.resolve("aarch64-core2md-new-arm64-contexts.dmp");
    Files.write(converted, HostileDumps.withNewArm64Contexts(Files.readAllBytes(arm64)));
    inputs.add(converted);
    Path patterned = tmp.resolve("aarch64-core2md-patterned-new-arm64-contexts.dmp");
    Files.write(patterned, HostileDumps.withNewArm64Contexts(HostileDumps.of(Files.readAllBytes(arm64)).get("patterned-float-state")));
    inputs.add(patterned);
    // small dumps in both byte orders: a big-endian writer's dump is read through its swapped signature
    for (boolean isArm64 : new boolean[] {false, true}) {
      for (java.nio.ByteOrder order : List.of(java.nio.ByteOrder.LITTLE_ENDIAN, java.nio.ByteOrder.BIG_ENDIAN)) {
        Path f = tmp.resolve("synthetic-" + (isArm64 ? "arm64-" : "x86-") + order + ".dmp");
        Files.write(f, SyntheticDump.of(isArm64, order));
        inputs.add(f);
      }
    }
    List<String> differ = new ArrayList<>();
    for (Path p : inputs) {
      String expected = BreakpadTools.run(tool, p);
      String actual;
      try (Minidump dump = Minidump.open(p)) {
        actual = MinidumpDumpText.of(dump);
      } catch (GsymFormatException refused) {
        actual = "";
      }
      if (!actual.equals(expected)) differ.add(p.getFileName() + ": " + firstDifference(expected, actual));
    }
    assertThat(differ).as("%d inputs", inputs.size()).isEmpty();
    assertThat(inputs.size()).isGreaterThan(100);
  }

  private static String firstDifference(String expected, String actual) {
    String[] e = expected.split("\n", -1);
    String[] a = actual.split("\n", -1);
    for (int i = 0; i < Math.max(e.length, a.length); i++) {
      String el = i < e.length ? e[i] : "<end>";
      String al = i < a.length ? a[i] : "<end>";
      if (!el.equals(al)) return "line " + (i + 1) + ": minidump_dump '" + clip(el) + "', ours '" + clip(al) + "'";
    }
    return "same lines";
  }

  private static String clip(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }
}
