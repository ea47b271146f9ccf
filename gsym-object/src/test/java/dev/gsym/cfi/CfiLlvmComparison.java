package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import dev.gsym.unwind.CfiTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Our reading of one input against llvm-dwarfdump-22's output for it. */
final class CfiLlvmComparison {
  private CfiLlvmComparison() {}

  /**
   * Checks that we read the same FDEs (section, offset, range) as llvm in the same order, that
   * each has the same rows (llvm's zero-advance duplicates merged), that llvm printed no rows for
   * exactly the FDEs we could make no table of, that ordinals follow dump_syms's order, and that
   * nothing was reported as a problem except row errors llvm reported too ({@code llvmErrors}: the
   * number of "decoding the FDE opcodes into rows failed" in llvm's stderr).
   */
  static void check(CfiCorpus in, String llvmOutput, int llvmErrors) throws IOException {
    check(in.toString(), in.input(), in.arch(), llvmOutput, llvmErrors);
  }

  /** {@link #check(CfiCorpus, String, int)} for any file (named {@code in} in messages). */
  static void check(String in, java.nio.file.Path input, String arch, String llvmOutput, int llvmErrors) throws IOException {
    RegisterNames regs = RegisterNames.of(arch);
    List<LlvmFrames.Fde> llvm = LlvmFrames.parse(llvmOutput, regs);
    try (ObjectFile file = ObjectFiles.open(input)) {
      CfiReader.Result result = CfiReader.read(file);
      int addressSize = file.is64() ? 8 : 4;
      // dump_syms's order: .debug_frame then .eh_frame, each in section order (llvm prints that order)
      List<CfiReader.Entry> ours = result.entries();
      assertEquals(llvm.size(), ours.size(), in + ": FDE count");
      long lastOrdinal = -1;
      List<GsymFormatException> rowErrors = new ArrayList<>();
      for (int i = 0; i < llvm.size(); i++) {
        LlvmFrames.Fde l = llvm.get(i);
        CfiReader.Entry e = ours.get(i);
        String where = in + " " + l.section() + " FDE 0x" + Long.toHexString(l.offset());
        assertEquals(l.section() + "@" + l.offset(), e.fde().section() + "@" + e.fde().offset(), where + ": order");
        assertTrue(e.ordinal() > lastOrdinal, where + ": ordinal " + e.ordinal() + " after " + lastOrdinal);
        lastOrdinal = e.ordinal();
        assertEquals(l.pcBegin(), e.fde().pcBegin(), where + ": pc begin");
        assertEquals(l.pcEnd(), e.fde().pcBegin() + e.fde().pcRange(), where + ": pc end");
        if (e.table() == null) {
          rowErrors.add(e.error());
          assertEquals(List.of(), l.rows(), where + ": llvm made rows where we failed: " + e.error());
          continue;
        }
        CfiTable t = e.table();
        assertEquals(e.fde().section(), t.source());
        assertEquals(e.ordinal(), t.ordinal());
        assertEquals(e.fde().cie().returnAddressRegister(), t.returnAddressRegister());
        assertEquals(LlvmFrames.merged(l.rows()), LlvmFrames.rows(t, file.byteOrder(), addressSize, regs), where + ": rows");
      }
      assertEquals(llvmErrors, rowErrors.size(), in + ": FDEs without rows (ours: " + rowErrors + ")");
      List<GsymFormatException> others = new ArrayList<>(result.problems());
      others.removeAll(rowErrors);
      assertEquals(List.of(), others, in + ": problems");
    }
  }

  /** How many FDE or CIE row tables llvm could not make, from its stderr. */
  static int rowErrors(String stderr) {
    int n = 0;
    for (String line : stderr.split("\n")) if (line.contains("opcodes into rows failed")) n++;
    return n;
  }
}
