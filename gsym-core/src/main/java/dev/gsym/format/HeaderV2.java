package dev.gsym.format;

import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;

/**
 * The 20-byte GSYM version 2 header (LLVM main's {@code HeaderV2}); the section directory
 * ({@link GlobalDataDirectory}) follows it.
 *
 * <pre>
 * ENCODING (every integer in the file's byte order)
 *   u32 Magic = 0x4753594d   u16 Version = 2   u8 AddrOffSize (1..8)   u8 StrTableEncoding (0)
 *   u64 BaseAddress   u32 NumAddresses
 * </pre>
 *
 * Address-info offsets are 8 bytes, relative to the FunctionInfo section; string-table offsets
 * are 8 bytes.
 */
public record HeaderV2(int addrOffSize, int strTableEncoding, long baseAddress, long numAddresses)
    implements GsymHeader {

  public static final int VERSION = 2;
  public static final int SIZE = 20;
  public static final int ADDRESS_INFO_OFFSET_SIZE = 8;
  public static final int STRING_OFFSET_SIZE = 8;
  /** StringTableEncoding::Default: NUL-terminated strings, "" at offset 0 (as version 1). */
  public static final int STRING_TABLE_ENCODING_DEFAULT = 0;

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public int addressInfoOffsetSize() {
    return ADDRESS_INFO_OFFSET_SIZE;
  }

  @Override
  public int stringOffsetSize() {
    return STRING_OFFSET_SIZE;
  }

  @Override
  public int encodedSize() {
    return SIZE;
  }

  /** Decodes and validates the header at offset 0 of {@code v} (the magic is already checked). */
  public static HeaderV2 decode(ByteView v) {
    if (v.size() < SIZE) throw v.error(0, "not enough data for a gsym::HeaderV2");
    if (v.s32(0) != Header.MAGIC) throw v.error(0, "not a GSYM file");
    int version = v.u16(4);
    if (version != VERSION) throw v.error(4, "unsupported GSYM version " + version);
    HeaderV2 h = new HeaderV2(v.u8(6), v.u8(7), v.u64(8), v.u32(16));
    String problem = h.problem();
    if (problem != null) throw v.error(h.problemOffset(), problem);
    return h;
  }

  /** LLVM's checkForError, without magic and version (fixed here): null if valid. */
  private String problem() {
    if (addrOffSize < 1 || addrOffSize > 8) return "invalid address offset size " + addrOffSize;
    if (strTableEncoding != STRING_TABLE_ENCODING_DEFAULT) {
      return "unsupported string table encoding " + strTableEncoding;
    }
    return null;
  }

  private int problemOffset() {
    return addrOffSize < 1 || addrOffSize > 8 ? 6 : 7;
  }

  /** Writes the 20 bytes. */
  public void encode(GsymWriter w) {
    String problem = problem();
    if (problem != null) throw new dev.gsym.GsymFormatException("header", problemOffset(), problem);
    w.u32(Header.MAGIC);
    w.u16(VERSION);
    w.u8(addrOffSize);
    w.u8(strTableEncoding);
    w.u64(baseAddress);
    w.u32(numAddresses);
  }

  /** The "Header:" block of llvm-gsymutil's version 2 dump. */
  @Override
  public void dump(StringBuilder sb) {
    sb.append("Header:\n");
    sb.append("  Magic          = ").append(Hex.hex32(Header.MAGIC)).append('\n');
    sb.append("  Version        = ").append(Hex.hex16(VERSION)).append('\n');
    sb.append("  AddrOffSize    = ").append(Hex.hex8(addrOffSize)).append('\n');
    sb.append("  StrTableEnc    = ").append(Hex.hex8(strTableEncoding)).append('\n');
    sb.append("  BaseAddress    = ").append(Hex.hex64(baseAddress)).append('\n');
    sb.append("  NumAddresses   = ").append(Hex.hex32(numAddresses)).append('\n');
  }
}
