package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.Breakpad;
import dev.gsym.testing.StartsProcesses;
import java.io.IOException;
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
 * The live differential test: Breakpad's own minidump_stackwalk (found by {@link Breakpad}; a
 * reported skip without it) and ours on every corpus dump, with each output option ({@code -s}
 * stack contents, {@code -c} the crashed thread only, {@code -b} brief, {@code -m}), without and
 * with the corpus's symbols: the same bytes.
 */
@StartsProcesses
class StackwalkLiveTest {
  @TempDir
  static Path cache;

  private static final java.util.Map<Path, BreakpadSymbolDirectories> symbols = new java.util.HashMap<>();

  @AfterAll
  static void close() {
    symbols.values().forEach(BreakpadSymbolDirectories::close);
  }

  /** The symbols of {@code dump}'s directory, converted into the cache once for all the tests. */
  private static synchronized BreakpadSymbolDirectories symbols(Path dump) throws IOException {
    Path dir = Corpus.symbols(dump);
    return symbols.computeIfAbsent(dir, d -> new BreakpadSymbolDirectories(List.of(d), cache.resolve(d.getFileName().toString())));
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Path dump : Corpus.dumps()) {
      for (String flags : List.of("-s", "-c", "-b", "-s -c", "-m")) {
        out.add(Arguments.of(Corpus.name(dump), flags, false, dump));
        out.add(Arguments.of(Corpus.name(dump), flags, true, dump));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} symbols={2}")
  @MethodSource("cases")
  void sameAsMinidumpStackwalk(String name, String flags, boolean withSymbols, Path dump) throws Exception {
    Path tool = Breakpad.minidumpStackwalk();
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    cmd.addAll(List.of(flags.split(" ")));
    cmd.add(dump.toString());
    if (withSymbols) cmd.add(Corpus.symbols(dump).toString());
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] expected = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    Stackwalker.Builder b = Stackwalker.builder();
    if (withSymbols) b.symbols(symbols(dump));
    boolean contents = flags.contains("-s");
    boolean crashedOnly = flags.contains("-c");
    String actual;
    try {
      actual = Corpus.walk(dump, b.build(), s -> flags.contains("-m") ? StackwalkPrinter.machineReadable(s)
          : flags.contains("-b") ? StackwalkPrinter.brief(s) : StackwalkPrinter.text(s, contents, crashedOnly));
    } catch (dev.gsym.GsymFormatException e) {
      assertThat(p.exitValue()).as("minidump_stackwalk reads what we cannot: %s", e.getMessage()).isEqualTo(1);
      assertThat(expected).isEmpty();
      return;
    }
    assertThat(p.exitValue()).isZero();
    StackwalkGoldenTest.assertSame(name + " " + flags, ByteStrings.decode(expected), actual);
  }
}
