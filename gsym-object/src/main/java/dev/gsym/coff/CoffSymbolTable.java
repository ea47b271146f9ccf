package dev.gsym.coff;

import dev.gsym.io.ByteView;

/**
 * The COFF symbol table (18-byte records, auxiliary records after their symbol) and the string
 * table after it, read as llvm's COFFObjectFile reads them.
 */
public final class CoffSymbolTable {
  /** Bytes of one symbol table entry. */
  public static final int ENTRY = 18;
  /** Section number of an undefined symbol. */
  public static final int IMAGE_SYM_UNDEFINED = 0;
  /** Section number of an absolute symbol. */
  public static final int IMAGE_SYM_ABSOLUTE = -1;
  /** Section number of a debugging symbol. */
  public static final int IMAGE_SYM_DEBUG = -2;
  /** Derived type of a function symbol. */
  public static final int IMAGE_SYM_DTYPE_FUNCTION = 2;
  /** Storage class of an external symbol. */
  public static final int IMAGE_SYM_CLASS_EXTERNAL = 2;
  /** Storage class of a weak external symbol. */
  public static final int IMAGE_SYM_CLASS_WEAK_EXTERNAL = 105;
  /** Weak external characteristic: search the alias. */
  public static final int IMAGE_WEAK_EXTERN_SEARCH_ALIAS = 3;

  private final ByteView file;
  private final long offset;
  private final long count;
  /** The string table (its 4-byte size included, as COFF offsets count it), or an empty view. */
  private final ByteView strings;

  CoffSymbolTable(ByteView file, long offset, long count, ByteView strings) {
    this.file = file;
    this.offset = offset;
    this.count = count;
    this.strings = strings;
  }

  /** Records, auxiliary ones included. */
  public long count() {
    return count;
  }

  private long at(long i) {
    return offset + i * ENTRY;
  }

  /** Entry {@code i}'s value. */
  public long value(long i) {
    return file.u32(at(i) + 8);
  }

  /** SectionNumber: 1-based, or 0 (undefined), -1 (absolute), -2 (debug). */
  public int sectionNumber(long i) {
    return (short) file.u16(at(i) + 12);
  }

  /** Entry {@code i}'s type. */
  public int type(long i) {
    return file.u16(at(i) + 14);
  }

  /** Entry {@code i}'s storage class. */
  public int storageClass(long i) {
    return file.u8(at(i) + 16);
  }

  /** The number of auxiliary entries after entry {@code i}. */
  public int auxCount(long i) {
    return file.u8(at(i) + 17);
  }

  /** The Characteristics of a weak external's auxiliary record, or -1 if it has none in the table. */
  int weakCharacteristics(long i) {
    if (auxCount(i) == 0 || i + 1 >= count) return -1;
    return file.s32(at(i + 1) + 4);
  }

  /** llvm's getSymbolName failure for record {@code i}, or null. */
  public String nameError(long i) {
    if (file.u32(at(i)) != 0) return null;
    long off = file.u32(at(i) + 4);
    return off < strings.size() ? null : "The end of the file was unexpectedly encountered";
  }

  /** The name: the 8-byte short name, or the string table entry the long form points at. */
  public String name(long i) {
    if (file.u32(at(i)) != 0) {
      byte[] b = file.bytes(at(i), 8);
      int n = 0;
      while (n < 8 && b[n] != 0) n++;
      return dev.gsym.ByteStrings.decode(java.util.Arrays.copyOf(b, n));
    }
    return strings.cString(file.u32(at(i) + 4));
  }

  /** A string table entry (long section names), or null if the offset is past the table. */
  String string(long off) {
    return off < strings.size() ? strings.cString(off) : null;
  }
}
