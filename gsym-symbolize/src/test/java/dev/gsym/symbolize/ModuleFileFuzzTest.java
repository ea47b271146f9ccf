package dev.gsym.symbolize;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for module files (docs/reliability.md): the input is the content of a
 * module file named by path (a GSYM, ELF or Breakpad file, recognised by content), symbolized
 * through a fresh GSYM store: a failed conversion must publish nothing into the store, and no
 * temporary file may be left behind. (A class of its own: Jazzer fuzzes one target per JVM, and
 * bench/fuzz.sh runs one JVM per class.)
 */
@Slow
class ModuleFileFuzzTest {
  static Stream<Arguments> moduleFiles() {
    return Stream.of(FuzzSeeds.file("gsym", "c-clang-O2.gsym"), FuzzSeeds.file("gsym", "icf-clang-O2-gold.merged-callsites.gsym"),
        FuzzSeeds.file("bin", "c-clang-O2"), FuzzSeeds.file("bin", "fs-i386-O2-d5"), FuzzSeeds.file("bin", "split-clang-O2-c_main.dwo"),
        FuzzSeeds.file("breakpad", "basic.sym"), FuzzSeeds.file("breakpad", "inline-merged.sym"),
        FuzzSeeds.file("breakpad", "elf", "c-clang-O2.sym"));
  }

  /**
   * Each seed is a module file the symbolizer reads (but a .dwo alone, which names no function):
   * the replay alone would pass one that refused every file.
   */
  @org.junit.jupiter.api.Test
  void seedsAreAccepted() throws IOException {
    Path dir = Files.createTempDirectory(ModuleResolutionFuzzTest.fixture(), "seeds");
    try {
      dev.gsym.testing.FuzzSeeds.assertRefused(moduleFiles(), input -> {
        try {
          Path file = Files.write(dir.resolve("module"), input);
          try (Symbolizer sym = Symbolizer.builder().store(Files.createTempDirectory(dir, "store")).threads(1).build()) {
            Symbolized s = sym.symbolize(ModuleRef.file(file), ModuleResolutionFuzzTest.address);
            if (s instanceof Symbolized.ModuleNotFound || s instanceof Symbolized.ModuleUnreadable) throw new AssertionError(s.toString());
          }
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }, java.util.Map.of("bin/split-clang-O2-c_main.dwo", "no functions in its DWARF or symbol table"));
    } finally {
      ModuleResolutionFuzzTest.delete(dir);
    }
  }

  @MethodSource("moduleFiles")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void moduleFile(byte[] input) throws IOException {
    Path dir = Files.createTempDirectory(ModuleResolutionFuzzTest.fixture(), "run");
    try {
      Path file = Files.write(dir.resolve("module"), input);
      Path store = dir.resolve("store");
      FuzzLimits.within(ModuleResolutionFuzzTest.LIMIT, "module-file", "symbolizing in a module file of " + input.length + " bytes", () -> {
        Symbolized s;
        try (Symbolizer sym = Symbolizer.builder().store(store).threads(1).build()) {
          s = sym.symbolize(ModuleRef.file(file), ModuleResolutionFuzzTest.address);
        }
        List<Path> left = ModuleResolutionFuzzTest.storeFiles(store);
        for (Path p : left) {
          String n = p.getFileName().toString();
          if (n.endsWith(".tmp")) throw new AssertionError("temporary file left in the store: " + p + " after " + s);
          if (n.endsWith(".gsym") && (s instanceof Symbolized.ModuleUnreadable || s instanceof Symbolized.ModuleNotFound)) {
            throw new AssertionError("store entry " + p + " published from a failed conversion: " + s);
          }
        }
      });
    } finally {
      ModuleResolutionFuzzTest.delete(dir);
    }
  }

}
