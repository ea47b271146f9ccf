package dev.gsym.breakpad;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.testing.Slow;
import org.junit.jupiter.api.Test;
import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for Breakpad symbol files (docs/reliability.md): the input is a
 * {@code .sym} file, parsed and transformed to GSYM strictly and leniently ({@code --lenient}, with
 * its STACK records kept as unwind information: {@code --unwind}), as {@code gsymutil --breakpad}
 * does. Only GsymFormatException (naming the file and line) may escape
 * the conversion; in lenient mode only for the lines leniency does not cover. The GSYM made must
 * then read back without error, answer lookups and unwind lookups, and write back as a .sym with its
 * STACK records. Anything else, and an input taking longer than {@link #LIMIT}, is a finding. Seeds:
 * the Breakpad goldens in src-test-data/breakpad (also dump_syms' own .sym files with STACK CFI).
 */
@Slow
class BreakpadFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);

  static Stream<Arguments> seeds() {
    return Stream.of(FuzzSeeds.files("breakpad", n -> n.endsWith(".sym")), FuzzSeeds.files("breakpad/elf", n -> n.endsWith(".sym")),
        FuzzSeeds.files("breakpad/dump_syms", n -> n.endsWith(".sym"))).flatMap(x -> x);
  }

  @MethodSource("seeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void symFile(byte[] input) {
    FuzzLimits.within(LIMIT, "breakpad", "converting a .sym file of " + input.length + " bytes", () -> {
      convert(input, false);
      convert(input, true);
    });
  }

  private static void convert(byte[] input, boolean lenient) {
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.Result res;
    try {
      BreakpadTransformer t = new BreakpadTransformer(c, lenient, Diagnostics.silent());
      if (lenient) t.unwind();
      res = t.convert(new BreakpadParser(new ByteArrayInputStream(input), "fuzz.sym"));
    } catch (GsymFormatException expected) {
      return; // malformed input, reported with the line
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in memory: cannot happen
    }
    if (c.numFunctionInfos() == 0) return; // "no FUNC or PUBLIC records: nothing to convert"
    c.finish(Diagnostics.silent());
    if (res.unwind() != null) c.attachUnwind(res.unwind().arch(), res.unwind().entries());
    byte[] gsym = c.encode();
    try (GsymReader r = GsymReader.of(gsym, "converted.gsym")) {
      for (int i = 0; i < Math.min(r.numFunctions(), 32); i++) {
        r.functionInfoAtIndex(i);
        try {
          r.lookup(r.functionAddress(i)).toString();
        } catch (LookupException notCovered) {
          // an empty function's start is not inside it
        }
        r.unwindRow(r.functionAddress(i), new dev.gsym.unwind.UnwindState());
      }
      if (res.unwind() != null) {
        BreakpadWriter.write(r, BreakpadWriter.Options.defaults("fuzz").withCfi(true), java.io.OutputStream.nullOutputStream());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GsymFormatException e) {
      throw new AssertionError("the GSYM converted from this input does not read back: " + e.getMessage(), e);
    }
  }

  /**
   * The seeds convert in lenient mode, to at least one function (but stack-only.sym, which has STACK
   * records alone): the replay alone would pass a parser that refused every file.
   */
  @Test
  void seedsAreAccepted() {
    FuzzSeeds.assertRefused(seeds(), input -> {
      GsymCreator c = new GsymCreator();
      try {
        new BreakpadTransformer(c, true, Diagnostics.silent()).convert(new BreakpadParser(new ByteArrayInputStream(input), "seed.sym"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (c.numFunctionInfos() == 0) throw new AssertionError("no function");
    }, java.util.Map.of("breakpad/stack-only.sym", "no function"));
  }

  /** No quadratic blow-up: a 1 MB file of FUNC, line and PUBLIC records converts in proportion to a 10 KB one. */
  @Test
  void scalesLinearly() {
    FuzzLimits.assertScalesLinearly("breakpad strict+lenient", size -> {
      StringBuilder sb = new StringBuilder("MODULE Linux x86_64 D3096ED481217FD4C16B29CD9BC208BA0 app\nFILE 1 /src/a.c\n");
      for (long a = 0x1000; sb.length() < size; a += 0x40) {
        sb.append("FUNC ").append(Long.toHexString(a)).append(" 30 0 function_").append(a).append('\n');
        sb.append(Long.toHexString(a)).append(" 10 ").append(a % 1000).append(" 1\n");
        sb.append(Long.toHexString(a + 0x10)).append(" 20 ").append(a % 1000 + 1).append(" 1\n");
        sb.append("PUBLIC ").append(Long.toHexString(a + 0x30)).append(" 0 tail_").append(a).append('\n');
      }
      return sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }, input -> {
      convert(input, false);
      convert(input, true);
    });
  }
}
