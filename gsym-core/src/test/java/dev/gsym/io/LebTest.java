package dev.gsym.io;

import dev.gsym.GsymFormatException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteOrder;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** LEB128 encoding (GsymWriter) and decoding (Cursor), including 64-bit extremes and overflow. */
class LebTest {
  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s.replace(" ", ""));
  }

  private static String uleb(long v) {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
    w.uleb(v);
    return HexFormat.of().formatHex(w.toByteArray());
  }

  private static String sleb(long v) {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
    w.sleb(v);
    return HexFormat.of().formatHex(w.toByteArray());
  }

  private static Cursor cursor(String hex) {
    return ByteView.of(hex(hex), ByteOrder.LITTLE_ENDIAN, "t").cursor(0);
  }

  @ParameterizedTest
  @CsvSource({
      "0, 00", "1, 01", "127, 7f", "128, 8001", "303, af02", "16383, ff7f", "16384, 808001",
      "-1, ffffffffffffffffff01", "9223372036854775807, ffffffffffffffff7f",
      "-9223372036854775808, 80808080808080808001"})
  void ulebRoundTrip(long v, String bytes) {
    assertThat(uleb(v)).isEqualTo(bytes);
    Cursor c = cursor(bytes);
    assertThat(c.uleb()).isEqualTo(v);
    assertThat(c.remaining()).isZero();
  }

  @ParameterizedTest
  @CsvSource({
      "0, 00", "-1, 7f", "82, d200", "-96, a07f", "63, 3f", "64, c000", "-64, 40", "-65, bf7f",
      "127, ff00", "-128, 807f", "14, 0e", "-40, 58",
      "9223372036854775807, ffffffffffffffffff00", "-9223372036854775808, 8080808080808080807f"})
  void slebRoundTrip(long v, String bytes) {
    assertThat(sleb(v)).isEqualTo(bytes);
    Cursor c = cursor(bytes);
    assertThat(c.sleb()).isEqualTo(v);
    assertThat(c.remaining()).isZero();
  }

  @Test
  void nonMinimalEncodingsDecode() {
    assertThat(cursor("8000").uleb()).isZero();
    assertThat(cursor("ff7f").sleb()).isEqualTo(-1);
    assertThat(cursor("80808000").uleb()).isZero();
  }

  @Test
  void ulebOverflowIsAnError() {
    // 2^64: the 10th byte carries bit 64
    assertThatThrownBy(() -> cursor("ffffffffffffffffff02").uleb())
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("uleb128 too big for uint64");
    assertThatThrownBy(() -> cursor("8080808080808080808001").uleb())
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("uleb128 too big");
  }

  @Test
  void slebOverflowIsAnError() {
    // 2^63 (positive, does not fit an int64)
    assertThatThrownBy(() -> cursor("80808080808080808001").sleb())
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("sleb128 too big for int64");
    assertThatThrownBy(() -> cursor("8080808080808080808001").sleb())
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("sleb128 too big for int64");
    // garbage in the 10th byte
    assertThatThrownBy(() -> cursor("ffffffffffffffffff7e").sleb())
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("sleb128 too big for int64");
    assertThatThrownBy(() -> cursor("80808080808080808040").sleb())
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("sleb128 too big for int64");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 5, 10, 11, 12, 20, 1000, 100_000})
  void runsOfContinuationBytesFailCleanly(int n) {
    byte[] b = new byte[n];
    java.util.Arrays.fill(b, (byte) 0x80);
    ByteView v = ByteView.of(b, ByteOrder.BIG_ENDIAN, "run");
    assertThatThrownBy(() -> v.cursor(0).uleb()).isInstanceOf(GsymFormatException.class);
    assertThatThrownBy(() -> v.cursor(0).sleb()).isInstanceOf(GsymFormatException.class);
  }

  @Test
  void truncatedLebReportsAbsoluteOffset() {
    ByteView v = ByteView.of(hex("00 00 00 ff ff"), ByteOrder.LITTLE_ENDIAN, "src").slice(3, 2);
    GsymFormatException e = org.junit.jupiter.api.Assertions.assertThrows(
        GsymFormatException.class, () -> v.cursor(0).uleb());
    assertThat(e.offset()).isEqualTo(5);
    assertThat(e.source()).isEqualTo("src");
  }

  @Test
  void randomRoundTrips() {
    java.util.Random r = new java.util.Random(42);
    for (int i = 0; i < 20_000; i++) {
      long v = r.nextLong() >> r.nextInt(64);
      GsymWriter w = new GsymWriter(ByteOrder.BIG_ENDIAN);
      w.uleb(v);
      w.sleb(v);
      Cursor c = ByteView.of(w.toByteArray(), ByteOrder.BIG_ENDIAN, "r").cursor(0);
      assertThat(c.uleb()).isEqualTo(v);
      assertThat(c.sleb()).isEqualTo(v);
      assertThat(c.remaining()).isZero();
    }
  }
}
