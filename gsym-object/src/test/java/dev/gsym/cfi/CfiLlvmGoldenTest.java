package dev.gsym.cfi;

import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every FDE of every input with CFI in src-test-data (x86-64, i386, AArch64, 32-bit ARM, PowerPC and
 * PowerPC64 big-endian, MIPS big-endian; ELF executables, objects, a separate debug file, compressed
 * and 64-bit DWARF .debug_frame, Mach-O __eh_frame and __debug_frame, mingw PE .eh_frame and
 * .debug_frame) has the rows llvm-dwarfdump-22 printed for it (the goldens of
 * src-test-data/regenerate-cfi.sh); {@link CfiLlvmLiveTest} compares with the installed tool.
 */
@NeedsLlvm
class CfiLlvmGoldenTest {
  static List<CfiCorpus> corpus() {
    return CfiCorpus.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void rowsEqualLlvmDwarfdump(CfiCorpus in) throws IOException {
    String out = TestData.text(in.golden(".frames.txt"));
    var err = in.golden(".frames.stderr.txt");
    int errors = Files.exists(err) ? CfiLlvmComparison.rowErrors(TestData.text(err)) : 0;
    CfiLlvmComparison.check(in, out, errors);
  }
}
