package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real distribution binary converted by llvm-gsymutil-22 and by us: Debian's
 * {@code /usr/bin/python3.11d} (package {@code python3.11-dbg}: a non-PIE executable with DWARF 5
 * and a full {@code .symtab} whose undefined functions carry PLT addresses, ~11,300 functions).
 * Same GSYM bytes and the same log. A reported skip without the binary or the tool, a failure then
 * under -Dgsym.requireTools=true ({@code -Dgsym.debian.binary=PATH} converts another file instead).
 */
@NeedsLlvm
class DebianBinaryDifferentialTest {
  @TempDir Path tmp;

  @Test
  void python311dMatchesLlvm() throws Exception {
    Path bin = Path.of(System.getProperty("gsym.debian.binary", "/usr/bin/python3.11d"));
    Path gsymutil = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Tools.check(Files.isRegularFile(bin), bin + " (Debian package python3.11-dbg)");
    Path ref = tmp.resolve("llvm.gsym");
    Path log = tmp.resolve("llvm.log");
    assertEquals(true, LlvmConvertDifferentialTest.run(tmp, List.of(gsymutil.toString(), "--convert", bin.toString(), "--out-file",
        ref.toString(), "--num-threads=1"), log), "llvm-gsymutil-22 converts " + bin);
    StringBuilder ours = new StringBuilder();
    Diagnostics d = new Diagnostics(ours);
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(bin, c, d, DwarfConverter.Options.defaults());
    String llvmLog = Files.readString(log);
    // llvm's first two lines (Input file, Output file) are the CLI's
    assertEquals(llvmLog.substring(llvmLog.indexOf('\n', llvmLog.indexOf('\n') + 1) + 1), ours + d.summary(), bin.toString());
    assertArrayEquals(Files.readAllBytes(ref), c.encode(s.byteOrder()), bin + ": GSYM bytes differ");
  }
}
