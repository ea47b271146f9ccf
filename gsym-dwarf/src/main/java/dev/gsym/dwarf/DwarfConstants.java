package dev.gsym.dwarf;

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

  public static final int FORM_ADDR = 0x01;
  public static final int FORM_BLOCK2 = 0x03;
  public static final int FORM_BLOCK4 = 0x04;
  public static final int FORM_DATA2 = 0x05;
  public static final int FORM_DATA4 = 0x06;
  public static final int FORM_DATA8 = 0x07;
  public static final int FORM_STRING = 0x08;
  public static final int FORM_BLOCK = 0x09;
  public static final int FORM_BLOCK1 = 0x0a;
  public static final int FORM_DATA1 = 0x0b;
  public static final int FORM_FLAG = 0x0c;
  public static final int FORM_SDATA = 0x0d;
  public static final int FORM_STRP = 0x0e;
  public static final int FORM_UDATA = 0x0f;
  public static final int FORM_REF_ADDR = 0x10;
  public static final int FORM_REF1 = 0x11;
  public static final int FORM_REF2 = 0x12;
  public static final int FORM_REF4 = 0x13;
  public static final int FORM_REF8 = 0x14;
  public static final int FORM_REF_UDATA = 0x15;
  public static final int FORM_INDIRECT = 0x16;
  public static final int FORM_SEC_OFFSET = 0x17;
  public static final int FORM_EXPRLOC = 0x18;
  public static final int FORM_FLAG_PRESENT = 0x19;
  public static final int FORM_STRX = 0x1a;
  public static final int FORM_ADDRX = 0x1b;
  public static final int FORM_REF_SUP4 = 0x1c;
  public static final int FORM_STRP_SUP = 0x1d;
  public static final int FORM_DATA16 = 0x1e;
  public static final int FORM_LINE_STRP = 0x1f;
  public static final int FORM_REF_SIG8 = 0x20;
  public static final int FORM_IMPLICIT_CONST = 0x21;
  public static final int FORM_LOCLISTX = 0x22;
  public static final int FORM_RNGLISTX = 0x23;
  public static final int FORM_REF_SUP8 = 0x24;
  public static final int FORM_STRX1 = 0x25;
  public static final int FORM_STRX2 = 0x26;
  public static final int FORM_STRX3 = 0x27;
  public static final int FORM_STRX4 = 0x28;
  public static final int FORM_ADDRX1 = 0x29;
  public static final int FORM_ADDRX2 = 0x2a;
  public static final int FORM_ADDRX3 = 0x2b;
  public static final int FORM_ADDRX4 = 0x2c;
  public static final int FORM_GNU_ADDR_INDEX = 0x1f01;
  public static final int FORM_GNU_STR_INDEX = 0x1f02;
  public static final int FORM_GNU_REF_ALT = 0x1f20;
  public static final int FORM_GNU_STRP_ALT = 0x1f21;

  public static final int LANG_C = 0x02;
  public static final int LANG_C_PLUS_PLUS = 0x04;
  public static final int LANG_OBJC_PLUS_PLUS = 0x11;
  public static final int LANG_C_PLUS_PLUS_03 = 0x19;
  public static final int LANG_C_PLUS_PLUS_11 = 0x1a;
  public static final int LANG_C_PLUS_PLUS_14 = 0x21;
}
