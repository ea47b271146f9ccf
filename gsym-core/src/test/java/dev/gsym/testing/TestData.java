package dev.gsym.testing;

import dev.gsym.ByteStrings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository's src-test-data directory from any module's tests. */
public final class TestData {
  private TestData() {}

  /** The repository root (system property gsym.repo.root, else the nearest parent with src-test-data). */
  public static Path repoRoot() {
    String prop = System.getProperty("gsym.repo.root");
    if (prop != null && !prop.isEmpty() && Files.isDirectory(Path.of(prop, "src-test-data"))) {
      return Path.of(prop);
    }
    Path p = Path.of("").toAbsolutePath();
    while (p != null) {
      if (Files.isDirectory(p.resolve("src-test-data"))) return p;
      p = p.getParent();
    }
    throw new IllegalStateException("cannot find src-test-data above " + Path.of("").toAbsolutePath());
  }

  /**
   * The bytes of {@code p} as a String decoded by {@link ByteStrings}: two such Strings are equal
   * exactly when the files' bytes are (bytes that are not UTF-8 are not replaced).
   */
  public static String text(Path p) {
    try {
      return ByteStrings.decode(Files.readAllBytes(p));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The golden executables in src-test-data/bin, sorted by name: every file except the split-DWARF
   * companions ({@code *.dwo} objects and {@code *.dwp} packages) that sit beside their binary.
   */
  public static java.util.List<String> binaries() {
    try (java.util.stream.Stream<Path> s = Files.list(path("bin"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".dwo") && !n.endsWith(".dwp")).sorted().toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A path below src-test-data. */
  public static Path path(String first, String... more) {
    return repoRoot().resolve("src-test-data").resolve(Path.of(first, more));
  }
}
