package dev.gsym.dwarf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.coff.CoffFile;
import dev.gsym.macho.FatArch;
import dev.gsym.macho.MachOFile;
import dev.gsym.macho.MachOUniversal;
import dev.gsym.object.FileKind;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for the object formats other than ELF (docs/reliability.md): the
 * input is a whole Mach-O file (thin, or universal with every slice converted, as {@code gsymutil
 * --dwarf} does without {@code --arch}) or a PE/COFF file, told apart by its magic number as the CLI
 * does, converted in memory with merged functions and DWARF call sites on, and the GSYM made read
 * back ({@link DwarfConverterFuzzTest#convert}). Only GsymFormatException may escape; anything else,
 * and an input slower than {@link DwarfConverterFuzzTest#LIMIT}, is a finding. Seeds: the Mach-O,
 * universal, dSYM and PE/COFF goldens (src-test-data/macho/bin, src-test-data/pecoff/bin).
 */
@Slow
class ObjectFileFuzzTest {
  static Stream<Arguments> objectSeeds() {
    // the DWARF files inside the dSYM bundles (a bundle is a directory): a thin and a universal one
    Stream<Arguments> dsyms = Stream.of("c-x86_64-O2", "fat-c-O2", "cpp-arm64-O2-d5")
        .map(n -> FuzzSeeds.file("macho", "bin", n + ".dSYM", "Contents", "Resources", "DWARF", n));
    return Stream.of(FuzzSeeds.files("macho/bin", n -> true), dsyms, FuzzSeeds.files("pecoff/bin", n -> true))
        .flatMap(s -> s);
  }

  @MethodSource("objectSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void objectFile(byte[] input) {
    FuzzLimits.within(DwarfConverterFuzzTest.LIMIT, "object", "converting an object file of " + input.length + " bytes", () -> {
      try {
        convert(input);
      } catch (GsymFormatException expected) {
        // malformed input, reported with its offset
      }
    });
  }

  /**
   * The seeds are Mach-O, universal and PE/COFF files that convert, to at least one function: the
   * replay alone would pass a converter that refused every input.
   */
  @org.junit.jupiter.api.Test
  void seedsAreAccepted() {
    FuzzSeeds.assertRefused(objectSeeds(), input -> {
      int functions = convert(input);
      if (functions <= 0) throw new AssertionError(functions < 0 ? "not an object file" : "no function converted");
    }, java.util.Map.of());
  }

  /** Converts every slice; the functions converted, or -1 for a file of none of these formats. */
  private static int convert(byte[] input) {
    switch (FileKind.sniff(input)) {
      case MACH_O -> {
        try (MachOFile m = MachOFile.of(input, "fuzz.macho")) {
          return DwarfConverterFuzzTest.convert(m);
        }
      }
      case MACH_O_UNIVERSAL -> {
        int functions = 0;
        try (MachOUniversal fat = MachOUniversal.of(input, "fuzz.fat")) {
          for (FatArch a : fat.archs()) {
            try (MachOFile m = fat.slice(a)) {
              functions += DwarfConverterFuzzTest.convert(m);
            }
          }
        }
        return functions;
      }
      case COFF -> {
        try (CoffFile f = CoffFile.of(input, "fuzz.exe")) {
          return DwarfConverterFuzzTest.convert(f);
        }
      }
      default -> {
        return -1; // not an object file of these formats: the CLI's "not recognized" error
      }
    }
  }
}
