package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every dump of the corpus walked and printed as minidump_stackwalk prints it, byte for byte equal
 * to the committed outputs of Breakpad's own minidump_stackwalk ({@code expected/X.stackwalk.txt},
 * {@code -m}, and with the corpus's symbol directory {@code X.stackwalk-sym.txt}, {@code -sym-m}:
 * {@code symbols/} for {@code dumps/}, Breakpad's test data's {@code external/symbols/} for {@code
 * external/}, with STACK WIN records, FUNC parameter sizes and INLINE records);
 * the dumps minidump_stackwalk cannot read (exit status 1, no output) fail to open or to walk here.
 */
class StackwalkGoldenTest {
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
      for (String kind : List.of("stackwalk", "stackwalk-m", "stackwalk-sym", "stackwalk-sym-m")) {
        if (Corpus.golden(dump, kind) != null) out.add(Arguments.of(Corpus.name(dump), kind, dump));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void printsWhatMinidumpStackwalkPrints(String name, String kind, Path dump) throws IOException {
    boolean machine = kind.endsWith("-m");
    boolean withSymbols = kind.contains("sym");
    String tool = "minidump_stackwalk" + (machine ? " -m" : "") + (withSymbols ? " SYMBOLS" : "");
    Stackwalker.Builder b = Stackwalker.builder();
    if (withSymbols) b.symbols(symbols(dump));
    Stackwalker walker = b.build();
    Function<ProcessState, String> print = machine ? StackwalkPrinter::machineReadable : s -> StackwalkPrinter.text(s, false, false);
    byte[] expected = Files.readAllBytes(Corpus.golden(dump, kind));
    if (Corpus.status(dump, tool) != 0) {
      assertThat(expected).isEmpty();
      try {
        String out = Corpus.walk(dump, walker, print);
        fail("minidump_stackwalk cannot read " + name + ", but we printed:\n" + out);
      } catch (GsymFormatException expectedFailure) {
        return;
      }
    }
    String actual = Corpus.walk(dump, walker, print);
    assertSame(name + " " + kind, TestData.text(Corpus.golden(dump, kind)), actual);
  }

  /** Equal, or a failure showing the first lines that differ. */
  static void assertSame(String what, String expected, String actual) {
    if (expected.equals(actual)) return;
    String[] e = expected.split("\n", -1);
    String[] a = actual.split("\n", -1);
    StringBuilder sb = new StringBuilder(what).append(" differs:\n");
    int shown = 0;
    for (int i = 0; i < Math.max(e.length, a.length) && shown < 12; i++) {
      String x = i < e.length ? e[i] : "<none>";
      String y = i < a.length ? a[i] : "<none>";
      if (!x.equals(y)) {
        sb.append("line ").append(i + 1).append(":\n  expected: ").append(x).append("\n  actual:   ").append(y).append('\n');
        shown++;
      }
    }
    fail(sb.toString());
  }
}
