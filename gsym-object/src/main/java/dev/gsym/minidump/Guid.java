package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.Arrays;

/**
 * {@code GUID} / {@code MDGUID}: u32 data1, u16 data2, u16 data3 (in the dump's byte order), u8
 * data4[8].
 */
public record Guid(long data1, int data2, int data3, byte[] data4) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 16;

  /** Checks that {@code data4} has 8 bytes and copies it. */
  public Guid {
    if (data4.length != 8) throw new IllegalArgumentException("data4 of " + data4.length + " bytes");
    data4 = data4.clone();
  }

  /** The last 8 bytes (a copy). */
  @Override
  public byte[] data4() {
    return data4.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Guid g && g.data1 == data1 && g.data2 == data2 && g.data3 == data3 && Arrays.equals(g.data4, data4);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(data1) * 31 + Arrays.hashCode(data4);
  }

  static Guid read(ByteView b, long at) {
    return new Guid(b.u32(at), b.u16(at + 4), b.u16(at + 6), b.bytes(at + 8, 8));
  }

  /** {@code 01234567-89ab-cdef-0123-456789abcdef}, as Breakpad prints GUIDs. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(String.format("%08x-%04x-%04x-", data1, data2, data3));
    for (int i = 0; i < 8; i++) {
      if (i == 2) sb.append('-');
      sb.append(String.format("%02x", data4[i] & 0xff));
    }
    return sb.toString();
  }

  /**
   * The symbol-server form with {@code age}: the fields in upper-case hex, then the age in
   * lower-case hex ({@code 5A9832E5287241C1838ED98914E9B7FF1}): Breakpad's debug identifier.
   */
  public String debugId(long age) {
    StringBuilder sb = new StringBuilder(String.format("%08X%04X%04X", data1, data2, data3));
    for (byte b : data4) sb.append(String.format("%02X", b & 0xff));
    return sb.append(Long.toHexString(age)).toString();
  }
}
