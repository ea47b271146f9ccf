package dev.gsym.unwind;

/** Where an {@link UnwindEntry} came from; kept so that writers can order and describe entries as their source did. */
public enum UnwindSource {
  /** DWARF CFI in {@code .eh_frame} (ELF, Mach-O {@code __eh_frame}, mingw PE). */
  EH_FRAME(1),
  /** DWARF CFI in {@code .debug_frame}. */
  DEBUG_FRAME(2),
  /** Mach-O compact unwind ({@code __unwind_info}). */
  COMPACT_UNWIND(3),
  /** PE/COFF x64 {@code .pdata}/{@code .xdata} unwind codes. */
  PE_UNWIND(4),
  /** A Breakpad {@code STACK CFI INIT} record with its {@code STACK CFI} records. */
  BREAKPAD_CFI(5),
  /** A Breakpad {@code STACK WIN} record. */
  BREAKPAD_WIN(6);

  private final int code;

  UnwindSource(int code) {
    this.code = code;
  }

  /** The number stored in GSYM unwind information. */
  public int code() {
    return code;
  }

  private static final UnwindSource[] BY_CODE = new UnwindSource[16];

  static {
    for (UnwindSource s : values()) BY_CODE[s.code] = s;
  }

  /** The source stored as {@code code}, or null. */
  public static UnwindSource ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
