package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user's first mistakes print: each a clear message on stderr with exit status 1 that
 * says what went wrong and what to do, never a silent success or a misleading hint.
 */
@NeedsLlvm
class CliMessagesTest {
  private static final String F = TestData.path("gsym", "c-clang-O2.gsym").toString();

  @TempDir
  Path tmp;

  /**
   * No arguments: the usage lines and where to read more (llvm-gsymutil-22 prints nothing and exits
   * 0, which reads as success). Options without a file stay as in llvm ({@code --verify} alone does
   * nothing: CommandLineFormsTest).
   */
  @Test
  void noArgumentsPrintsTheUsage() {
    CliRun r = CliRun.run();
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("Usage:\n  gsymutil [--dump] [--verbose] FILE...\n")
        .contains("\n  gsymutil symbolize ").endsWith("\nTry 'gsymutil --help' for more information.\n");
  }

  /** A mistyped subcommand is a file that does not exist: the message names the command meant. */
  @Test
  void aMistypedSubcommandIsNamed() throws IOException {
    CliRun r = CliRun.run("symbolise", "0x10");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("symbolise: No such file or directory (did you mean 'gsymutil symbolize'?)\n");
    assertThat(CliRun.run("Lookup", "0x10", F).err())
        .isEqualTo("Lookup: No such file or directory (did you mean 'gsymutil lookup'?)\n");
    assertThat(CliRun.run("dumb", F).err()).isEqualTo("dumb: No such file or directory (did you mean 'gsymutil dump'?)\n");
    // a file name (a dot, a slash) or a word far from every command keeps llvm's message
    assertThat(CliRun.run("symbolise.gsym").err()).isEqualTo("symbolise.gsym: No such file or directory\n");
    assertThat(CliRun.run("whatever").err()).isEqualTo("whatever: No such file or directory\n");
    // a file that exists is read, whatever its name
    Path near = Files.copy(Path.of(F), tmp.resolve("dumb"));
    CliRun dumped = CliRun.run(near.toString());
    assertThat(dumped.status()).as(dumped.err()).isZero();
  }

  /** {@code lookup} with an argument meant as an address that does not parse: says so. */
  @Test
  void lookupNamesAnInvalidAddress() {
    for (String bad : new String[] {"0xzz", "12g", "0x10000000000000000"}) {
      CliRun r = CliRun.run("lookup", bad, F);
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.err()).isEqualTo("gsymutil lookup: '" + bad + "' is not a valid address (0x/0X hex, 0b binary, leading"
          + " 0 octal, otherwise decimal; at most 64 bits); a file named so is given as ./" + bad + " or with -f\n");
      // also next to a valid address (it would otherwise be opened as a file)
      assertThat(CliRun.run("lookup", "0x1179", bad, F).err()).startsWith("gsymutil lookup: '" + bad + "' is not a valid");
    }
    CliRun noAddress = CliRun.run("lookup", F);
    assertThat(noAddress.err()).startsWith("gsymutil lookup: no address given");
  }

  /** A lookup in an ELF file cut short does not advise converting it (it cannot be): it says it is truncated. */
  @Test
  void lookupInATruncatedElfSaysItIsTruncated() throws IOException {
    byte[] elf = Files.readAllBytes(TestData.path("bin", "c-clang-O2"));
    Path cut = Files.write(tmp.resolve("cut"), Arrays.copyOf(elf, 3000));
    CliRun r = CliRun.run("--lookup", "0x1179", cut.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(cut + " is a truncated or corrupt ELF file (offset 0x00000028: section headers past"
        + " end of file), not a GSYM file\n");
    // a whole ELF file still gets the command that converts it
    Path whole = Files.write(tmp.resolve("whole"), elf);
    assertThat(CliRun.run("--lookup", "0x1179", whole.toString()).err())
        .startsWith(whole + " is an ELF object file, not a GSYM file; convert it first: gsymutil --dwarf ");
  }

  /**
   * Converting a stripped binary: llvm's line, then what is missing and where the symbols are (the
   * debug file its build-id names, --symtab-file).
   */
  @Test
  void convertingAStrippedBinaryNamesItsDebugFile() throws Exception {
    Path objcopy = Tools.require(Llvm.tool("llvm-objcopy-22"), "llvm-objcopy-22");
    Path stripped = tmp.resolve("stripped");
    Process p = new ProcessBuilder(objcopy.toString(), "--strip-all", TestData.path("bin", "c-clang-O2").toString(),
        stripped.toString()).redirectErrorStream(true).start();
    assertThat(p.waitFor()).as(new String(p.getInputStream().readAllBytes())).isZero();
    CliRun r = CliRun.run("--dwarf", stripped.toString(), "-o", tmp.resolve("out.gsym").toString());
    assertThat(r.status()).isEqualTo(1);
    Path debug = Path.of("/usr/lib/debug/.build-id/1d/296d52c49352d44988045e45e7a2c66d5f77ea.debug");
    assertThat(r.err()).isEqualTo("DWARF conversion failed: : no functions to encode\ngsymutil: no functions in the"
        + " debug info or the symbol table of " + stripped + " (stripped?): convert the unstripped binary or its separate"
        + " debug file (" + debug + (Files.exists(debug) ? ", which is installed here"
        : ", from the distribution's debug package or a debuginfod server") + "), or take the symbols of the unstripped"
        + " binary with --symtab-file FILE\n");
    assertThat(tmp.resolve("out.gsym")).doesNotExist();
  }
}
