package dev.gsym.dwarf;


import dev.gsym.coff.CoffFile;
import dev.gsym.elf.ElfFile;
import dev.gsym.macho.MachOFile;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.FileKind;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conversion fuzz targets' bound on time against size (docs/reliability.md, "Time"): ELF,
 * Mach-O and PE/COFF objects, and a DWARF package, built by clang-22 from generated C of about
 * 10 KB, 100 KB and 1 MB, converted as {@link DwarfConverterFuzzTest}, {@link ObjectFileFuzzTest}
 * and {@link DwpPackageFuzzTest} convert them; the largest may take no more than {@link
 * FuzzLimits#assertScalesLinearly} allows. A quadratic step (a unit, line table, range list or
 * package index walked once per function) fails it. A reported skip without clang-22 (and
 * llvm-dwp-22 for the package), a failure then under -Dgsym.requireTools=true; CI installs both.
 */
@NeedsLlvm
class ConversionScalingTest {
  private static final DwarfConverter.Options OPTIONS = DwarfConverter.Options.builder().threads(1)
      .mergedFunctions(true).dwarfCallSites(true).quiet(false).build();

  @TempDir
  Path dir;

  /** Functions in each built input, checked against the GSYM it converts to. */
  private final Map<byte[], Integer> functions = new IdentityHashMap<>();
  /** For packages: the binary beside each built {@code .dwp}. */
  private final Map<byte[], Path> binaries = new IdentityHashMap<>();
  private int builds;

  @ParameterizedTest
  @ValueSource(strings = {"x86_64-linux-gnu", "aarch64-apple-macos11", "x86_64-w64-windows-gnu"})
  void objectConversionScalesLinearly(String target) {
    Tools.require("clang-22");
    FuzzLimits.assertScalesLinearly("converting " + target + " objects", size -> build(target, size, false),
        input -> assertConverts(input, convertObject(input)));
  }

  @Test
  void packageConversionScalesLinearly() {
    Tools.require("clang-22");
    Tools.require("llvm-dwp-22");
    FuzzLimits.assertScalesLinearly("converting beside .dwp packages", size -> build("x86_64-linux-gnu", size, true),
        input -> {
          try (ElfFile elf = ElfFile.open(binaries.get(input))) {
            assertConverts(input, convert(elf));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private void assertConverts(byte[] input, int converted) {
    // every generated function, inlined helpers aside, is in the GSYM: a conversion that dropped
    // the input early would time well and prove nothing
    if (converted < functions.get(input)) {
      throw new AssertionError("converted " + converted + " functions of " + functions.get(input));
    }
  }

  /**
   * An input of at least {@code size} bytes: an object file for {@code target}, or with {@code
   * dwp} a package (the bytes returned) beside its skeleton object.
   */
  private byte[] build(String target, int size, boolean dwp) {
    int n = Math.max(2, size / 1000); // ~700-1,500 bytes a function, by target
    while (true) {
      byte[] input = compile(target, n, dwp);
      if (input.length >= size) return input;
      n = (int) ((long) n * size * 11 / 10 / Math.max(1, input.length)) + 2;
    }
  }

  private byte[] compile(String target, int n, boolean dwp) {
    try {
      Path work = Files.createDirectory(dir.resolve("build" + builds++));
      Files.writeString(work.resolve("gen.c"), source(n));
      // -O0 compiles a megabyte in a second (-O2 takes ten); always_inline still makes inline trees
      List<String> cmd = new ArrayList<>(List.of("clang-22", "-target", target, "-g", "-O0", "-ffreestanding",
          "-fno-builtin", "-fno-stack-protector", "-c", "gen.c", "-o", "gen.o"));
      if (dwp) cmd.add("-gsplit-dwarf");
      run(work, cmd);
      byte[] input;
      if (dwp) {
        run(work, List.of("llvm-dwp-22", "-o", "gen.o.dwp", "gen.dwo"));
        Files.delete(work.resolve("gen.dwo")); // the package, not the .dwo, must be what is read
        input = Files.readAllBytes(work.resolve("gen.o.dwp"));
        binaries.put(input, work.resolve("gen.o"));
      } else {
        input = Files.readAllBytes(work.resolve("gen.o"));
      }
      functions.put(input, n);
      return input;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void run(Path work, List<String> cmd) throws IOException {
    Path log = work.resolve("log.txt");
    try {
      if (!LlvmConvertDifferentialTest.run(work, cmd, log)) {
        throw new AssertionError(String.join(" ", cmd) + " failed:\n" + Files.readString(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * {@code n} exported functions, each with a loop, a branch and an inlined helper (line rows,
   * an inline tree and a call site per function).
   */
  static String source(int n) {
    StringBuilder c = new StringBuilder(n * 300);
    c.append("extern int sink(int);\n");
    for (int i = 0; i < n; i++) {
      c.append("static inline __attribute__((always_inline)) int helper").append(i).append("(int x) {\n")
          .append("  int y = x * ").append(2 * i + 3).append(";\n")
          .append("  if (y & 1) y += ").append(i % 7 + 1).append(";\n")
          .append("  return y ^ (x >> 2);\n}\n")
          .append("int function").append(i).append("(int a, int b) {\n")
          .append("  int s = helper").append(i).append("(a);\n")
          .append("  for (int k = 0; k < b; k++)\n")
          .append("    s += helper").append(i).append("(s + k);\n")
          .append("  return sink(s - b);\n}\n");
    }
    return c.toString();
  }

  /** Converts an ELF, Mach-O or PE/COFF object; the number of functions in the GSYM made. */
  private static int convertObject(byte[] input) {
    switch (FileKind.sniff(input)) {
      case ELF -> {
        try (ElfFile f = ElfFile.of(input, "scaled.o")) {
          return convert(f);
        }
      }
      case MACH_O -> {
        try (MachOFile f = MachOFile.of(input, "scaled.o")) {
          return convert(f);
        }
      }
      case COFF -> {
        try (CoffFile f = CoffFile.of(input, "scaled.o")) {
          return convert(f);
        }
      }
      default -> throw new AssertionError("not an object file clang makes here");
    }
  }

  private static int convert(ObjectFile file) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(file, c, Diagnostics.silent(), OPTIONS);
    try (GsymReader r = GsymReader.of(c.encode(s.byteOrder()), "scaled.gsym")) {
      return r.numFunctions();
    }
  }
}
