package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** CallSiteInfo and CallSiteInfoCollection (InfoType 4). */
class CallSiteInfoTest {
  static final String G_TOP_HEX = "02000000 0800000000000000 03 02000000 0c000000 12000000"
      + " 1000000000000000 02 00000000";

  private static Cursor cursor(String hex, ByteOrder o) {
    return ByteView.of(HexFormat.of().parseHex(hex.replace(" ", "")), o, "cs").cursor(0);
  }

  @Test
  void vec4GTopBytes() {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
    MergedFunctionsInfoTest.TOP_CALL_SITES.encode(w);
    assertThat(HexFormat.of().formatHex(w.toByteArray())).isEqualTo(G_TOP_HEX.replace(" ", ""));
    assertThat(w.length()).isEqualTo(38);
    Cursor c = cursor(G_TOP_HEX, ByteOrder.LITTLE_ENDIAN);
    assertThat(CallSiteInfoCollection.decode(c)).isEqualTo(MergedFunctionsInfoTest.TOP_CALL_SITES);
    assertThat(c.remaining()).isZero();
  }

  @Test
  void bigEndian() {
    GsymWriter w = new GsymWriter(ByteOrder.BIG_ENDIAN);
    MergedFunctionsInfoTest.TOP_CALL_SITES.encode(w);
    assertThat(HexFormat.of().formatHex(w.toByteArray())).isEqualTo(
        "00000002" + "0000000000000008" + "03" + "00000002" + "0000000c" + "00000012"
            + "0000000000000010" + "02" + "00000000");
    assertThat(CallSiteInfoCollection.decode(ByteView.of(w.toByteArray(), ByteOrder.BIG_ENDIAN, "b").cursor(0)))
        .isEqualTo(MergedFunctionsInfoTest.TOP_CALL_SITES);
  }

  @Test
  void flagsText() {
    assertThat(new CallSiteInfo(0, 0, List.of()).flagsText()).isEqualTo("None");
    assertThat(new CallSiteInfo(0, 1, List.of()).flagsText()).isEqualTo("InternalCall");
    assertThat(new CallSiteInfo(0, 2, List.of()).flagsText()).isEqualTo("ExternalCall");
    assertThat(new CallSiteInfo(0, 3, List.of()).flagsText()).isEqualTo("InternalCall | ExternalCall");
    assertThat(new CallSiteInfo(0, 16, List.of()).flagsText()).isEmpty(); // llvm-gsymutil-22 prints "Flags[]"
    assertThat(new CallSiteInfo(0, 0xff, List.of()).flagsText()).isEqualTo("InternalCall | ExternalCall");
  }

  @ParameterizedTest
  @CsvSource({
      "'', missing CallSiteInfo count",
      "010000, missing CallSiteInfo count",
      "01000000, missing ReturnOffset",
      "01000000 08000000000000, missing ReturnOffset",
      "01000000 0800000000000000, missing Flags",
      "01000000 0800000000000000 00, missing MatchRegex count",
      "01000000 0800000000000000 00 010000, missing MatchRegex count",
      "01000000 0800000000000000 00 01000000, missing MatchRegex entry",
      "01000000 0800000000000000 00 ffffffff 01000000, missing MatchRegex entry",
      "ffffffff 0800000000000000 00 00000000, missing ReturnOffset"})
  void truncation(String hex, String message) {
    assertThatThrownBy(() -> CallSiteInfoCollection.decode(cursor(hex, ByteOrder.LITTLE_ENDIAN)))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining(message);
  }

  @Test
  void numRegexFfffffffIsBounded() {
    byte[] b = new byte[4 + 13 + 4 * 100_000];
    ByteView v = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "r");
    b[0] = 1;
    b[13] = b[14] = b[15] = b[16] = (byte) 0xff;
    assertThatThrownBy(() -> CallSiteInfoCollection.decode(v.cursor(0)))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("missing MatchRegex entry");
  }
}
