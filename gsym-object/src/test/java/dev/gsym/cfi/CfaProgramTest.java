package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.Slow;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The row machine's rules beyond what the llvm-dwarfdump goldens show (errors drop the FDE's
 * table, with llvm's messages), where we differ from llvm on purpose (docs/unwind.md), and the
 * bounds that keep hostile CFI linear: remember_state depth and the work budget.
 */
class CfaProgramTest {
  /** One FDE at 0x4000 (0x100 bytes) with {@code insns} after a CIE of code alignment {@code caf}, data alignment -8. */
  private static CfiReader.Result fde(String arch, int caf, int[] cieInsns, int... insns) {
    CfiBytes b = new CfiBytes();
    b.begin().u32(0).u8(1).cstring("zR").uleb(caf).sleb(-8).u8(16).uleb(1).u8(0x1b).u8(cieInsns).end();
    b.ehFde(0, 0x2000, 0x4000, 0x100, insns);
    return CallFrameInfoTest.read(b.section(UnwindSource.EH_FRAME, 0x2000, 0x100, 8, arch));
  }

  private static final int[] CIE = {0x0c, 7, 8, 0x90, 1}; // def_cfa rsp+8; offset rip -8

  private static CfiReader.Result fde(int... insns) {
    return fde("x86_64", 1, CIE, insns);
  }

  private static String error(CfiReader.Result r) {
    assertEquals(1, r.entries().size());
    assertNull(r.entries().getFirst().table(), "rows were made");
    return r.entries().getFirst().error().detail();
  }

  private static List<UnwindRow> rows(CfiReader.Result r) {
    assertEquals(List.of(), r.problems());
    return r.entries().getFirst().table().rows();
  }

  private static UnwindRow row(long address, CfaRule cfa, Object... rules) {
    TreeMap<Integer, RegisterRule> m = new TreeMap<>();
    for (int i = 0; i < rules.length; i += 2) m.put((Integer) rules[i], (RegisterRule) rules[i + 1]);
    return new UnwindRow(address, cfa, m);
  }

  private static final CfaRule RSP8 = new CfaRule.RegisterOffset(7, 8);
  private static final RegisterRule RA = new RegisterRule.Offset(-8);

  @Test
  void llvmErrorsDropTheTable() {
    assertEquals("DW_CFA_restore_state without a matching previous DW_CFA_remember_state", error(fde(0x0b)));
    assertEquals("DW_CFA_def_cfa_offset found when CFA rule was not RegPlusOffset", error(fde("x86_64", 1, new int[0], 0x0e, 0x10)));
    assertEquals("DW_CFA_def_cfa_offset_sf found when CFA rule was not RegPlusOffset",
        error(fde("x86_64", 1, new int[] {0x0f, 1, 0x9c}, 0x13, 0x7e)));
    assertEquals("DW_CFA_restore encountered while parsing a CIE", error(fde("x86_64", 1, new int[] {0xc6})));
    assertEquals("DW_CFA_GNU_window_save is not supported for architecture x86_64", error(fde(0x2d)));
    assertEquals("a location advance, but the CIE's code alignment factor is 0", error(fde("x86_64", 0, CIE, 0x41)));
    assertEquals("DW_CFA_LLVM_def_aspace_cfa: CFA address spaces are not supported", error(fde(0x30, 7, 8, 1)));
    assertEquals("unknown call frame instruction 0x17", error(fde(0x41, 0x17)));
    assertEquals("register number 4294967296 is too large", error(fde(0x07, 0x80, 0x80, 0x80, 0x80, 0x10)));
    // set_loc: in .eh_frame a pointer in the FDE encoding (pcrel sdata4, from its own position);
    // it must move the location forward
    assertEquals("DW_CFA_set_loc with address 0x4000 which must be greater than the current row address 0x4000",
        error(fde(0x01, 0xd6, 0x1f, 0, 0))); // 0x2000 + 0x2a + 0x1fd6 = 0x4000
    assertEquals("the location advances past the end of the address space",
        error(fde(0x1d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))); // DW_CFA_MIPS_advance_loc8 2^64 - 1
  }

  @Test
  void errorsCarryTheirAbsoluteOffset() {
    // section at file offset 0x100; FDE at 0x18, its instructions from 0x18 + 17 = 0x29; the bad opcode second
    GsymFormatException e = fde(0x41, 0x17).entries().getFirst().error();
    assertEquals(0x100 + 0x29 + 1, e.offset());
    assertEquals("test", e.source());
  }

  @Test
  void setLocMovesTheRow() {
    // pcrel sdata4 at position 0x2a (after the opcode at 0x29): 0x2000 + 0x2a + 0x1fd6 = 0x4000; +0x10 -> 0x4010
    assertEquals(List.of(row(0x4000, RSP8, 16, RA), row(0x4010, new CfaRule.RegisterOffset(7, 16), 16, RA)),
        rows(fde(0x01, 0xe6, 0x1f, 0, 0, 0x0e, 0x10)));
  }

  @Test
  void restoreAndRememberState() {
    // CIE: rbp at CFA-16 as well. FDE: rbp -> same, rbx saved; restore rbp (the CIE's rule) and rbx (none:
    // removed); remember; change the CFA; restore_state brings back the CFA too (LLVM 22, DWARF 5)
    int[] cie = {0x0c, 7, 8, 0x90, 1, 0x86, 2};
    List<UnwindRow> rows = rows(fde("x86_64", 1, cie, 0x08, 6, 0x83, 3, 0x41, 0xc6, 0xc3, 0x0a, 0x0e, 0x20, 0x41, 0x0b));
    RegisterRule rbp = new RegisterRule.Offset(-16);
    assertEquals(List.of(
        row(0x4000, RSP8, 3, new RegisterRule.Offset(-24), 6, RegisterRule.SAME_VALUE, 16, RA),
        row(0x4001, new CfaRule.RegisterOffset(7, 32), 6, rbp, 16, RA),
        row(0x4002, RSP8, 6, rbp, 16, RA)), rows);
  }

  @Test
  void rememberStateDepthIsBounded() {
    int[] deep = new int[CfaProgram.MAX_REMEMBERED_STATES + 1];
    java.util.Arrays.fill(deep, 0x0a);
    assertEquals("DW_CFA_remember_state nested deeper than 256 levels", error(fde(deep)));
    int[] ok = java.util.Arrays.copyOf(deep, CfaProgram.MAX_REMEMBERED_STATES);
    assertEquals(List.of(row(0x4000, RSP8, 16, RA)), rows(fde(ok)));
  }

  @Test
  void aarch64ReturnAddressSigning() {
    int[] cie = {0x0c, 31, 0};
    RegisterRule.Constant one = new RegisterRule.Constant(1);
    CfaRule sp = new CfaRule.RegisterOffset(31, 0);
    assertEquals(List.of(row(0x4000, sp, Arch.AARCH64_RA_SIGN_STATE, one), row(0x4004, sp, Arch.AARCH64_RA_SIGN_STATE, new RegisterRule.Constant(0))),
        rows(fde("aarch64", 4, cie, 0x2d, 0x41, 0x2d)));
    // negate_ra_state_with_pc toggles bits 1:0 (llvm-dwarfdump-22 leaves the second toggle out: it
    // changes a copy of the rule, docs/unwind.md)
    assertEquals(List.of(row(0x4000, sp, 34, new RegisterRule.Constant(3)), row(0x4004, sp, 34, new RegisterRule.Constant(0))),
        rows(fde("aarch64", 4, cie, 0x2c, 0x41, 0x2c)));
    assertEquals("DW_CFA_AARCH64_negate_ra_state encountered when existing rule for this register is not a constant",
        error(fde("aarch64", 4, cie, 0x07, 34, 0x2d)));
  }

  @Test
  void sparcWindowSave() {
    List<UnwindRow> rows = rows(fde("sparcv9", 4, new int[] {0x0c, 30, 0}, 0x2d));
    assertEquals(16, rows.getFirst().registers().size());
    assertEquals(new RegisterRule.Offset(0), rows.getFirst().rule(16));
    assertEquals(new RegisterRule.Offset(120), rows.getFirst().rule(31));
  }

  @Test
  void factoredOperands() {
    // data alignment -8: offset_extended_sf r12 by -3 (+24), val_offset r13 by 2 (-16), GNU_negative_offset_extended r14 by 1 (+8)
    assertEquals(List.of(row(0x4000, RSP8, 12, new RegisterRule.Offset(24), 13, new RegisterRule.ValOffset(-16), 14, new RegisterRule.Offset(8), 16, RA)),
        rows(fde(0x11, 12, 0x7d, 0x14, 13, 2, 0x2f, 14, 1)));
    CfiBytes b = new CfiBytes();
    b.begin().u32(0).u8(1).cstring("zR").uleb(1).sleb(0).u8(16).uleb(1).u8(0x1b).u8(0x0c, 7, 8).end();
    b.ehFde(0, 0x2000, 0x4000, 0x10, 0x83, 2);
    assertEquals("a factored offset, but the CIE's data alignment factor is 0",
        CallFrameInfoTest.read(b.eh(0x2000)).entries().getFirst().error().detail());
  }

  /** One CIE with a long initial program shared by many FDEs: quadratic work without the budget. */
  private static byte[] sharedLongCie(int size) {
    CfiBytes b = new CfiBytes();
    int cieInsns = Math.max(16, size / 5);
    b.begin().u32(0).u8(1).cstring("zR").uleb(1).sleb(-8).u8(16).uleb(1).u8(0x1b).u8(0x0c, 7, 8);
    for (int i = 0; i < cieInsns; i++) b.u8(0x0a); // remember_state would nest: use nops after a few
    b.end();
    byte[] cie = b.bytes();
    // the CIE is all remember_states: replace all but 8 by nops
    for (int i = 0; i < cie.length; i++) if (cie[i] == 0x0a && i > 30) cie[i] = 0;
    CfiBytes out = new CfiBytes().u8(toInts(cie));
    while (out.position() < size) out.ehFde(0, 0x2000, 0x4000 + out.position(), 0x10, 0x41, 0x0e, 0x10);
    return out.bytes();
  }

  private static int[] toInts(byte[] b) {
    int[] out = new int[b.length];
    for (int i = 0; i < b.length; i++) out[i] = b[i] & 0xff;
    return out;
  }

  private static CfiReader.Result readBytes(byte[] b) {
    CfiSection s = new CfiSection(UnwindSource.EH_FRAME, ".eh_frame",
        new dev.gsym.io.ByteView(MemorySegment.ofArray(b), 0, ByteOrder.LITTLE_ENDIAN, "big"), 0x2000, 8, "x86_64", null, null, null);
    return CallFrameInfoTest.read(s);
  }

  @Test
  @Slow
  void theBudgetStopsQuadraticWork() {
    CfiReader.Result r = readBytes(sharedLongCie(1 << 20));
    GsymFormatException last = r.problems().getLast();
    assertTrue(last.detail().contains("call frame information too complex to read: more than "), last.detail());
    assertTrue(r.entries().size() > 10, "the FDEs before the budget ran out are kept: " + r.entries().size());
    // many registers times many rows
    CfiBytes b = new CfiBytes();
    b.ehCie(0x1b);
    List<Integer> insns = new ArrayList<>();
    for (int reg = 100; reg < 100 + 20000; reg++) {
      insns.add(0x05); // offset_extended reg, 1 * -8
      insns.add(0x80 | (reg & 0x7f));
      insns.add(reg >>> 7);
      insns.add(1);
      insns.add(0x41);
    }
    b.ehFde(0, 0x2000, 0x4000, 0x100000, insns.stream().mapToInt(Integer::intValue).toArray());
    CfiReader.Result cells = readBytes(b.bytes());
    assertTrue(cells.entries().getFirst().error().detail().contains("too complex"), cells.problems().toString());
  }

  @Test
  @Slow
  void readingScalesLinearly() {
    FuzzLimits.assertScalesLinearly("CFI, one long CIE program shared by every FDE", CfaProgramTest::sharedLongCie, b -> readBytes(b));
    FuzzLimits.assertScalesLinearly("CFI, ordinary FDEs", size -> {
      CfiBytes b = new CfiBytes().ehCie(0x1b);
      while (b.position() < size) {
        b.ehFde(0, 0x2000, 0x4000 + b.position(), 0x40, 0x41, 0x0e, 0x10, 0x86, 2, 0x43, 0x0d, 6, 0x0a, 0x41, 0x0c, 7, 8, 0x41, 0x0b);
      }
      return b.bytes();
    }, b -> readBytes(b));
  }
}
