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

  /**
   * Puts a copy of {@code file} where a debug directory holds the debug file of build-id {@code
   * buildId} (hex): {@code debugDir/.build-id/xx/rest.debug}, as GDB, llvm-symbolizer and our
   * symbolizer look it up. Returns the copy's path.
   */
  public static Path addToDebugDirectory(Path debugDir, String buildId, Path file) throws java.io.IOException {
    Path to = buildIdPath(debugDir, buildId);
    Files.createDirectories(to.getParent());
    Files.copy(file, to);
    return to;
  }

  /** Where a debug directory holds build-id {@code buildId}'s debug file: {@code .build-id/xx/rest.debug}. */
  public static Path buildIdPath(Path debugDir, String buildId) {
    return debugDir.resolve(".build-id").resolve(buildId.substring(0, 2)).resolve(buildId.substring(2) + ".debug");
  }

  /**
   * Every GSYM file under src-test-data (a file whose first four bytes are the GSYM magic in
   * either byte order: llvm's goldens in gsym/, macho/, pecoff/, vectors/, ..., and ours in
   * breakpad/ and stack/), sorted by path. Object files holding a GSYM section are not listed.
   */
  public static java.util.List<Path> gsymFiles() {
    Path root = repoRoot().resolve("src-test-data");
    try (java.util.stream.Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).filter(TestData::startsWithGsymMagic).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean startsWithGsymMagic(Path p) {
    try (java.io.InputStream in = Files.newInputStream(p)) {
      byte[] m = in.readNBytes(4);
      return java.util.Arrays.equals(m, new byte[] {'M', 'Y', 'S', 'G'}) || java.util.Arrays.equals(m, new byte[] {'G', 'S', 'Y', 'M'});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A path below src-test-data. */
  public static Path path(String first, String... more) {
    return repoRoot().resolve("src-test-data").resolve(Path.of(first, more));
  }
}
