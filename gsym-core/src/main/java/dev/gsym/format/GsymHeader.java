package dev.gsym.format;

/**
 * What every GSYM header version tells a reader: {@link Header} (version 1, 48 bytes) or {@link
 * HeaderV2} (version 2, 20 bytes followed by a {@link GlobalDataDirectory}).
 */
public sealed interface GsymHeader permits Header, HeaderV2 {
  /** The format version (1 or 2). */
  int version();

  /** Size in bytes of each address-table entry (1, 2, 4 or 8; version 2 allows 1 to 8). */
  int addrOffSize();

  /** The address every address-table entry is an offset from. */
  long baseAddress();

  /** Entries in the address table (and in the address-info table). */
  long numAddresses();

  /** Size in bytes of each address-info table entry: 4 (version 1) or 8 (version 2). */
  int addressInfoOffsetSize();

  /** Size in bytes of each string-table offset in the file table and the records: 4 or 8. */
  int stringOffsetSize();

  /** Size in bytes of the encoded header. */
  int encodedSize();

  /** The "Header:" block of llvm-gsymutil's dump (ending with a newline). */
  void dump(StringBuilder sb);
}
