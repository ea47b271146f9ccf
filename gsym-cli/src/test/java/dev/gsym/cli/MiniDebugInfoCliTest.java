package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * .gnu_debugdata (MiniDebugInfo) as llvm main reads it, --llvm-compat=22 as llvm-gsymutil-22
 * ignores it, and --symtab-file, on the binaries of src-test-data/regenerate-minidebuginfo.sh (in minidebuginfo/).
 */
class MiniDebugInfoCliTest {
  @TempDir Path tmp;

  static final Path MDI = TestData.path("minidebuginfo", "mdi-gcc-O2");
  static final Path CORRUPT = TestData.path("minidebuginfo", "mdi-gcc-O2-corrupt");
  static final Path FULL = TestData.path("minidebuginfo", "mdi-gcc-O2.full");

  private static List<String> keptSymbols() throws Exception {
    return Files.readAllLines(TestData.path("minidebuginfo", "mdi-gcc-O2.keep-symbols.txt"));
  }

  /** llvm-gsymutil-22's stdout, stderr and status as regenerate-minidebuginfo.sh recorded them. */
  private static String llvm22(String name) throws Exception {
    return Files.readString(TestData.path("minidebuginfo", name + ".llvm22.txt"));
  }

  private String transcript(Path bin, Path out, String... extra) {
    String[] args = new String[4 + extra.length];
    args[0] = "--convert";
    args[1] = bin.getFileName().toString();
    args[2] = "--out-file";
    args[3] = out.toString();
    System.arraycopy(extra, 0, args, 4, extra.length);
    // the script ran in minidebuginfo/: the log names the input as given
    String[] abs = args.clone();
    abs[1] = bin.toString();
    CliRun r = CliRun.run(abs);
    return "## command: llvm-gsymutil-22 --convert " + args[1] + " --out-file OUT --num-threads=1 (in minidebuginfo/)\n"
        + "## exit: " + r.status() + "\n## stdout:\n" + r.out().replace(out.toString(), "OUT").replace(bin.toString(), args[1])
        + "## stderr:\n" + CliRun.llvmStderr(r.err()).replace(out.toString(), "OUT").replace(bin.toString(), args[1]);
  }

  @Test
  void readsGnuDebugdataAsLlvmMain() throws Exception {
    Path out = tmp.resolve("mdi.gsym");
    CliRun r = CliRun.run("--dwarf", MDI.toString(), "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    int kept = keptSymbols().size();
    assertThat(r.out()).isEqualTo("Input file: " + MDI + "\nOutput file (x86_64): " + out + "\n"
        + "Loaded 0 functions from DWARF.\nLoaded 0 functions from symbol table.\n"
        + "Loaded " + kept + " functions from .gnu_debugdata symbol table.\n"
        + "Pruned 0 functions, ended with " + kept + " total\n");
    // the same functions as the full binary's symbol table gives: the GSYM equals the one made with
    // --symtab-file of the unstripped binary (same build-id, same symbols)
    Path viaSymtab = tmp.resolve("symtab.gsym");
    assertThat(CliRun.run("--dwarf", MDI.toString(), "--symtab-file", FULL.toString(), "--llvm-compat=22",
        "-o", viaSymtab.toString()).status()).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(viaSymtab));
    try (GsymReader mini = GsymReader.open(out)) {
      assertThat(mini.numFunctions()).isEqualTo(kept);
      for (int i = 0; i < mini.numFunctions(); i++) {
        assertThat(keptSymbols()).contains(mini.string(mini.functionInfoAtIndex(i).name()));
      }
    }
  }

  @Test
  void llvmCompat22IgnoresTheSectionExactlyAsLlvm22() throws Exception {
    Path out = tmp.resolve("x.gsym");
    assertThat(transcript(MDI, out, "--llvm-compat=22")).isEqualTo(llvm22("mdi-gcc-O2"));
    assertThat(out).doesNotExist();
    assertThat(transcript(CORRUPT, out, "--llvm-compat", "22")).isEqualTo(llvm22("mdi-gcc-O2-corrupt"));
  }

  @Test
  void corruptXzIsOneWarning() throws Exception {
    Path out = tmp.resolve("c.gsym");
    CliRun r = CliRun.run("--dwarf", CORRUPT.toString(), "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).filteredOn(l -> l.startsWith("warning:")).singleElement().asString()
        .startsWith("warning: unable to read the .gnu_debugdata section: failed to decompress: ");
    assertThat(lines).contains("Loaded 15 functions from symbol table.", "Pruned 0 functions, ended with 15 total");
    // the warning sits where llvm main prints it: after the symbol table line
    assertThat(lines.indexOf("Loaded 15 functions from symbol table.")).isLessThan(
        lines.indexOf(lines.stream().filter(l -> l.startsWith("warning:")).findFirst().orElseThrow()));
  }

  @Test
  void badLlvmCompatValue() {
    CliRun r = CliRun.run("--dwarf", MDI.toString(), "-o", tmp.resolve("x").toString(), "--llvm-compat=21");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("gsymutil: for the --llvm-compat option: '21' is invalid. Use '22' or '23'.\n");
  }

  @Test
  void symtabFileGivesTheStrippedBinaryItsSymbols() throws Exception {
    Path out = tmp.resolve("s.gsym");
    CliRun r = CliRun.run("--dwarf", MDI.toString(), "--symtab-file", FULL.toString(), "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    Path full = tmp.resolve("full.gsym");
    CliRun f = CliRun.run("--dwarf", FULL.toString(), "-o", full.toString());
    String symtabLine = f.out().lines().filter(l -> l.endsWith("functions from symbol table.")).findFirst().orElseThrow();
    assertThat(r.out()).isEqualTo("Input file: " + MDI + "\nOutput file (x86_64): " + out + "\n"
        + "Loaded 0 functions from DWARF.\nUsing symbol table file: " + FULL + "\n" + symtabLine + "\n"
        + "Pruned 0 functions, ended with 15 total\n");
    try (GsymReader g = GsymReader.open(out)) {
      assertThat(g.numFunctions()).isEqualTo(15);
      assertThat(g.lookup(g.functionAddress(3)).toString()).doesNotContain("error");
    }
  }

  @Test
  void symtabFileErrors() {
    Path out = tmp.resolve("e.gsym");
    CliRun missing = CliRun.run("--dwarf", MDI.toString(), "--symtab-file", "/nonexistent/x", "-o", out.toString());
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).isEqualTo("DWARF conversion failed: : failed to open symbol table file '/nonexistent/x'\n");
    CliRun notObject = CliRun.run("--dwarf", MDI.toString(), "--symtab-file",
        TestData.path("gsym", "c-gcc-O2.gsym").toString(), "-o", out.toString());
    // llvm main's createBinary error (X86/elf-symtab-file.yaml, INVALID)
    assertThat(notObject.err()).isEqualTo("DWARF conversion failed: : The file was not recognized as a valid object file\n");
    Path arm = TestData.path("bin", "fs-aarch64-O2-d5");
    CliRun mismatch = CliRun.run("--dwarf", MDI.toString(), "--symtab-file", arm.toString(), "-o", out.toString());
    assertThat(mismatch.err()).isEqualTo("DWARF conversion failed: : architecture mismatch: input file is x86_64 but"
        + " symbol table file '" + arm + "' is aarch64\n");
    assertThat(out).doesNotExist();
    CliRun onBreakpad = CliRun.run("--breakpad", "x.sym", "--symtab-file", FULL.toString());
    assertThat(onBreakpad.err()).isEqualTo("gsymutil: --symtab-file and --llvm-compat only apply to --dwarf\n");
  }
}
