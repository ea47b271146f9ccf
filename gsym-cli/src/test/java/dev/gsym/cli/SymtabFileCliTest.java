package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --symtab-file} with Mach-O universal files, as llvm main's llvm-gsymutil resolves the
 * symbol table (resolveSymtabObject): the slice of the converted object's architecture, on the
 * universal goldens of src-test-data/regenerate-macho.sh (fat-c-O2: arm64 and x86_64 executables;
 * fat64-objects.o: the i386, x86_64, armv7, arm64_32 and arm64 objects whose thin copies are
 * c-ARCH-O2.o). The cases are those of llvm main's test
 * llvm/test/tools/llvm-gsymutil/ARM_AArch64/fat-macho-symtab-file.yaml (commit 4192235d67d9): thin
 * input with a universal symbol table, universal with universal, universal with a thin one and
 * --arch, the error without --arch, and a universal symbol table without the architecture; plus
 * the errors of X86/elf-symtab-file.yaml (commit 713c09eef364).
 */
class SymtabFileCliTest {
  @TempDir Path tmp;

  private static String bin(String name) {
    return TestData.path("macho", "bin", name).toString();
  }

  private static byte[] bytes(Path p) throws IOException {
    return Files.readAllBytes(p);
  }

  private CliRun convert(String in, String out, String... extra) {
    String[] args = Stream.concat(Stream.of("--dwarf", in, "-o", tmp.resolve(out).toString(), "--num-threads=1"),
        Arrays.stream(extra)).toArray(String[]::new);
    return CliRun.run(args);
  }

  /**
   * A thin input takes the slice of its own architecture from a universal symbol table (llvm's
   * THIN-FAT). The objects c-ARCH-O2.o with fat64-objects.o, whose slices they are, give
   * llvm-gsymutil-22's files of the objects alone (a wrong slice would give other symbols), and
   * its log with "Using symbol table file" and llvm main's names of thin Mach-O files.
   */
  @Test
  void thinInputTakesItsSliceOfAUniversalSymbolTable() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("gsym"));
    for (String arch : List.of("i386", "x86_64", "armv7", "arm64")) {
      String name = "c-" + arch + "-O2.o";
      CliRun r = CliRun.run("--convert", bin(name), "--out-file", dir.resolve(name + ".gsym").toString(), "--num-threads=1",
          "--verify", "--symtab-file", bin("fat64-objects.o"));
      assertThat(r.status()).as(r.err()).isZero();
      String golden = Files.readString(TestData.path("macho", "expected", name + ".convert.txt"), StandardCharsets.UTF_8);
      String expected = golden.replace("Input file: bin/", "Input file: " + TestData.path("macho", "bin") + "/")
          .replace("Output file (aarch64)", "Output file (arm64)").replace("Output file (arm)", "Output file (armv7)")
          .replaceAll("(?m)^(Loaded \\d+ functions from symbol table\\.)$", "Using symbol table file: " + bin("fat64-objects.o") + "\n$1");
      assertThat(r.out().replace(tmp + "/", "")).as(name).isEqualTo(expected);
      assertThat(expected).contains("Output file (" + arch + "): ");
      assertThat(dir.resolve(name + ".gsym")).hasSameBinaryContentAs(TestData.path("macho", "gsym", name + ".gsym"));
    }
    // a dSYM with the executables' universal file: the executable's symbols, as with the thin executable
    for (String arch : List.of("arm64", "x86_64")) {
      String dsym = bin("c-" + arch + "-O2.dSYM");
      CliRun exe = convert(dsym, arch + "-exe.gsym", "--symtab-file", bin("fat-c-O2"));
      assertThat(exe.status()).as(exe.err()).isZero();
      assertThat(exe.out()).isEqualTo("Input file: " + dsym + "\nOutput file (" + arch + "): " + tmp.resolve(arch + "-exe.gsym")
          + "\nLoaded 7 functions from DWARF.\nUsing symbol table file: " + bin("fat-c-O2")
          + "\nLoaded 7 functions from symbol table.\nPruned 7 functions, ended with 7 total\n");
      CliRun exeThin = convert(dsym, arch + "-exe-thin.gsym", "--symtab-file", bin("c-" + arch + "-O2"));
      assertThat(exeThin.status()).isZero();
      assertThat(tmp.resolve(arch + "-exe.gsym")).hasSameBinaryContentAs(tmp.resolve(arch + "-exe-thin.gsym"));
    }
  }

  /**
   * A universal input with a universal symbol table: every slice takes its own. fat64-objects.o as
   * both gives llvm-gsymutil-22's files of fat64-objects.o alone, and its log with "Using symbol
   * table file" before each symbol table (llvm's FAT-FAT).
   */
  @Test
  void universalInputTakesEachSliceFromAUniversalSymbolTable() throws Exception {
    String fat = bin("fat64-objects.o");
    Path dir = Files.createDirectories(tmp.resolve("gsym"));
    CliRun r = CliRun.run("--convert", fat, "--out-file", dir.resolve("fat64-objects.o.gsym").toString(), "--num-threads=1",
        "--verify", "--symtab-file", fat);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    String golden = Files.readString(TestData.path("macho", "expected", "fat64-objects.o.convert.txt"), StandardCharsets.UTF_8);
    String expected = golden.replace("Input file: bin/", "Input file: " + TestData.path("macho", "bin") + "/")
        .replaceAll("(?m)^(Loaded \\d+ functions from symbol table\\.)$", "Using symbol table file: " + fat + "\n$1");
    assertThat(r.out().replace(tmp + "/", "")).isEqualTo(expected);
    for (String arch : List.of("i386", "x86_64", "armv7", "arm64_32", "arm64")) {
      assertThat(dir.resolve("fat64-objects.o.gsym." + arch))
          .hasSameBinaryContentAs(TestData.path("macho", "gsym", "fat64-objects.o.gsym." + arch));
    }
    // the executables: each slice of the universal dSYM with the executable of its architecture
    CliRun exe = convert(bin("fat-c-O2.dSYM"), "exe.gsym", "--symtab-file", bin("fat-c-O2"));
    assertThat(exe.status()).as(exe.err()).isZero();
    assertThat(exe.out()).contains("Output file (x86_64): " + tmp.resolve("exe.gsym.x86_64") + "\n",
        "Output file (arm64): " + tmp.resolve("exe.gsym.arm64") + "\n");
    assertThat(exe.out().split("Using symbol table file: " + bin("fat-c-O2") + "\n", -1)).hasSize(3);
    for (String arch : List.of("x86_64", "arm64")) {
      CliRun thin = convert(bin("c-" + arch + "-O2.dSYM"), arch + ".gsym", "--symtab-file", bin("c-" + arch + "-O2"));
      assertThat(thin.status()).isZero();
      assertThat(tmp.resolve("exe.gsym." + arch)).hasSameBinaryContentAs(tmp.resolve(arch + ".gsym"));
    }
  }

  /** A thin symbol table with a universal input: --arch must choose one slice (llvm's FAT-THIN and FAT-THIN-ERR). */
  @Test
  void universalInputWithAThinSymbolTableNeedsArch() throws Exception {
    String dsym = bin("fat-c-O2.dSYM");
    CliRun one = convert(dsym, "one.gsym", "--arch", "arm64", "--symtab-file", bin("c-arm64-O2"));
    assertThat(one.status()).as(one.err()).isZero();
    assertThat(one.out()).startsWith("Input file: " + dsym + "\nOutput file (arm64): " + tmp.resolve("one.gsym") + "\n");
    CliRun thin = convert(bin("c-arm64-O2.dSYM"), "thin.gsym", "--symtab-file", bin("c-arm64-O2"));
    assertThat(tmp.resolve("one.gsym")).hasSameBinaryContentAs(tmp.resolve("thin.gsym"));
    assertThat(thin.status()).isZero();

    CliRun both = convert(dsym, "both.gsym", "--symtab-file", bin("c-arm64-O2"));
    assertThat(both.status()).isEqualTo(1);
    assertThat(both.out()).isEqualTo("Input file: " + dsym + "\n");
    assertThat(both.err()).isEqualTo("DWARF conversion failed: : symbol table file '" + bin("c-arm64-O2") + "' is not a"
        + " universal binary, but the input contains multiple architectures; use --arch to select a single architecture\n");
    try (Stream<Path> files = Files.list(tmp)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("both.gsym"));
    }
    // one slice chosen, of another architecture: llvm main's names in the mismatch message
    CliRun other = convert(dsym, "other.gsym", "--arch", "x86_64", "--symtab-file", bin("c-arm64-O2"));
    assertThat(other.status()).isEqualTo(1);
    assertThat(other.err()).isEqualTo("DWARF conversion failed: : architecture mismatch: input file is x86_64 but symbol table file '"
        + bin("c-arm64-O2") + "' is arm64\n");
  }

  /** A universal symbol table without the input's architecture (llvm's MISSING-ARCH). */
  @Test
  void universalSymbolTableWithoutTheArchitecture() throws Exception {
    CliRun thin = convert(bin("c-arm64_32-O2"), "x.gsym", "--symtab-file", bin("fat-c-O2"));
    assertThat(thin.status()).isEqualTo(1);
    assertThat(thin.out()).isEqualTo("Input file: " + bin("c-arm64_32-O2") + "\n");
    assertThat(thin.err()).isEqualTo("DWARF conversion failed: : symbol table file '" + bin("fat-c-O2")
        + "' does not contain architecture 'arm64_32'\n");
    assertThat(tmp.resolve("x.gsym")).doesNotExist();
    // an ELF file is named by its triple: "aarch64", which is no slice's name
    Path elf = TestData.path("bin", "fs-aarch64-O2-d5");
    CliRun e = convert(elf.toString(), "e.gsym", "--symtab-file", bin("fat-c-O2"));
    assertThat(e.err()).isEqualTo("DWARF conversion failed: : symbol table file '" + bin("fat-c-O2")
        + "' does not contain architecture 'aarch64'\n");
    // slices are resolved one by one: x86_64 is converted before arm64_32 fails (llvm's loop)
    CliRun part = convert(bin("fat64-objects.o"), "p.gsym", "--arch", "x86_64", "--arch", "arm64_32", "--symtab-file",
        bin("fat-c-O2"));
    assertThat(part.status()).isEqualTo(1);
    assertThat(part.out()).startsWith("Input file: " + bin("fat64-objects.o") + "\nOutput file (x86_64): " + tmp.resolve("p.gsym.x86_64")
        + "\nLoaded 4 functions from DWARF.\nUsing symbol table file: " + bin("fat-c-O2") + "\n");
    assertThat(part.out()).doesNotContain("arm64_32)");
    assertThat(part.err()).isEqualTo("DWARF conversion failed: : symbol table file '" + bin("fat-c-O2")
        + "' does not contain architecture 'arm64_32'\n");
    assertThat(tmp.resolve("p.gsym.x86_64")).exists();
  }

  /** Thin Mach-O files are compared by llvm main's names, CPU subtype included. */
  @Test
  void thinMachOArchitectureMismatch() {
    CliRun r = convert(bin("c-arm64-O2.dSYM"), "m.gsym", "--symtab-file", bin("c-x86_64-O2"));
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("DWARF conversion failed: : architecture mismatch: input file is arm64 but symbol table file '"
        + bin("c-x86_64-O2") + "' is x86_64\n");
    CliRun arm = convert(bin("c-armv7-O2.o"), "a.gsym", "--symtab-file", bin("c-arm64-O2.o"));
    assertThat(arm.err()).isEqualTo("DWARF conversion failed: : architecture mismatch: input file is armv7 but symbol table file '"
        + bin("c-arm64-O2.o") + "' is arm64\n");
  }

  /** What is no object file: llvm main's messages (X86/elf-symtab-file.yaml's INVALID, and resolveSymtabObject's). */
  @Test
  void symbolTableFilesThatAreNoObjectFiles() throws Exception {
    String in = bin("c-x86_64-O2.dSYM");
    Path text = Files.writeString(tmp.resolve("debug.yaml"), "--- !ELF\n");
    CliRun t = convert(in, "t.gsym", "--symtab-file", text.toString());
    assertThat(t.status()).isEqualTo(1);
    assertThat(t.out()).isEqualTo("Input file: " + in + "\n");
    assertThat(t.err()).isEqualTo("DWARF conversion failed: : The file was not recognized as a valid object file\n");
    Path archive = Files.writeString(tmp.resolve("lib.a"), "!<arch>\n");
    CliRun a = convert(in, "a.gsym", "--symtab-file", archive.toString());
    assertThat(a.err()).isEqualTo("DWARF conversion failed: : symbol table file '" + archive + "' is not a valid object file\n");
    // a universal file cut inside its second fat_arch entry: the fat header's own error
    byte[] fat = bytes(TestData.path("macho", "bin", "fat-c-O2"));
    Path cut = Files.write(tmp.resolve("cut"), Arrays.copyOf(fat, 36));
    CliRun c = convert(in, "c.gsym", "--symtab-file", cut.toString());
    assertThat(c.status()).isEqualTo(1);
    assertThat(c.err()).startsWith("DWARF conversion failed: : truncated or malformed fat file (");
    assertThat(c.err().lines().count()).isEqualTo(1);
    for (String n : List.of("t.gsym", "a.gsym", "c.gsym")) assertThat(tmp.resolve(n)).doesNotExist();
  }
}
