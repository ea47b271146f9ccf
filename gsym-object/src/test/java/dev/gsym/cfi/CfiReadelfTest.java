package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.elf.ElfFile;
import dev.gsym.testing.TestData;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The instructions llvm-dwarfdump-22 refuses (it fails the whole section at
 * DW_CFA_MIPS_advance_loc8 and DW_CFA_GNU_negative_offset_extended), against binutils' readelf
 * --debug-dump=frames-interp (src-test-data/cfi/expected/cfi-gnu-x86_64.readelf.txt, made by
 * regenerate-cfi.sh from src/cfi_gnu_x86_64.s).
 */
class CfiReadelfTest {
  /** readelf's x86-64 register names, by DWARF number. */
  private static final List<String> X86_64 = List.of("rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11",
      "r12", "r13", "r14", "r15", "rip");

  @Test
  void rowsEqualReadelf() throws IOException {
    List<String> lines = List.of(TestData.text(TestData.path("cfi", "expected", "cfi-gnu-x86_64.readelf.txt")).split("\n"));
    List<UnwindRow> expected = new ArrayList<>();
    List<Integer> columns = null;
    boolean inFde = false;
    for (String line : lines) {
      if (line.contains(" FDE ")) {
        inFde = true;
        continue;
      }
      if (line.contains(" CIE ") || line.isBlank()) {
        if (line.contains(" CIE ")) inFde = false;
        continue;
      }
      String[] f = line.trim().split("\\s+");
      if (f[0].equals("LOC")) {
        columns = new ArrayList<>();
        for (int i = 2; i < f.length; i++) columns.add(f[i].equals("ra") ? 16 : X86_64.indexOf(f[i]));
        continue;
      }
      if (!inFde || !f[0].matches("[0-9a-f]{16}")) continue;
      String[] cfa = f[1].split("(?=[+-])");
      TreeMap<Integer, RegisterRule> regs = new TreeMap<>();
      for (int i = 2; i < f.length; i++) {
        if (f[i].equals("u")) continue; // readelf marks registers without a rule "u" as well
        assertTrue(f[i].startsWith("c"), f[i]);
        regs.put(columns.get(i - 2), new RegisterRule.Offset(Long.parseLong(f[i].substring(1))));
      }
      expected.add(new UnwindRow(Long.parseUnsignedLong(f[0], 16), new CfaRule.RegisterOffset(X86_64.indexOf(cfa[0]), Long.parseLong(cfa[1])),
          regs));
    }
    assertEquals(4, expected.size(), "readelf's rows");
    try (ElfFile elf = ElfFile.open(TestData.path("cfi", "bin", "cfi-gnu-x86_64"))) {
      CfiReader.Result r = CfiReader.read(elf);
      assertEquals(List.of(), r.problems());
      List<CfiTable> tables = r.tables();
      assertEquals(1, tables.size());
      assertEquals(expected, tables.getFirst().rows());
    }
  }
}
