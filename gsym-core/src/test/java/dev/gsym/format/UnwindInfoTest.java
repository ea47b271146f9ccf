package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.read.GsymReader;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindEntry;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import dev.gsym.unwind.UnwindState;
import dev.gsym.unwind.WindowsFrameInfo;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The UnwindInfo payload: encode/decode round trips, lookups against the rows, creator and reader. */
class UnwindInfoTest {
  private static final int RSP = 7;
  private static final int RBP = 6;
  private static final int RIP = 16;

  static UnwindRow row(long addr, CfaRule cfa, Object... regRules) {
    TreeMap<Integer, RegisterRule> m = new TreeMap<>();
    for (int i = 0; i < regRules.length; i += 2) m.put((Integer) regRules[i], (RegisterRule) regRules[i + 1]);
    return new UnwindRow(addr, cfa, m);
  }

  /** A frame-pointer x86-64 function: push rbp; mov rbp, rsp; ...; pop rbp; ret. */
  static CfiTable framePointerFunction(long start, long ordinal) {
    return new CfiTable(UnwindSource.EH_FRAME, ordinal, start, 0x40, RIP, List.of(
        row(start, new CfaRule.RegisterOffset(RSP, 8), RIP, new RegisterRule.Offset(-8)),
        row(start + 1, new CfaRule.RegisterOffset(RSP, 16), RIP, new RegisterRule.Offset(-8), RBP, new RegisterRule.Offset(-16)),
        row(start + 4, new CfaRule.RegisterOffset(RBP, 16), RIP, new RegisterRule.Offset(-8), RBP, new RegisterRule.Offset(-16)),
        row(start + 0x3e, new CfaRule.RegisterOffset(RSP, 8), RIP, new RegisterRule.Offset(-8))));
  }

  static UnwindInfo decodeBytes(byte[] b, long start) {
    return UnwindInfo.decode(new Cursor(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "test"), 0), start);
  }

  @Test
  void roundTripsEveryRuleKind() {
    long start = 0x401000;
    CfiTable all = new CfiTable(UnwindSource.DEBUG_FRAME, 3, start, 0x200, 30, List.of(
        row(start, new CfaRule.RegisterOffset(31, 0)),
        row(start + 4, new CfaRule.RegisterOffset(31, 32), 29, new RegisterRule.Offset(-32), 30, new RegisterRule.Offset(-24),
            34, new RegisterRule.Constant(1)),
        row(start + 0x90, new CfaRule.Expression(new byte[] {0x77, 0x08, 0x06}), 19, RegisterRule.UNDEFINED,
            20, RegisterRule.SAME_VALUE, 21, new RegisterRule.ValOffset(48), 22, new RegisterRule.Register(0),
            23, new RegisterRule.Expression(new byte[] {0x70, 0x10}), 24, new RegisterRule.ValExpression(new byte[] {0x71, 0x7f}),
            300, new RegisterRule.Offset(-4096), 29, new RegisterRule.Offset(12)),
        row(start + 0x1ff, new CfaRule.Postfix("$sp 16 +"), 25, new RegisterRule.Postfix(".cfa 8 - ^"))));
    // a table whose first row has no CFA rule (a Breakpad INIT record without .cfa) and one that drops it
    CfiTable noCfa = new CfiTable(UnwindSource.BREAKPAD_CFI, 4, start + 0x300, 0x20, 30, List.of(
        row(start + 0x300, null, 30, RegisterRule.SAME_VALUE),
        row(start + 0x304, new CfaRule.RegisterOffset(31, 16)),
        row(start + 0x308, null)));
    WindowsFrameInfo win = new WindowsFrameInfo(UnwindSource.BREAKPAD_WIN, 9, 4, start + 0x400, 0x80, 5, 2, 8, 4, 16, 0,
        "$T0 $ebp = $eip $T0 4 + ^ =", false);
    WindowsFrameInfo fpo = new WindowsFrameInfo(UnwindSource.BREAKPAD_WIN, 10, 0, start + 0x480, 0x10, 1, 1, 0, 0, 0, 0,
        null, true);
    UnwindInfo u = new UnwindInfo(Arch.AARCH64, List.of(all, noCfa, win, fpo), List.of(framePointerFunction(start - 0x20, 1)));
    assertThat(decodeBytes(u.encode(start), start)).isEqualTo(u);
  }

  /** DWARF CFI may leave rows at or past an FDE's end (llvm-dwarfdump prints them): kept. */
  @Test
  void rowsPastTheEndRoundTrip() {
    long start = 0x2000;
    CfiTable t = new CfiTable(UnwindSource.EH_FRAME, 0, start, 0x10, RIP, List.of(
        row(start, new CfaRule.RegisterOffset(RSP, 8), RIP, new RegisterRule.Offset(-8)),
        row(start + 0x10, new CfaRule.RegisterOffset(RSP, 16), RIP, new RegisterRule.Offset(-8)),
        row(start + 0x30, new CfaRule.RegisterOffset(RSP, 8), RIP, new RegisterRule.Offset(-8))));
    UnwindInfo u = new UnwindInfo(Arch.X86_64, List.of(t), List.of());
    byte[] b = u.encode(start);
    assertThat(decodeBytes(b, start)).isEqualTo(u);
    UnwindState s = new UnwindState();
    assertThat(UnwindInfo.lookup(new Cursor(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "t"), 0), start, start + 0xf, s)).isTrue();
    assertThat(s.toRow()).isEqualTo(t.rows().getFirst().at(start));
    assertThat(UnwindInfo.lookup(new Cursor(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "t"), 0), start, start + 0x10, s)).isFalse();
  }

  /**
   * A table whose first row has no CFA rule (dump_syms writes {@code STACK CFI INIT 3c04f a .ra:
   * $rip} for glibc's FDEs whose CFA is a DWARF expression), then rows that set one: encoded from
   * nothing, never from the entry state.
   */
  @Test
  void firstRowWithoutACfaRuleRoundTrips() {
    long start = 0x3c04f;
    CfiTable t = new CfiTable(UnwindSource.BREAKPAD_CFI, 0, start, 0xa, RIP, List.of(
        row(start, null, RIP, new RegisterRule.Register(RIP)),
        row(start + 4, new CfaRule.RegisterOffset(RSP, 16), RIP, new RegisterRule.Offset(-8))));
    UnwindInfo u = new UnwindInfo(Arch.X86_64, List.of(t), List.of());
    byte[] b = u.encode(start);
    assertThat(decodeBytes(b, start)).isEqualTo(u);
    UnwindState s = new UnwindState();
    assertThat(UnwindInfo.lookup(new Cursor(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "t"), 0), start, start + 1, s)).isTrue();
    assertThat(s.cfaKind()).isEqualTo(UnwindState.NONE);
  }

  @Test
  void shortFormsKeepFrameFunctionsSmall() {
    long start = 0x1000;
    UnwindInfo u = new UnwindInfo(Arch.X86_64, List.of(framePointerFunction(start, 0)), List.of());
    byte[] b = u.encode(start);
    // version, arch, count; kind, ordinal, start, length, size (8); ra, EntryState (2); push rbp: advance,
    // CFA offset, rbp saved (4); mov rbp, rsp: advance, CFA register (3); pop rbp: advance, CFA rsp+8,
    // rbp unspecified (6); End (1). The FDE alone is 32 bytes in .eh_frame, plus 8 in .eh_frame_hdr.
    assertThat(b.length).isEqualTo(24);
    assertThat(decodeBytes(b, start)).isEqualTo(u);
  }

  /** Random tables: decode gives them back and a lookup at every address gives rowAt's answer. */
  @Test
  void randomTablesRoundTripAndLookUpAsTheirRows() {
    SplittableRandom rnd = new SplittableRandom(35);
    for (int iter = 0; iter < 300; iter++) {
      Arch arch = Arch.values()[rnd.nextInt(Arch.values().length)];
      long fstart = 0x10000 + rnd.nextInt(1 << 20) * 4L;
      List<UnwindEntry> entries = new ArrayList<>();
      long at = fstart + rnd.nextInt(-8, 8);
      int n = rnd.nextInt(1, 4);
      for (int e = 0; e < n; e++) {
        long len = rnd.nextInt(1, 300);
        entries.add(randomTable(rnd, arch, at, len, e));
        at += len + rnd.nextInt(0, 16);
      }
      UnwindInfo u = new UnwindInfo(arch, entries, List.of());
      byte[] b = u.encode(fstart);
      assertThat(decodeBytes(b, fstart)).as("iteration %d", iter).isEqualTo(u);
      UnwindState s = new UnwindState();
      for (long a = fstart - 10; a < at + 4; a++) {
        UnwindRow want = null;
        for (UnwindEntry e : entries) if (want == null && e instanceof CfiTable t) want = t.rowAt(a);
        boolean found = UnwindInfo.lookup(new Cursor(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "t"), 0), fstart, a, s);
        assertThat(found).as("0x%x", a).isEqualTo(want != null);
        if (want != null) assertThat(s.toRow()).as("0x%x", a).isEqualTo(want);
      }
    }
  }

  static CfiTable randomTable(SplittableRandom rnd, Arch arch, long start, long len, long ordinal) {
    List<UnwindRow> rows = new ArrayList<>();
    long a = start;
    TreeMap<Integer, RegisterRule> regs = new TreeMap<>();
    CfaRule cfa = new CfaRule.RegisterOffset(arch.stackPointer(), arch.addressSize());
    while (a < start + len) {
      switch (rnd.nextInt(5)) {
        case 0 -> cfa = new CfaRule.RegisterOffset(rnd.nextInt(40), rnd.nextInt(-64, 600));
        case 1 -> regs.put(rnd.nextInt(70), new RegisterRule.Offset(-8L * rnd.nextInt(0, 100)));
        case 2 -> regs.remove(rnd.nextInt(70));
        case 3 -> regs.put(rnd.nextInt(70), switch (rnd.nextInt(6)) {
          case 0 -> RegisterRule.SAME_VALUE;
          case 1 -> RegisterRule.UNDEFINED;
          case 2 -> new RegisterRule.ValOffset(rnd.nextInt(-100, 100));
          case 3 -> new RegisterRule.Register(rnd.nextInt(30));
          case 4 -> new RegisterRule.Offset(rnd.nextInt(-100, 100));
          default -> new RegisterRule.Expression(new byte[] {(byte) rnd.nextInt(256)});
        });
        default -> cfa = new CfaRule.RegisterOffset(arch.stackPointer(), (long) arch.addressSize() * rnd.nextInt(0, 70));
      }
      rows.add(new UnwindRow(a, cfa, regs));
      a += rnd.nextInt(1, 100);
    }
    return new CfiTable(UnwindSource.EH_FRAME, ordinal, start, len, arch.returnAddress(), rows);
  }

  @Test
  void hostileCountsAndTruncationsAreClearErrors() {
    assertThatThrownBy(() -> decodeBytes(new byte[] {1, 2, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f}, 0))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("entry count");
    assertThatThrownBy(() -> decodeBytes(new byte[] {2, 2, 0}, 0))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("unsupported UnwindInfo version 2");
    byte[] ok = new UnwindInfo(Arch.X86_64, List.of(framePointerFunction(0x1000, 0)), List.of()).encode(0x1000);
    for (int cut = 0; cut < ok.length; cut++) {
      byte[] t = java.util.Arrays.copyOf(ok, cut);
      assertThatThrownBy(() -> decodeBytes(t, 0x1000)).as("cut at %d", cut).isInstanceOf(GsymFormatException.class);
    }
    // an advance of 0, and one that wraps the address space
    byte[] zero = {1, 2, 1, 1, 0, 0, 4, 4, 16, 0x01, 0x00, 0};
    assertThatThrownBy(() -> decodeBytes(zero, 0)).isInstanceOf(GsymFormatException.class).hasMessageContaining("does not move forward");
    byte[] wrap = {1, 2, 1, 1, 0, 0x7f, 4, 13, 16, 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01, 0};
    assertThatThrownBy(() -> decodeBytes(wrap, -1)).isInstanceOf(GsymFormatException.class).hasMessageContaining("does not move forward");
  }

  /**
   * The creator attaches entries to the records whose regions hold them (entries before the first
   * function, in gaps no function covers, and running over several functions), and the reader
   * answers every address as the entries' rows do.
   */
  @Test
  void creatorAttachesAndReaderAnswersEveryAddress() {
    for (int version : new int[] {1, 2}) {
      GsymCreator c = new GsymCreator();
      c.setOutputVersion(version);
      int[] starts = {0x1000, 0x1100, 0x1200, 0x1400};
      for (int s : starts) c.addFunctionInfo(new FunctionInfo(new AddressRange(s, s + 0x40), c.insertString("f" + s)));
      c.finish(Diagnostics.silent());
      List<CfiTable> tables = List.of(
          framePointerFunction(0xf80, 0), // before the first function
          framePointerFunction(0x1000, 1),
          framePointerFunction(0x1150, 2), // in the gap after 0x1100's function
          new CfiTable(UnwindSource.EH_FRAME, 3, 0x11e0, 0x300, RIP, // over 0x1200 and 0x1400
              List.of(row(0x11e0, new CfaRule.RegisterOffset(RSP, 8), RIP, new RegisterRule.Offset(-8)),
                  row(0x1300, new CfaRule.RegisterOffset(RSP, 64), RIP, new RegisterRule.Offset(-8)))));
      assertThat(c.attachUnwind(Arch.X86_64, tables)).isEqualTo(4);
      GsymReader r = GsymReader.of(c.encode(), "attached");
      UnwindState s = new UnwindState();
      for (long a = 0xf00; a < 0x1600; a++) {
        UnwindRow want = null;
        for (CfiTable t : tables) if (want == null) want = t.rowAt(a);
        assertThat(r.unwindRow(a, s)).as("v%d 0x%x", version, a).isEqualTo(want != null);
        if (want != null) assertThat(s.toRow()).as("v%d 0x%x", version, a).isEqualTo(want);
      }
      // lookups and the records' other parts are those of the file without unwind information
      assertThat(r.lookup(0x1410).functionName()).isEqualTo("f5120");
      FunctionInfo f = r.functionInfoAtIndex(3);
      assertThat(f.unwind().continued()).containsExactly(tables.get(3));
      assertThat(f.unwind().entries()).isEmpty();
      assertThat(r.functionInfoAtIndex(2).unwind().continued()).containsExactly(tables.get(3));
      assertThat(r.functionInfoAtIndex(2).unwind().entries()).isEmpty();
      assertThat(r.functionInfoAtIndex(1).unwind().entries()).containsExactly(tables.get(2), tables.get(3));
      assertThat(r.functionInfoAtIndex(0).unwind().entries()).containsExactly(tables.get(0), tables.get(1));
      // a GSYM -> GSYM copy keeps it
      GsymCreator copy = GsymCreator.from(r);
      copy.finish(Diagnostics.silent());
      assertThat(copy.encode()).isEqualTo(c.encode());
    }
  }

  @Test
  void dumpPrintsTheRows() {
    UnwindInfo u = new UnwindInfo(Arch.X86_64, List.of(framePointerFunction(0x1000, 0)), List.of());
    StringBuilder sb = new StringBuilder();
    u.dump(sb, 0);
    assertThat(sb.toString()).isEqualTo("""
        UnwindInfo (x86_64):
          eh_frame #0 [0x0000000000001000 - 0x0000000000001040) ra=reg16
            0x1000: CFA=reg7+8: reg16=[CFA-8]
            0x1001: CFA=reg7+16: reg6=[CFA-16], reg16=[CFA-8]
            0x1004: CFA=reg6+16: reg6=[CFA-16], reg16=[CFA-8]
            0x103e: CFA=reg7+8: reg16=[CFA-8]
        """);
  }

  @Test
  void mapsAreSortedByRegister() {
    UnwindRow r = row(0, new CfaRule.RegisterOffset(7, 8), 16, RegisterRule.SAME_VALUE, 3, RegisterRule.UNDEFINED);
    assertThat(r.registers().keySet()).containsExactly(3, 16);
    assertThat(Map.copyOf(r.registers())).hasSize(2);
  }
}
