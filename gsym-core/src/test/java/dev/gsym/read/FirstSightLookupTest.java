package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A function's first lookup is answered from its record and its second one decodes it into the
 * lookup cache: the answers of the first, second and later lookups must be those of a reader whose
 * cache holds every function already, byte for byte, for every lookup kind, on every GSYM under
 * src-test-data; and the first lookup must not decode the function while the second does.
 */
class FirstSightLookupTest {
  /** The lookup kinds that go through the cache (lookupAll does not, it is compared as well). */
  enum Kind { RESULT, FRAMES, CANDIDATES, ALL }

  private static String answer(GsymReader r, long addr, Kind kind, LookupFrames frames, TextBuffer text) {
    try {
      return switch (kind) {
        case RESULT -> r.lookup(addr).toString();
        case FRAMES -> {
          r.lookup(addr, frames);
          text.clear();
          yield frames.appendTo(text, true).toString();
        }
        case CANDIDATES -> r.lookupCandidates(addr).toString();
        case ALL -> r.lookupAll(addr).toString();
      };
    } catch (LookupException e) {
      return "error: " + e.getMessage();
    }
  }

  private static List<String> answers(GsymReader r, List<Long> addrs, Kind kind) {
    LookupFrames frames = new LookupFrames();
    TextBuffer text = new TextBuffer(64);
    List<String> out = new ArrayList<>();
    for (long a : addrs) out.add(String.format("0x%x %s", a, answer(r, a, kind, frames, text)));
    return out;
  }

  /**
   * Probe lists with one address per function each (so that every lookup of a list is the first
   * in its function): starts, middles, last bytes, the bytes before and after; then misses.
   */
  private static List<List<Long>> probeLists(GsymReader r) {
    List<Set<Long>> lists = new ArrayList<>();
    for (int k = 0; k < 6; k++) lists.add(new LinkedHashSet<>());
    for (int i = 0; i < r.numFunctions(); i++) {
      long start;
      long size;
      try {
        start = r.functionAddress(i);
        size = r.functionInfoAtIndex(i).range().size();
      } catch (GsymFormatException e) {
        continue; // a record that does not decode: its neighbours' probes still reach it
      }
      lists.get(0).add(start);
      lists.get(1).add(start + size / 2);
      if (size > 0) lists.get(2).add(start + size - 1);
      lists.get(3).add(start - 1);
      lists.get(4).add(start + size);
    }
    lists.get(5).addAll(List.of(0L, -1L, r.header().baseAddress() - 1));
    return lists.stream().map(s -> (List<Long>) new ArrayList<>(s)).toList();
  }

  /** Fresh reader of the same bytes. */
  private static GsymReader open(byte[] bytes, Path p) {
    return GsymReader.of(bytes, p.toString());
  }

  @Test
  void firstSecondAndLaterLookupsAnswerAsAFullCache() throws Exception {
    List<Path> files = TestData.gsymFiles();
    assertThat(files).hasSizeGreaterThan(100);
    int opened = 0;
    int compared = 0;
    int builtOnSecondSight = 0;
    for (Path p : files) {
      byte[] bytes = Files.readAllBytes(p);
      List<List<Long>> lists;
      try (GsymReader r = open(bytes, p)) {
        lists = probeLists(r);
      } catch (GsymFormatException e) {
        continue; // a golden of a malformed file
      }
      opened++;
      for (int l = 0; l < lists.size(); l++) {
        List<Long> addrs = lists.get(l);
        for (Kind kind : Kind.values()) {
          List<String> expected;
          try (GsymReader full = open(bytes, p)) {
            // every function met decoded before the answers are taken
            for (int k = 0; k < 2; k++) answers(full, addrs, Kind.FRAMES);
            expected = answers(full, addrs, kind);
            if (kind == Kind.RESULT) {
              List<String> uncached = new ArrayList<>();
              for (long a : addrs) {
                String text;
                try {
                  text = full.lookupUncached(a).toString();
                } catch (LookupException e) {
                  text = "error: " + e.getMessage();
                }
                uncached.add(String.format("0x%x %s", a, text));
              }
              assertThat(expected).as("%s list %d: full cache vs records", p, l).isEqualTo(uncached);
            }
          }
          try (GsymReader r = open(bytes, p)) {
            assertThat(answers(r, addrs, kind)).as("%s list %d %s first sight", p, l, kind).isEqualTo(expected);
            if (l == 0 && kind != Kind.ALL) {
              // distinct starts resolve to distinct functions: none was decoded by its first lookup
              for (int i = 0; i < r.numFunctions(); i++) {
                assertThat(r.isCached(i)).as("%s function %d after its first lookup", p, i).isFalse();
              }
            }
            assertThat(answers(r, addrs, kind)).as("%s list %d %s second sight", p, l, kind).isEqualTo(expected);
            if (l == 0 && kind != Kind.ALL) {
              for (long a : addrs) {
                int index;
                try {
                  index = r.indexForAddress(a);
                } catch (LookupException | GsymFormatException e) {
                  continue;
                }
                assertThat(r.isCached(index)).as("%s function %d after its second lookup", p, index).isTrue();
                builtOnSecondSight++;
              }
            }
            assertThat(answers(r, addrs, kind)).as("%s list %d %s cached", p, l, kind).isEqualTo(expected);
          }
          compared += addrs.size();
        }
      }
    }
    assertThat(opened).isGreaterThan(100);
    assertThat(compared).isGreaterThan(10_000);
    assertThat(builtOnSecondSight).isGreaterThan(1_000);
  }

  /** One function with a line table and an inline tree, made by the creator. */
  private static byte[] oneFunction() {
    GsymCreator c = new GsymCreator();
    int file = c.insertFile("/src/f.c");
    int name = c.insertString("outer");
    long start = 0x1000;
    InlineInfo inner = new InlineInfo(List.of(new AddressRange(start + 0x10, start + 0x20)),
        c.insertString("inner"), file, 7, List.of());
    InlineInfo root = new InlineInfo(List.of(new AddressRange(start, start + 0x40)), name, 0, 0, List.of(inner));
    List<LineEntry> rows = new ArrayList<>();
    for (int i = 0; i < 0x40; i += 4) rows.add(new LineEntry(start + i, file, 10 + i));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 0x40), name, new LineTable(rows),
        root, null, null));
    c.finish(Diagnostics.silent());
    return c.encode(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void theFirstLookupReadsTheRecordAndTheSecondDecodesTheFunction() {
    byte[] bytes = oneFunction();
    for (Kind kind : new Kind[] {Kind.RESULT, Kind.FRAMES, Kind.CANDIDATES}) {
      try (GsymReader r = GsymReader.of(bytes, "one function");
          GsymReader uncached = GsymReader.of(bytes, "one function")) {
        LookupFrames frames = new LookupFrames();
        TextBuffer text = new TextBuffer(64);
        String first = answer(r, 0x1014, kind, frames, text);
        assertThat(r.isCached(0)).as("%s: after the first lookup", kind).isFalse();
        assertThat(first).contains("inner").contains("outer");
        String second = answer(r, 0x1018, kind, frames, text);
        assertThat(r.isCached(0)).as("%s: after the second lookup", kind).isTrue();
        assertThat(answer(r, 0x1014, kind, frames, text)).isEqualTo(first);
        assertThat(answer(r, 0x1018, kind, frames, text)).isEqualTo(second);
        if (kind == Kind.RESULT) {
          assertThat(first).isEqualTo(uncached.lookupUncached(0x1014).toString());
          assertThat(second).isEqualTo(uncached.lookupUncached(0x1018).toString());
        }
      }
    }
  }

  @Test
  void aMissDoesNotCountAsALookupOfAFunction() {
    try (GsymReader r = GsymReader.of(oneFunction(), "one function")) {
      for (long miss : new long[] {0x0fff, 0x1040, 0x2000}) {
        assertThat(answer(r, miss, Kind.RESULT, null, null)).startsWith("error: ");
      }
      r.lookup(0x1000);
      assertThat(r.isCached(0)).isFalse();
      r.lookup(0x1000);
      assertThat(r.isCached(0)).isTrue();
    }
  }
}
