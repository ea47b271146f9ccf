package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.testing.Slow;
import org.junit.jupiter.api.Test;
import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.format.FunctionInfo;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for GSYM reading (docs/reliability.md): the input is a whole GSYM
 * file, version 1 or 2. It is opened, dumped, its {@code --statistics} rendered, every
 * FunctionInfo decoded and dumped as {@code --verbose} prints it, and looked up with every lookup
 * kind at its functions' addresses, around them and outside the table. Only GsymFormatException (open, decode) and LookupException (lookups) may escape; anything
 * else, and any input taking longer than {@link #LIMIT}, is a finding.
 *
 * <p>A plain test run replays the seeds (the GSYM goldens and vectors in src-test-data, and some
 * of them transcoded to version 2) and the checked-in regression inputs in {@code
 * GsymReaderFuzzTestInputs/gsymFile}; {@code bench/fuzz.sh gsym} fuzzes.
 */
@Slow
class GsymReaderFuzzTest {
  /** Functions and addresses examined per input: enough to reach every record kind, bounded in time. */
  private static final int MAX_FUNCTIONS = 64;
  static final Duration LIMIT = Duration.ofSeconds(2);

  static Stream<Arguments> seeds() {
    return Stream.of(FuzzSeeds.files("vectors", n -> n.contains(".gsym")), FuzzSeeds.files("gsym", n -> n.contains(".gsym")),
        version2Seeds()).flatMap(s -> s);
  }

  /**
   * Version 2 seeds: the vectors (every record kind llvm writes) and the merged-function and
   * call-site goldens transcoded to version 2 in both byte orders, as {@code gsymutil convert
   * --output-version 2} writes them (no version 2 file is checked in: they follow from the v1 ones).
   */
  static Stream<Arguments> version2Seeds() {
    Stream<Arguments> v1 = Stream.concat(FuzzSeeds.files("vectors", n -> n.contains(".gsym")),
        FuzzSeeds.files("gsym", n -> n.contains("merged") || n.contains("callsites")));
    return v1.flatMap(a -> {
      String name = ((Arguments.ArgumentSet) a).getName();
      byte[] bytes = (byte[]) a.get()[0];
      Stream.Builder<Arguments> out = Stream.builder();
      try (GsymReader r = GsymReader.of(bytes, name)) {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
          GsymCreator c = GsymCreator.from(r);
          c.setOutputVersion(2);
          c.finish(Diagnostics.silent());
          out.add(Arguments.argumentSet(name + " (v2, " + order + ")", (Object) c.encode(order)));
        }
      }
      return out.build();
    });
  }

  @MethodSource("seeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void gsymFile(byte[] input) {
    FuzzLimits.within(LIMIT, "gsym", "reading a GSYM file of " + input.length + " bytes", () -> read(input));
  }

  static void read(byte[] input) {
    GsymReader r;
    try {
      r = GsymReader.of(input, "fuzz.gsym");
    } catch (GsymFormatException expected) {
      return;
    }
    try (r) {
      exercise(r);
    }
  }

  static void exercise(GsymReader r) {
    r.dump(new StringBuilder());
    try {
      GsymStatistics stats = GsymStatistics.of(r, "fuzz.gsym");
      for (GsymStatistics.Format f : GsymStatistics.Format.values()) stats.render(f);
    } catch (GsymFormatException expected) {
      // --statistics reports a damaged file as an error
    }
    LookupFrames frames = new LookupFrames();
    TextBuffer text = new TextBuffer(256);
    int n = Math.min(r.numFunctions(), MAX_FUNCTIONS);
    for (int i = 0; i < n; i++) {
      try {
        FunctionInfo fi = r.functionInfoAtIndex(i);
        r.dump(new StringBuilder(), fi, 0); // --verbose lookups print the decoded record
      } catch (GsymFormatException expected) {
        // a damaged record: the dump prints its error instead
      }
      long start = r.functionAddress(i);
      for (long a : new long[] {start, start + 1, start - 1, start + 0x40}) {
        lookUp(r, a, frames, text);
      }
    }
    lookUp(r, r.header().baseAddress() - 1, frames, text);
    lookUp(r, -1L, frames, text);
    lookUp(r, 0, frames, text);
  }

  private static void lookUp(GsymReader r, long addr, LookupFrames frames, TextBuffer text) {
    try {
      r.lookup(addr).withoutCallSites().appendTo(new StringBuilder());
    } catch (LookupException expected) {
      // not covered, or a record that cannot be decoded
    }
    try {
      r.lookup(addr, frames);
      text.clear();
      frames.appendTo(text, true);
      frames.toResult();
    } catch (LookupException expected) {
      // as above
    }
    try {
      for (LookupResult l : r.lookupAll(addr)) l.appendTo(new StringBuilder());
    } catch (LookupException expected) {
      // as above
    }
    try {
      r.lookupCandidates(addr);
    } catch (LookupException expected) {
      // as above
    }
    try {
      r.functionInfo(addr);
    } catch (LookupException | GsymFormatException expected) {
      // as above
    }
  }

  /**
   * The seeds are valid GSYM files: each opens, has functions and decodes every FunctionInfo. The
   * replay above would pass a reader that refused every input.
   */
  @Test
  void seedsAreAccepted() {
    FuzzSeeds.assertRefused(seeds(), input -> {
      try (GsymReader r = GsymReader.of(input, "seed.gsym")) {
        assertThat(r.numFunctions()).as("functions").isPositive();
        for (int i = 0; i < r.numFunctions(); i++) r.functionInfoAtIndex(i);
      }
    }, java.util.Map.of());
  }

  /** No quadratic blow-up: opening and dumping a 1 MB GSYM takes time in proportion to a 10 KB one. */
  @Test
  void scalesLinearly() {
    FuzzLimits.assertScalesLinearly("gsym open+dump", size -> {
      dev.gsym.write.GsymCreator c = new dev.gsym.write.GsymCreator();
      int file = c.insertFile("/src/dir/file.c");
      for (int i = 0; i < size / 48; i++) { // ~48 bytes per function
        long a = 0x1000 + 32L * i;
        dev.gsym.format.LineTable lt = new dev.gsym.format.LineTable(java.util.List.of(new dev.gsym.format.LineEntry(a, file, 10 + i % 7),
            new dev.gsym.format.LineEntry(a + 8, file, 11 + i % 7)));
        c.addFunctionInfo(new FunctionInfo(new dev.gsym.format.AddressRange(a, a + 24), c.insertString("f" + i), lt, null, null, null));
      }
      c.finish(dev.gsym.write.Diagnostics.silent());
      return c.encode();
    }, input -> {
      try (GsymReader r = GsymReader.of(input, "big.gsym")) {
        r.dump(new StringBuilder());
        for (int i = 0; i < r.numFunctions(); i++) r.lookup(r.functionAddress(i) + 9);
      }
    });
  }
}
