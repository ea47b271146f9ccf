package dev.gsym.cfi;

import dev.gsym.io.Cursor;

/**
 * The {@code DW_EH_PE_*} pointer encodings of {@code .eh_frame} and {@code .eh_frame_hdr} (LSB
 * Core, "DWARF Extensions"; GCC's {@code unwind-pe.h}): one byte whose low nibble is the format and
 * whose bits 4-6 the base the value is relative to; bit 7 ({@link #INDIRECT}) says that the result
 * is the address of the pointer rather than the pointer itself; 0xff ({@link #OMIT}) that there is
 * no value.
 *
 * <pre>
 * format (low nibble)                   application (bits 4-6)
 *   0x00 absptr  address-size, unsigned   0x00 absolute
 *   0x01 uleb128                          0x10 pcrel    the address of the value itself
 *   0x02 udata2  0x0a sdata2              0x20 textrel  the .text section's address
 *   0x03 udata4  0x0b sdata4              0x30 datarel  .got (.eh_frame), the header (.eh_frame_hdr)
 *   0x04 udata8  0x0c sdata8              0x40 funcrel  the FDE's initial location
 *   0x09 sleb128                          0x50 aligned  an absolute address-size value at the next
 *                                                       address-size boundary (the byte must be 0x50)
 * </pre>
 */
public final class PointerEncoding {
  /** {@code DW_EH_PE_absptr}. */
  public static final int ABSPTR = 0x00;
  /** {@code DW_EH_PE_uleb128}. */
  public static final int ULEB128 = 0x01;
  /** {@code DW_EH_PE_udata2}. */
  public static final int UDATA2 = 0x02;
  /** {@code DW_EH_PE_udata4}. */
  public static final int UDATA4 = 0x03;
  /** {@code DW_EH_PE_udata8}. */
  public static final int UDATA8 = 0x04;
  /** {@code DW_EH_PE_sleb128}. */
  public static final int SLEB128 = 0x09;
  /** {@code DW_EH_PE_sdata2}. */
  public static final int SDATA2 = 0x0a;
  /** {@code DW_EH_PE_sdata4}. */
  public static final int SDATA4 = 0x0b;
  /** {@code DW_EH_PE_sdata8}. */
  public static final int SDATA8 = 0x0c;
  /** {@code DW_EH_PE_pcrel}. */
  public static final int PCREL = 0x10;
  /** {@code DW_EH_PE_textrel}. */
  public static final int TEXTREL = 0x20;
  /** {@code DW_EH_PE_datarel}. */
  public static final int DATAREL = 0x30;
  /** {@code DW_EH_PE_funcrel}. */
  public static final int FUNCREL = 0x40;
  /** {@code DW_EH_PE_aligned}. */
  public static final int ALIGNED = 0x50;
  /** {@code DW_EH_PE_indirect}. */
  public static final int INDIRECT = 0x80;
  /** {@code DW_EH_PE_omit}. */
  public static final int OMIT = 0xff;

  private PointerEncoding() {}

  /**
   * The addresses relative encodings add to their value: {@code pcBase} is the address the section
   * (or header) being read is loaded at, so a value at section position {@code p} has the pcrel base
   * {@code pcBase + p}; the others are null when unknown (reading such a pointer is then an error).
   */
  public record Bases(long pcBase, Long text, Long data, Long function) {
    /** The same bases with {@code function} as the funcrel base (an FDE's initial location). */
    public Bases withFunction(long f) {
      return new Bases(pcBase, text, data, f);
    }
  }

  /** Whether {@code encoding} is one this class reads (or {@link #OMIT}). */
  public static boolean valid(int encoding) {
    if (encoding == OMIT || encoding == ALIGNED) return true;
    if (encoding < 0 || encoding > 0xff) return false;
    int format = encoding & 0x0f;
    int application = encoding & 0x70;
    boolean formatOk = switch (format) {
      case ABSPTR, ULEB128, UDATA2, UDATA4, UDATA8, SLEB128, SDATA2, SDATA4, SDATA8 -> true;
      default -> false;
    };
    return formatOk && application <= FUNCREL;
  }

  /** The number of bytes a value takes, or -1 for the LEB128 formats (and {@link #ALIGNED}). */
  public static int fixedSize(int encoding, int addressSize) {
    if (encoding == ALIGNED) return -1;
    return switch (encoding & 0x0f) {
      case ABSPTR -> addressSize;
      case UDATA2, SDATA2 -> 2;
      case UDATA4, SDATA4 -> 4;
      case UDATA8, SDATA8 -> 8;
      default -> -1;
    };
  }

  /** The value of a pointer: the address it gives, and whether that is the address of the pointer ({@link #INDIRECT}). */
  public record Pointer(long value, boolean indirect) {}

  /**
   * Reads one pointer of {@code encoding} at the cursor (whose positions are section positions) and
   * moves past it. The result is truncated to {@code addressSize} bytes. Errors (an unknown
   * encoding, a base that is not known, a value past the end) are {@link dev.gsym.GsymFormatException}s
   * at the value's position; {@code what} names the value in them.
   */
  public static Pointer read(Cursor c, int encoding, int addressSize, Bases bases, String what) {
    long at = c.position();
    if (encoding == OMIT) throw c.errorAt(at, what + ": no value (encoding DW_EH_PE_omit)");
    if (!valid(encoding)) throw c.errorAt(at, what + ": unknown pointer encoding 0x" + Integer.toHexString(encoding));
    if (encoding == ALIGNED) {
      // aligned in the loaded image, not in our buffer: the section may start at any address
      long skew = bases.pcBase() & (addressSize - 1);
      long offset = skew + at;
      long aligned = (offset + addressSize - 1) & -(long) addressSize;
      long target = aligned - skew;
      if (!c.has(target - at)) throw c.errorAt(at, what + ": aligned pointer past the end of its entry");
      c.seek(target);
      return new Pointer(truncate(c.uN(addressSize), addressSize), false);
    }
    long value = switch (encoding & 0x0f) {
      case ABSPTR -> c.uN(addressSize);
      case ULEB128 -> c.uleb();
      case UDATA2 -> c.u16();
      case UDATA4 -> c.u32();
      case UDATA8 -> c.u64();
      case SLEB128 -> c.sleb();
      case SDATA2 -> (short) c.u16();
      case SDATA4 -> c.s32();
      case SDATA8 -> c.u64();
      default -> throw new AssertionError(encoding);
    };
    long base = switch (encoding & 0x70) {
      case ABSPTR -> 0;
      case PCREL -> bases.pcBase() + at;
      case TEXTREL -> required(c, at, bases.text(), what, "textrel", "the .text section's address");
      case DATAREL -> required(c, at, bases.data(), what, "datarel", "the data base (.got)");
      case FUNCREL -> required(c, at, bases.function(), what, "funcrel", "the function's address");
      default -> throw new AssertionError(encoding);
    };
    return new Pointer(truncate(base + value, addressSize), (encoding & INDIRECT) != 0);
  }

  private static long required(Cursor c, long at, Long base, String what, String name, String needs) {
    if (base == null) throw c.errorAt(at, what + ": DW_EH_PE_" + name + " pointer, but " + needs + " is not known");
    return base;
  }

  /** {@code value} cut to {@code addressSize} bytes (addresses wrap in a 32-bit address space). */
  static long truncate(long value, int addressSize) {
    return addressSize >= 8 ? value : value & ((1L << (8 * addressSize)) - 1);
  }

  /** The encoding as readelf names it ({@code pcrel|sdata4}), for messages. */
  public static String name(int encoding) {
    if (encoding == OMIT) return "omit";
    if (encoding == ALIGNED) return "aligned";
    String format = switch (encoding & 0x0f) {
      case ABSPTR -> "absptr";
      case ULEB128 -> "uleb128";
      case UDATA2 -> "udata2";
      case UDATA4 -> "udata4";
      case UDATA8 -> "udata8";
      case SLEB128 -> "sleb128";
      case SDATA2 -> "sdata2";
      case SDATA4 -> "sdata4";
      case SDATA8 -> "sdata8";
      default -> "0x" + Integer.toHexString(encoding & 0x0f);
    };
    String application = switch (encoding & 0x70) {
      case ABSPTR -> "";
      case PCREL -> "pcrel|";
      case TEXTREL -> "textrel|";
      case DATAREL -> "datarel|";
      case FUNCREL -> "funcrel|";
      case ALIGNED -> "aligned|";
      default -> "0x" + Integer.toHexString(encoding & 0x70) + "|";
    };
    return ((encoding & INDIRECT) != 0 ? "indirect|" : "") + application + format;
  }
}
