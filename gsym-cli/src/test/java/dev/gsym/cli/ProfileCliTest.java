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

  /**
   * libc.so.6 mapped as a process maps it, symbolized through its debug file (libc6-dbg) by
   * build-id: the outermost frame of every location is named as llvm-symbolizer-22 names it, from
   * the symbol table ({@code abort} where DWARF says {@code __GI_abort}; the {@code .cold} parts).
   */
  @Test
  void outermostFramesAreNamedAsLlvmNamesThem() throws Exception {
    Path llvm = Tools.require(dev.gsym.testing.Llvm.symbolizer(), "llvm-symbolizer-22");
    Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
    Tools.check(Files.isRegularFile(libc), "/lib/x86_64-linux-gnu/libc.so.6");
    String id;
    ElfFile.ProgramHeader exec = null;
    long textStart;
    long textSize;
    try (ElfFile elf = ElfFile.open(libc)) {
      id = HexFormat.of().formatHex(elf.buildId());
      for (ElfFile.ProgramHeader ph : elf.programHeaders()) {
        if (ph.type() == ElfFile.PT_LOAD && (ph.flags() & ElfFile.PF_X) != 0) exec = ph;
      }
      textStart = elf.section(".text").addr();
      textSize = elf.section(".text").size();
    }
    Tools.check(Files.isRegularFile(TestData.buildIdPath(Path.of("/usr/lib/debug"), id)), "libc's debug file (libc6-dbg)");
    long bias = 0x7f0000000000L;
    // the profile, encoded by hand (profile.proto's field numbers): gsym-profile keeps its protobuf
    // classes to itself
    var profile = new java.io.ByteArrayOutputStream();
    message(profile, 1, field(1, 1), field(2, 2)); // sample type samples/count
    message(profile, 3, field(1, 1), field(2, bias + (exec.vaddr() & ~0xfffL)),
        field(3, bias + ((exec.vaddr() + exec.memsz() + 0xfff) & ~0xfffL)), field(4, exec.offset() & ~0xfffL),
        field(5, 3), field(6, 4));
    java.util.Random random = new java.util.Random(37);
    List<Long> addresses = new ArrayList<>();
    int n = 300;
    for (int i = 0; i < n; i++) {
      long a = textStart + (long) (random.nextDouble() * textSize);
      addresses.add(a);
      message(profile, 4, field(1, i + 1), field(2, 1), field(3, bias + a));
      message(profile, 2, field(1, i + 1), field(2, 1));
    }
    for (String str : List.of("", "samples", "count", libc.toString(), id)) {
      profile.write(field(6, -1)[0]);
      byte[] b = str.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      profile.write(varint(b.length));
      profile.write(b);
    }
    Path in = Files.write(tmp.resolve("libc.pb"), profile.toByteArray());
    Path out = tmp.resolve("out.pb.gz");
    CliRun r = CliRun.run("symbolize", "--pprof", in.toString(), "--debug-file-directory=/usr/lib/debug",
        "--store=" + tmp.resolve("store"), "-o", out.toString());
    assertEquals(0, r.status(), r.err());
    // our outermost frame of each address, as Go's pprof reads it (the last line of a location)
    java.util.Map<Long, String> ours = new java.util.HashMap<>();
    var loc = java.util.regex.Pattern.compile("^\\s*\\d+: 0x([0-9a-f]+) M=\\d+ (.*) \\S*:\\d+ s=\\d+(\\(.*\\))?$");
    var more = java.util.regex.Pattern.compile("^\\s+(\\S.*) \\S*:\\d+ s=\\d+(\\(.*\\))?$");
    long current = -1;
    boolean inLocations = false;
    for (String line : run(Tools.require("go").toString(), "tool", "pprof", "-symbolize=none", "-raw", out.toString())
        .lines().toList()) {
      if (line.equals("Locations")) inLocations = true;
      if (line.startsWith("Mappings")) inLocations = false;
      if (!inLocations) continue;
      java.util.regex.Matcher m = loc.matcher(line);
      if (m.matches()) {
        current = Long.parseLong(m.group(1), 16) - bias;
        ours.put(current, m.group(2));
      } else if ((m = more.matcher(line)).matches() && current >= 0) {
        ours.put(current, m.group(1));
      }
    }
    StringBuilder text = new StringBuilder();
    for (long a : addresses) text.append("0x").append(Long.toHexString(a)).append('\n');
    Path input = Files.writeString(tmp.resolve("in.txt"), text);
    Process llvmRun = new ProcessBuilder(llvm.toString(), "--output-style=JSON", "--no-debuginfod", "--obj=" + libc)
        .redirectInput(input.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    List<String> theirs = new String(llvmRun.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
        .lines().toList();
    assertEquals(0, llvmRun.waitFor());
    assertEquals(n, theirs.size());
    var name = java.util.regex.Pattern.compile("\"FunctionName\":\"((?:[^\"\\\\]|\\\\.)*)\"");
    int named = 0;
    for (int i = 0; i < n; i++) {
      java.util.regex.Matcher m = name.matcher(theirs.get(i));
      String their = null;
      while (m.find()) their = m.group(1);
      if (their == null || their.isEmpty()) continue;
      assertEquals(their, ours.get(addresses.get(i)), "outermost frame at 0x" + Long.toHexString(addresses.get(i)));
      named++;
    }
    assertTrue(named > 250, named + " named");
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

  private static byte[] varint(long v) {
    var o = new java.io.ByteArrayOutputStream();
    while ((v & ~0x7fL) != 0) {
      o.write((int) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    o.write((int) v);
    return o.toByteArray();
  }

  /** A varint field (wire type 0); {@code field(n, -1)[0]} is the tag byte of a length-delimited field n < 16. */
  private static byte[] field(int number, long value) {
    if (value == -1) return new byte[] {(byte) (number << 3 | 2)};
    byte[] tag = varint(number << 3);
    byte[] v = varint(value);
    byte[] out = java.util.Arrays.copyOf(tag, tag.length + v.length);
    System.arraycopy(v, 0, out, tag.length, v.length);
    return out;
  }

  /** Message field {@code number} made of {@code fields}. */
  private static void message(java.io.ByteArrayOutputStream out, int number, byte[]... fields) throws IOException {
    var body = new java.io.ByteArrayOutputStream();
    for (byte[] f : fields) body.write(f);
    out.write(varint(number << 3 | 2));
    out.write(varint(body.size()));
    body.writeTo(out);
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
