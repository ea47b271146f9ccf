package dev.gsym.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Seed inputs for the Jazzer fuzz targets ({@code *FuzzTest}), read from the goldens in
 * src-test-data instead of copies: each {@code @MethodSource} of a target returns these, Jazzer
 * replays them in every test run (regression mode) and mutates them when fuzzing. Each argument is
 * named after its file, so a failing replay says which seed it was.
 *
 * <p>A replay only shows that no seed crashes the parser; a parser that refused every input would
 * pass it. So each target also asserts, through {@link #refused}, which of its seeds are refused
 * (most: none), naming the rest as accepted.
 */
public final class FuzzSeeds {
  private FuzzSeeds() {}

  /** The files directly below {@code src-test-data/dir} whose names {@code keep} accepts, sorted. */
  public static Stream<Arguments> files(String dir, Predicate<String> keep) {
    try (Stream<Path> s = Files.list(TestData.path(dir))) {
      List<Path> paths = s.filter(Files::isRegularFile).filter(p -> keep.test(p.getFileName().toString())).sorted().toList();
      if (paths.isEmpty()) throw new IllegalStateException("no seeds in src-test-data/" + dir);
      return paths.stream().map(p -> Arguments.argumentSet(dir + "/" + p.getFileName(), (Object) read(p)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The seeds {@code accept} refuses (throws an exception or an AssertionError for), by name, with
   * the message: a target's seeds are valid inputs, so its test asserts this map (usually empty).
   */
  public static Map<String, String> refused(Stream<Arguments> seeds, Consumer<byte[]> accept) {
    Map<String, String> refused = new TreeMap<>();
    int n = 0;
    for (Arguments a : seeds.toList()) {
      n++;
      try {
        accept.accept((byte[]) a.get()[0]);
      } catch (RuntimeException | AssertionError e) {
        refused.put(((Arguments.ArgumentSet) a).getName(), String.valueOf(e.getMessage()));
      }
    }
    if (n == 0) throw new IllegalStateException("no seeds");
    return refused;
  }

  /**
   * Asserts that {@code accept} refuses exactly the seeds named in {@code expected}, each with a
   * message containing the text given for it, and accepts every other seed.
   */
  public static void assertRefused(Stream<Arguments> seeds, Consumer<byte[]> accept, Map<String, String> expected) {
    Map<String, String> refused = refused(seeds, accept);
    org.assertj.core.api.Assertions.assertThat(refused.keySet()).as("seeds refused: %s", refused)
        .isEqualTo(new TreeMap<>(expected).keySet());
    expected.forEach((name, why) -> org.assertj.core.api.Assertions.assertThat(refused.get(name)).as(name).contains(why));
  }

  /** One file below src-test-data as a named seed. */
  public static Arguments file(String first, String... more) {
    Path p = TestData.path(first, more);
    return Arguments.argumentSet(TestData.repoRoot().resolve("src-test-data").relativize(p).toString(), (Object) read(p));
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
