package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileTableTest {
  private static final List<FileEntry> FILES = List.of(FileEntry.NONE, new FileEntry(1, 10),
      new FileEntry(14, 21), new FileEntry(0, 25), new FileEntry(0, 0x7fffffff));
  // the A.gsym string table
  private static final StringTable STRINGS = new StringTable(ByteView.of(
      "\0/src/dir\0a.c\0C:\\win\0b.c\0nodir.c\0".getBytes(StandardCharsets.UTF_8),
      ByteOrder.LITTLE_ENDIAN, "s"));

  private static FileTable decode(byte[] b, ByteOrder o, int numAddrs) {
    ByteView v = ByteView.of(b, o, "f");
    Header h = new Header(1, 1, 0, numAddrs, 0, 0, null);
    return FileTable.decode(v, AddressInfoTable.decode(v, AddressTable.decode(v, h)));
  }

  private static byte[] build(ByteOrder o, List<FileEntry> files) {
    GsymWriter w = new GsymWriter(o);
    for (int i = 0; i < 48; i++) w.u8(0);
    w.u8(0); // one 1-byte address offset
    AddressInfoTable.encode(w, new long[] {0});
    FileTable.encode(w, files);
    return w.toByteArray();
  }

  @Test
  void roundTripBothOrders() {
    for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
      byte[] b = build(o, FILES);
      FileTable t = decode(b, o, 1);
      assertThat(t.offset()).isEqualTo(56);
      assertThat(t.count()).isEqualTo(5);
      for (int i = 0; i < 5; i++) assertThat(t.get(i)).isEqualTo(FILES.get(i));
      assertThat(t.get(5)).isNull();
      assertThat(t.get(-1)).isNull();
      assertThat(t.get(0xffffffffL)).isNull();
    }
  }

  @Test
  void vecAFileTableBytes() {
    GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN, 0x44, 64);
    FileTable.encode(w, FILES.subList(0, 4));
    assertThat(HexFormat.of().formatHex(w.toByteArray())).isEqualTo("04000000" + "0000000000000000"
        + "010000000a000000" + "0e00000015000000" + "0000000019000000");
  }

  @Test
  void dumpAndPaths() {
    FileTable t = decode(build(ByteOrder.LITTLE_ENDIAN, FILES), ByteOrder.LITTLE_ENDIAN, 1);
    StringBuilder sb = new StringBuilder();
    t.dump(sb, STRINGS);
    assertThat(sb.toString()).isEqualTo("""
        Files:
        INDEX  DIRECTORY  BASENAME   PATH
        ====== ========== ========== ==============================
        [   0] 0x00000000 0x00000000\s
        [   1] 0x00000001 0x0000000a /src/dir/a.c
        [   2] 0x0000000e 0x00000015 C:\\win\\b.c
        [   3] 0x00000000 0x00000019 nodir.c
        [   4] 0x00000000 0x7fffffff <invalid-file>
        """);
    StringBuilder p = new StringBuilder();
    FileTable.appendPath(p, "C:\\a/b", "x.c");
    assertThat(p.toString()).isEqualTo("C:\\a/b/x.c");
    StringBuilder missing = new StringBuilder();
    FileTable.dumpFile(missing, null, STRINGS::get);
    assertThat(missing.toString()).isEqualTo("<invalid-file>");
  }

  @Test
  void countPastEof() {
    byte[] b = build(ByteOrder.LITTLE_ENDIAN, FILES);
    for (long n : new long[] {6, 0x10000000L, 0x7fffffffL, 0xffffffffL}) {
      byte[] c = b.clone();
      ByteView.of(c, ByteOrder.LITTLE_ENDIAN, "x");
      c[56] = (byte) n;
      c[57] = (byte) (n >> 8);
      c[58] = (byte) (n >> 16);
      c[59] = (byte) (n >> 24);
      assertThatThrownBy(() -> decode(c, ByteOrder.LITTLE_ENDIAN, 1))
          .isInstanceOf(GsymFormatException.class).hasMessageContaining("failed to read file table");
    }
    byte[] cut = java.util.Arrays.copyOf(b, 58);
    assertThatThrownBy(() -> decode(cut, ByteOrder.LITTLE_ENDIAN, 1))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("failed to read file table");
    // an empty file table is legal to bind
    byte[] zero = java.util.Arrays.copyOf(b, 60);
    zero[56] = 0;
    assertThat(decode(zero, ByteOrder.LITTLE_ENDIAN, 1).count()).isZero();
  }
}
