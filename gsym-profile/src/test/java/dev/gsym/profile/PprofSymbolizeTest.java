package dev.gsym.profile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import dev.gsym.symbolize.Symbolizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * synthetic.pb.gz (written by Go's pprof package over the test modules, src-test-data/profile) is
 * symbolized with llvm-symbolizer-22's frames at the module addresses pprof's mapping rules give,
 * and everything else stays as it was.
 */
class PprofSymbolizeTest {
  @TempDir Path tmp;

  private ProfileSymbolizer.Result symbolize(PprofProfile in, boolean demangle) throws Exception {
    Path dbg = ProfileData.debugDirectory(tmp);
    try (Symbolizer s = ProfileData.symbolizer(dbg)) {
      return ProfileSymbolizer.builder(s).demangle(demangle).debugDirectories(List.of(dbg)).build().symbolize(in);
    }
  }

  private static PprofProfile synthetic() throws Exception {
    return PprofProfile.read(Files.readAllBytes(ProfileData.file("synthetic.pb.gz")), "synthetic.pb.gz");
  }

  @Test
  void framesAreLlvmSymbolizers() throws Exception {
    PprofProfile in = synthetic();
    ProfileSymbolizer.Result r = symbolize(in, true);
    // the output is a profile again: read it back from its bytes
    PprofProfile out = PprofProfile.read(r.profile().toByteArray(true), "out");
    Map<Long, Location> byId = new HashMap<>();
    for (Location l : out.locations()) byId.put(l.getId(), l);
    List<String> addresses = Files.readAllLines(ProfileData.file("synthetic.addresses.txt"));
    var demangled = ProfileData.llvmBlocks(ProfileData.file("expected/synthetic.llvm-symbolizer.txt"));
    var raw = ProfileData.llvmBlocks(ProfileData.file("expected/synthetic.llvm-symbolizer.raw.txt"));
    assertEquals(addresses.size(), demangled.size());
    int symbolized = 0;
    int unknown = 0;
    int inlined = 0;
    for (int i = 0; i < addresses.size(); i++) {
      String[] a = addresses.get(i).split(" ");
      Location l = byId.get(Long.parseLong(a[0]));
      List<String[]> ours = ProfileData.lines(out, l);
      var llvm = demangled.get(i);
      String where = "location " + a[0] + " (" + a[1] + " " + a[2] + ")";
      if (llvm.size() == 1 && llvm.get(0).function().equals("??")) {
        assertTrue(ours.isEmpty(), where + ": llvm finds no function, we found " + ours.size() + " lines");
        unknown++;
        continue;
      }
      assertEquals(llvm.size(), ours.size(), where + ": frames");
      for (int k = 0; k < llvm.size(); k++) {
        var f = llvm.get(k);
        String[] o = ours.get(k);
        assertEquals(f.function(), o[0], where + " frame " + k + " name");
        assertEquals(raw.get(i).get(k).function(), o[1], where + " frame " + k + " system_name");
        assertEquals(f.file().equals("??") ? "" : f.file(), o[2], where + " frame " + k + " file");
        assertEquals(Long.toString(f.line()), o[3], where + " frame " + k + " line");
      }
      if (llvm.size() > 1) inlined++;
      symbolized++;
    }
    assertTrue(symbolized > 50 && inlined > 10, symbolized + " symbolized, " + inlined + " with inline frames");
    // addresses past the last function: llvm-gsymutil-22 finds no function there either
    List<String> none = Files.readAllLines(ProfileData.file("synthetic.nofunction.txt"));
    List<String> llvmNone = Files.readAllLines(ProfileData.file("expected/synthetic.nofunction.llvm-gsymutil.txt"));
    assertEquals(none.size(), llvmNone.size());
    for (int i = 0; i < none.size(); i++) {
      String[] a = none.get(i).split(" ");
      assertTrue(llvmNone.get(i).endsWith("address " + a[2] + " is not in GSYM"), llvmNone.get(i));
      assertTrue(byId.get(Long.parseLong(a[0])).getLineList().isEmpty(), none.get(i));
      unknown++;
    }
    ProfileSymbolizer.Summary s = r.summary();
    assertEquals(in.locations().size(), s.locations());
    assertEquals(symbolized, s.symbolized());
    assertEquals(2, s.alreadySymbolized(), s.line());
    assertEquals(2, s.missingModule(), s.line()); // libgone.so.1
    assertEquals(2, s.noMapping(), s.line()); // mapping 0 and the vDSO
    assertEquals(unknown + 1, s.unknownAddress(), s.line()); // + the address below its mapping
    assertEquals(0, s.assumedLayout(), s.line());
    assertTrue(s.problems().stream().anyMatch(p -> p.contains("libgone.so.1")), s.problems().toString());
    // the modules' mappings say what they have now; the others are as they were
    for (Mapping m : out.mappings()) {
      boolean ours = m.getId() == 1 || m.getId() == 2;
      assertEquals(ours || m.getId() == 5, m.getHasFunctions(), "mapping " + m.getId());
      assertEquals(ours, m.getHasInlineFrames(), "mapping " + m.getId());
      assertEquals(ours, m.getHasLineNumbers() && m.getHasFilenames(), "mapping " + m.getId());
    }
  }

  @Test
  void everythingElseIsUntouched() throws Exception {
    PprofProfile in = synthetic();
    PprofProfile out = PprofProfile.read(symbolize(in, true).profile().toByteArray(false), "out");
    assertEquals(samples(in), samples(out));
    assertEquals(in.sampleCount(), out.sampleCount());
    List<String> typesIn = new ArrayList<>();
    for (String[] t : in.sampleTypes()) typesIn.add(t[0] + "/" + t[1]);
    List<String> typesOut = new ArrayList<>();
    for (String[] t : out.sampleTypes()) typesOut.add(t[0] + "/" + t[1]);
    assertEquals(List.of("samples/count", "cpu/nanoseconds"), typesIn);
    assertEquals(typesIn, typesOut);
    // every string of the input keeps its index (labels, comments, mapping names refer to them)
    for (int i = 0; i < in.stringCount(); i++) assertEquals(in.string(i), out.string(i));
    Map<Long, Location> outById = new HashMap<>();
    for (Location l : out.locations()) outById.put(l.getId(), l);
    for (Location l : in.locations()) {
      Location o = outById.get(l.getId());
      assertEquals(l.getAddress(), o.getAddress());
      assertEquals(l.getMappingId(), o.getMappingId());
      if (l.getLineCount() > 0) {
        assertEquals(l, o, "a location with lines is kept as it was");
        assertArrayEquals(ProfileData.lines(in, l).getFirst(), ProfileData.lines(out, o).getFirst());
      }
    }
    for (int i = 0; i < in.mappings().size(); i++) {
      Mapping a = in.mappings().get(i);
      Mapping b = out.mappings().get(i);
      assertEquals(a.toBuilder().clearHasFunctions().clearHasFilenames().clearHasLineNumbers().clearHasInlineFrames()
          .build(), b.toBuilder().clearHasFunctions().clearHasFilenames().clearHasLineNumbers().clearHasInlineFrames().build());
    }
    assertEquals(in.functions(), out.functions().subList(0, in.functions().size()));
  }

  @Test
  void rawNamesWhenNotDemangling() throws Exception {
    PprofProfile out = symbolize(synthetic(), false).profile();
    boolean mangled = false;
    for (Location l : out.locations()) {
      for (String[] line : ProfileData.lines(out, l)) {
        assertEquals(line[1], line[0]);
        mangled |= line[0].startsWith("_Z");
      }
    }
    assertTrue(mangled);
  }

  /**
   * cgo.pb.gz is written by Go's runtime/pprof profiling a Go program with cgo (regenerate-cgo.sh):
   * the runtime names Go's frames and writes each C frame as a location whose one line names a
   * function without name or file, in a mapping without has_functions. The C locations get
   * llvm-symbolizer-22's frames; Go's stay as the runtime wrote them.
   */
  @Test
  void goRuntimeProfileOfCgo() throws Exception {
    PprofProfile in = PprofProfile.read(Files.readAllBytes(ProfileData.file("cgo.pb.gz")), "cgo.pb.gz");
    ProfileSymbolizer.Result r = symbolize(in, true);
    PprofProfile out = PprofProfile.read(r.profile().toByteArray(true), "out");
    Map<Long, Location> outById = new HashMap<>();
    for (Location l : out.locations()) outById.put(l.getId(), l);
    List<String> addresses = Files.readAllLines(ProfileData.file("cgo.addresses.txt"));
    var llvm = ProfileData.llvmBlocks(ProfileData.file("expected/cgo.llvm-symbolizer.txt"));
    assertEquals(addresses.size(), llvm.size());
    Map<Long, Integer> cLocations = new HashMap<>();
    int inlined = 0;
    for (int i = 0; i < addresses.size(); i++) {
      String[] a = addresses.get(i).split(" ");
      long id = Long.parseLong(a[0]);
      cLocations.put(id, i);
      Location l = outById.get(id);
      assertEquals(Long.decode(a[1]), l.getAddress());
      List<String[]> ours = ProfileData.lines(out, l);
      var frames = llvm.get(i);
      String where = "location " + id + " (" + a[1] + ")";
      assertEquals(frames.size(), ours.size(), where + ": frames; " + r.summary().line() + " " + r.summary().problems());
      for (int k = 0; k < frames.size(); k++) {
        assertEquals(frames.get(k).function(), ours.get(k)[0], where + " frame " + k + " name");
        assertEquals(frames.get(k).function(), ours.get(k)[1], where + " frame " + k + " system_name");
        assertEquals(frames.get(k).file(), ours.get(k)[2], where + " frame " + k + " file");
        assertEquals(Long.toString(frames.get(k).line()), ours.get(k)[3], where + " frame " + k + " line");
      }
      if (frames.size() > 1) inlined++;
    }
    assertTrue(cLocations.size() >= 3 && inlined >= 1, cLocations.size() + " C locations, " + inlined + " inlined");
    // Go's frames: as the runtime wrote them, and named
    int go = 0;
    for (Location l : in.locations()) {
      if (cLocations.containsKey(l.getId())) {
        assertEquals("", ProfileData.lines(in, l).getFirst()[0], "location " + l.getId() + " in the input");
        continue;
      }
      assertEquals(l, outById.get(l.getId()));
      assertFalse(ProfileData.lines(in, l).getFirst()[0].isEmpty(), "location " + l.getId());
      go++;
    }
    assertTrue(go > 3, go + " Go locations");
    ProfileSymbolizer.Summary s = r.summary();
    assertEquals(cLocations.size(), s.symbolized(), s.line());
    assertEquals(go, s.alreadySymbolized(), s.line());
    assertFalse(in.mappings().getFirst().getHasFunctions());
    assertTrue(out.mappings().getFirst().getHasFunctions() && out.mappings().getFirst().getHasInlineFrames());
    assertEquals(samples(in), samples(out));
  }

  /**
   * Only a separate debug file of profdemo (llvm-objcopy-22 --only-keep-debug): its segments have no
   * file offsets, so its mapping is placed by the rule for a module without program headers
   * (exact for GNU ld's layout) and counted as assumed; the frames are llvm-symbolizer-22's still.
   */
  @Test
  void separateDebugFileIsPlacedWithoutItsFileOffsets() throws Exception {
    Path objcopy = dev.gsym.testing.Tools.require(dev.gsym.testing.Llvm.tool("llvm-objcopy-22"), "llvm-objcopy-22");
    Path bin = ProfileData.file("bin/profdemo");
    Path debugOnly = tmp.resolve("profdemo.debug");
    ProfileData.run(tmp, Map.of(), objcopy.toString(), "--only-keep-debug", bin.toString(), debugOnly.toString());
    Path dbg = tmp.resolve("dbg-only");
    dev.gsym.testing.TestData.addToDebugDirectory(dbg, ProfileData.hex(dev.gsym.elf.ElfFile.open(bin).buildId()), debugOnly);
    PprofProfile out;
    ProfileSymbolizer.Summary summary;
    try (Symbolizer s = ProfileData.symbolizer(dbg)) {
      var r = ProfileSymbolizer.builder(s).debugDirectories(List.of(dbg)).build().symbolize(synthetic());
      out = r.profile();
      summary = r.summary();
    }
    Map<Long, Location> byId = new HashMap<>();
    for (Location l : out.locations()) byId.put(l.getId(), l);
    List<String> addresses = Files.readAllLines(ProfileData.file("synthetic.addresses.txt"));
    var llvm = ProfileData.llvmBlocks(ProfileData.file("expected/synthetic.llvm-symbolizer.txt"));
    int symbolized = 0;
    for (int i = 0; i < addresses.size(); i++) {
      String[] a = addresses.get(i).split(" ");
      if (!a[1].equals("bin/profdemo")) continue;
      List<String[]> ours = ProfileData.lines(out, byId.get(Long.parseLong(a[0])));
      var frames = llvm.get(i);
      if (frames.size() == 1 && frames.getFirst().function().equals("??")) {
        assertTrue(ours.isEmpty(), a[0]);
        continue;
      }
      assertEquals(frames.size(), ours.size(), "location " + a[0] + ": frames; " + summary.line() + " " + summary.problems());
      for (int k = 0; k < frames.size(); k++) {
        assertEquals(frames.get(k).function(), ours.get(k)[0], "location " + a[0] + " frame " + k);
        assertEquals(Long.toString(frames.get(k).line()), ours.get(k)[3], "location " + a[0] + " frame " + k);
      }
      symbolized++;
    }
    assertTrue(symbolized > 20, symbolized + " symbolized");
    assertEquals(symbolized, summary.assumedLayout(), summary.line());
  }

  /** Each sample as text: location ids, values, label strings. */
  private static List<String> samples(PprofProfile p) {
    List<String> out = new ArrayList<>();
    p.forEachSample((ids, values, labels) -> {
      StringBuilder sb = new StringBuilder();
      for (long id : ids) sb.append(id).append(',');
      sb.append(' ');
      for (long v : values) sb.append(v).append(',');
      sb.append(' ');
      for (long s : labels) sb.append(p.string(s)).append(',');
      out.add(sb.toString());
    });
    assertFalse(out.isEmpty());
    return out;
  }
}
