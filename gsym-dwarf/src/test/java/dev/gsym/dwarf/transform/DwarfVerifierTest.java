package dev.gsym.dwarf.transform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.dwarf.read.DwarfFile;
import dev.gsym.dwarf.read.DwarfSections;
import dev.gsym.elf.ElfFile;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * --verify (llvm's DwarfTransformer::verify) on the golden binaries and on a deliberately broken
 * GSYM. The live comparison with llvm-gsymutil-22 --verify is in LlvmConvertDifferentialTest.
 */
class DwarfVerifierTest {
  static int verify(String bin, GsymReader gsym, StringBuilder out) throws IOException {
    return verify(bin, gsym, "x.gsym", out);
  }

  static int verify(String bin, GsymReader gsym, String gsymPath, StringBuilder out) throws IOException {
    Path path = TestData.path("bin", bin);
    try (ElfFile elf = ElfFile.open(path); DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf), path)) {
      return new DwarfVerifier(dwarf).verify(gsym, gsymPath, out);
    }
  }

  /**
   * Every golden binary (split DWARF: .dwo beside it) verified against llvm's GSYM gives llvm's
   * report, expected/verify/X.verify.txt (llvm-gsymutil-22 --convert --verify, without the
   * conversion's category summary). Reports for gcc C++ (lambdas and shapes::sq qualified in GSYM
   * but not in DWARF) and -gline-tables-only (no DW_TAG_subprogram for some functions).
   */
  @Test
  void goldenFilesAsLlvm() throws IOException {
    int reporting = 0;
    {
      for (String bin : TestData.binaries()) {
        String expected = TestData.text(TestData.path("expected", "verify", bin + ".verify.txt"))
            .replaceAll("(?m)^.* occurred \\d+ time\\(s\\)\n", "");
        StringBuilder out = new StringBuilder();
        int n;
        try (GsymReader r = GsymReader.of(Files.readAllBytes(TestData.path("gsym", bin + ".gsym")), bin)) {
          n = verify(bin, r, bin + ".gsym", out);
        }
        assertEquals(expected, out.toString(), bin);
        assertEquals(expected.lines().filter(l -> l.startsWith("error: ")).count(), n, bin);
        if (n > 0) reporting++;
      }
    }
    assertEquals(4, reporting, "binaries with --verify reports (cpp-gcc-O0/O2, two -gline-tables-only)");
  }

  @Test
  void cppGccO2ReportsEqualLlvm() throws IOException {
    StringBuilder out = new StringBuilder();
    try (GsymReader r = GsymReader.of(Files.readAllBytes(TestData.path("gsym", "cpp-gcc-O2.gsym")), "g")) {
      assertEquals(28, verify("cpp-gcc-O2", r, out));
    }
    assertTrue(out.toString().contains("DWARF function \"sq\" doesn't match GSYM function \"shapes::sq\""), out.toString());
  }

  /** Inline info dropped from "outer" and "main" lines shifted by one in "util_sum": both reported. */
  @Test
  void brokenGsymIsReported() throws IOException {
    byte[] good = Files.readAllBytes(TestData.path("gsym", "c-clang-O2.gsym"));
    GsymCreator c;
    try (GsymReader r = GsymReader.of(good, "good")) {
      // from() keeps string offsets as they are for a file written by llvm
      c = GsymCreator.from(r, fi -> {
        String name = r.string(fi.name());
        if (name.equals("outer")) return new FunctionInfo(fi.range(), fi.name(), fi.lineTable(), null, null, null);
        if (name.equals("util_sum")) {
          return new FunctionInfo(fi.range(), fi.name(), new LineTable(fi.lineTable().rows().stream()
              .map(e -> new LineEntry(e.address(), e.file(), e.line() + 1)).toList()), fi.inlineInfo(), null, null);
        }
        return fi;
      });
    }
    c.finish(Diagnostics.silent());
    StringBuilder out = new StringBuilder();
    int n;
    try (GsymReader r = GsymReader.of(c.encode(), "bad")) {
      n = verify("c-clang-O2", r, out);
    }
    String s = out.toString();
    assertTrue(n > 0);
    assertTrue(s.startsWith("Verifying GSYM file \"x.gsym\":\nerror: address 0x0000000000001174 has 3 DWARF inline frames and GSYM has 1\n"
        + "    3 DWARF frames:\n    [0]: leaf @ /gsym-test/src/c_main.c:15\n    [1]: middle @ /gsym-test/src/c_main.c:21\n"
        + "    [2]: outer @ /gsym-test/src/c_main.c:28\n    1 GSYM frames:\n    [0]: outer @ /gsym-test/src/c_main.c:15\n"), s);
    assertTrue(s.contains("[0x0000000000001170 - 0x0000000000001210) \"outer\"\nLineTable:\n"), s);
    assertTrue(s.contains("error: address 0x0000000000001310 DWARF line 10 != GSYM line 11\n"), s);
  }
}
