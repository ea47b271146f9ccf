package dev.gsym.read.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import dev.gsym.read.LookupException;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LineIndex#lookup} must find the row {@link LineTable#lookup} finds, in both of its layouts
 * (rows packed into one long each, or spread over three arrays when offset, file and line do not
 * fit together), for rows sharing addresses, unevenly spread rows (the search starts from a guess)
 * and addresses before, inside and far past the table.
 */
class LineIndexTest {
  private static final long BASE = 0x40_1000L;

  /** A raw line program: header, then opcodes appended by the test. */
  private static final class Program {
    final GsymWriter out = new GsymWriter(ByteOrder.LITTLE_ENDIAN);

    Program(long minDelta, long maxDelta, long firstLine) {
      out.sleb(minDelta);
      out.sleb(maxDelta);
      out.uleb(firstLine);
    }

    Program op(int op) {
      out.u8(op);
      return this;
    }

    Program setFile(long f) {
      op(LineTable.SET_FILE).out.uleb(f);
      return this;
    }

    Program advancePc(long d) {
      op(LineTable.ADVANCE_PC).out.uleb(d);
      return this;
    }

    Program advanceLine(long d) {
      op(LineTable.ADVANCE_LINE).out.sleb(d);
      return this;
    }

    byte[] end() {
      out.u8(LineTable.END_SEQUENCE);
      return out.toByteArray();
    }
  }

  private static LineIndex build(byte[] program, long base) {
    return LineIndex.build(ByteView.of(program, ByteOrder.LITTLE_ENDIAN, "t").cursor(0), base);
  }

  /** LineTable's answer as "file:line", or "none" (no row at or below, or a row with file 0). */
  private static String expected(byte[] program, long addr) {
    try {
      LineEntry row = LineTable.lookup(ByteView.of(program, ByteOrder.LITTLE_ENDIAN, "t").cursor(0), BASE, addr);
      return Integer.toUnsignedString(row.file()) + ":" + Integer.toUnsignedString(row.line());
    } catch (LookupException e) {
      return "none";
    }
  }

  /** The index's answer in the same form: a result with file 0 (NOT_FOUND included) is "none". */
  private static String actual(LineIndex index, long addr) {
    long r = index.lookup(addr);
    return r >>> 32 == 0 ? "none" : (r >>> 32) + ":" + (r & 0xFFFF_FFFFL);
  }

  /** Compares at every row's address and its neighbours, at 200 random addresses and at the far ends. */
  private static LineIndex compare(byte[] program, long lastAddr, Random rnd) {
    LineIndex index = build(program, BASE);
    assertThat(index).isNotNull();
    java.util.List<Long> probes = new java.util.ArrayList<>(java.util.List.of(0L, BASE - 1, BASE, lastAddr,
        lastAddr + 1, lastAddr + 0x1_0000_0000L, -1L, Long.MIN_VALUE));
    LineTable.parse(ByteView.of(program, ByteOrder.LITTLE_ENDIAN, "t").cursor(0), BASE, (a, f, l) -> {
      probes.add(a - 1);
      probes.add(a);
      probes.add(a + 1);
      return true;
    });
    for (int i = 0; i < 200; i++) probes.add(BASE + (long) (rnd.nextDouble() * (lastAddr - BASE + 2)));
    for (long a : probes) assertThat(actual(index, a)).as("0x%x", a).isEqualTo(expected(program, a));
    return index;
  }

  @Test
  void randomTablesAnswerAsTheLineProgram() {
    Random rnd = new Random(20261123);
    for (int t = 0; t < 400; t++) {
      Program p = new Program(-4, 10, rnd.nextInt(5000));
      long addr = BASE;
      int rows = rnd.nextInt(t % 10 == 0 ? 2000 : 60);
      for (int i = 0; i < rows; i++) {
        switch (rnd.nextInt(6)) {
          case 0 -> p.setFile(1 + rnd.nextInt(t % 3 == 0 ? 3 : 3000));
          case 1 -> p.advanceLine(rnd.nextInt(200) - 100);
          case 2 -> { // a jump, so rows are spread unevenly
            long d = rnd.nextInt(4) == 0 ? rnd.nextInt(5000) : rnd.nextInt(3);
            p.advancePc(d);
            addr += d;
          }
          default -> { // special opcode: line += min + adj % range, addr += adj / range
            int adj = rnd.nextInt(255 - LineTable.FIRST_SPECIAL);
            p.op(LineTable.FIRST_SPECIAL + adj);
            addr += adj / 15;
          }
        }
      }
      assertThat(compare(p.end(), addr, rnd).packed()).isTrue();
    }
  }

  @Test
  void rowsAtTheSameAddressAnswerWithTheLastOne() {
    Program p = new Program(0, 0, 10);
    p.setFile(7).advancePc(0).setFile(2).advanceLine(5).advancePc(0); // two rows at BASE
    p.advancePc(4).setFile(9).advanceLine(-12).advancePc(0).setFile(1).advancePc(0); // three at BASE+4
    byte[] program = p.end();
    compare(program, BASE + 4, new Random(1));
    assertThat(build(program, BASE).lookup(BASE + 2)).isEqualTo(2L << 32 | 15);
    assertThat(build(program, BASE).lookup(BASE + 9)).isEqualTo(1L << 32 | 3);
  }

  @Test
  void valuesTooWideToPackStillAnswer() {
    // file and line need 32 bits each, so the 34-bit offset cannot share a long with them
    Program p = new Program(0, 0, 0xFFFF_FFF0L);
    p.setFile(0xFFFF_FFFFL).advancePc(1).advanceLine(3).setFile(0x8000_0001L).advancePc(0x2_0000_0000L);
    p.setFile(5).advanceLine(-0x7FFF_FFFFL).advancePc(3);
    byte[] program = p.end();
    LineIndex index = build(program, BASE);
    assertThat(index.packed()).isFalse();
    for (long a : new long[] {BASE, BASE + 1, BASE + 2, BASE + 0x2_0000_0000L, BASE + 0x2_0000_0001L,
        BASE + 0x2_0000_0004L, BASE + 0x2_0000_0005L, -1L, BASE - 1}) {
      assertThat(actual(index, a)).as("0x%x", a).isEqualTo(expected(program, a));
    }
    assertThat(index.lookup(BASE + 1)).isEqualTo(0xFFFF_FFFFL << 32 | 0xFFFF_FFF0L);
    assertThat(index.lookup(BASE + 0x2_0000_0001L)).isEqualTo(0x8000_0001L << 32 | 0xFFFF_FFF3L);
    // the same rows at small offsets pack (zero-width file and line bits included)
    Program q = new Program(0, 0, 0);
    q.setFile(0).advancePc(0).advancePc(2).advancePc(2);
    assertThat(compare(q.end(), BASE + 4, new Random(2)).packed()).isTrue();
  }

  @Test
  void tablesItDoesNotHandleAreLeftToTheLineProgram() {
    Program unordered = new Program(-1, 1, 1);
    // the second row wraps past 2^64: not in address order
    unordered.advancePc(5).advancePc(-8L);
    assertThat(build(unordered.end(), BASE)).isNull();
    byte[] noEnd = new Program(0, 0, 1).advancePc(1).out.toByteArray();
    assertThat(build(noEnd, BASE)).isNull();
    assertThat(build(new byte[] {(byte) 0x80}, BASE)).isNull();
  }
}
