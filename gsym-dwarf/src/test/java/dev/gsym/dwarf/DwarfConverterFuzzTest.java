package dev.gsym.dwarf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz targets for ELF + DWARF conversion (docs/reliability.md).
 *
 * <ul>
 *   <li>{@link #elfFile}: the input is a whole ELF file (executable, shared object, relocatable
 *       object, {@code .dwo} or {@code .dwp}), converted in memory with merged functions and DWARF
 *       call sites on, as {@code gsymutil --dwarf} does; the GSYM made is read back and looked up.
 *   <li>{@link #dwpPackage}: the input is the {@code .dwp} package beside a fixed split-DWARF
 *       binary, converted from disk as {@code gsymutil --dwarf BINARY} finds it (unit indexes,
 *       package sections).
 * </ul>
 *
 * Only GsymFormatException may escape; anything else, and an input taking longer than {@link
 * #LIMIT}, is a finding. The seeds are the golden binaries in src-test-data/bin (compressed
 * sections, split units and packages, ELF32 and big-endian targets, Rust, ICF) and the relocatable
 * object in src-test-data/embed.
 */
class DwarfConverterFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);
  private static final DwarfConverter.Options OPTIONS = DwarfConverter.Options.builder().threads(1)
      .mergedFunctions(true).dwarfCallSites(true).quiet(false).build();
  /** The binary whose package {@link #dwpPackage} fuzzes: GNU version 2 index with type units. */
  private static final String DWP_BINARY = "dwp-gxx-O2-d4-types";

  static Stream<Arguments> elfSeeds() {
    return Stream.concat(FuzzSeeds.files("bin", n -> true), Stream.of(FuzzSeeds.file("embed", "embed-ppc.o")));
  }

  static Stream<Arguments> dwpSeeds() {
    return FuzzSeeds.files("bin", n -> n.endsWith(".dwp"));
  }

  @MethodSource("elfSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void elfFile(byte[] input) {
    FuzzLimits.within(LIMIT, "dwarf", "converting an ELF file of " + input.length + " bytes", () -> {
      try {
        convert(ElfFile.of(input, "fuzz.elf"));
      } catch (GsymFormatException expected) {
        // malformed input, reported with the section and offset
      }
    });
  }

  @MethodSource("dwpSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void dwpPackage(byte[] input) throws IOException {
    Path bin = packageDir().resolve(DWP_BINARY);
    Files.write(packageDir().resolve(DWP_BINARY + ".dwp"), input);
    FuzzLimits.within(LIMIT, "dwp", "converting beside a .dwp of " + input.length + " bytes", () -> {
      try (ElfFile elf = ElfFile.open(bin)) {
        convert(elf);
      } catch (GsymFormatException expected) {
        // malformed package, reported with the file, section and offset
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
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

  /**
   * Converts and encodes; the GSYM made must then open and decode without error (a
   * GsymFormatException there is our writer's fault, not the input's) and answer lookups at its
   * functions (a bounded number).
   */
  private static void convert(ElfFile elf) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(elf, c, Diagnostics.silent(), OPTIONS);
    byte[] gsym = c.encode(s.byteOrder());
    try (GsymReader r = GsymReader.of(gsym, "converted.gsym")) {
      for (int i = 0; i < Math.min(r.numFunctions(), 32); i++) {
        r.functionInfoAtIndex(i);
        try {
          r.lookup(r.functionAddress(i)).toString();
        } catch (LookupException notCovered) {
          // an empty function's start is not inside it
        }
      }
    } catch (GsymFormatException e) {
      throw new AssertionError("the GSYM converted from this input does not read back: " + e.getMessage(), e);
    }
  }
}
