package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The decoded-function cache behind {@link GsymReader#lookup(long, LookupFrames)} must answer
 * exactly as decoding the record at each lookup: same result or same error message, on the
 * vectors, on mutated vectors (malformed records), on a synthetic function with wide inline nodes
 * and, if present, on libjvm's GSYM. The frames' byte formatting must match LookupResult's.
 */
@Slow
class CachedLookupTest {
  private static final String[] FILES = {"t1.gsym", "t2.gsym", "t3g.gsym", "t3gm.gsym", "t3gmc.gsym",
      "t3s.gsym", "A.gsym", "B.gsym", "C.gsym", "D.gsym", "E.gsym", "F.gsym", "G.gsym"};

  /** "result text" or "error: message" for one lookup. */
  private static String outcome(java.util.function.LongFunction<LookupResult> f, long addr) {
    try {
      return f.apply(addr).toString();
    } catch (LookupException e) {
      return "error: " + e.getMessage();
    }
  }

  private static String framesText(GsymReader r, long addr) {
    LookupFrames frames = new LookupFrames();
    try {
      r.lookup(addr, frames);
    } catch (LookupException e) {
      return "error: " + e.getMessage();
    }
    return frames.appendTo(new TextBuffer(64), true).toString();
  }

  /** Names and lines through {@link LookupFrames#name} and {@link LookupFrames#line}, as "name:line ...". */
  private static String frameFields(GsymReader r, long addr) {
    LookupFrames frames = new LookupFrames();
    try {
      r.lookup(addr, frames);
    } catch (LookupException e) {
      return "error";
    }
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < frames.count(); k++) b.append(frames.name(k)).append(':').append(frames.line(k)).append(' ');
    int past = frames.count();
    org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class, () -> frames.line(past));
    return b.toString();
  }

  private static String resultFields(GsymReader r, long addr) {
    LookupResult res;
    try {
      res = r.lookup(addr);
    } catch (LookupException e) {
      return "error";
    }
    StringBuilder b = new StringBuilder();
    for (SourceLocation l : res.locations()) b.append(l.name()).append(':').append(l.line()).append(' ');
    return b.toString();
  }

  private static List<Long> probes(GsymReader r, Random rnd) {
    List<Long> addrs = new ArrayList<>();
    for (int i = 0; i < r.numFunctions(); i++) {
      long a = r.functionAddress(i);
      for (long d : new long[] {-1, 0, 1, 2, 5, 8, 16, 0x20, 0x40, 0x100}) addrs.add(a + d);
      for (int k = 0; k < 8; k++) addrs.add(a + rnd.nextInt(0x200));
    }
    addrs.add(0L);
    addrs.add(-1L);
    return addrs;
  }

  /** Compares cached (cold, then warm) and uncached answers at every probe; returns the count. */
  private static int compareAll(GsymReader r, List<Long> addrs) {
    for (int pass = 0; pass < 2; pass++) {
      for (long a : addrs) {
        String expected = outcome(r::lookupUncached, a);
        assertThat(outcome(r::lookup, a)).as("%s at 0x%x (pass %d)", r.source(), a, pass)
            .isEqualTo(expected);
        assertThat(framesText(r, a)).as("%s frames at 0x%x", r.source(), a).isEqualTo(expected);
        assertThat(frameFields(r, a)).as("%s frame accessors at 0x%x", r.source(), a).isEqualTo(resultFields(r, a));
      }
    }
    return addrs.size();
  }

  @Test
  void vectorsAnswerAsUncached() throws Exception {
    Random rnd = new Random(1);
    int n = 0;
    for (String f : FILES) {
      try (GsymReader r = GsymReader.open(TestData.path("vectors", f))) {
        n += compareAll(r, probes(r, rnd));
      }
    }
    assertThat(n).isGreaterThan(1000);
  }

  @Test
  void mutatedVectorsAnswerAsUncached() throws Exception {
    Random rnd = new Random(0x5eed);
    List<GsymMutationFuzzTest.Seed> seeds = new ArrayList<>();
    List<byte[]> originals = new ArrayList<>();
    for (String f : FILES) originals.add(Files.readAllBytes(TestData.path("vectors", f)));
    for (int i = 0; i < FILES.length; i++) {
      seeds.add(new GsymMutationFuzzTest.Seed(FILES[i], originals.get(i), new long[0]));
    }
    int opened = 0;
    for (int m = 0; m < 3000; m++) {
      int which = rnd.nextInt(FILES.length);
      byte[] mutant = GsymMutationFuzzTest.mutate(rnd, originals.get(which), seeds, new StringBuilder());
      GsymReader r;
      try {
        r = GsymReader.of(mutant, FILES[which] + "#" + m);
      } catch (GsymFormatException e) {
        continue;
      }
      opened++;
      try (r) {
        List<Long> addrs = new ArrayList<>();
        try {
          addrs = probes(r, rnd);
        } catch (GsymFormatException e) {
          // an unreadable address table entry: probe around the base address only
          addrs.add(r.header().baseAddress());
        }
        compareAll(r, addrs.size() > 400 ? addrs.subList(0, 400) : addrs);
      }
    }
    assertThat(opened).isGreaterThan(500);
  }

  @Test
  void wideInlineNodesAnswerAsUncached() {
    GsymCreator c = new GsymCreator();
    int file = c.insertFile("/src/wide.c");
    int top = c.insertString("top");
    long start = 0x10000;
    List<InlineInfo> kids = new ArrayList<>();
    for (int k = 0; k < 40; k++) {
      long s = start + 0x10 + k * 0x40L;
      List<InlineInfo> grand = new ArrayList<>();
      for (int g = 0; g < 10; g++) { // wide again one level down
        grand.add(new InlineInfo(List.of(new AddressRange(s + g * 4L, s + g * 4L + 3)),
            c.insertString("g" + k + "_" + g), file, 100 + g, List.of()));
      }
      // two ranges per child, the second one far away and out of order
      kids.add(new InlineInfo(List.of(new AddressRange(s, s + 0x30),
          new AddressRange(start + 0x2000 - k * 0x20L, start + 0x2000 - k * 0x20L + 0x10)),
          c.insertString("kid" + k), file, 10 + k, grand));
    }
    InlineInfo root = new InlineInfo(List.of(new AddressRange(start, start + 0x3000)), top, 0, 0, kids);
    List<LineEntry> rows = new ArrayList<>();
    for (int i = 0; i < 0x3000; i += 7) rows.add(new LineEntry(start + i, file, 1 + i / 7));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 0x3000), top,
        new LineTable(rows), root, null, null));
    c.finish(Diagnostics.silent());
    for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
      try (GsymReader r = GsymReader.of(c.encode(order), "wide " + order)) {
        List<Long> addrs = new ArrayList<>();
        for (long a = start - 2; a < start + 0x3002; a += order == ByteOrder.BIG_ENDIAN ? 3 : 1) addrs.add(a);
        compareAll(r, addrs);
        assertThat(r.lookup(start + 0x10 + 5 * 0x40 + 4 * 4 + 1).toString()).contains("g5_4 + 1 @ ")
            .contains("kid5 + 17 @ ").contains("top + 353 @ ");
      }
    }
  }

  @Test
  void libjvmAnswersAsUncachedIfPresent() throws Exception {
    Path p = Path.of("/tmp/jvmdbg/libjvm.gsym");
    Tools.optional(Files.isReadable(p), p + " (a GSYM of a libjvm with debug info)");
    try (GsymReader r = GsymReader.open(p)) {
      Random rnd = new Random(7);
      List<Long> addrs = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) addrs.add(0x28a000L + rnd.nextInt(0xd5683e));
      compareAll(r, addrs);
    }
  }
}
