package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.breakpad.ResolverOracle.Difference;
import dev.gsym.breakpad.ResolverOracle.Frame;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Breakpad;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our {@code .sym → GSYM} lookups against Breakpad's own resolver (see {@link ResolverOracle}):
 * every address the records of each {@code src-test-data/breakpad/X.sym} make interesting answers
 * as {@code X.resolver.txt} (the resolver's committed answers) says, apart from the documented
 * differences, counted here per file; and live, when the resolver can be built, on those files and
 * on the {@code .sym} files of {@code breakpad/elf} (dump_syms' form of real binaries).
 */
@StartsProcesses
class BreakpadResolverTest {
  /** The documented differences each committed file has (docs/breakpad.md). */
  static Stream<Arguments> committed() {
    return Stream.of(
        Arguments.of("basic", Map.of(Difference.PUBLIC_TAIL_BASE, 1, Difference.INLINE_OFFSET_FROM_FIRST_RANGE, 2)),
        Arguments.of("basic.roundtrip", Map.of(Difference.INLINE_OFFSET_FROM_FIRST_RANGE, 2)),
        Arguments.of("crlf", Map.of()),
        Arguments.of("inline-merged", Map.of()),
        Arguments.of("latin1", Map.of()),
        Arguments.of("line-gaps", Map.of()),
        Arguments.of("public-tail", Map.of(Difference.PUBLIC_TAIL_BASE, 1)),
        Arguments.of("file-after-use", Map.of()),
        Arguments.of("inline-old-form", Map.of(Difference.CALL_FILE_OF_INLINE_WITHOUT_ONE, 2)),
        Arguments.of("inline-outside-parent", Map.of(Difference.INLINE_RANGE_BEFORE_FUNC, 2)),
        Arguments.of("overlapping-records", Map.of()),
        Arguments.of("root-paths", Map.of()));
  }

  static GsymReader convert(Path sym) throws IOException {
    GsymCreator c = new GsymCreator();
    BreakpadTransformer.convert(sym, c, false, Diagnostics.silent());
    c.finish(Diagnostics.silent());
    return GsymReader.of(c.encode(), sym.getFileName() + ".gsym");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("committed")
  void answersAsTheCommittedResolverOutput(String name, Map<Difference, Integer> expected) throws IOException {
    Map<Long, List<Frame>> answers = ResolverOracle.committed(name);
    assertThat(answers).hasSizeGreaterThan(5);
    List<String> mismatches = new ArrayList<>();
    try (GsymReader r = convert(TestData.path("breakpad", name + ".sym"))) {
      Map<Difference, Integer> counts = ResolverOracle.compare(r, answers, mismatches);
      assertThat(ResolverOracle.report(mismatches)).isEmpty();
      assertThat(counts).isEqualTo(expected);
    }
  }

  /**
   * The round-trip fixture basic.roundtrip.sym (our --to-breakpad of our conversion of basic.sym):
   * Breakpad's resolver answers on it as on basic.sym, except where the .sym written from GSYM
   * cannot say what basic.sym says: the PUBLIC tail is written as a PUBLIC at the FUNC's end (its
   * base), folded_alias and public_two's m flags and the parameter sizes are gone (not answered).
   */
  @Test
  void roundTripFixtureAnswersAsTheOriginalForTheResolver() {
    Map<Long, List<Frame>> original = ResolverOracle.committed("basic");
    Map<Long, List<Frame>> back = ResolverOracle.committed("basic.roundtrip");
    List<Long> differing = new ArrayList<>();
    int common = 0;
    for (Map.Entry<Long, List<Frame>> e : original.entrySet()) {
      if (!back.containsKey(e.getKey())) continue;
      common++;
      if (!back.get(e.getKey()).equals(e.getValue())) differing.add(e.getKey());
    }
    assertThat(common).isGreaterThan(20);
    assertThat(differing).containsExactly(0x1110L); // inside_func: base 0x1104 there, 0x1110 (the FUNC's end) here
  }

  /** Every .sym with committed answers has a row above, and the other way round. */
  @Test
  void everyCommittedAnswerFileIsChecked() throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(TestData.path("breakpad"))) {
      s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".resolver.txt"))
          .forEach(n -> names.add(n.substring(0, n.length() - ".resolver.txt".length())));
    }
    assertThat(committed().map(a -> (String) a.get()[0])).containsExactlyInAnyOrderElementsOf(names);
  }

  static Stream<Path> liveInputs() throws IOException {
    List<Path> out = new ArrayList<>();
    for (String dir : new String[] {"breakpad", "breakpad/elf"}) {
      try (Stream<Path> s = Files.list(TestData.path(dir))) {
        s.filter(p -> p.toString().endsWith(".sym")).sorted().forEach(out::add);
      }
    }
    out.removeIf(p -> p.getFileName().toString().equals("bad.sym") || p.getFileName().toString().equals("stack-only.sym"));
    return out.stream();
  }

  /**
   * Live: Breakpad's resolver, built here, answers every interesting address of every .sym as our
   * conversion does (documented differences aside), and as its committed answers say.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("liveInputs")
  void answersAsTheLiveResolver(Path sym) throws IOException, InterruptedException {
    Path resolver = Breakpad.resolver();
    Map<Long, List<Frame>> answers = ResolverOracle.run(resolver, sym);
    assertThat(answers).isNotEmpty();
    String name = sym.getFileName().toString().replaceFirst("\\.sym$", "");
    Path committed = sym.resolveSibling(name + ".resolver.txt");
    if (Files.exists(committed)) {
      assertThat(answers).as("committed answers are up to date").isEqualTo(ResolverOracle.parse(TestData.text(committed)));
    }
    List<String> mismatches = new ArrayList<>();
    try (GsymReader r = convert(sym)) {
      Map<Difference, Integer> counts = ResolverOracle.compare(r, answers, mismatches);
      assertThat(ResolverOracle.report(mismatches)).isEmpty();
      assertThat(counts.keySet()).as("only documented differences").isSubsetOf(java.util.EnumSet.allOf(Difference.class));
    }
  }
}
