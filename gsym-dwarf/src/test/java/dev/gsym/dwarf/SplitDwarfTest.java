package dev.gsym.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split DWARF (-gsplit-dwarf): skeleton units load their .dwo through DW_AT_comp_dir +
 * DW_AT_dwo_name, or beside the binary; a missing .dwo gives llvm's warning and the skeleton is
 * used. Byte-identity with llvm-gsymutil-22 for 18 split builds is in LlvmConvertDifferentialTest.
 * Skipped without clang-22.
 */
class SplitDwarfTest {
  @TempDir Path tmp;

  private record Result(DwarfConverter.Summary summary, String log, byte[] gsym) {}

  private static Result convert(Path bin) throws Exception {
    StringBuilder log = new StringBuilder();
    Diagnostics d = new Diagnostics(log);
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(bin, c, d, new DwarfConverter.Options(false, false, false, 1));
    return new Result(s, log + d.summary(), c.encode(s.byteOrder()));
  }

  @Test
  void dwoFilesAreFoundOrWarnedAbout() throws Exception {
    Path build = Files.createDirectories(tmp.resolve("build"));
    for (String f : List.of("c_main.c", "c_util.c", "c_util.h")) Files.copy(TestData.path("src", f), build.resolve(f));
    for (String u : List.of("c_main", "c_util")) {
      assumeTrue(LlvmConvertDifferentialTest.run(build, List.of("clang-22", "-g", "-gsplit-dwarf", "-O2", "-c", u + ".c")),
          "clang-22 not available");
    }
    assumeTrue(LlvmConvertDifferentialTest.run(build, List.of("clang-22", "c_main.o", "c_util.o", "-o", "a.out")));
    Path bin = build.resolve("a.out");

    Result found = convert(bin);
    assertThat(found.summary().dwarfFunctions()).isGreaterThan(5);
    assertThat(found.log()).doesNotContain("Unable to retrieve DWO");
    try (GsymReader r = GsymReader.of(found.gsym(), "a.gsym")) {
      long outer = -1;
      for (int i = 0; i < r.numFunctions(); i++) {
        if (r.string(r.functionInfoAtIndex(i).name()).equals("outer")) outer = r.functionAddress(i);
      }
      assertThat(outer).isNotEqualTo(-1);
      LookupResult lr = r.lookup(outer);
      assertThat(lr.locations().size()).as("inline frames from the .dwo").isGreaterThan(1);
      assertThat(lr.locations().getLast().base()).isEqualTo("c_main.c");
    }

    // Moved together to a directory the compilation directory does not name: found beside the binary.
    Path moved = Files.createDirectories(tmp.resolve("moved"));
    for (String f : List.of("a.out", "c_main.dwo", "c_util.dwo")) Files.move(build.resolve(f), moved.resolve(f));
    Result beside = convert(moved.resolve("a.out"));
    assertThat(beside.gsym()).isEqualTo(found.gsym());

    // Without the .dwo files: llvm's warning per unit, then only the symbol table.
    Files.delete(moved.resolve("c_main.dwo"));
    Files.move(moved.resolve("c_util.dwo"), moved.resolve("other.dwo"), StandardCopyOption.REPLACE_EXISTING);
    Result missing = convert(moved.resolve("a.out"));
    assertThat(missing.summary().dwarfFunctions()).isZero();
    assertThat(missing.log()).contains("warning: Unable to retrieve DWO .debug_info section for c_main.dwo\n")
        .contains("warning: Unable to retrieve DWO .debug_info section for c_util.dwo\n")
        .contains("warning: Unable to retrieve DWO .debug_info section for some object files. (Remove the --quiet flag for full output) occurred 2 time(s)");
  }
}
