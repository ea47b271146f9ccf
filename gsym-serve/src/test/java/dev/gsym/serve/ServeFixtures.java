package dev.gsym.serve;

import dev.gsym.elf.ElfFile;
import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test data of the service's tests: src-test-data's binaries and llvm-gsymutil-22's GSYMs of them. */
final class ServeFixtures {
  private ServeFixtures() {}

  static Path bin(String name) {
    return TestData.path("bin", name);
  }

  static Path gsym(String name) {
    return TestData.path("gsym", name + ".gsym");
  }

  static String buildId(Path elf) throws IOException {
    try (ElfFile f = ElfFile.open(elf)) {
      return HexFormat.of().formatHex(f.buildId());
    }
  }

  /** A debug directory holding {@code elf} under its build-id ({@code .build-id/xx/rest.debug}). */
  static Path debugDirectory(Path root, Path elf) throws IOException {
    TestData.addToDebugDirectory(root, buildId(elf), elf);
    return root;
  }

  /** Every function's first, middle and last byte in the GSYM (start only for size 0). */
  static List<Long> functionAddresses(Path gsym) throws IOException {
    List<Long> out = new ArrayList<>();
    try (GsymReader r = GsymReader.open(gsym)) {
      for (int i = 0; i < r.numFunctions(); i++) {
        FunctionInfo fi = r.functionInfoAtIndex(i);
        long start = fi.range().start();
        long size = fi.range().size();
        out.add(start);
        if (size > 1) out.add(start + size / 2);
        if (size > 2) out.add(start + size - 1);
      }
    }
    return out;
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  /** A JSON string literal. */
  static String str(String s) {
    return TestServer.JSON.writeValueAsString(s);
  }
}
