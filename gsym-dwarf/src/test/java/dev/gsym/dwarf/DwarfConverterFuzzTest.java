package dev.gsym.dwarf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.object.ObjectFile;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for ELF + DWARF conversion (docs/reliability.md): the input is a
 * whole ELF file (executable, shared object, relocatable object, {@code .dwo} or {@code .dwp}),
 * converted in memory with merged functions and DWARF call sites on, as {@code gsymutil --dwarf}
 * does; the GSYM made is read back and looked up ({@link DwpPackageFuzzTest} fuzzes packages beside
 * their binary). Only GsymFormatException may escape; anything else, and an input taking longer than {@link
 * #LIMIT}, is a finding. The seeds are the golden binaries in src-test-data/bin (compressed
 * sections, split units and packages, ELF32 and big-endian targets, Rust, ICF) and the relocatable
 * object in src-test-data/embed.
 */
@Slow
class DwarfConverterFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);
  private static final DwarfConverter.Options OPTIONS = DwarfConverter.Options.builder().threads(1)
      .mergedFunctions(true).dwarfCallSites(true).quiet(false).build();

  static Stream<Arguments> elfSeeds() {
    return Stream.concat(FuzzSeeds.files("bin", n -> true), Stream.of(FuzzSeeds.file("embed", "embed-ppc.o")));
  }


  @MethodSource("elfSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void elfFile(byte[] input) {
    FuzzLimits.within(LIMIT, "dwarf", "converting an ELF file of " + input.length + " bytes", () -> {
      // closed: decompressed sections live in a native arena of the file's own
      try (ElfFile elf = ElfFile.of(input, "fuzz.elf")) {
        convert(elf);
      } catch (GsymFormatException expected) {
        // malformed input, reported with the section and offset
      }
    });
  }

  /**
   * The seeds convert, to at least one function: the replay alone would pass a converter that
   * refused every input. A split DWARF file or package alone has no unit that names its functions.
   */
  @org.junit.jupiter.api.Test
  void seedsAreAccepted() {
    java.util.Map<String, String> alone = new java.util.TreeMap<>();
    FuzzSeeds.files("bin", n -> n.endsWith(".dwo") || n.endsWith(".dwp"))
        .forEach(a -> alone.put(((Arguments.ArgumentSet) a).getName(), "no functions to encode"));
    FuzzSeeds.assertRefused(elfSeeds(), input -> {
      try (ElfFile elf = ElfFile.of(input, "seed.elf")) {
        if (convert(elf) == 0) throw new AssertionError("no function converted");
      }
    }, alone);
  }

  /**
   * Converts and encodes; the GSYM made must then open and decode without error (a
   * GsymFormatException there is our writer's fault, not the input's) and answer lookups at its
   * functions (a bounded number).
   */
  static int convert(ObjectFile file) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(file, c, Diagnostics.silent(), OPTIONS);
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
    return s.dwarfFunctions() + s.symbolFunctions();
  }
}
