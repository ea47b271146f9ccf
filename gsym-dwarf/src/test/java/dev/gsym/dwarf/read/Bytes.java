package dev.gsym.dwarf.read;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Little-endian byte builder for hand-made DWARF in tests. */
final class Bytes {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  Bytes u8(int... v) {
    for (int x : v) out.write(x);
    return this;
  }

  Bytes u16(int v) {
    return u8(v & 0xff, (v >>> 8) & 0xff);
  }

  Bytes u32(long v) {
    for (int i = 0; i < 4; i++) out.write((int) (v >>> (8 * i)) & 0xff);
    return this;
  }

  Bytes u64(long v) {
    for (int i = 0; i < 8; i++) out.write((int) (v >>> (8 * i)) & 0xff);
    return this;
  }

  Bytes uleb(long v) {
    do {
      int b = (int) (v & 0x7f);
      v >>>= 7;
      out.write(v != 0 ? b | 0x80 : b);
    } while (v != 0);
    return this;
  }

  Bytes sleb(long v) {
    boolean more = true;
    while (more) {
      int b = (int) (v & 0x7f);
      v >>= 7;
      more = !((v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0));
      out.write(more ? b | 0x80 : b);
    }
    return this;
  }

  Bytes str(String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    out.write(0);
    return this;
  }

  Bytes bytes(byte[] b) {
    out.writeBytes(b);
    return this;
  }

  int size() {
    return out.size();
  }

  byte[] get() {
    return out.toByteArray();
  }

  /** This content with a 4-byte unit_length prefix. */
  byte[] withLength() {
    byte[] b = get();
    return new Bytes().u32(b.length).bytes(b).get();
  }
}
