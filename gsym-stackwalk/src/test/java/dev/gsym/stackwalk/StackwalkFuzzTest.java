package dev.gsym.stackwalk;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.minidump.Minidump;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for the stack walker (docs/reliability.md): the input is a whole
 * minidump, read as Breakpad's processor reads it ({@link MinidumpProcess}), every thread walked
 * (frame limit 10,000) and printed in all three formats, with stack contents. Only
 * GsymFormatException may escape, and only from reading the dump; a thread whose walk failed
 * ({@link CallStack#failure()}), a caller whose stack pointer does not grow, any other exception
 * and an input slower than {@link #LIMIT} are findings. Seeds: the corpus
 * (src-test-data/minidump/dumps and external) and hostile stacks of three of its dumps ({@link
 * HostileStacks}).
 */
@Slow
class StackwalkFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(5);
  private static final Stackwalker WALKER = Stackwalker.builder().maxFrames(10_000).build();

  static Stream<Arguments> stackwalkSeeds() {
    List<Arguments> hostile = new ArrayList<>();
    for (String base : List.of("x86_64-nofp-thread", "i386-fp-recurse", "arm-core2md")) {
      try {
        byte[] b = Files.readAllBytes(Corpus.dir().resolve("dumps").resolve(base + ".dmp"));
        for (long seed = 1; seed <= 8; seed++) {
          hostile.add(Arguments.argumentSet(base + " seed " + seed, (Object) HostileStacks.variant(b, seed)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Stream.of(FuzzSeeds.files("minidump/dumps", n -> n.endsWith(".dmp")),
        FuzzSeeds.files("minidump/external", n -> n.endsWith(".dmp")), hostile.stream()).flatMap(s -> s);
  }

  @MethodSource("stackwalkSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void stackwalk(byte[] input) {
    FuzzLimits.within(LIMIT, "stackwalk", "walking a minidump of " + input.length + " bytes", () -> {
      try (Minidump dump = Minidump.of(input, "fuzz.dmp")) {
        MinidumpProcess process;
        try {
          process = MinidumpProcess.of(dump);
        } catch (GsymFormatException expected) {
          return; // no thread list: Breakpad cannot process it either
        }
        ProcessState state = WALKER.walk(process);
        for (CallStack t : state.threads()) {
          if (t.failure() != null) throw new AssertionError("thread " + t.threadId() + ": " + t.failure());
          HostileStackTest.checkStackPointersGrow(t, "fuzz");
        }
        StackwalkPrinter.text(state, true, false);
        StackwalkPrinter.machineReadable(state);
        StackwalkPrinter.brief(state);
      } catch (GsymFormatException expected) {
        // not a minidump, or a header or directory Breakpad refuses
      }
    });
  }
}
