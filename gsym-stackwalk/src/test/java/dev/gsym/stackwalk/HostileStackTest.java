package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.minidump.Minidump;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Walks of the corpus's Linux dumps with hostile stacks ({@link HostileStacks}: 40 variants each,
 * with and without symbols): no thread's walk fails, every caller's stack pointer lies above its
 * callee's (the first unwind may stay equal), so a looping frame chain ends, and no walk passes its
 * frame limit.
 */
class HostileStackTest {
  static final int VARIANTS = 40;

  @TempDir
  static Path cache;

  private static BreakpadSymbolDirectories symbols;

  @AfterAll
  static void close() {
    if (symbols != null) symbols.close();
  }

  static Stream<Path> dumps() {
    return Corpus.dumps().stream().filter(p -> p.getParent().getFileName().toString().equals("dumps"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dumps")
  void walksEndAndNeverFail(Path dump) throws IOException {
    synchronized (HostileStackTest.class) {
      if (symbols == null) symbols = new BreakpadSymbolDirectories(List.of(Corpus.symbols()), cache);
    }
    byte[] original = Files.readAllBytes(dump);
    Stackwalker plain = Stackwalker.builder().maxFrames(5000).build();
    Stackwalker withSymbols = Stackwalker.builder().symbols(symbols).maxFrames(5000).build();
    for (long seed = 1; seed <= VARIANTS; seed++) {
      byte[] b = HostileStacks.variant(original, seed);
      for (Stackwalker w : List.of(plain, withSymbols)) {
        try (Minidump d = Minidump.of(b, Corpus.name(dump) + " seed " + seed)) {
          ProcessState s = w.walk(d);
          for (CallStack t : s.threads()) {
            assertThat(t.failure()).as("%s seed %d thread %d", Corpus.name(dump), seed, t.threadId()).isNull();
            assertThat(t.frames().size()).isLessThanOrEqualTo(5001);
            checkStackPointersGrow(t, Corpus.name(dump) + " seed " + seed);
          }
          // the printers take whatever the walk found
          assertThat(StackwalkPrinter.text(s, true, false)).isNotEmpty();
          assertThat(StackwalkPrinter.machineReadable(s)).isNotEmpty();
        }
      }
    }
  }

  static void checkStackPointersGrow(CallStack t, String what) {
    FrameRegisters previous = null;
    for (StackFrame f : t.frames()) {
      FrameRegisters r = f.registers();
      if (r == null) continue; // inlined
      if (previous != null) {
        boolean first = previous.allValid();
        int c = Long.compareUnsigned(r.sp(), previous.sp());
        assertThat(first ? c >= 0 : c > 0).as("%s thread %d: sp 0x%x after 0x%x", what, t.threadId(), r.sp(), previous.sp())
            .isTrue();
      }
      previous = r;
    }
  }
}
