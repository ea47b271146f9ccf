package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.read.GsymStatistics;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The figures llvm main's own llvm-gsymutil tests expect (llvm/test/tools/llvm-gsymutil/, read at
 * the commits named below), on their inputs as src-test-data/regenerate-llvmtests.sh rebuilds them
 * in llvmtests/ with yaml2obj-22, converted by us. Where a test checks lines with FileCheck, the
 * same lines are checked here (as whole lines where the test uses CHECK-NEXT).
 */
@NeedsLlvm
class LlvmMainTestsCliTest {
  @TempDir Path tmp;

  private static Path input(String name) {
    return TestData.path("llvmtests", name);
  }

  /** FileCheck's {@code CHECK: PATTERN} in order over {@code text}: each regex found after the previous one. */
  private static void checkInOrder(String text, List<String> regexes) {
    int at = 0;
    for (String r : regexes) {
      var m = Pattern.compile(r).matcher(text);
      assertThat(m.find(at)).as("/%s/ after offset %d in:\n%s", r, at, text).isTrue();
      at = m.end();
    }
  }

  /**
   * X86/statistics-detailed.yaml (commit 42dae32ac114): converted with --merged-functions
   * --dwarf-callsites --output-version=2, --statistics in its three formats prints the test's
   * figures, all of them (STATS, STATS-JSON, STATS-PRETTY).
   */
  @Test
  void statisticsDetailed() throws Exception {
    Path gsym = tmp.resolve("t.gsym");
    CliRun c = CliRun.run("--dwarf", input("statistics").toString(), "--merged-functions", "--dwarf-callsites",
        "--output-version=2", "-o", gsym.toString());
    assertThat(c.status()).as(c.err()).isZero();
    assertThat(Files.size(gsym)).isEqualTo(473);
    // the test's CHECK lines, written out in src-test-data/llvmtests/statistics.expected.*
    for (String[] f : new String[][] {{"--statistics", "txt"}, {"--statistics=json", "json"},
        {"--statistics=pretty-json", "pretty.json"}}) {
      CliRun run = CliRun.run(f[0], gsym.toString());
      assertThat(run.status()).as(run.err()).isZero();
      assertThat(run.out()).as(f[0])
          .isEqualTo(Files.readString(input("statistics.expected." + f[1])).replace("{{PATH}}", gsym.toString()));
    }
  }

  /**
   * The same input in version 1 (no LLVM test has version 1 figures): our conversion is
   * llvm-gsymutil-22's file byte for byte, and its report follows from the version 1 layout: the
   * 48-byte header holds the UUID (no directory, no UUID section), 1-byte address offsets, 4-byte
   * address-info offsets (3 bytes of padding before them, 1 after the string table to align the
   * records: 4), 4-byte string offsets (file table 4 + 3 x 8), the same
   * string table, line table and merged-function count as version 2, and records whose name and
   * InfoType offsets are 4 bytes narrower where version 2 stores string offsets in 8.
   */
  @Test
  void statisticsOfTheSameInputInVersion1() throws Exception {
    Path gsym = tmp.resolve("v1.gsym");
    CliRun c = CliRun.run("--dwarf", input("statistics").toString(), "--merged-functions", "--dwarf-callsites",
        "-o", gsym.toString());
    assertThat(c.status()).as(c.err()).isZero();
    assertThat(gsym).hasSameBinaryContentAs(input("statistics.llvm22.gsym"));
    try (GsymReader r = GsymReader.open(gsym)) {
      GsymStatistics s = GsymStatistics.of(r, gsym.toString());
      assertThat(s.fileSize()).isEqualTo(297);
      assertThat(s.uuidText()).isEqualTo("01234567-89AB-CDEF-FEDC-BA9876543210");
      assertThat(List.of(s.header(), s.globalDataDirectory(), s.uuidSection(), s.addressTable(), s.padding(),
          s.addrInfoOffsets(), s.fileTable(), s.stringTable())).containsExactly(48L, 0L, 0L, 1L, 4L, 4L, 28L, 43L);
      assertThat(s.functionInfoData()).isEqualTo(297 - 48 - 1 - 4 - 4 - 28 - 43);
      GsymStatistics.InfoTypeSizes f = s.functionInfo(), m = s.merged();
      assertThat(List.of(f.sizeAndName(), f.lineTable(), f.inlineInfo(), f.callSites(), f.endOfList()))
          .containsExactly(8L, 32L, 0L, 0L, 8L);
      assertThat(List.of(m.countAndSizes(), m.sizeAndName(), m.lineTable(), m.endOfList())).containsExactly(16L, 8L, 32L, 8L);
      // version 2's inline info (40) and call sites (25) hold 8-byte string offsets: one name each, one regex
      assertThat(m.inlineInfo()).isEqualTo(40 - 2 * 4);
      assertThat(m.callSites()).isEqualTo(25);
      assertThat(f.padding() + f.sizeAndName() + f.lineTable() + f.mergedFunctions() + f.endOfList()).isEqualTo(s.functionInfoData());
    }
  }

  /**
   * X86/elf-gnu-debugdata.yaml (commit 8b5fcde5e22c), without its .dynsym function (llvm main's
   * "Loaded 1 functions from dynamic symbol table." and exported_func are not read here): the two
   * functions of .gnu_debugdata (CONVERT, ADDR, DUMP).
   */
  @Test
  void gnuDebugdata() throws Exception {
    Path gsym = tmp.resolve("g.gsym");
    CliRun c = CliRun.run("--dwarf", input("gnu-debugdata").toString(), "-o", gsym.toString());
    assertThat(c.status()).as(c.err()).isZero();
    checkInOrder(c.out(), List.of("Loaded 0 functions from symbol table\\.",
        "Loaded 2 functions from \\.gnu_debugdata symbol table\\."));
    CliRun addr = CliRun.run("--address=0x1000", "--address=0x1015", gsym.toString());
    checkInOrder(addr.out(), List.of("0x0000000000001000: stripped_func_one", "0x0000000000001015: stripped_func_two"));
    CliRun dump = CliRun.run(gsym.toString());
    checkInOrder(dump.out(), List.of("FunctionInfo.*\\[0x0000000000001000 - 0x0000000000001010\\) \"stripped_func_one\"",
        "FunctionInfo.*\\[0x0000000000001010 - 0x0000000000001030\\) \"stripped_func_two\""));
    // LLVM 22 ignores the section
    assertThat(transcript("gnu-debugdata", "--llvm-compat=22")).isEqualTo(Files.readString(input("gnu-debugdata.llvm22.txt")));
  }

  /** X86/elf-gnu-debugdata-corrupt.yaml (commit 8b5fcde5e22c): one warning, the .symtab function kept. */
  @Test
  void gnuDebugdataCorrupt() throws Exception {
    Path gsym = tmp.resolve("c.gsym");
    CliRun c = CliRun.run("--dwarf", input("gnu-debugdata-corrupt").toString(), "-o", gsym.toString());
    assertThat(c.status()).as(c.err()).isZero();
    checkInOrder(c.out(), List.of("Loaded 1 functions from symbol table\\.",
        "warning: unable to read the \\.gnu_debugdata section: failed to decompress: .+", "ended with 1 total"));
    assertThat(c.out().lines().filter(l -> l.startsWith("warning:"))).hasSize(1);
    assertThat(c.err()).isEmpty();
    checkInOrder(CliRun.run(gsym.toString()).out(),
        List.of("FunctionInfo.*\\[0x0000000000001000 - 0x0000000000001010\\) \"real_func\""));
    assertThat(transcript("gnu-debugdata-corrupt", "--llvm-compat=22"))
        .isEqualTo(Files.readString(input("gnu-debugdata-corrupt.llvm22.txt")));
  }

  /** X86/elf-symtab-file.yaml (commit 713c09eef364): BASIC and INVALID (MISMATCH: SymtabFileCliTest, MiniDebugInfoCliTest). */
  @Test
  void symtabFile() {
    Path gsym = tmp.resolve("s.gsym");
    String debug = input("symtab-debug").toString(), symtab = input("symtab-symbols").toString();
    CliRun c = CliRun.run("--dwarf", debug, "--symtab-file=" + symtab, "-o", gsym.toString());
    assertThat(c.status()).as(c.err()).isZero();
    checkInOrder(c.out(), List.of("Input file: .*symtab-debug", "Output file \\(x86_64\\): .*s\\.gsym",
        "Using symbol table file: .*symtab-symbols", "Loaded 2 functions from symbol table\\."));
    CliRun invalid = CliRun.run("--dwarf", debug, "--symtab-file=" + input("symtab-debug.yaml"), "-o", gsym.toString() + "2");
    assertThat(invalid.status()).isEqualTo(1);
    assertThat(invalid.err()).contains("The file was not recognized as a valid object file");
  }

  /** Our run in the shape of regenerate-llvmtests.sh's NAME.llvm22.txt. */
  private String transcript(String name, String... extra) {
    Path out = tmp.resolve(name + ".transcript.gsym");
    String[] args = new String[4 + extra.length];
    args[0] = "--convert";
    args[1] = input(name).toString();
    args[2] = "--out-file";
    args[3] = out.toString();
    System.arraycopy(extra, 0, args, 4, extra.length);
    CliRun r = CliRun.run(args);
    return "## command: llvm-gsymutil-22 --convert " + name + " --out-file OUT --num-threads=1 (in llvmtests/)\n"
        + "## exit: " + r.status() + "\n## stdout:\n" + r.out().replace(out.toString(), "OUT").replace(args[1], name)
        + "## stderr:\n" + CliRun.llvmStderr(r.err()).replace(out.toString(), "OUT").replace(args[1], name);
  }
}
