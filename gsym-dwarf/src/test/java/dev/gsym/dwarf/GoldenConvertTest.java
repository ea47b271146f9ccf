package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Converts every golden binary and compares with llvm-gsymutil-22 --convert --num-threads=1. */
class GoldenConvertTest {
  static Stream<String> binaries() throws IOException {
    try (Stream<Path> s = Files.list(TestData.path("bin"))) {
      return s.map(p -> p.getFileName().toString()).sorted().toList().stream();
    }
  }

  static byte[] convert(String name, StringBuilder log) throws IOException {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary sum = DwarfConverter.convert(TestData.path("bin", name), c, new Diagnostics(log), DwarfConverter.Options.defaults());
    return c.encode(sum.byteOrder());
  }

  @ParameterizedTest
  @MethodSource("binaries")
  void byteIdentical(String name) throws IOException {
    StringBuilder log = new StringBuilder();
    byte[] ours = convert(name, log);
    byte[] llvm = Files.readAllBytes(TestData.path("gsym", name + ".gsym"));
    assertArrayEquals(llvm, ours, name + ": GSYM bytes differ\n" + log);
  }

  @ParameterizedTest
  @MethodSource("binaries")
  void loadedCountsMatchLlvmLog(String name) throws IOException {
    StringBuilder log = new StringBuilder();
    convert(name, log);
    String expected = Files.readString(TestData.path("expected", "convert", name + ".gsym.log.txt"));
    for (String line : expected.split("\n")) {
      if (line.startsWith("Loaded ") || line.startsWith("Pruned ")) {
        assertEquals(true, log.toString().contains(line + "\n"), name + ": missing '" + line + "' in\n" + log);
      }
    }
  }
}
