package dev.gsym.io;

import dev.gsym.GsymFormatException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteOrder;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Fixed-width writes and reads in both byte orders, alignment, back-patching and bounds errors. */
class GsymWriterTest {
  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  @Test
  void littleEndianIntegers() {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
    w.u8(0xab);
    w.u16(0x1234);
    w.u32(0x89abcdefL);
    w.u64(0x0102030405060708L);
    assertThat(hex(w.toByteArray())).isEqualTo("ab" + "3412" + "efcdab89" + "0807060504030201");
  }

  @Test
  void bigEndianIntegers() {
    GsymWriter w = new GsymWriter(ByteOrder.BIG_ENDIAN);
    w.u8(0xab);
    w.u16(0x1234);
    w.u32(0x89abcdefL);
    w.u64(0x0102030405060708L);
    assertThat(hex(w.toByteArray())).isEqualTo("ab" + "1234" + "89abcdef" + "0102030405060708");
  }

  @Test
  void uNAllSizesBothOrdersRoundTrip() {
    for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
      GsymWriter w = new GsymWriter(o);
      w.uN(0xfe, 1);
      w.uN(0xfedc, 2);
      w.uN(0xfedcba98L, 4);
      w.uN(0xfedcba9876543210L, 8);
      ByteView v = ByteView.of(w.toByteArray(), o, "t");
      assertThat(v.uN(0, 1)).isEqualTo(0xfe);
      assertThat(v.uN(1, 2)).isEqualTo(0xfedc);
      assertThat(v.uN(3, 4)).isEqualTo(0xfedcba98L);
      assertThat(v.uN(7, 8)).isEqualTo(0xfedcba9876543210L);
      assertThat(v.u32(3)).isEqualTo(0xfedcba98L);
      assertThat(v.s32(3)).isEqualTo(0xfedcba98);
      Cursor c = v.cursor(0);
      assertThat(c.u8()).isEqualTo(0xfe);
      assertThat(c.u16()).isEqualTo(0xfedc);
      assertThat(c.u32()).isEqualTo(0xfedcba98L);
      assertThat(c.u64()).isEqualTo(0xfedcba9876543210L);
      assertThat(c.remaining()).isZero();
    }
    assertThatThrownBy(() -> new GsymWriter(ByteOrder.BIG_ENDIAN).uN(1, 9))
        .isInstanceOf(IllegalArgumentException.class);
    // the odd sizes of version 2 string offsets: the low bytes, in the writer's order
    for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
      for (int n : new int[] {3, 5, 6, 7}) {
        GsymWriter w = new GsymWriter(o);
        w.uN(0x0102030405060708L, n);
        assertThat(w.length()).isEqualTo(n);
        long mask = (1L << (8 * n)) - 1;
        assertThat(ByteView.of(w.toByteArray(), o, "x").uN(0, n)).isEqualTo(0x0102030405060708L & mask);
        assertThat(ByteView.of(w.toByteArray(), o, "x").cursor(0).uN(n)).isEqualTo(0x0102030405060708L & mask);
      }
    }
  }

  @Test
  void alignToUsesAbsolutePosition() {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 6, 16);
    w.alignTo(4);
    assertThat(w.length()).isEqualTo(2);
    assertThat(w.position()).isEqualTo(8);
    w.alignTo(4);
    assertThat(w.length()).isEqualTo(2);
    w.u8(1);
    w.alignTo(8);
    assertThat(w.position()).isEqualTo(16);
    assertThat(hex(w.toByteArray())).isEqualTo("0000" + "01" + "00000000000000");
  }

  @Test
  void reserveAndPatch() {
    GsymWriter w = new GsymWriter(ByteOrder.BIG_ENDIAN);
    w.u8(7);
    int at = w.reserveU32();
    w.u16(0xffff);
    w.patchU32(at, 0xdeadbeefL);
    assertThat(hex(w.toByteArray())).isEqualTo("07deadbeefffff");
  }

  @Test
  void growsPastInitialCapacity() {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 0, 1);
    for (int i = 0; i < 100_000; i++) w.u32(i);
    byte[] b = w.toByteArray();
    assertThat(b).hasSize(400_000);
    assertThat(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "t").u32(4 * 99_999)).isEqualTo(99_999);
  }

  @Test
  void readsPastTheEndAreFormatErrorsWithAbsoluteOffsets() {
    ByteView file = ByteView.of(new byte[16], ByteOrder.LITTLE_ENDIAN, "f");
    ByteView v = file.slice(8, 4);
    assertThat(v.fileOffset()).isEqualTo(8);
    assertThatThrownBy(() -> v.u64(0)).isInstanceOf(GsymFormatException.class)
        .satisfies(e -> assertThat(((GsymFormatException) e).offset()).isEqualTo(8));
    assertThatThrownBy(() -> v.u32(1)).isInstanceOf(GsymFormatException.class)
        .satisfies(e -> assertThat(((GsymFormatException) e).offset()).isEqualTo(9));
    assertThatThrownBy(() -> v.u8(4)).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.u8(-1)).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.u16(3)).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.slice(2, 3)).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.slice(0, Long.MAX_VALUE)).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.bytes(0, 5)).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.cursor(0).skip(5)).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.cursor(0).split(-1)).isInstanceOf(GsymFormatException.class);
    assertThat(v.has(0, 4)).isTrue();
    assertThat(v.has(4, 0)).isTrue();
    assertThat(v.has(1, Long.MAX_VALUE)).isFalse();
    assertThat(v.has(-1, 1)).isFalse();
    GsymFormatException e = v.error(2, "boom");
    assertThat(e.getMessage()).isEqualTo("f: offset 0x0000000a: boom");
    assertThat(e.detail()).isEqualTo("boom");
  }

  @Test
  void cStrings() {
    byte[] b = "ab\0\0c".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ByteView v = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "s");
    assertThat(v.cString(0)).isEqualTo("ab");
    assertThat(v.cString(1)).isEqualTo("b");
    assertThat(v.cString(2)).isEmpty();
    assertThat(v.cString(4)).isEqualTo("c"); // unterminated: up to the end of the view
    assertThat(v.cString(5)).isEmpty();
  }
}
