package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StringTableTest {
  private static StringTable table(String content) {
    byte[] b = content.getBytes(StandardCharsets.UTF_8);
    return new StringTable(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "s"));
  }

  @Test
  void lookups() {
    StringTable t = table("\0add\0/tmp/x\0t1.c\0");
    assertThat(t.get(0)).isEmpty();
    assertThat(t.get(1)).isEqualTo("add");
    assertThat(t.get(5)).isEqualTo("/tmp/x");
    assertThat(t.get(12)).isEqualTo("t1.c");
    assertThat(t.get(2)).isEqualTo("dd"); // into the middle of a string
    assertThat(t.get(4)).isEmpty(); // the NUL
  }

  @Test
  void offsetsPastTheTableAreEmpty() {
    StringTable t = table("\0ab\0");
    assertThat(t.get(4)).isEmpty();
    assertThat(t.get(5)).isEmpty();
    assertThat(t.get(0xffffffff)).isEmpty(); // u32 strp, unsigned
    assertThat(t.get(Integer.MIN_VALUE)).isEmpty();
    assertThat(t.get(-1L)).isEmpty();
    assertThat(t.get(Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void unterminatedLastStringEndsAtTableEnd() {
    StringTable t = table("\0abc");
    assertThat(t.get(1)).isEqualTo("abc");
    StringBuilder sb = new StringBuilder();
    t.dump(sb);
    assertThat(sb.toString()).isEqualTo("String table:\n0x00000000: \"\"\n0x00000001: \"abc\"\n");
  }

  @Test
  void utf8() {
    StringTable t = table("\0h\u00e9llo\0\u4e16\0");
    assertThat(t.get(1)).isEqualTo("h\u00e9llo");
    assertThat(t.get(8)).isEqualTo("\u4e16");
    StringBuilder sb = new StringBuilder();
    t.dump(sb);
    assertThat(sb.toString()).isEqualTo(
        "String table:\n0x00000000: \"\"\n0x00000001: \"h\u00e9llo\"\n0x00000008: \"\u4e16\"\n");
  }

  @Test
  void decodeChecksBounds() {
    byte[] file = new byte[64];
    ByteView v = ByteView.of(file, ByteOrder.LITTLE_ENDIAN, "f");
    assertThat(StringTable.decode(v, new Header(1, 1, 0, 0, 60, 4, null)).view().size()).isEqualTo(4);
    assertThat(StringTable.decode(v, new Header(1, 1, 0, 0, 64, 0, null)).get(0)).isEmpty();
    for (long[] bad : new long[][] {{61, 4}, {65, 0}, {0, 65}, {0xffffffffL, 1}, {1, 0xffffffffL}}) {
      assertThatThrownBy(() -> StringTable.decode(v, new Header(1, 1, 0, 0, bad[0], bad[1], null)))
          .isInstanceOf(GsymFormatException.class).hasMessageContaining("failed to read string table");
    }
  }
}
