package dev.gsym.symbolize;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for the Symbolizer's module resolution (docs/reliability.md): the
 * input is a module reference as text ({@code BUILDID:hex}, {@code BREAKPAD:file/id} or a path), as
 * {@code gsymutil symbolize} and the service take them. It is parsed ({@link ModuleRef#parse}: only
 * IllegalArgumentException may escape) and then symbolized through a Symbolizer with a GSYM store
 * and a debug directory holding one real debug file. Paths are confined to a fixture directory (the
 * fuzzer must not read the machine's files); every answer must be a {@link Symbolized}, never an
 * exception. An input taking longer than {@link #LIMIT} is a finding. ({@link ModuleFileFuzzTest}
 * fuzzes module files.)
 */
@Slow
class ModuleResolutionFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);

  /** The fixture: files/ (module files by path), debug/.build-id/ (c-clang-O2's debug file), store/. */
  private static Path fixture;
  private static Symbolizer shared;
  static long address;

  static synchronized Path fixture() throws IOException {
    if (fixture == null) {
      Path dir = Files.createTempDirectory("gsym-module-fuzz");
      Path files = Files.createDirectories(dir.resolve("files"));
      for (String n : List.of("c-clang-O2", "c-gcc-O2")) Files.copy(TestData.path("bin", n), files.resolve(n));
      Files.copy(TestData.path("gsym", "c-clang-O2.gsym"), files.resolve("c-clang-O2.gsym"));
      Files.copy(TestData.path("breakpad", "basic.sym"), files.resolve("basic.sym"));
      String id = Fixtures.buildId(TestData.path("bin", "c-clang-O2"));
      Path debug = dir.resolve("debug/.build-id").resolve(id.substring(0, 2)).resolve(id.substring(2) + ".debug");
      Files.createDirectories(debug.getParent());
      Files.copy(TestData.path("bin", "c-clang-O2"), debug);
      address = Fixtures.functionAddressOf("c-clang-O2");
      shared = Symbolizer.builder().store(dir.resolve("store")).addSource(Source.DebugDirectories.of(dir.resolve("debug")))
          .threads(1).build();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        shared.close();
        delete(dir);
      }));
      fixture = dir;
    }
    return fixture;
  }

  static Stream<Arguments> names() throws IOException {
    String id = Fixtures.buildId(TestData.path("bin", "c-clang-O2"));
    String uuid = id.substring(0, 8) + "-" + id.substring(8, 12) + "-" + id.substring(12, 16) + "-" + id.substring(16, 20) + "-"
        + id.substring(20, 32);
    List<String> names = List.of("BUILDID:" + id, "buildid:" + id.toUpperCase(), "BUILDID:" + uuid, "BUILDID:" + id.substring(0, 7),
        "BREAKPAD:basic.pdb/44E4EC8C2F41492B9369D6B9A059577C2", "BREAKPAD:c/d/xul.pdb/44e4ec8c-2f41-492b-9369-d6b9a059577c-2",
        "c-clang-O2", "c-clang-O2.gsym", "basic.sym", "/c-gcc-O2", "./files/../c-clang-O2", "missing");
    List<Arguments> out = new ArrayList<>();
    for (String n : names) out.add(Arguments.argumentSet(n, (Object) n.getBytes(StandardCharsets.UTF_8)));
    return out.stream();
  }

  /**
   * The seeds that name a module the fixture has resolve to it: the replay alone would pass a
   * resolver that found nothing. Not found: the Breakpad names (no Breakpad source configured), the
   * build-id cut to 7 digits or to a UUID's 16 bytes, and "missing".
   */
  @org.junit.jupiter.api.Test
  void seedsAreAccepted() throws IOException {
    Path files = fixture().resolve("files");
    String id = Fixtures.buildId(TestData.path("bin", "c-clang-O2"));
    String uuid = id.substring(0, 8) + "-" + id.substring(8, 12) + "-" + id.substring(12, 16) + "-" + id.substring(16, 20) + "-"
        + id.substring(20, 32);
    java.util.Map<String, String> notFound = java.util.Map.of(
        "BREAKPAD:basic.pdb/44E4EC8C2F41492B9369D6B9A059577C2", "no configured source can look it up",
        "BREAKPAD:c/d/xul.pdb/44e4ec8c-2f41-492b-9369-d6b9a059577c-2", "no configured source can look it up",
        "BUILDID:" + id.substring(0, 7), "odd number of hex digits",
        "BUILDID:" + uuid, "no .build-id/" + id.substring(0, 2) + "/" + id.substring(2, 32) + ".debug",
        "missing", "No such file or directory");
    dev.gsym.testing.FuzzSeeds.assertRefused(names(), input -> {
      ModuleRef ref = ModuleRef.parse(new String(input, StandardCharsets.UTF_8));
      if (ref instanceof ModuleRef.FilePath(Path p)) ref = ModuleRef.file(files.resolve(p.toString().replaceFirst("^/+", "")).normalize());
      Symbolized s = shared.symbolize(ref, address);
      if (s instanceof Symbolized.ModuleNotFound || s instanceof Symbolized.ModuleUnreadable) throw new AssertionError(s.toString());
    }, notFound);
  }

  @MethodSource("names")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void moduleName(byte[] input) throws IOException {
    Path files = fixture().resolve("files");
    String text = new String(input, StandardCharsets.UTF_8);
    FuzzLimits.within(LIMIT, "module-name", "resolving a module name of " + input.length + " bytes", () -> {
      ModuleRef ref;
      try {
        ref = ModuleRef.parse(text);
      } catch (IllegalArgumentException expected) {
        if (expected.getMessage().length() > 600) throw new AssertionError("error message of " + expected.getMessage().length() + " characters");
        return;
      }
      if (ref instanceof ModuleRef.FilePath(Path p)) {
        Path inside = files.resolve(p.toString().replaceFirst("^/+", "")).normalize();
        if (!inside.startsWith(files)) return; // outside the fixture: not this target's business
        ref = ModuleRef.file(inside);
      }
      Symbolized s = shared.symbolize(ref, address);
      if (s == null) throw new AssertionError("no answer");
    });
  }

  static List<Path> storeFiles(Path store) {
    if (!Files.isDirectory(store)) return List.of();
    try (Stream<Path> s = Files.walk(store)) {
      return s.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
