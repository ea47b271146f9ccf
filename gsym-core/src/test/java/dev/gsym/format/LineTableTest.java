package dev.gsym.format;

import dev.gsym.read.LookupException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LineTableTest {
  private static LineEntry row(long addr, int file, int line) {
    return new LineEntry(addr, file, line);
  }

  private static String encode(LineTable t, long base) {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
    t.encode(w, base);
    return HexFormat.of().formatHex(w.toByteArray());
  }

  private static Cursor cursor(String hex) {
    return ByteView.of(HexFormat.of().parseHex(hex.replace(" ", "")), ByteOrder.BIG_ENDIAN, "lt").cursor(0);
  }

  private static void assertCodec(List<LineEntry> rows, long base, String hex) {
    LineTable t = new LineTable(rows);
    assertThat(encode(t, base)).isEqualTo(hex.replace(" ", ""));
    Cursor c = cursor(hex);
    assertThat(LineTable.decode(c, base)).isEqualTo(t);
    assertThat(c.remaining()).isZero();
  }

  static final List<LineEntry> VEC2_OUTER = List.of(row(0x1150, 1, 15), row(0x1151, 1, 5),
      row(0x115b, 1, 11), row(0x1161, 1, 7), row(0x1167, 1, 12), row(0x116a, 1, 17),
      row(0x117a, 1, 18), row(0x1181, 1, 6));

  @Test
  void vec1Add() {
    assertCodec(List.of(row(0x1140, 1, 3), row(0x114a, 1, 4), row(0x1153, 1, 5)), 0x1140,
        "00 01 03 04 19 17 00");
  }

  @Test
  void vec2OuterWindowSearch() {
    assertCodec(VEC2_OUTER, 0x1150, "7c 06 0f 08 03 76 02 01 7c 46 4f 2e b9 03 74 02 07 00");
  }

  @Test
  void vec4ALtFunc() {
    assertCodec(List.of(row(0x1020, 2, 50), row(0x1024, 2, 10), row(0x1030, 3, 1000),
        row(0x1034, 1, 999)), 0x1020,
        "58 58 32 01 02 02 00 08 01 03 03 de 07 02 0c 01 01 03 7f 02 04 00");
  }

  @Test
  void vec4EDeltas() {
    int[] lines = {10, 12, 14, 16, 18, 100, 101, 5, 5, 6};
    List<LineEntry> rows = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) rows.add(row(0x1000 + 3L * i, 1, lines[i]));
    rows.add(row(0x114a, 1, 7));
    assertCodec(rows, 0x1000,
        "00 02 0a 04 0f 0f 0f 0f 03 d2 00 02 03 0e 03 a0 7f 02 03 0d 0e 03 01 02 af 02 00");
  }

  @Test
  void vec4EOneRowSameDeltaNegDelta() {
    assertCodec(List.of(row(0x3000, 1, 42)), 0x3000, "00 00 2a 04 00");
    assertCodec(List.of(row(0x3100, 1, 3), row(0x3104, 1, 5), row(0x3108, 1, 7)), 0x3100,
        "00 02 03 04 12 12 00");
    assertCodec(List.of(row(0x3200, 1, 30), row(0x3204, 1, 28), row(0x3208, 1, 26)), 0x3200,
        "7e 7e 1e 02 00 08 08 00");
  }

  @Test
  void vec2SegmentedLateFirstRow() {
    // vec4/F late_first_row: the first row is 0x10 past the function start
    assertCodec(List.of(row(0x210, 1, 5)), 0x200, "00 00 05 14 00");
  }

  /**
   * The two ways of choosing the special opcodes' delta window agree (counting is used for many
   * deltas over a small span, sorting otherwise): random deltas of many spreads, ties included.
   */
  @Test
  void deltaWindowByCountsIsTheWindowBySort() {
    java.util.Random rnd = new java.util.Random(7);
    for (int iter = 0; iter < 3000; iter++) {
      int n = 1 + rnd.nextInt(iter % 10 == 0 ? 2000 : 200);
      int spread = 1 + rnd.nextInt(iter % 3 == 0 ? 8 : 600);
      long offset = rnd.nextInt(3) == 0 ? -(1L << 32) + rnd.nextInt(1000) : -rnd.nextInt(300);
      long[] deltas = new long[n];
      long lo = Long.MAX_VALUE;
      long hi = Long.MIN_VALUE;
      for (int i = 0; i < n; i++) {
        deltas[i] = offset + rnd.nextInt(spread) * (rnd.nextInt(4) == 0 ? 3L : 1L);
        lo = Math.min(lo, deltas[i]);
        hi = Math.max(hi, deltas[i]);
      }
      long[] byCounts = LineTable.windowByCounts(deltas.clone(), lo, hi);
      assertThat(byCounts).as("iteration %d", iter).containsExactly(LineTable.windowBySort(deltas.clone()));
    }
    // ties: the lowest window wins; the window ends at the highest delta in it
    assertThat(LineTable.windowByCounts(new long[] {0, 0, 20, 20, 40}, 0, 40)).containsExactly(0, 0);
    assertThat(LineTable.windowByCounts(new long[] {-5, 3, 9, 30, 31, 32}, -5, 32)).containsExactly(-5, 9);
  }

  @Test
  void uniformDeltaOf14IsNotLowered() {
    // Min == Max == 14 is not < 14, so Min stays 14
    assertThat(encode(new LineTable(List.of(row(0, 1, 1), row(1, 1, 15))), 0)).startsWith("0e0e01");
  }

  @Test
  void fileZeroAndInitialFileOne() {
    assertCodec(List.of(row(0x10, 1, 1), row(0x12, 0, 1)), 0x10, "00 00 01 04 01 00 06 00");
  }

  @Test
  void lookupTakesLastRowAtOrBelow() {
    String hex = encode(new LineTable(VEC2_OUTER), 0x1150);
    assertThat(LineTable.lookup(cursor(hex), 0x1150, 0x1150)).isEqualTo(row(0x1150, 1, 15));
    assertThat(LineTable.lookup(cursor(hex), 0x1150, 0x1158)).isEqualTo(row(0x1151, 1, 5));
    assertThat(LineTable.lookup(cursor(hex), 0x1150, 0x115b)).isEqualTo(row(0x115b, 1, 11));
    assertThat(LineTable.lookup(cursor(hex), 0x1150, 0x1185)).isEqualTo(row(0x1181, 1, 6));
    assertThat(LineTable.lookup(cursor(hex), 0x1150, 0xffffffffffffffffL)).isEqualTo(row(0x1181, 1, 6));
  }

  @Test
  void lookupWithDuplicateAddressesTakesTheLast() {
    String hex = encode(new LineTable(List.of(row(0x6c0, 1, 4), row(0x6c0, 1, 8), row(0x6c4, 1, 9))), 0x6c0);
    assertThat(LineTable.lookup(cursor(hex), 0x6c0, 0x6c0).line()).isEqualTo(8);
    assertThat(LineTable.lookup(cursor(hex), 0x6c0, 0x6c3).line()).isEqualTo(8);
    assertThat(LineTable.lookup(cursor(hex), 0x6c0, 0x6c4).line()).isEqualTo(9);
  }

  @Test
  void lookupBeforeFirstRow() {
    String hex = encode(new LineTable(List.of(row(0x210, 1, 5))), 0x200);
    assertThatThrownBy(() -> LineTable.lookup(cursor(hex), 0x200, 0x205))
        .isInstanceOf(LookupException.class).hasMessage("address 0x205 is not in the line table");
    assertThat(LineTable.lookup(cursor(hex), 0x200, 0x215)).isEqualTo(row(0x210, 1, 5));
  }

  @ParameterizedTest
  @CsvSource({
      "'', missing LineTable MinDelta",
      "00, missing LineTable MaxDelta",
      "00 00, missing LineTable FirstLine",
      "00 00 01, EOF found before EndSequence",
      "00 00 01 04, EOF found before EndSequence",
      "00 00 01 01, EOF found before SetFile value",
      "00 00 01 02, EOF found before AdvancePC value",
      "00 00 01 03, EOF found before AdvanceLine value",
      // LEB128 values that cannot be read are 0 (LLVM's lenient DataExtractor); the 0x80 byte is
      // then taken as a special opcode
      "80, EOF found before EndSequence",
      "00 00 01 02 80, EOF found before EndSequence"})
  void truncationErrors(String hex, String message) {
    assertThatThrownBy(() -> LineTable.decode(cursor(hex), 0)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining(message);
    if (!hex.contains("80")) {
      assertThatThrownBy(() -> LineTable.lookup(cursor(hex), 0, 100)).isInstanceOf(GsymFormatException.class)
          .hasMessageContaining(message);
    }
  }

  @Test
  void zeroDeltaRangeIsAnErrorNotADivisionByZero() {
    // MinDelta 1, MaxDelta 0 -> LineRange 0; MinDelta 0, MaxDelta -1; INT64_MIN..INT64_MAX wraps to 0
    for (String prefix : new String[] {"01 00", "00 7f",
        "80 80 80 80 80 80 80 80 80 7f ff ff ff ff ff ff ff ff ff 00"}) {
      assertThatThrownBy(() -> LineTable.decode(cursor(prefix + " 01 04 00"), 0))
          .isInstanceOf(GsymFormatException.class).hasMessageContaining("invalid LineTable delta range");
      assertThatThrownBy(() -> LineTable.lookup(cursor(prefix + " 01 ff 00"), 0, 10))
          .isInstanceOf(GsymFormatException.class);
      // without special opcodes the range is never used
      assertThat(LineTable.decode(cursor(prefix + " 01 02 03 00"), 0).rows()).containsExactly(row(3, 1, 1));
    }
  }

  @Test
  void negativeDeltaRangeDecodesLikeLlvm() {
    // MinDelta 5, MaxDelta 2 -> LineRange -2: C++ and Java share truncating / and %
    // op 0x04: adj 0 -> line += 5, addr += 0; op 0x10: adj 12 -> line += 5 + 0, addr += 12 / -2 = -6
    assertThat(LineTable.decode(cursor("05 02 01 04 10 00"), 0x100).rows())
        .containsExactly(row(0x100, 1, 6), row(0xfa, 1, 11));
    // MinDelta = INT64_MIN, MaxDelta = 0: LineRange wraps to INT64_MIN + 1; adj 1 -> line += INT64_MIN + 1
    assertThat(LineTable.decode(cursor("80 80 80 80 80 80 80 80 80 7f 00 01 05 00"), 0).rows())
        .containsExactly(row(0, 1, 1 + (int) (Long.MIN_VALUE + 1)));
  }

  @Test
  void encodeErrors() {
    assertThatThrownBy(() -> encode(new LineTable(List.of(row(0x10, 1, 1), row(0x0f, 1, 1))), 0))
        .isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("LineEntry in LineTable not in ascending order");
    assertThatThrownBy(() -> encode(new LineTable(List.of(row(0x0f, 1, 1))), 0x10))
        .isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("LineEntry has address 0xf which is less than the function start address 0x10");
    assertThatThrownBy(() -> encode(new LineTable(List.of()), 0)).isInstanceOf(GsymFormatException.class);
  }

  @Test
  void lookupOfAFileZeroRowFails() {
    // llvm-gsymutil-22 answers "not in the line table" when the chosen row has file 0
    String hex = encode(new LineTable(List.of(row(0x400, 1, 1), row(0x410, 0, 2), row(0x420, 1, 3))), 0x400);
    assertThat(LineTable.lookup(cursor(hex), 0x400, 0x405)).isEqualTo(row(0x400, 1, 1));
    assertThatThrownBy(() -> LineTable.lookup(cursor(hex), 0x400, 0x412))
        .isInstanceOf(LookupException.class).hasMessage("address 0x412 is not in the line table");
    assertThat(LineTable.lookup(cursor(hex), 0x400, 0x421)).isEqualTo(row(0x420, 1, 3));
    // the row still decodes
    assertThat(LineTable.decode(cursor(hex), 0x400).rows()).contains(row(0x410, 0, 2));
  }

  @Test
  void lineDropOf2To31OrMoreWrapsLikeLlvm() {
    // LLVM computes the opcode delta as -(int32_t)(Prev - Curr): 0xffffffff -> 0 is +1
    LineTable t = new LineTable(List.of(row(0, 1, -1), row(4, 1, 0)));
    String hex = encode(t, 0);
    assertThat(hex).isEqualTo("8180808070" + "8180808070" + "ffffffff0f" + "0200" + "0301" + "0204" + "00");
    assertThat(LineTable.decode(cursor(hex), 0)).isEqualTo(t);
    // a drop below 2^31 is an ordinary negative delta
    assertThat(encode(new LineTable(List.of(row(0, 1, 100), row(4, 1, 0))), 0)).isEqualTo("9c7f9c7f64" + "0200" + "08" + "00");
  }

  @Test
  void lineWrapsAt32Bits() {
    LineTable t = new LineTable(List.of(row(0, 1, -1), row(4, 1, 0), row(8, 1, 0x7fffffff)));
    String hex = encode(t, 0);
    assertThat(LineTable.decode(cursor(hex), 0)).isEqualTo(t);
  }

  @Test
  void randomRoundTrips() {
    Random r = new Random(7);
    for (int iter = 0; iter < 3000; iter++) {
      long base = r.nextLong() >>> r.nextInt(64);
      long addr = base;
      int n = 1 + r.nextInt(40);
      List<LineEntry> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        addr += r.nextInt(4) == 0 ? 0 : r.nextInt(r.nextBoolean() ? 8 : 100_000);
        int file = r.nextInt(5) == 0 ? r.nextInt(300) : 1;
        int line = r.nextBoolean() ? 1 + r.nextInt(50) : r.nextInt();
        rows.add(row(addr, file, line));
      }
      LineTable t = new LineTable(rows);
      String hex = encode(t, base);
      assertThat(LineTable.decode(cursor(hex), base)).isEqualTo(t);
      LineEntry last = rows.getLast();
      LineEntry expect = null;
      for (LineEntry e : rows) if (Long.compareUnsigned(e.address(), last.address()) <= 0) expect = e;
      if (expect.file() == 0) {
        assertThatThrownBy(() -> LineTable.lookup(cursor(hex), base, last.address()))
            .isInstanceOf(LookupException.class);
      } else {
        assertThat(LineTable.lookup(cursor(hex), base, last.address())).isEqualTo(expect);
      }
    }
  }

  @Test
  void compareAndToString() {
    LineTable a = new LineTable(List.of(row(1, 1, 1)));
    LineTable b = new LineTable(List.of(row(1, 1, 1), row(2, 1, 1)));
    LineTable c = new LineTable(List.of(row(2, 1, 1)));
    assertThat(LineTable.compare(null, a)).isNegative();
    assertThat(LineTable.compare(a, null)).isPositive();
    assertThat(LineTable.compare(a, b)).isNegative();
    assertThat(LineTable.compare(a, c)).isNegative();
    assertThat(LineTable.compare(a, new LineTable(List.of(row(1, 2, 9))))).isZero();
    assertThat(a.toString()).isEqualTo("addr=0x0000000000000001, file=  1, line=  1\n");
  }
}
