package dev.gsym.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.elf.ElfFile;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gsymutil symbolize --pprof}: Go's own pprof reads what we write and shows our frames; a bad
 * profile is one error and no output file; collapsed stacks.
 */
class ProfileCliTest {
  @TempDir Path tmp;

  private Path debugDirectory() throws IOException {
    Path dbg = tmp.resolve("dbg");
    for (String m : List.of("profdemo", "libprofdemo.so")) {
      Path bin = TestData.path("profile", "bin", m);
      try (ElfFile f = ElfFile.open(bin)) {
        TestData.addToDebugDirectory(dbg, HexFormat.of().formatHex(f.buildId()), bin);
      }
    }
    return dbg;
  }

  private Path synthetic() {
    return TestData.path("profile", "synthetic.pb.gz");
  }

  @Test
  void goPprofReadsOurProfile() throws Exception {
    Path go = Tools.require("go");
    Path out = tmp.resolve("out.pb.gz");
    CliRun r = CliRun.run("symbolize", "--pprof", synthetic().toString(), "--debug-file-directory=" + debugDirectory(), "-o",
        out.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.err().contains("80 locations: 71 symbolized, 2 already symbolized, 2 without a module, 2 in modules not"
        + " found, 3 at unknown addresses"), r.err());
    // -raw: every location with its lines; our frames (demangled, with the raw name) are there
    String raw = run(go.toString(), "tool", "pprof", "-symbolize=none", "-raw", out.toString());
    assertTrue(raw.contains("profdemo::hash_block(unsigned long const*, unsigned long) "
        + "/gsym-test/profile/profdemo_lib.cpp:26 s=0(_ZN8profdemo10hash_blockEPKmm)"), raw);
    assertTrue(raw.contains("Comment: made by src-test-data/profile/make-spec.py"), raw);
    // inline frames: a location with several lines, innermost first, as pprof prints them
    assertTrue(raw.contains("Mixer<unsigned long>::step(unsigned long)"), raw);
    // -top and -traces read the samples over our functions
    String top = run(go.toString(), "tool", "pprof", "-symbolize=none", "-top", "-sample_index=samples", out.toString());
    assertTrue(top.contains("profdemo::checksum"), top);
    String traces = run(go.toString(), "tool", "pprof", "-symbolize=none", "-traces", out.toString());
    assertTrue(traces.contains("profdemo_work"), traces);
    assertTrue(traces.contains("thread:  worker"), traces);
  }

  @Test
  void collapsedStacks() throws Exception {
    CliRun r = CliRun.run("symbolize", "--pprof", synthetic().toString(), "--debug-file-directory=" + debugDirectory(),
        "--collapsed", "--sample-index=0", "-o", "-");
    assertEquals(0, r.status(), r.err());
    long total = 0;
    for (String line : r.out().split("\n")) {
      int sp = line.lastIndexOf(' ');
      assertTrue(sp > 0, line);
      total += Long.parseLong(line.substring(sp + 1));
      assertFalse(line.substring(0, sp).contains(" ;") || line.startsWith(";"), line);
    }
    // every sample's first value: 1 + i % 4 for the 80 samples of make-spec.py
    long expected = 0;
    for (int i = 0; i < 80; i++) expected += 1 + i % 4;
    assertEquals(expected, total);
    // a caller, then the inlined frames of a leaf: root first
    assertTrue(r.out().contains("profdemo::Mixer<unsigned long>::step(unsigned long)"), r.out());
    assertTrue(r.out().contains("libgone.so.1+0x1200"), r.out());
  }

  @Test
  void badProfilesAreOneErrorAndNoOutput() throws Exception {
    byte[] good = Files.readAllBytes(synthetic());
    Path truncated = tmp.resolve("truncated.pb.gz");
    Files.write(truncated, java.util.Arrays.copyOf(good, good.length / 2));
    Path garbage = tmp.resolve("garbage.pb");
    Files.write(garbage, new byte[] {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 1, 2, 3});
    Path cut = tmp.resolve("cut.pb.gz"); // gzip intact, protobuf cut short
    byte[] plain = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(good)).readAllBytes();
    try (GZIPOutputStream z = new GZIPOutputStream(Files.newOutputStream(cut))) {
      z.write(plain, 0, plain.length - 3);
    }
    for (Path bad : List.of(truncated, garbage, cut, tmp.resolve("missing.pb.gz"))) {
      Path out = tmp.resolve("out-" + bad.getFileName());
      CliRun r = CliRun.run("symbolize", "--pprof", bad.toString(), "-o", out.toString());
      assertEquals(1, r.status(), bad + ": " + r.err());
      List<String> lines = new ArrayList<>(List.of(r.err().split("\n")));
      assertEquals(1, lines.size(), r.err());
      assertTrue(lines.getFirst().startsWith("error: ") && lines.getFirst().contains(bad.toString()), r.err());
      assertFalse(Files.exists(out), "no output for " + bad);
    }
  }

  @Test
  void perfScriptToPprofAndFlameGraphs() throws Exception {
    Path perf = TestData.path("profile", "perf", "profdemo.perf.txt");
    Path ids = TestData.path("profile", "perf", "profdemo.buildids.txt");
    String dbg = "--debug-file-directory=" + debugDirectory();
    Path pprof = tmp.resolve("perf.pb.gz");
    CliRun r = CliRun.run("symbolize", "--perf-script", perf.toString(), "--perf-buildids", ids.toString(), dbg, "-o",
        pprof.toString());
    assertEquals(0, r.status(), r.err());
    byte[] gz = Files.readAllBytes(pprof);
    assertTrue((gz[0] & 0xff) == 0x1f && (gz[1] & 0xff) == 0x8b, "a gzipped profile");
    // the same recording as a flame graph: from perf script text, from the profile, from collapsed stacks
    Path fromPerf = tmp.resolve("perf.html");
    r = CliRun.run("flamegraph", perf.toString(), "--perf-buildids", ids.toString(), dbg, "-o", fromPerf.toString());
    assertEquals(0, r.status(), r.err());
    Path fromPprof = tmp.resolve("pprof.svg");
    r = CliRun.run("flamegraph", pprof.toString(), "--svg", dbg, "-o", fromPprof.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(Files.readString(fromPprof).contains("profdemo::checksum(unsigned char const*, unsigned long)"));
    Path folded = tmp.resolve("perf.folded");
    r = CliRun.run("symbolize", "--pprof", pprof.toString(), "--collapsed", "--sample-index=0", dbg, "-o", folded.toString());
    assertEquals(0, r.status(), r.err());
    Path fromFolded = tmp.resolve("folded.html");
    r = CliRun.run("flamegraph", folded.toString(), "-o", fromFolded.toString());
    assertEquals(0, r.status(), r.err());
    String html = Files.readString(fromFolded);
    assertTrue(html.contains("\"profdemo::Mixer\\u003cunsigned long\\u003e::step(unsigned long)\""), "frames in the page");
    assertTrue(Files.readString(fromPerf).contains("profdemo::Mixer\\u003cunsigned long\\u003e::step(unsigned long)"));
    // no output without -o, or with a bad input
    r = CliRun.run("flamegraph", folded.toString());
    assertEquals(1, r.status());
    assertEquals("error: flamegraph needs -o FILE (- for stdout)\n", r.err());
    Path bad = tmp.resolve("bad.folded");
    Files.writeString(bad, "a;b 1\nnot a stack\n");
    Path out = tmp.resolve("bad.html");
    r = CliRun.run("flamegraph", bad.toString(), "-o", out.toString());
    assertEquals(1, r.status());
    assertTrue(r.err().startsWith("error: " + bad + ": line 2: expected 'frame;frame;... COUNT'"), r.err());
    assertFalse(Files.exists(out));
  }

  private static String run(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", cmd));
    }
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    return out;
  }
}
