package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The section walker's rules (CallFrameInfo's class comment, docs/unwind.md): what a bad entry
 * costs, how the walk goes on or stops, CIE parsing (versions, augmentations, 64-bit DWARF), and
 * what llvm-dwarfdump would fail the whole section for.
 */
class CallFrameInfoTest {
  /** Every FDE of {@code s} as the reader reports them. */
  static CfiReader.Result read(CfiSection s) {
    List<CfiReader.Entry> entries = new ArrayList<>();
    List<GsymFormatException> problems = new ArrayList<>();
    CfiReader.read(List.of(new CfiReader.Input(s, null)), new CfiReader.Listener() {
      @Override
      public void entry(CfiReader.Entry e) {
        entries.add(e);
      }

      @Override
      public void problem(GsymFormatException p) {
        problems.add(p);
      }
    });
    return new CfiReader.Result(entries, problems);
  }

  static List<Fde> fdes(CfiSection s) {
    return read(s).entries().stream().map(CfiReader.Entry::fde).toList();
  }

  private static List<String> details(CfiReader.Result r) {
    return r.problems().stream().map(GsymFormatException::detail).toList();
  }

  private static UnwindRow row(long address, int cfaReg, long cfaOffset, Object... rules) {
    TreeMap<Integer, RegisterRule> m = new TreeMap<>();
    for (int i = 0; i < rules.length; i += 2) m.put((Integer) rules[i], (RegisterRule) rules[i + 1]);
    return new UnwindRow(address, new CfaRule.RegisterOffset(cfaReg, cfaOffset), m);
  }

  private static final RegisterRule RA = new RegisterRule.Offset(-8);

  @Test
  void ehFrameTerminatorEndsTheWalk() {
    CfiBytes b = new CfiBytes();
    b.ehCie(0x1b);
    b.ehFde(0, 0x2000, 0x4000, 0x10, 0x41, 0x0e, 0x10);
    b.u32(0); // terminator
    b.ehFde(0, 0x2000, 0x5000, 0x10); // after it: not read
    CfiReader.Result r = read(b.eh(0x2000));
    assertEquals(1, r.entries().size());
    assertEquals(List.of(row(0x4000, 7, 8, 16, RA), row(0x4001, 7, 16, 16, RA)), r.entries().getFirst().table().rows());
    assertEquals(List.of(".eh_frame: zero terminator at 0x2c before the end of the section (20 more bytes, not all zero)"), details(r));
    // zero padding after the terminator is no problem
    CfiBytes padded = new CfiBytes();
    padded.ehCie(0x1b).ehFde(0, 0x2000, 0x4000, 0x10).u32(0).u32(0).u32(0);
    assertEquals(List.of(), read(padded.eh(0x2000)).problems());
  }

  @Test
  void zeroLengthDebugFrameEntryIsSkipped() {
    CfiBytes b = new CfiBytes();
    b.begin().u32(0xffffffffL).u8(1).cstring("").uleb(1).sleb(-8).u8(16).u8(0x0c, 7, 8).end();
    b.u32(0); // llvm-dwarfdump stops here; dump_syms goes on
    b.begin().u32(0).u64(0x4000).u64(0x10).u8(0x41, 0x0e, 0x10).end();
    CfiReader.Result r = read(b.section(UnwindSource.DEBUG_FRAME, 0, 0, 8, "x86_64"));
    assertEquals(List.of(".debug_frame: zero-length entry at 0x10 skipped"), details(r));
    assertEquals(1, r.entries().size());
    assertEquals(0x4000, r.entries().getFirst().fde().pcBegin());
  }

  @Test
  void aBadEntryIsSkippedAndTheWalkGoesOn() {
    CfiBytes b = new CfiBytes();
    b.ehCie(0x1b); // 0x00
    b.begin().u32(0).u8(1).cstring("zQ").uleb(1).sleb(-8).u8(16).uleb(0).end(); // 0x18: unknown augmentation
    int badCie = 0x18;
    b.ehFde(badCie, 0x2000, 0x4000, 0x10); // FDE of the bad CIE
    b.ehFde(0, 0x2000, 0x5000, 0x10, 0x41, 0x0e, 0x10); // a good one
    int selfPointer = b.position();
    b.begin().u32(4).u32(0).u32(0).uleb(0).end(); // CIE pointer to itself: an FDE, not a CIE
    int fdePointer = b.position();
    b.begin().u32(fdePointer + 4 - selfPointer).u32(0).u32(0).uleb(0).end(); // CIE pointer to the FDE before it
    b.begin().u32(0x7fffffff).u32(0).u32(0).end(); // CIE pointer before the section
    b.ehFde(0, 0x2000, 0x6000, 0x10, 0x0b); // restore_state without remember_state: no rows
    CfiReader.Result r = read(b.eh(0x2000));
    assertEquals(List.of(0x5000L, 0x6000L), r.entries().stream().map(e -> e.fde().pcBegin()).toList());
    assertEquals(List.of(
        ".eh_frame CIE at 0x18: unknown augmentation character 'Q' in \"zQ\"",
        ".eh_frame FDE at 0x28: its CIE at 0x18 is unusable: .eh_frame CIE at 0x18: unknown augmentation character 'Q' in \"zQ\"",
        ".eh_frame FDE at 0x50: its CIE at 0x50 is unusable: .eh_frame: the entry at 0x50 is not a CIE",
        ".eh_frame FDE at 0x64: its CIE at 0x50 is unusable: .eh_frame: the entry at 0x50 is not a CIE",
        ".eh_frame FDE at 0x78: CIE pointer 0x7fffffff leads outside the section",
        "DW_CFA_restore_state without a matching previous DW_CFA_remember_state"), details(r));
    CfiReader.Entry failed = r.entries().get(1);
    assertEquals(null, failed.table());
    assertEquals(r.problems().getLast(), failed.error());
    assertEquals(0, r.entries().get(0).ordinal());
    assertEquals(1, failed.ordinal(), "an FDE whose rows fail has its number; FDEs whose header is skipped have none");
  }

  @Test
  void walkStopsWhereTheNextEntryCannotBeFound() {
    CfiBytes b = new CfiBytes();
    b.ehCie(0x1b).ehFde(0, 0x2000, 0x4000, 0x10);
    b.u32(0x100).u32(0); // a length past the end
    CfiReader.Result r = read(b.eh(0x2000));
    assertEquals(1, r.entries().size());
    assertEquals(List.of(".eh_frame: entry at 0x2c has length 0x100, past the end of the section (0x4 bytes left)"), details(r));
    CfiBytes reserved = new CfiBytes().ehCie(0x1b).u32(0xfffffff0L).u32(0);
    assertEquals(List.of(".eh_frame: entry at 0x18: reserved initial length 0xfffffff0"), details(read(reserved.eh(0))));
    CfiBytes tail = new CfiBytes().ehCie(0x1b).u8(1, 2);
    assertEquals(List.of(".eh_frame: 2 bytes at 0x18 are too few for an entry"), details(read(tail.eh(0))));
    // a length near 2^64 in 64-bit DWARF
    CfiBytes huge = new CfiBytes().ehCie(0x1b).u32(0xffffffffL).u64(-16L);
    assertEquals(List.of(".eh_frame: entry at 0x18 has length 0xfffffffffffffff0, past the end of the section (0x0 bytes left)"),
        details(read(huge.eh(0))));
  }

  @Test
  void cieVersionsAndFields() {
    // version 3: ULEB return address register (300); version 4 (.debug_frame): address and segment selector sizes
    CfiBytes b = new CfiBytes();
    b.begin().u32(0xffffffffL).u8(3).cstring("").uleb(4).sleb(-4).uleb(300).u8(0x0c, 1, 0).end();
    b.begin().u32(0).u64(0x1000).u64(8).u8(0x42, 0x0e, 0x10).end(); // advance 2 * 4
    b.begin().u32(0xffffffffL).u8(4).cstring("").u8(4, 0).uleb(1).sleb(-4).uleb(14).u8(0x0c, 13, 0).end();
    int cie4 = 0x30;
    b.begin().u32(cie4).u32(0x2000).u32(4).end(); // 4-byte addresses in a 64-bit file
    b.begin().u32(0xffffffffL).u8(4).cstring("").u8(8, 2).uleb(1).sleb(-4).uleb(14).end(); // segment selectors: refused
    b.begin().u32(0xffffffffL).u8(5).cstring("").end(); // version 5: refused
    CfiReader.Result r = read(b.section(UnwindSource.DEBUG_FRAME, 0, 0, 8, "aarch64"));
    assertEquals(2, r.entries().size());
    Cie v3 = r.entries().get(0).fde().cie();
    assertEquals(3, v3.version());
    assertEquals(300, v3.returnAddressRegister());
    assertEquals(300, r.entries().get(0).table().returnAddressRegister());
    assertEquals(List.of(row(0x1000, 1, 0), row(0x1008, 1, 16)), r.entries().get(0).table().rows());
    Fde f4 = r.entries().get(1).fde();
    assertEquals(4, f4.cie().addressSize());
    assertEquals(0x2000, f4.pcBegin());
    assertEquals(4, f4.pcRange());
    assertEquals(List.of(".debug_frame CIE at 0x54: unsupported segment selector size 2", ".debug_frame CIE at 0x64: unsupported CIE version 5"),
        details(r));
  }

  @Test
  void debugFrameIn64BitDwarfBigEndian() {
    CfiBytes b = new CfiBytes(ByteOrder.BIG_ENDIAN);
    b.begin(true).u64(-1L).u8(1).cstring("").uleb(4).sleb(-4).u8(65).u8(0x0c, 1, 0).end(8);
    b.begin(true).u64(0).u64(0x10010000L).u64(0x20).u8(0x44, 0x0e, 0x20, 0x11, 31, 0x7e).end(8); // offset_extended_sf r31, -2 * -4
    CfiReader.Result r = read(b.section(UnwindSource.DEBUG_FRAME, 0, 0, 8, "powerpc64"));
    assertEquals(List.of(), r.problems());
    Fde f = r.entries().getFirst().fde();
    assertTrue(f.dwarf64() && f.cie().dwarf64());
    assertEquals(List.of(row(0x10010000L, 1, 0), row(0x10010010L, 1, 32, 31, new RegisterRule.Offset(8))), r.tables().getFirst().rows());
  }

  @Test
  void augmentations() {
    CfiBytes b = new CfiBytes();
    // zPLRSB: personality udata4 0x1234, LSDA pcrel sdata4, FDEs pcrel sdata4, signal frame, B key
    b.begin().u32(0).u8(1).cstring("zPLRSB").uleb(1).sleb(-8).u8(16).uleb(7).u8(0x03).u32(0x1234).u8(0x1b).u8(0x1b).u8(0x0c, 7, 8).end();
    int fde = b.position();
    b.begin().u32(fde + 4).u32(0x4000 - (0x2000 + fde + 8)).u32(0x10).uleb(4).u32(0x100 - (0x2000 + fde + 17)).end();
    // "eh" (GCC 2): an address after the augmentation string
    int eh = b.position();
    b.begin().u32(0).u8(1).cstring("eh").u64(0xdead).uleb(1).sleb(-8).u8(16).u8(0x0c, 7, 8).end();
    b.begin().u32(b.position() - eh).u64(0x5000).u64(0x10).end();
    // zG: MTE; trailing augmentation data no letter describes is skipped
    int g = b.position();
    b.begin().u32(0).u8(1).cstring("zRG").uleb(1).sleb(-8).u8(16).uleb(3).u8(0x03).u8(0xaa, 0xbb).u8(0x0c, 7, 8).end();
    b.begin().u32(b.position() - g).u32(0x6000).u32(0x10).uleb(0).end();
    CfiReader.Result r = read(b.section(UnwindSource.EH_FRAME, 0x2000, 0, 8, "aarch64"));
    assertEquals(List.of(), r.problems());
    Cie c = r.entries().get(0).fde().cie();
    assertEquals("zPLRSB", c.augmentation());
    assertEquals(0x1234L, c.personality());
    assertEquals(0x03, c.personalityEncoding());
    assertEquals(0x1b, c.lsdaEncoding());
    assertTrue(c.signalFrame() && c.bKey() && !c.mteTagged());
    assertEquals(0x4000, r.entries().get(0).fde().pcBegin());
    assertEquals(0x100L, r.entries().get(0).fde().lsda());
    assertEquals("eh", r.entries().get(1).fde().cie().augmentation());
    assertEquals(0x5000, r.entries().get(1).fde().pcBegin());
    assertTrue(r.entries().get(2).fde().cie().mteTagged());
    assertEquals(List.of(row(0x6000, 7, 8)), r.entries().get(2).table().rows());
  }

  @Test
  void cieErrors() {
    Map<String, CfiBytes> cases = Map.of(
        ".eh_frame CIE at 0x0: augmentation string runs past the end of the CIE", new CfiBytes().begin().u32(0).u8(1).u8('z', 'R').end(1),
        ".eh_frame CIE at 0x0: unknown augmentation \"xy\"", new CfiBytes().begin().u32(0).u8(1).cstring("xy").uleb(1).sleb(-8).u8(16).end(),
        ".eh_frame CIE at 0x0: augmentation data of 100 bytes runs past the end of the CIE",
        new CfiBytes().begin().u32(0).u8(1).cstring("zR").uleb(1).sleb(-8).u8(16).uleb(100).u8(0x1b).end(),
        ".eh_frame CIE at 0x0: FDE pointer encoding past the end of the augmentation data",
        new CfiBytes().begin().u32(0).u8(1).cstring("zR").uleb(1).sleb(-8).u8(16).uleb(0).u8(0x1b).end(),
        ".eh_frame CIE at 0x0: FDE pointer encoding DW_EH_PE_omit",
        new CfiBytes().begin().u32(0).u8(1).cstring("zR").uleb(1).sleb(-8).u8(16).uleb(1).u8(0xff).end(),
        ".eh_frame CIE at 0x0: unsupported CIE version 0", new CfiBytes().begin().u32(0).u8(0).cstring("").end());
    for (var e : cases.entrySet()) {
      CfiSection s = e.getValue().eh(0);
      assertEquals(List.of(e.getKey()), details(read(s)));
      assertEquals(e.getKey(), assertThrows(GsymFormatException.class, () -> CallFrameInfo.of(s).cieAt(0)).detail());
    }
  }

  @Test
  void fdeErrors() {
    CfiBytes b = new CfiBytes();
    b.ehCie(0x1b);
    b.begin().u32(b.position()).u32(0).u32(0x10).uleb(9).u8(1).end(); // augmentation data past its end
    b.begin().u32(b.position()).u16(0).end(1); // initial location cut short
    CfiReader.Result r = read(b.eh(0));
    assertEquals(List.of(".eh_frame FDE at 0x18: augmentation data of 9 bytes runs past the end of the FDE",
        ".eh_frame FDE at 0x2c: unexpected end of data: 4 byte(s) needed, 2 available"), details(r));
  }

  @Test
  void forwardCieInDebugFrame() {
    CfiBytes b = new CfiBytes();
    b.begin().u32(0x18).u64(0x4000).u64(0x10).end(); // its CIE comes after it
    b.begin().u32(0xffffffffL).u8(1).cstring("").uleb(1).sleb(-8).u8(16).u8(0x0c, 7, 8).end();
    CfiReader.Result r = read(b.section(UnwindSource.DEBUG_FRAME, 0, 0, 8, "x86_64"));
    assertEquals(List.of(), r.problems());
    assertEquals(List.of(row(0x4000, 7, 8)), r.tables().getFirst().rows());
  }

  @Test
  void fdeAtAndCieAt() {
    CfiBytes b = new CfiBytes();
    b.ehCie(0x1b).ehFde(0, 0x2000, 0x4000, 0x10);
    CallFrameInfo cfi = CallFrameInfo.of(b.eh(0x2000));
    assertEquals(0x4000, cfi.fdeAt(0x18).pcBegin());
    assertEquals(".eh_frame: the entry at 0x0 is not an FDE", assertThrows(GsymFormatException.class, () -> cfi.fdeAt(0)).detail());
    assertEquals(".eh_frame: the entry at 0x18 is not a CIE", assertThrows(GsymFormatException.class, () -> cfi.cieAt(0x18)).detail());
    assertEquals(".eh_frame: no entry at 0x1000, past the end of the section",
        assertThrows(GsymFormatException.class, () -> cfi.fdeAt(0x1000)).detail());
  }
}
