package dev.gsym.profile;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for the pprof reader (docs/reliability.md, docs/profiles.md): any
 * bytes are a profile or one {@link GsymFormatException}; a profile read is symbolized (no module
 * is found: every location is counted), written back and read again to the same profile, and drawn
 * as collapsed stacks and a flame graph, all within the per-input time bound and a 64 MiB profile
 * bound. (A class of its own: Jazzer fuzzes one target per JVM.)
 */
class PprofFuzzTest {
  private static final Duration LIMIT = Duration.ofSeconds(2);

  static Stream<Arguments> profiles() {
    return Stream.of(FuzzSeeds.file("profile", "synthetic.pb"), FuzzSeeds.file("profile", "synthetic.pb.gz"));
  }

  @Test
  void seedsAreAccepted() {
    FuzzSeeds.assertRefused(profiles(), PprofFuzzTest::check, Map.of());
  }

  /** Reads, symbolizes, writes and draws {@code input}; only a format error may stop it. */
  static void check(byte[] input) {
    PprofProfile p;
    try {
      p = PprofProfile.read(input, "fuzz", 64L << 20);
    } catch (GsymFormatException e) {
      throw new IllegalArgumentException("refused: " + e.getMessage(), e);
    }
    try (Symbolizer s = Symbolizer.builder().threads(1).build()) {
      ProfileSymbolizer.Result r = ProfileSymbolizer.builder(s).debugDirectories(java.util.List.of()).build().symbolize(p);
      if (r.summary().locations() != p.locations().size()) throw new AssertionError("locations not all counted");
      byte[] out = r.profile().toByteArray(false);
      PprofProfile back = PprofProfile.read(out, "written");
      if (back.stringCount() != r.profile().stringCount() || back.locations().size() != p.locations().size()
          || back.sampleCount() != p.sampleCount()) {
        throw new AssertionError("the written profile reads back differently");
      }
      if (p.sampleTypeCount() > 0) {
        Stacks st = Stacks.of(back, -1);
        StringWriter w = new StringWriter();
        st.writeCollapsed(w);
        FlameGraph.of(st, "fuzz").writeHtml(w);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @MethodSource("profiles")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void pprofProfile(byte[] input) {
    FuzzLimits.within(LIMIT, "pprof", "a profile of " + input.length + " bytes", () -> {
      try {
        check(input);
      } catch (IllegalArgumentException refused) {
        if (!(refused.getCause() instanceof GsymFormatException)) throw refused;
      }
    });
  }
}
