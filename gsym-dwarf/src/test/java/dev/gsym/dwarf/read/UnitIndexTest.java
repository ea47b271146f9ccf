package dev.gsym.dwarf.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * {@link UnitIndex}: the GNU version 2 and DWARF 5 layouts, llvm's hash probing, and hostile
 * indexes (sizes, slots, rows, columns, endless probes) as one GsymFormatException naming the
 * section and the offset, without large allocations or loops.
 */
class UnitIndexTest {
  private static final String WHAT = "DWARF package x.dwp: .debug_cu_index";

  /** An index: header, slots (signature, row), column ids, offsets and sizes per row. */
  static byte[] index(int version, long[] sigs, int[] rows, int[] columns, long[][] offsets, long[][] sizes) {
    Bytes b = new Bytes();
    if (version == 5) b.u16(5).u16(0);
    else b.u32(version);
    b.u32(columns.length).u32(offsets.length).u32(sigs.length);
    for (long s : sigs) b.u64(s);
    for (int r : rows) b.u32(r);
    for (int c : columns) b.u32(c);
    for (long[] row : offsets) for (long o : row) b.u32(o);
    for (long[] row : sizes) for (long s : row) b.u32(s);
    return b.get();
  }

  static UnitIndex parse(byte[] bytes) {
    return UnitIndex.parse(ByteView.of(bytes, ByteOrder.LITTLE_ENDIAN, "x.dwp"), WHAT, false);
  }

  @Test
  void dwarf5() {
    // two units in four slots; columns INFO, ABBREV, STR_OFFSETS, RNGLISTS
    long a = 0x1234_5678_0000_0001L, b = 0x0000_0001_0000_0002L;
    byte[] bytes = index(5, new long[] {0, a, b, 0}, new int[] {0, 2, 1, 0}, new int[] {1, 3, 6, 8},
        new long[][] {{0, 0, 0, 0}, {0x40, 0x20, 0x10, 0x30}}, new long[][] {{0x40, 0x20, 0x10, 0x30}, {0x44, 0x22, 0x12, 0x32}});
    UnitIndex idx = parse(bytes);
    assertThat(idx.version()).isEqualTo(5);
    assertThat(idx.entries()).hasSize(2);
    UnitIndex.Entry e = idx.find(a);
    assertThat(e.signature()).isEqualTo(a);
    assertThat(e.info()).isEqualTo(new UnitIndex.Contribution(0x40, 0x44));
    assertThat(e.contribution(UnitIndex.Kind.ABBREV)).isEqualTo(new UnitIndex.Contribution(0x20, 0x22));
    assertThat(e.contribution(UnitIndex.Kind.RNGLISTS)).isEqualTo(new UnitIndex.Contribution(0x30, 0x32));
    assertThat(e.contribution(UnitIndex.Kind.LINE)).isNull();
    assertThat(idx.find(b).info()).isEqualTo(new UnitIndex.Contribution(0, 0x40));
    assertThat(idx.find(3)).isNull(); // slot 3 is empty
    assertThat(idx.find(0)).isNull(); // slot 0 is empty although its signature is 0
  }

  /** llvm's probe: a collision at the home slot steps by ((sig >> 32) & mask) | 1. */
  @Test
  void probing() {
    long first = 0x0000_0000_0000_0005L, second = 0x0000_0002_0000_0001L; // both home in slot 1 of 4
    // second's step is (2 & 3) | 1 = 3: slot 1 -> 0
    byte[] bytes = index(5, new long[] {second, first, 0, 0}, new int[] {2, 1, 0, 0}, new int[] {1, 3},
        new long[][] {{0, 0}, {0x10, 0x8}}, new long[][] {{0x10, 0x8}, {0x10, 0x8}});
    UnitIndex idx = parse(bytes);
    assertThat(idx.find(first).info().offset()).isZero();
    assertThat(idx.find(second).info().offset()).isEqualTo(0x10);
  }

  /** GNU DebugFission (version 2): section ids 1 INFO, 2 TYPES, 3 ABBREV, 4 LINE, 5 LOC, 6 STR_OFFSETS, 7 MACINFO, 8 MACRO. */
  @Test
  void gnuVersion2() {
    byte[] bytes = index(2, new long[] {0, 7}, new int[] {0, 1}, new int[] {1, 3, 4, 5, 6, 7},
        new long[][] {{0, 1, 2, 3, 4, 5}}, new long[][] {{10, 11, 12, 13, 14, 15}});
    UnitIndex.Entry e = parse(bytes).find(7);
    assertThat(e.contribution(UnitIndex.Kind.LOC)).isEqualTo(new UnitIndex.Contribution(3, 13));
    assertThat(e.contribution(UnitIndex.Kind.MACINFO)).isEqualTo(new UnitIndex.Contribution(5, 15));
    assertThat(e.contribution(UnitIndex.Kind.LOCLISTS)).isNull();
    // a version 2 type-unit index's info column is TYPES (2)
    byte[] tu = index(2, new long[] {0, 9}, new int[] {0, 1}, new int[] {2, 3}, new long[][] {{0x30, 0}}, new long[][] {{0x20, 4}});
    UnitIndex t = UnitIndex.parse(ByteView.of(tu, ByteOrder.LITTLE_ENDIAN, "x.dwp"), "tu", true);
    assertThat(t.find(9).info()).isEqualTo(new UnitIndex.Contribution(0x30, 0x20));
  }

  @Test
  void emptyIndexIsAbsent() {
    UnitIndex idx = parse(index(5, new long[0], new int[0], new int[0], new long[0][], new long[0][]));
    assertThat(idx.isEmpty()).isTrue();
    assertThat(idx.find(1)).isNull();
  }

  private static void rejects(byte[] bytes, long offset, String detail) {
    assertThatThrownBy(() -> parse(bytes)).isInstanceOf(GsymFormatException.class)
        .satisfies(t -> {
          GsymFormatException e = (GsymFormatException) t;
          assertThat(e.source()).isEqualTo("x.dwp");
          assertThat(e.offset()).isEqualTo(offset);
          assertThat(e.detail()).startsWith(WHAT + " at 0x" + Long.toHexString(offset) + ": ").contains(detail);
        });
  }

  @Test
  void hostileIndexes() {
    rejects(new byte[10], 0, "header needs 16 bytes");
    rejects(new Bytes().u32(3).u32(0).u32(0).u32(0).get(), 0, "unsupported index version");
    // counts far beyond the section: refused before anything is allocated
    rejects(new Bytes().u16(5).u16(0).u32(1).u32(0xffff_ffffL).u32(0xffff_ffffL).get(), 4, "do not fit");
    rejects(new Bytes().u16(5).u16(0).u32(0xffff_ffffL).u32(1).u32(1).get(), 4, "do not fit");
    // counts that fit one by one but not together
    byte[] small = index(5, new long[] {1, 0}, new int[] {1, 0}, new int[] {1, 3}, new long[][] {{0, 0}}, new long[][] {{8, 8}});
    byte[] cut = java.util.Arrays.copyOf(small, small.length - 4);
    rejects(cut, 4, "need " + small.length + " bytes, the section has " + cut.length);
    // a row number past the unit count, a row named twice, a row no slot names
    rejects(index(5, new long[] {1, 2}, new int[] {1, 3}, new int[] {1, 3}, new long[][] {{0, 0}, {0, 0}}, new long[][] {{8, 8}, {8, 8}}),
        16 + 16 + 4, "slot 1 names unit row 3, the index has 2");
    rejects(index(5, new long[] {1, 2}, new int[] {1, 1}, new int[] {1, 3}, new long[][] {{0, 0}, {0, 0}}, new long[][] {{8, 8}, {8, 8}}),
        16 + 16 + 4, "as slot 0 does");
    rejects(index(5, new long[] {1, 2}, new int[] {2, 0}, new int[] {1, 3}, new long[][] {{0, 0}, {0, 0}}, new long[][] {{8, 8}, {8, 8}}),
        16 + 16, "no slot names unit row 1 of 2");
    // no info column, two info columns
    rejects(index(5, new long[] {1, 0}, new int[] {1, 0}, new int[] {3, 6}, new long[][] {{0, 0}}, new long[][] {{8, 8}}),
        16 + 16 + 8, "no INFO column");
    rejects(index(5, new long[] {1, 0}, new int[] {1, 0}, new int[] {1, 1}, new long[][] {{0, 0}}, new long[][] {{8, 8}}),
        16 + 16 + 8 + 4, "two INFO columns");
    // units but no columns
    rejects(index(5, new long[] {1, 0}, new int[] {1, 0}, new int[0], new long[][] {{}}, new long[][] {{}}), 4, "no columns");
  }

  /** A full table without the signature: llvm's getFromHash would loop forever; we stop after S probes. */
  @Test
  void endlessProbeIsAnError() {
    byte[] bytes = index(5, new long[] {1, 2}, new int[] {1, 2}, new int[] {1, 3}, new long[][] {{0, 0}, {8, 0}},
        new long[][] {{8, 8}, {8, 8}});
    UnitIndex idx = parse(bytes);
    assertThat(idx.find(2).info().offset()).isEqualTo(8);
    assertThatThrownBy(() -> idx.find(4)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("looking up signature 0x4 in 2 slots meets neither it nor an empty slot");
  }
}
