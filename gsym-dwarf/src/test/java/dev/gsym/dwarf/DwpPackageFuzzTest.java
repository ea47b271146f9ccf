package dev.gsym.dwarf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for DWARF packages (docs/reliability.md): the input is the {@code
 * .dwp} beside a fixed split-DWARF binary, converted from disk as {@code gsymutil --dwarf BINARY}
 * finds it (unit indexes, package sections, split units), with {@link DwarfConverterFuzzTest}'s
 * checks. Seeds: the four {@code .dwp} goldens. (A class of its own: Jazzer fuzzes one target per
 * JVM, and bench/fuzz.sh runs one JVM per class.)
 */
@Slow
class DwpPackageFuzzTest {
  /** The binary whose package is fuzzed: GNU version 2 index with type units. */
  private static final String DWP_BINARY = "dwp-gxx-O2-d4-types";

  static Stream<Arguments> dwpSeeds() {
    return FuzzSeeds.files("bin", n -> n.endsWith(".dwp"));
  }

  @MethodSource("dwpSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void dwpPackage(byte[] input) throws IOException {
    Path bin = packageDir().resolve(DWP_BINARY);
    Files.write(packageDir().resolve(DWP_BINARY + ".dwp"), input);
    FuzzLimits.within(DwarfConverterFuzzTest.LIMIT, "dwp", "converting beside a .dwp of " + input.length + " bytes", () -> {
      try (ElfFile elf = ElfFile.open(bin)) {
        DwarfConverterFuzzTest.convert(elf);
      } catch (GsymFormatException expected) {
        // malformed package, reported with the file, section and offset
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /**
   * The seeds convert beside the binary (the replay alone would pass a converter that refused
   * every input), and the binary's own package gives it its DWARF functions.
   */
  @org.junit.jupiter.api.Test
  void seedsAreAccepted() throws IOException {
    byte[] own = Files.readAllBytes(dev.gsym.testing.TestData.path("bin", DWP_BINARY + ".dwp"));
    Path bin = packageDir().resolve(DWP_BINARY);
    FuzzSeeds.assertRefused(dwpSeeds(), input -> {
      try {
        Files.write(packageDir().resolve(DWP_BINARY + ".dwp"), input);
        dev.gsym.write.GsymCreator c = new dev.gsym.write.GsymCreator();
        DwarfConverter.Summary s = DwarfConverter.convert(bin, c, dev.gsym.write.Diagnostics.silent(), DwarfConverter.Options.defaults());
        c.encode(s.byteOrder());
        if (java.util.Arrays.equals(input, own) && s.dwarfFunctions() == 0) throw new AssertionError("no DWARF function from its own package");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, java.util.Map.of());
  }

  private static Path packageDir;

  private static synchronized Path packageDir() throws IOException {
    if (packageDir == null) {
      Path dir = Files.createTempDirectory("gsym-dwp-fuzz");
      Files.copy(dev.gsym.testing.TestData.path("bin", DWP_BINARY), dir.resolve(DWP_BINARY), StandardCopyOption.REPLACE_EXISTING);
      dir.toFile().deleteOnExit();
      dir.resolve(DWP_BINARY).toFile().deleteOnExit();
      dir.resolve(DWP_BINARY + ".dwp").toFile().deleteOnExit();
      packageDir = dir;
    }
    return packageDir;
  }

}
