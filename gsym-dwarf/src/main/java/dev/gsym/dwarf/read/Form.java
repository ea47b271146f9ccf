package dev.gsym.dwarf.read;

import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;

/**
 * The attribute forms (DW_FORM_*), each described once: how its value is encoded, from which
 * {@link #size}, {@link #skip} and {@link #read} all derive (so no two of them can disagree about a
 * form), and what the value means once read.
 */
public enum Form {
  ADDR(0x01, Encoding.ADDRESS_SIZE, 0, Meaning.ADDRESS),
  BLOCK2(0x03, Encoding.BLOCK, 2, Meaning.BLOCK),
  BLOCK4(0x04, Encoding.BLOCK, 4, Meaning.BLOCK),
  DATA2(0x05, Encoding.FIXED, 2, Meaning.UNSIGNED),
  DATA4(0x06, Encoding.FIXED, 4, Meaning.UNSIGNED),
  DATA8(0x07, Encoding.FIXED, 8, Meaning.UNSIGNED),
  STRING(0x08, Encoding.CSTRING, 0, Meaning.STRING),
  BLOCK(0x09, Encoding.BLOCK, 0, Meaning.BLOCK),
  BLOCK1(0x0a, Encoding.BLOCK, 1, Meaning.BLOCK),
  DATA1(0x0b, Encoding.FIXED, 1, Meaning.UNSIGNED),
  FLAG(0x0c, Encoding.FIXED, 1, Meaning.UNSIGNED),
  SDATA(0x0d, Encoding.SLEB, 0, Meaning.SIGNED),
  STRP(0x0e, Encoding.OFFSET_SIZE, 0, Meaning.STRP),
  UDATA(0x0f, Encoding.ULEB, 0, Meaning.UNSIGNED),
  REF_ADDR(0x10, Encoding.REF_ADDR_SIZE, 0, Meaning.SECTION_REF),
  REF1(0x11, Encoding.FIXED, 1, Meaning.UNIT_REF),
  REF2(0x12, Encoding.FIXED, 2, Meaning.UNIT_REF),
  REF4(0x13, Encoding.FIXED, 4, Meaning.UNIT_REF),
  REF8(0x14, Encoding.FIXED, 8, Meaning.UNIT_REF),
  REF_UDATA(0x15, Encoding.ULEB, 0, Meaning.UNIT_REF),
  INDIRECT(0x16, Encoding.INDIRECT, 0, Meaning.OTHER),
  SEC_OFFSET(0x17, Encoding.OFFSET_SIZE, 0, Meaning.SEC_OFFSET),
  EXPRLOC(0x18, Encoding.BLOCK, 0, Meaning.BLOCK),
  FLAG_PRESENT(0x19, Encoding.IMPLICIT, 0, Meaning.TRUE),
  STRX(0x1a, Encoding.ULEB, 0, Meaning.STRING_INDEX),
  ADDRX(0x1b, Encoding.ULEB, 0, Meaning.ADDRESS_INDEX),
  REF_SUP4(0x1c, Encoding.FIXED, 4, Meaning.OTHER),
  STRP_SUP(0x1d, Encoding.OFFSET_SIZE, 0, Meaning.OTHER),
  DATA16(0x1e, Encoding.FIXED, 16, Meaning.BLOCK),
  LINE_STRP(0x1f, Encoding.OFFSET_SIZE, 0, Meaning.LINE_STRP),
  REF_SIG8(0x20, Encoding.FIXED, 8, Meaning.OTHER),
  IMPLICIT_CONST(0x21, Encoding.IMPLICIT, 0, Meaning.IMPLICIT_CONST),
  LOCLISTX(0x22, Encoding.ULEB, 0, Meaning.LIST_INDEX),
  RNGLISTX(0x23, Encoding.ULEB, 0, Meaning.LIST_INDEX),
  REF_SUP8(0x24, Encoding.FIXED, 8, Meaning.OTHER),
  STRX1(0x25, Encoding.FIXED, 1, Meaning.STRING_INDEX),
  STRX2(0x26, Encoding.FIXED, 2, Meaning.STRING_INDEX),
  STRX3(0x27, Encoding.FIXED, 3, Meaning.STRING_INDEX),
  STRX4(0x28, Encoding.FIXED, 4, Meaning.STRING_INDEX),
  ADDRX1(0x29, Encoding.FIXED, 1, Meaning.ADDRESS_INDEX),
  ADDRX2(0x2a, Encoding.FIXED, 2, Meaning.ADDRESS_INDEX),
  ADDRX3(0x2b, Encoding.FIXED, 3, Meaning.ADDRESS_INDEX),
  ADDRX4(0x2c, Encoding.FIXED, 4, Meaning.ADDRESS_INDEX),
  GNU_ADDR_INDEX(0x1f01, Encoding.ULEB, 0, Meaning.ADDRESS_INDEX),
  GNU_STR_INDEX(0x1f02, Encoding.ULEB, 0, Meaning.STRING_INDEX),
  GNU_REF_ALT(0x1f20, Encoding.OFFSET_SIZE, 0, Meaning.OTHER),
  GNU_STRP_ALT(0x1f21, Encoding.OFFSET_SIZE, 0, Meaning.OTHER);

  /** How a value is laid out in .debug_info. */
  enum Encoding {
    /** {@code width} bytes. */
    FIXED,
    /** The unit's address size. */
    ADDRESS_SIZE,
    /** 4 bytes in 32-bit DWARF, 8 in 64-bit DWARF. */
    OFFSET_SIZE,
    /** DW_FORM_ref_addr: the address size in DWARF 2, the offset size later. */
    REF_ADDR_SIZE,
    /** Unsigned LEB128. */
    ULEB,
    /** Signed LEB128. */
    SLEB,
    /** Bytes up to and including a NUL. */
    CSTRING,
    /** A length ({@code width} bytes, or ULEB128 when {@code width} is 0), then that many bytes. */
    BLOCK,
    /** A ULEB128 form code, then a value of that form. */
    INDIRECT,
    /** Nothing: the value is implied (flag_present) or in the abbreviation (implicit_const). */
    IMPLICIT
  }

  /** What a value is, which decides the {@link AttributeValue} it becomes. */
  enum Meaning {
    UNSIGNED, SIGNED, TRUE, IMPLICIT_CONST, ADDRESS, ADDRESS_INDEX, STRING, STRP, LINE_STRP, STRING_INDEX,
    /** A DIE offset from the start of the unit. */
    UNIT_REF,
    /** A DIE offset from the start of .debug_info. */
    SECTION_REF,
    SEC_OFFSET, LIST_INDEX, BLOCK, OTHER
  }

  /**
   * What the sizes of a unit's values depend on (llvm's dwarf::FormParams): the DWARF version, the
   * address size and the offset size (4 for 32-bit DWARF, 8 for 64-bit DWARF).
   */
  record Params(int version, int addressSize, int offsetSize) {}

  /** The DW_FORM code. */
  final int code;
  final Encoding encoding;
  /** FIXED: the size; BLOCK: the size of the length (0: ULEB128). */
  final int width;
  final Meaning meaning;

  /** Standard form codes are below this (DWARF 5's last is 0x2c). */
  static final int STANDARD_CODES = 0x2d;

  private static final Form[] STANDARD = new Form[STANDARD_CODES];
  private static final Form[] GNU = new Form[0x22];

  static {
    for (Form f : values()) {
      if (f.code < STANDARD.length) STANDARD[f.code] = f;
      else GNU[f.code - 0x1f00] = f;
    }
  }

  Form(int code, Encoding encoding, int width, Meaning meaning) {
    this.code = code;
    this.encoding = encoding;
    this.width = width;
    this.meaning = meaning;
  }

  /** The DW_FORM code. */
  public int code() {
    return code;
  }

  /** The form with DW_FORM code {@code code}, or null if this reader does not know it. */
  static Form of(long code) {
    if (code >= 0 && code < STANDARD.length) return STANDARD[(int) code];
    if (code >= 0x1f00 && code < 0x1f00 + GNU.length) return GNU[(int) code - 0x1f00];
    return null;
  }

  /** The size of a value, or -1 if it varies from value to value (LEB128, strings, blocks, indirect). */
  int size(Params p) {
    return switch (encoding) {
      case FIXED -> width;
      case ADDRESS_SIZE -> p.addressSize();
      case OFFSET_SIZE -> p.offsetSize();
      case REF_ADDR_SIZE -> p.version() <= 2 ? p.addressSize() : p.offsetSize();
      case IMPLICIT -> 0;
      case ULEB, SLEB, CSTRING, BLOCK, INDIRECT -> -1;
    };
  }

  /** Moves {@code c} past a value of this form. */
  void skip(Cursor c, Params p) {
    switch (encoding) {
      case FIXED, ADDRESS_SIZE, OFFSET_SIZE, REF_ADDR_SIZE -> {
        int n = size(p);
        if (!c.has(n)) throw truncated(c, n);
        c.skip(n);
      }
      case ULEB -> c.uleb();
      case SLEB -> c.sleb();
      case CSTRING -> skipCString(c);
      case BLOCK -> c.skip(blockLength(c));
      case INDIRECT -> indirect(c).skip(c, p);
      case IMPLICIT -> {}
    }
  }

  /**
   * The number a value of this form holds as it is encoded (before any index or unit offset is
   * applied), read at {@code c}: for fixed sizes of up to 8 bytes and LEB128.
   *
   * @throws IllegalStateException for other encodings (a caller's mistake)
   */
  long number(Cursor c, Params p) {
    return switch (encoding) {
      case FIXED, ADDRESS_SIZE, OFFSET_SIZE, REF_ADDR_SIZE -> {
        int n = size(p);
        if (n > 8) throw new IllegalStateException(this + " is not a number");
        if (!c.has(n)) throw truncated(c, n);
        long v = DwarfUnit.uN(c.view(), c.position(), n);
        c.skip(n);
        yield v;
      }
      case ULEB -> c.uleb();
      case SLEB -> c.sleb();
      case CSTRING, BLOCK, INDIRECT, IMPLICIT -> throw new IllegalStateException(this + " is not a number");
    };
  }

  /**
   * Reads a value of this form at {@code c} (index forms resolved through {@code u}'s bases, unit
   * references made absolute); {@code implicitConst} is the abbreviation's value for implicit_const.
   */
  AttributeValue read(Cursor c, DwarfUnit u, long implicitConst) {
    Params p = u.formParams();
    long raw = 0;
    ByteView bytes = null;
    String string = null;
    switch (encoding) {
      case FIXED, ADDRESS_SIZE, OFFSET_SIZE, REF_ADDR_SIZE, ULEB, SLEB -> {
        int n = size(p);
        if (n > 8) { // data16
          if (!c.has(n)) throw truncated(c, n);
          bytes = block(c, n);
        } else {
          raw = number(c, p);
        }
      }
      case CSTRING -> {
        if (!c.has(1)) throw c.errorHere("string past end of unit");
        string = c.view().cString(c.position());
        skipCString(c);
      }
      case BLOCK -> bytes = block(c, blockLength(c));
      case INDIRECT -> {
        return indirect(c).read(c, u, 0);
      }
      case IMPLICIT -> raw = meaning == Meaning.TRUE ? 1 : implicitConst;
    }
    if (bytes != null) return new AttributeValue.Block(code, bytes);
    if (string != null) return new AttributeValue.Str(code, string);
    return value(raw, u);
  }

  /**
   * Whether a value of this form is a number of at most 8 bytes whose size does not vary, which
   * {@link #value} makes into the attribute value (no string or block to read).
   */
  boolean fixedNumber(Params p) {
    return switch (encoding) {
      case FIXED, ADDRESS_SIZE, OFFSET_SIZE, REF_ADDR_SIZE -> size(p) <= 8 && meaning != Meaning.BLOCK && meaning != Meaning.STRING;
      default -> false;
    };
  }

  /**
   * The attribute value of a number {@code raw} of this form, as {@link #read} makes it (index forms
   * resolved through {@code u}'s bases, unit references made absolute); not for strings held in
   * .debug_info or blocks.
   */
  AttributeValue value(long raw, DwarfUnit u) {
    int form = code;
    return switch (meaning) {
      case UNSIGNED, TRUE -> new AttributeValue.Unsigned(form, raw);
      case SIGNED, IMPLICIT_CONST -> new AttributeValue.Signed(form, raw);
      case ADDRESS -> new AttributeValue.Address(form, raw);
      case ADDRESS_INDEX -> new AttributeValue.Address(form, u.address(raw));
      case STRING -> throw new IllegalStateException(this + " holds its string in .debug_info");
      case STRP -> new AttributeValue.Str(form, u.dwarf().string(u.dwarf().sections().str(), raw));
      case LINE_STRP -> new AttributeValue.Str(form, u.dwarf().string(u.dwarf().sections().lineStr(), raw));
      case STRING_INDEX -> new AttributeValue.Str(form, u.string(raw));
      case UNIT_REF -> new AttributeValue.Ref(form, u.offset() + raw);
      case SECTION_REF -> new AttributeValue.Ref(form, raw);
      case SEC_OFFSET -> new AttributeValue.SecOffset(form, raw);
      case LIST_INDEX -> new AttributeValue.ListIndex(form, raw);
      case BLOCK -> throw new IllegalStateException(this + " is a block");
      case OTHER -> new AttributeValue.Other(form, raw);
    };
  }

  /**
   * The form a DW_FORM_indirect value names (read at {@code c}). Neither indirect again nor
   * implicit_const, whose value only an abbreviation can hold.
   */
  private static Form indirect(Cursor c) {
    long at = c.position();
    long code = c.uleb();
    Form f = code == INDIRECT.code || code == IMPLICIT_CONST.code ? null : of(code);
    if (f == null) throw c.errorAt(at, "bad indirect form 0x" + Long.toHexString(code));
    return f;
  }

  private long blockLength(Cursor c) {
    long len = switch (width) {
      case 1 -> c.u8();
      case 2 -> c.u16();
      case 4 -> c.u32();
      default -> c.uleb();
    };
    if (len < 0 || len > c.remaining()) throw c.errorHere("block length 0x" + Long.toHexString(len) + " past the end of the data");
    return len;
  }

  private static ByteView block(Cursor c, long len) {
    ByteView v = c.view().slice(c.position(), len);
    c.skip(len);
    return v;
  }

  private static void skipCString(Cursor c) {
    while (c.u8() != 0) {}
  }

  private static RuntimeException truncated(Cursor c, int n) {
    return c.errorAt(c.position(), "unexpected end of data reading " + n + " bytes");
  }

  /** The name llvm prints, e.g. "DW_FORM_data4". */
  @Override
  public String toString() {
    return "DW_FORM_" + name().toLowerCase(java.util.Locale.ROOT);
  }
}
