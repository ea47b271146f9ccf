package dev.gsym;

import dev.gsym.io.ByteView;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TextBufferTest {
  @Test
  void numbersAsLlvmPrintsThem() {
    TextBuffer t = new TextBuffer(1);
    t.appendHex(0, 16).append(' ').appendHex(0x1f, 1).append(' ').appendHex(-1L, 8).append(' ')
        .appendHex(0x123456789L, 8);
    assertThat(t.toString())
        .isEqualTo("0x0000000000000000 0x1f 0xffffffffffffffff 0x123456789");
    for (long v : new long[] {0, 9, 10, 99, 100, 4294967295L, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L,
        Long.MAX_VALUE, -1L}) {
      t.clear();
      assertThat(t.appendUnsigned(v).toString()).isEqualTo(Long.toUnsignedString(v));
    }
  }

  @Test
  void textAndBytes() throws Exception {
    TextBuffer t = new TextBuffer(4);
    t.append("a\u00e9\u20ac").append('|').repeat(' ', 3).append(new byte[] {'x', 'y'}, 1, 1);
    assertThat(t.toString()).isEqualTo("a\u00e9\u20ac|   y");
    t.setLength(1);
    assertThat(t.toString()).isEqualTo("a");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    t.writeTo(out);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("a");
    assertThat(t.length()).isZero();
  }

  @Test
  void cStringsAreCopiedUpToTheNulOrTheEnd() {
    byte[] table = "\0name\0a-longer-name-than-eight\0tail".getBytes(StandardCharsets.UTF_8);
    ByteView v = new ByteView(MemorySegment.ofArray(table), 0, ByteOrder.LITTLE_ENDIAN, "t");
    for (int at = 0; at < table.length; at++) {
      TextBuffer t = new TextBuffer(1);
      v.appendCString(at, t);
      assertThat(t.toString()).as("at %d", at).isEqualTo(v.cString(at));
    }
  }
}
