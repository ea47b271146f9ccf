package dev.gsym.format;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The 48-byte GSYM version 1 header.
 *
 * <pre>
 * ENCODING (every integer in the file's byte order)
 *   u32 Magic = 0x4753594d ("GSYM")   u16 Version = 1   u8 AddrOffSize (1,2,4,8)   u8 UUIDSize (0..20)
 *   u64 BaseAddress   u32 NumAddresses   u32 StrtabOffset   u32 StrtabSize   u8[20] UUID
 * </pre>
 *
 * @param uuid the first {@code uuidSize} bytes of the UUID field
 */
public record Header(
    int version,
    int addrOffSize,
    long baseAddress,
    long numAddresses,
    long strtabOffset,
    long strtabSize,
    byte[] uuid) implements GsymHeader {

  public static final int MAGIC = 0x4753594d;
  public static final int SIZE = 48;
  public static final int MAX_UUID_SIZE = 20;
  public static final int VERSION = 1;

  /** Copies the UUID (null: none). */
  public Header {
    uuid = uuid == null ? new byte[0] : uuid.clone();
  }

  /** The UUID's length in bytes. */
  public int uuidSize() {
    return uuid.length;
  }

  @Override
  public int addressInfoOffsetSize() {
    return 4;
  }

  @Override
  public int stringOffsetSize() {
    return 4;
  }

  @Override
  public int encodedSize() {
    return SIZE;
  }

  /**
   * The byte order of a GSYM file from its first four bytes: "MYSG" is little endian, "GSYM" big
   * endian.
   */
  public static ByteOrder detectByteOrder(MemorySegment seg, String source) {
    if (seg.byteSize() < SIZE) { // LLVM checks the length before the magic
      throw new GsymFormatException(source, -1, "not enough data for a GSYM header");
    }
    int le = seg.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
    if (le == MAGIC) return ByteOrder.LITTLE_ENDIAN;
    if (Integer.reverseBytes(le) == MAGIC) return ByteOrder.BIG_ENDIAN;
    throw new GsymFormatException(source, -1, "not a GSYM file");
  }

  /** Decodes and validates the header at offset 0 of {@code v}. */
  public static Header decode(ByteView v) {
    if (v.size() < SIZE) throw new GsymFormatException(v.source(), -1, "not enough data for a GSYM header");
    if (v.s32(0) != MAGIC) throw v.error(0, "not a GSYM file");
    int version = v.u16(4);
    int addrOffSize = v.u8(6);
    int uuidSize = v.u8(7);
    checkFields(v, version, addrOffSize, uuidSize);
    return new Header(version, addrOffSize, v.u64(8), v.u32(16), v.u32(20), v.u32(24),
        v.bytes(28, uuidSize));
  }

  /** Checks the fields llvm validates; {@code v} (the bytes decoded, null when encoding) places the error. */
  private static void checkFields(ByteView v, int version, int addrOffSize, int uuidSize) {
    if (version != VERSION) {
      throw fieldError(v, 4, "unsupported GSYM version " + version);
    }
    if (addrOffSize != 1 && addrOffSize != 2 && addrOffSize != 4 && addrOffSize != 8) {
      throw fieldError(v, 6, "invalid address offset size " + addrOffSize);
    }
    if (uuidSize > MAX_UUID_SIZE) {
      throw fieldError(v, 7, "invalid UUID size " + uuidSize);
    }
  }

  private static GsymFormatException fieldError(ByteView v, int at, String detail) {
    return v != null ? v.error(at, detail) : new GsymFormatException("header", at, detail);
  }

  /** Writes the 48 bytes (UUID zero-padded to 20). */
  public void encode(GsymWriter w) {
    checkFields(null, version, addrOffSize, uuid.length);
    w.u32(MAGIC);
    w.u16(version);
    w.u8(addrOffSize);
    w.u8(uuid.length);
    w.u64(baseAddress);
    w.u32(numAddresses);
    w.u32(strtabOffset);
    w.u32(strtabSize);
    w.bytes(uuid);
    for (int i = uuid.length; i < MAX_UUID_SIZE; i++) w.u8(0);
  }

  /** The "Header:" block of llvm-gsymutil's dump. */
  @Override
  public void dump(StringBuilder sb) {
    sb.append("Header:\n");
    sb.append("  Magic        = ").append(Hex.hex32(MAGIC)).append('\n');
    sb.append("  Version      = ").append(Hex.hex16(version)).append('\n');
    sb.append("  AddrOffSize  = ").append(Hex.hex8(addrOffSize)).append('\n');
    sb.append("  UUIDSize     = ").append(Hex.hex8(uuid.length)).append('\n');
    sb.append("  BaseAddress  = ").append(Hex.hex64(baseAddress)).append('\n');
    sb.append("  NumAddresses = ").append(Hex.hex32(numAddresses)).append('\n');
    sb.append("  StrtabOffset = ").append(Hex.hex32(strtabOffset)).append('\n');
    sb.append("  StrtabSize   = ").append(Hex.hex32(strtabSize)).append('\n');
    sb.append("  UUID         = ").append(HexFormat.of().formatHex(uuid)).append('\n');
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Header h && version == h.version && addrOffSize == h.addrOffSize
        && baseAddress == h.baseAddress && numAddresses == h.numAddresses
        && strtabOffset == h.strtabOffset && strtabSize == h.strtabSize
        && Arrays.equals(uuid, h.uuid);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(baseAddress) * 31 + Arrays.hashCode(uuid);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    dump(sb);
    return sb.toString();
  }
}
