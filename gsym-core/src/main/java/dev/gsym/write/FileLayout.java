package dev.gsym.write;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressInfoTable;
import dev.gsym.format.AddressTable;
import dev.gsym.format.FileTable;
import dev.gsym.format.GlobalData;
import dev.gsym.format.GlobalDataDirectory;
import dev.gsym.format.GsymHeader;
import dev.gsym.format.Header;
import dev.gsym.format.HeaderV2;
import dev.gsym.format.Hex;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each part of a GSYM file goes, by the version written: the one place that computes the
 * file's sizes and offsets (the header, the tables before the records, where the records start)
 * and LLVM's estimate of them that {@code --segment-size} sizes segments by, and writes everything
 * before the records.
 */
sealed interface FileLayout permits FileLayout.V1, FileLayout.V2 {

  /** The header as written. */
  GsymHeader header();

  /** Bytes before the records: header, tables (version 2: the directory and UUID too). */
  long prefixSize();

  /** Where the first record starts: the prefix padded to 4. */
  default long recordsStart() {
    return alignTo(prefixSize(), 4);
  }

  /** Refuses a record offset the version cannot hold. */
  void checkRecordOffset(long offset);

  /**
   * Everything before the records, padded to 4: header, tables, and in version 2 the directory and
   * UUID. {@code recordOffsets} are the records' absolute offsets, the end of the last one last.
   */
  byte[] prefix(Contents c, long[] recordOffsets, ByteOrder order);

  /**
   * The layout of {@code c}: version 1 (LLVM 22's GsymCreator) or 2 (LLVM main's GsymCreatorV2).
   *
   * @throws GsymFormatException for contents the version cannot hold (LLVM's messages)
   */
  static FileLayout of(Contents c) {
    boolean v2 = c.version() == HeaderV2.VERSION;
    if (!v2 && c.uuid().length > Header.MAX_UUID_SIZE) {
      throw new GsymFormatException("GsymCreator", -1, "invalid UUID size " + c.uuid().length);
    }
    long base = c.base();
    for (StoredFunction fi : c.funcs()) {
      if (Long.compareUnsigned(fi.start(), base) < 0) {
        throw new GsymFormatException("GsymCreator", -1, "function at " + Hex.hex(fi.start())
            + " is below the base address " + Hex.hex(base));
      }
    }
    return v2 ? V2.of(c, base) : V1.of(c, base);
  }

  /**
   * LLVM's {@code calculateHeaderAndTableSize} of the version: what segmenting adds a function's
   * record size to. Not the layout's prefix size: LLVM's estimate leaves out alignment (version 1)
   * and places the UUID differently (version 2), and segments must be cut where llvm cuts them.
   */
  static long headerAndTableSize(int version, long functions, int addrOffSize, int files, long stringTableSize,
      int uuidSize) {
    if (version == HeaderV2.VERSION) {
      long size = HeaderV2.SIZE + (6L + (uuidSize == 0 ? 0 : 1)) * GlobalData.SIZE;
      size = alignTo(size, addrOffSize) + functions * addrOffSize;
      size = alignTo(size, 8) + functions * 8;
      size = alignTo(size, 4) + FileTable.encodedSize(files, HeaderV2.STRING_OFFSET_SIZE);
      return size + stringTableSize + uuidSize;
    }
    return Header.SIZE + functions * addrOffSize + functions * 4 + files * 8L + stringTableSize;
  }

  /** The bytes of an address offset: the smallest that holds the last function's start less the base. */
  static int addressOffsetSize(Long base, List<StoredFunction> funcs) {
    if (base == null || funcs.isEmpty()) return 1;
    long delta = funcs.getLast().start() - base;
    if (Long.compareUnsigned(delta, 0xffL) <= 0) return 1;
    if (Long.compareUnsigned(delta, 0xffffL) <= 0) return 2;
    if (Long.compareUnsigned(delta, 0xffffffffL) <= 0) return 4;
    return 8;
  }

  static long alignTo(long v, long a) {
    return (v + a - 1) / a * a;
  }

  private static long[] addressOffsets(Contents c, long base) {
    long[] out = new long[c.funcs().size()];
    for (int i = 0; i < out.length; i++) out[i] = c.funcs().get(i).start() - base;
    return out;
  }

  /**
   * Version 1: a 48-byte header, then at fixed, aligned positions the address table, the 4-byte
   * address-info table, the file table and the string table.
   *
   * @param version1Limit the largest string-table size or offset a file can hold (u32 fields)
   */
  record V1(Header header, long prefixSize, long version1Limit) implements FileLayout {
    static V1 of(Contents c, long base) {
      int offSize = c.addressOffsetSize();
      long n = c.funcs().size();
      long strtabSize = c.strings().size();
      long addrEnd = Header.SIZE + n * offSize;
      long infoEnd = alignTo(addrEnd, 4) + n * 4;
      long strtabOffset = alignTo(infoEnd, 4) + 4 + c.files().size() * 8L;
      long prefixSize = strtabOffset + strtabSize;
      // LLVM main's GsymCreatorV1 refuses a string table past 32 bits; an offset past 32 bits
      // would be cut by its fixup as well
      if (strtabSize > c.version1Limit()) throw overflow("string table size");
      if (prefixSize > c.version1Limit()) throw overflow("string table offset");
      return new V1(new Header(Header.VERSION, offSize, base, n, strtabOffset, strtabSize, c.uuid()), prefixSize,
          c.version1Limit());
    }

    @Override
    public void checkRecordOffset(long offset) {
      if (offset > version1Limit) throw overflow("address info offset");
    }

    @Override
    public byte[] prefix(Contents c, long[] recordOffsets, ByteOrder order) {
      GsymWriter w = new GsymWriter(order, 0, (int) Math.min(Integer.MAX_VALUE - 8, recordsStart()),
          header.stringOffsetSize());
      header.encode(w);
      AddressTable.encode(w, addressOffsets(c, header.baseAddress()), header.addrOffSize());
      AddressInfoTable.encode(w, java.util.Arrays.copyOf(recordOffsets, c.funcs().size()));
      FileTable.encode(w, c.files());
      if (w.position() != header.strtabOffset()) throw new AssertionError("layout mismatch");
      c.strings().encode(w);
      w.alignTo(4);
      return w.toByteArray();
    }

    /** LLVM main's message, and what to do about it. */
    private static GsymFormatException overflow(String what) {
      return new GsymFormatException("GsymCreator", -1, what + " exceeded 32-bit max: GSYM version 1"
          + " stores 32-bit offsets; write GSYM version 2 instead (--output-version=2)");
    }
  }

  /**
   * Version 2 (GsymCreatorV2::encode): a 20-byte header and the section directory, the UUID, then
   * each section at its alignment: address offsets (their size), address-info offsets (8, relative
   * to the FunctionInfo section), the file table (4) and the string table; the FunctionInfo
   * section at 4, whose size is known only once the records are written.
   */
  record V2(HeaderV2 header, long uuid, long addrOffsets, long addrInfoOffsets, long fileTable, long fileTableSize,
      long stringTable, long stringTableSize, long prefixSize) implements FileLayout {
    static V2 of(Contents c, long base) {
      int offSize = c.addressOffsetSize();
      long n = c.funcs().size();
      long cur = HeaderV2.SIZE + (6L + (c.uuid().length == 0 ? 0 : 1)) * GlobalData.SIZE;
      long uuidAt = cur;
      cur += c.uuid().length;
      long addrAt = alignTo(cur, offSize);
      cur = addrAt + n * offSize;
      long infoAt = alignTo(cur, HeaderV2.ADDRESS_INFO_OFFSET_SIZE);
      cur = infoAt + n * HeaderV2.ADDRESS_INFO_OFFSET_SIZE;
      long fileAt = alignTo(cur, 4);
      long fileSize = FileTable.encodedSize(c.files().size(), HeaderV2.STRING_OFFSET_SIZE);
      long strAt = fileAt + fileSize;
      long strtabSize = c.strings().size();
      HeaderV2 h = new HeaderV2(offSize, HeaderV2.STRING_TABLE_ENCODING_DEFAULT, base, n);
      return new V2(h, uuidAt, addrAt, infoAt, fileAt, fileSize, strAt, strtabSize, strAt + strtabSize);
    }

    @Override
    public void checkRecordOffset(long offset) {
      // 64-bit offsets
    }

    @Override
    public byte[] prefix(Contents c, long[] recordOffsets, ByteOrder order) {
      GsymWriter w = new GsymWriter(order, 0, (int) Math.min(Integer.MAX_VALUE - 8, recordsStart()),
          header.stringOffsetSize());
      long n = c.funcs().size();
      long fiAt = recordsStart();
      byte[] uuidBytes = c.uuid();
      List<GlobalData> dir = new ArrayList<>();
      if (uuidBytes.length > 0) dir.add(new GlobalData(GlobalData.UUID, uuid, uuidBytes.length));
      dir.add(new GlobalData(GlobalData.ADDR_OFFSETS, addrOffsets, n * header.addrOffSize()));
      dir.add(new GlobalData(GlobalData.ADDR_INFO_OFFSETS, addrInfoOffsets, n * HeaderV2.ADDRESS_INFO_OFFSET_SIZE));
      dir.add(new GlobalData(GlobalData.FILE_TABLE, fileTable, fileTableSize));
      dir.add(new GlobalData(GlobalData.STRING_TABLE, stringTable, stringTableSize));
      dir.add(new GlobalData(GlobalData.FUNCTION_INFO, fiAt, recordOffsets[(int) n] - fiAt));
      header.encode(w);
      new GlobalDataDirectory(dir, 0).encode(w);
      w.bytes(uuidBytes);
      AddressTable.encode(w, addressOffsets(c, header.baseAddress()), header.addrOffSize());
      w.alignTo(HeaderV2.ADDRESS_INFO_OFFSET_SIZE);
      for (int i = 0; i < n; i++) w.u64(recordOffsets[i] - fiAt); // relative to the FunctionInfo section
      FileTable.encode(w, c.files());
      if (w.position() != stringTable) throw new AssertionError("layout mismatch");
      c.strings().encode(w);
      w.alignTo(4);
      return w.toByteArray();
    }
  }
}
