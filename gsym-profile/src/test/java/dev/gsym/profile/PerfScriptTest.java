package dev.gsym.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.perftools.profiles.ProfileProto.Location;
import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.Tools;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf script output (a real recording of profdemo, src-test-data/profile/regenerate-perf.sh)
 * symbolized by build-id: each frame's function is the one perf itself names from the module's
 * symbol table; and live, a recording made now.
 */
class PerfScriptTest {
  @TempDir Path tmp;

  private static final Pattern SYM_FRAME = Pattern.compile("^\\s+([0-9a-f]+) (\\S+) \\((.*)\\)$");

  private ProfileSymbolizer.Result symbolize(Path perfText, Path buildIds) throws Exception {
    Map<String, String> ids;
    try (BufferedReader r = Files.newBufferedReader(buildIds, ByteStrings.CHARSET)) {
      ids = PerfScript.readBuildIds(r, buildIds.toString());
    }
    PprofProfile p;
    try (BufferedReader r = Files.newBufferedReader(perfText, ByteStrings.CHARSET)) {
      p = PerfScript.read(r, perfText.toString(), ids);
    }
    Path dbg = ProfileData.debugDirectory(tmp);
    try (Symbolizer s = ProfileData.symbolizer(dbg)) {
      return ProfileSymbolizer.builder(s).demangle(false).debugDirectories(List.of(dbg)).build().symbolize(p);
    }
  }

  @Test
  void framesAreThePerfSymbols() throws Exception {
    Path dir = ProfileData.file("perf");
    ProfileSymbolizer.Result r = symbolize(dir.resolve("profdemo.perf.txt"), dir.resolve("profdemo.buildids.txt"));
    PprofProfile out = r.profile();
    Map<Long, Location> locations = new HashMap<>();
    for (Location l : out.locations()) locations.put(l.getId(), l);
    // perf's own names, sample by sample, frame by frame
    List<List<String[]>> perf = new ArrayList<>();
    List<String[]> block = null;
    for (String line : Files.readAllLines(dir.resolve("profdemo.perf-sym.txt"), ByteStrings.CHARSET)) {
      Matcher m = SYM_FRAME.matcher(line);
      if (m.matches()) {
        if (block == null) perf.add(block = new ArrayList<>());
        block.add(new String[] {m.group(2), m.group(3)});
      } else {
        block = null;
      }
    }
    List<long[]> samples = new ArrayList<>();
    out.forEachSample((ids, values, labels) -> samples.add(ids.clone()));
    assertEquals(perf.size(), samples.size());
    int compared = 0;
    for (int i = 0; i < samples.size(); i++) {
      long[] ids = samples.get(i);
      assertEquals(perf.get(i).size(), ids.length, "sample " + i);
      for (int k = 0; k < ids.length; k++) {
        String[] f = perf.get(i).get(k);
        if (!f[1].endsWith("/profdemo") && !f[1].endsWith("/libprofdemo.so")) continue;
        List<String[]> lines = ProfileData.lines(out, locations.get(ids[k]));
        assertTrue(!lines.isEmpty(), "sample " + i + " frame " + k + " " + f[0]);
        assertEquals(f[0], lines.getLast()[1], "sample " + i + " frame " + k);
        compared++;
      }
    }
    assertTrue(compared > 500, compared + " frames compared");
    assertTrue(r.summary().symbolized() > 0);
  }

  @Test
  void malformedPerfScript() {
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> PerfScript.read(new BufferedReader(
        new StringReader("prog 1/1 10: 1 cpu-clock:\n\t  zz12 (x)\n")), "bad.txt", Map.of()));
    assertTrue(e.getMessage().contains("bad.txt") && e.getMessage().contains("line 2"), e.getMessage());
    GsymFormatException orphan = assertThrows(GsymFormatException.class, () -> PerfScript.read(new BufferedReader(
        new StringReader("\t  1234 (x)\n")), "orphan.txt", Map.of()));
    assertTrue(orphan.getMessage().contains("line 1"), orphan.getMessage());
  }

  @Test
  void liveRecording() throws Exception {
    Path perf = Tools.require("perf");
    Path run = tmp.resolve("run");
    Files.createDirectories(run);
    for (String m : List.of("profdemo", "libprofdemo.so")) {
      Path copy = run.resolve(m);
      Files.copy(ProfileData.file("bin/" + m), copy);
      copy.toFile().setExecutable(true);
    }
    ProfileData.run(run, Map.of(), perf.toString(), "record", "-q", "-g", "-e", "cpu-clock", "-F", "999", "-o",
        "perf.data", "./profdemo", "4");
    Files.writeString(run.resolve("perf.txt"), ProfileData.run(run, Map.of(), perf.toString(), "script", "-i",
        "perf.data", "-F", "comm,pid,tid,period,ip,dso", "--show-mmap-events"));
    Files.writeString(run.resolve("buildids.txt"), ProfileData.run(run, Map.of(), perf.toString(), "buildid-list", "-i",
        "perf.data"));
    ProfileSymbolizer.Result r = symbolize(run.resolve("perf.txt"), run.resolve("buildids.txt"));
    // the hot functions of profdemo, by their raw names; the samples in its modules all symbolized
    Stacks stacks = Stacks.of(r.profile(), 0);
    long ours = 0;
    long named = 0;
    java.util.Set<String> leaves = new java.util.HashSet<>();
    for (Stacks.Stack s : stacks.stacks()) {
      Stacks.StackFrame leaf = s.frames().getLast();
      if (leaf.module().equals("profdemo") || leaf.module().equals("libprofdemo.so")) {
        ours += s.value();
        if (leaf.symbolized()) named += s.value();
      }
      leaves.add(leaf.name());
    }
    assertTrue(ours > 50, ours + " samples in profdemo's modules");
    assertEquals(ours, named, "every sample in profdemo's modules is symbolized");
    assertTrue(leaves.contains("_ZN8profdemo8checksumEPKhm"), leaves.toString());
    assertTrue(leaves.stream().anyMatch(n -> n.contains("multiply")), leaves.toString());
  }
}
