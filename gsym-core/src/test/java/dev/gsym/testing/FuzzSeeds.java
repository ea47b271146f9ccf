package dev.gsym.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Seed inputs for the Jazzer fuzz targets ({@code *FuzzTest}), read from the goldens in
 * src-test-data instead of copies: each {@code @MethodSource} of a target returns these, Jazzer
 * replays them in every test run (regression mode) and mutates them when fuzzing. Each argument is
 * named after its file, so a failing replay says which seed it was.
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
