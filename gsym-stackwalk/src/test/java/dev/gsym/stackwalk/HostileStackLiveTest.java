package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.Breakpad;
import dev.gsym.testing.StartsProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile stacks ({@link HostileStacks}) walked by Breakpad's minidump_stackwalk (a reported skip
 * without it) and by us, without and with symbols: the same bytes, however the frame pointer chains
 * loop and wherever the return addresses point. With {@code -s} (stack contents) when every frame's
 * stack pointer lies in the thread's stack memory; otherwise Breakpad prints blank rows for the
 * whole gap between two frames (gigabytes, for a stack pointer far away), which we leave out
 * (docs/stackwalk.md), and the outputs are compared without {@code -s}.
 */
@StartsProcesses
class HostileStackLiveTest {
  static final int VARIANTS = 12;

  @TempDir
  static Path tmp;

  private static final java.util.Map<Path, BreakpadSymbolDirectories> symbols = new java.util.HashMap<>();

  @AfterAll
  static void close() {
    symbols.values().forEach(BreakpadSymbolDirectories::close);
  }

  /** External dumps whose walks take the other strategies: STACK WIN (x86), leaf functions (Windows x64), inlined frames. */
  static final List<String> EXTERNAL = List.of("rust-minidump-test", "breakpad-minidump_32bit_crash_addr",
      "breakpad-tiny-exe-fastfail", "breakpad-linux_inline", "breakpad-linux_overflow");

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Path dump : HostileStackTest.dumps().toList()) {
      for (long seed = 1; seed <= VARIANTS; seed++) {
        out.add(Arguments.of(Corpus.name(dump), seed, seed % 2 == 0, dump));
      }
    }
    for (String name : EXTERNAL) {
      Path dump = Corpus.dir().resolve("external").resolve(name + ".dmp");
      for (long seed = 1; seed <= 4 * VARIANTS; seed++) out.add(Arguments.of(name, seed, seed % 4 != 0, dump));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} seed {1} symbols={2}")
  @MethodSource("cases")
  void sameAsMinidumpStackwalk(String name, long seed, boolean withSymbols, Path dump) throws Exception {
    Path tool = Breakpad.minidumpStackwalk();
    BreakpadSymbolDirectories source;
    synchronized (HostileStackLiveTest.class) {
      Path dir = Corpus.symbols(dump);
      source = symbols.computeIfAbsent(dir, d -> new BreakpadSymbolDirectories(List.of(d), tmp.resolve("cache-" + d.getFileName())));
    }
    Path variant = tmp.resolve(name + "-" + seed + ".dmp");
    Files.write(variant, HostileStacks.variant(Files.readAllBytes(dump), seed));
    Stackwalker.Builder b = Stackwalker.builder();
    if (withSymbols) b.symbols(source);
    Stackwalker walker = b.build();
    boolean contents = Boolean.parseBoolean(Corpus.walk(variant, walker, s -> Boolean.toString(framesInStacks(s))));
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    if (contents) cmd.add("-s");
    cmd.add(variant.toString());
    if (withSymbols) cmd.add(Corpus.symbols(dump).toString());
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] expected = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    String actual = Corpus.walk(variant, walker, s -> StackwalkPrinter.text(s, contents, false));
    for (FrameTrust t : FrameTrust.values()) if (actual.contains("Found by: " + t.description() + "\n")) SEEN.add(t);
    StackwalkGoldenTest.assertSame(name + " seed " + seed, ByteStrings.decode(expected), actual);
  }

  /** The trust levels the variants' walks met (printed when the class ends: how much of the walkers they reach). */
  static final java.util.Set<FrameTrust> SEEN = java.util.EnumSet.noneOf(FrameTrust.class);

  @AfterAll
  static void report() {
    System.out.println("HostileStackLiveTest: frames found by " + SEEN);
  }

  /** Whether every frame's stack pointer lies in its thread's stack memory (or the frame has none). */
  static boolean framesInStacks(ProcessState s) {
    for (CallStack t : s.threads()) {
      for (StackFrame f : t.frames()) {
        if (f.registers() == null || t.stack() == null) continue;
        long sp = f.registers().sp();
        StackMemory m = t.stack();
        if (Long.compareUnsigned(sp - m.base(), m.size()) > 0) return false;
      }
    }
    return true;
  }
}
