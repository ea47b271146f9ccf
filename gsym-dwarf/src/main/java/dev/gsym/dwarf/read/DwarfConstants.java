package dev.gsym.dwarf.read;

/** The DWARF tag, attribute, form and language numbers this module uses. */
public final class DwarfConstants {
  private DwarfConstants() {}

  public static final int TAG_CLASS_TYPE = 0x02;
  public static final int TAG_LEXICAL_BLOCK = 0x0b;
  public static final int TAG_COMPILE_UNIT = 0x11;
  public static final int TAG_STRUCTURE_TYPE = 0x13;
  public static final int TAG_UNION_TYPE = 0x17;
  public static final int TAG_INLINED_SUBROUTINE = 0x1d;
  public static final int TAG_SUBPROGRAM = 0x2e;
  public static final int TAG_NAMESPACE = 0x39;
  public static final int TAG_CALL_SITE = 0x48;

  public static final int AT_NAME = 0x03;
  public static final int AT_STMT_LIST = 0x10;
  public static final int AT_LOW_PC = 0x11;
  public static final int AT_HIGH_PC = 0x12;
  public static final int AT_LANGUAGE = 0x13;
  public static final int AT_COMP_DIR = 0x1b;
  public static final int AT_ABSTRACT_ORIGIN = 0x31;
  public static final int AT_DECL_FILE = 0x3a;
  public static final int AT_DECL_LINE = 0x3b;
  public static final int AT_SPECIFICATION = 0x47;
  public static final int AT_RANGES = 0x55;
  public static final int AT_CALL_FILE = 0x58;
  public static final int AT_CALL_LINE = 0x59;
  public static final int AT_CALL_RETURN_PC = 0x7d;
  public static final int AT_CALL_ORIGIN = 0x7f;
  public static final int AT_LINKAGE_NAME = 0x6e;
  public static final int AT_STR_OFFSETS_BASE = 0x72;
  public static final int AT_ADDR_BASE = 0x73;
  public static final int AT_RNGLISTS_BASE = 0x74;
  public static final int AT_MIPS_LINKAGE_NAME = 0x2007;
  public static final int AT_DWO_NAME = 0x76;
  public static final int AT_GNU_DWO_NAME = 0x2130;
  public static final int AT_GNU_DWO_ID = 0x2131;
  public static final int AT_GNU_RANGES_BASE = 0x2132;
  public static final int AT_GNU_ADDR_BASE = 0x2133;
  public static final int AT_LLVM_STMT_SEQUENCE = 0x3e0c;

  public static final int LANG_C = 0x02;
  public static final int LANG_C_PLUS_PLUS = 0x04;
  public static final int LANG_OBJC_PLUS_PLUS = 0x11;
  public static final int LANG_C_PLUS_PLUS_03 = 0x19;
  public static final int LANG_C_PLUS_PLUS_11 = 0x1a;
  public static final int LANG_C_PLUS_PLUS_14 = 0x21;
}
