package dev.gsym.macho;

import dev.gsym.io.ByteView;

/**
 * The symbol table of an {@code LC_SYMTAB} command: {@code nsyms} {@code nlist} / {@code nlist_64}
 * entries at {@code symoff} and the string table at {@code stroff} (both checked to lie inside the
 * file when the command is read, as llvm checks them).
 */
public final class NlistTable {
  /** n_type bits of a debugging (stab) entry. */
  public static final int N_STAB = 0xe0;
  /** n_type bit: private external. */
  public static final int N_PEXT = 0x10;
  /** n_type mask of the symbol type. */
  public static final int N_TYPE = 0x0e;
  /** n_type bit: external. */
  public static final int N_EXT = 0x01;
  /** Symbol type: undefined. */
  public static final int N_UNDF = 0x0;
  /** Symbol type: defined in section n_sect. */
  public static final int N_SECT = 0xe;

  private final ByteView file;
  private final boolean is64;
  private final long symoff;
  private final long nsyms;
  private final long stroff;
  private final long strsize;

  NlistTable(ByteView file, boolean is64, long symoff, long nsyms, long stroff, long strsize) {
    this.file = file;
    this.is64 = is64;
    this.symoff = symoff;
    this.nsyms = nsyms;
    this.stroff = stroff;
    this.strsize = strsize;
  }

  /** Size of one entry: 16 ({@code nlist_64}) or 12 ({@code nlist}). */
  int entrySize() {
    return is64 ? 16 : 12;
  }

  /** The number of entries. */
  public long count() {
    return nsyms;
  }

  private long at(long i) {
    return symoff + i * entrySize();
  }

  /** Entry {@code i}'s name offset in the string table. */
  public long strx(long i) {
    return file.u32(at(i));
  }

  /** Entry {@code i}'s n_type. */
  public int type(long i) {
    return file.u8(at(i) + 4);
  }

  /** {@code n_sect}: 1-based section index, 0 for none. */
  public int sect(long i) {
    return file.u8(at(i) + 5);
  }

  /** Entry {@code i}'s n_desc. */
  public int desc(long i) {
    return file.u16(at(i) + 6);
  }

  /** Entry {@code i}'s n_value. */
  public long value(long i) {
    return is64 ? file.u64(at(i) + 8) : file.u32(at(i) + 8);
  }

  /**
   * llvm's getSymbolName failure for entry {@code i}, or null: a name offset whose first byte lies
   * past the end of the file (llvm checks against the file, not the string table).
   */
  public String nameError(long i) {
    long strx = strx(i);
    if (strx == 0 || stroff + strx < file.size()) return null;
    return "truncated or malformed object (bad string index: " + strx + " for symbol at index " + i + ")";
  }

  /** The name of entry {@code i} ("" for {@code n_strx} 0), up to its NUL or the end of the file. */
  public String name(long i) {
    long strx = strx(i);
    if (strx == 0) return "";
    return file.cString(stroff + strx);
  }

  long stringTableSize() {
    return strsize;
  }
}
