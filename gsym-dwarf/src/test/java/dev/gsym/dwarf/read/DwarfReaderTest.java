package dev.gsym.dwarf.read;

import static dev.gsym.dwarf.read.DwarfConstants.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.io.ByteView;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-made DWARF: forms, bases, DIE tree, range lists and the line program state machine. */
class DwarfReaderTest {
  static ByteView v(byte[] b, String name) {
    return ByteView.of(b, ByteOrder.LITTLE_ENDIAN, name);
  }

  static ByteView empty(String name) {
    return v(new byte[0], name);
  }

  static DwarfSections sections(byte[] info, byte[] abbrev, byte[] str, byte[] line, byte[] addr, byte[] strOff,
      byte[] ranges, byte[] rnglists) {
    return new DwarfSections(v(info, ".debug_info"), v(abbrev, ".debug_abbrev"), v(str, ".debug_str"),
        v(new byte[] {'l', 's', 0}, ".debug_line_str"), v(line, ".debug_line"), v(addr, ".debug_addr"),
        v(strOff, ".debug_str_offsets"), v(ranges, ".debug_ranges"), v(rnglists, ".debug_rnglists"));
  }

  // Abbreviation 1: compile unit with many forms; 2: subprogram with ranges (rnglistx); 3: child with ref4.
  static byte[] abbrev() {
    return new Bytes()
        .uleb(1).uleb(TAG_COMPILE_UNIT).u8(1)
        .uleb(AT_STR_OFFSETS_BASE).uleb(Form.SEC_OFFSET.code)
        .uleb(AT_ADDR_BASE).uleb(Form.SEC_OFFSET.code)
        .uleb(AT_RNGLISTS_BASE).uleb(Form.SEC_OFFSET.code)
        .uleb(AT_NAME).uleb(Form.STRX1.code)
        .uleb(AT_LOW_PC).uleb(Form.ADDRX.code)
        .uleb(AT_LANGUAGE).uleb(Form.DATA2.code)
        .uleb(0x3e).uleb(Form.DATA1.code)
        .uleb(0x3f).uleb(Form.DATA4.code)
        .uleb(0x40).uleb(Form.DATA8.code)
        .uleb(0x41).uleb(Form.SDATA.code)
        .uleb(0x42).uleb(Form.UDATA.code)
        .uleb(0x43).uleb(Form.STRING.code)
        .uleb(0x44).uleb(Form.STRP.code)
        .uleb(0x45).uleb(Form.FLAG_PRESENT.code)
        .uleb(0x46).uleb(Form.IMPLICIT_CONST.code).sleb(-7)
        .uleb(0x48).uleb(Form.EXPRLOC.code)
        .uleb(0x49).uleb(Form.BLOCK1.code)
        .uleb(0x4a).uleb(Form.DATA16.code)
        .uleb(0x4b).uleb(Form.LINE_STRP.code)
        .uleb(0x4c).uleb(Form.ADDRX2.code)
        .uleb(0x4d).uleb(Form.STRX3.code)
        .uleb(0).uleb(0)
        .uleb(2).uleb(TAG_SUBPROGRAM).u8(1)
        .uleb(AT_NAME).uleb(Form.STRX.code)
        .uleb(AT_RANGES).uleb(Form.RNGLISTX.code)
        .uleb(0).uleb(0)
        .uleb(3).uleb(TAG_LEXICAL_BLOCK).u8(0)
        .uleb(AT_ABSTRACT_ORIGIN).uleb(Form.REF4.code)
        .uleb(AT_HIGH_PC).uleb(Form.INDIRECT.code)
        .uleb(0).uleb(0)
        .uleb(0)
        .get();
  }

  static DwarfFile file() {
    byte[] str = new Bytes().str("").str("main.c").str("func").str("strp!").get();
    // str_offsets: 8-byte DWARF 5 header, then offsets: 0 -> "main.c"(1), 1 -> "func"(8), 2 -> "strp!"(13)
    byte[] strOff = new Bytes().u32(16).u16(5).u16(0).u32(1).u32(8).u32(13).get();
    // addr: 8-byte header then 0x1000, 0x2000, 0x3000
    byte[] addr = new Bytes().u32(28).u16(5).u8(8).u8(0).u64(0x1000).u64(0x2000).u64(0x3000).get();
    // rnglists: 12-byte header, offset table [1], then list: offset_pair(0x10,0x20), start_length(0x5000, 8),
    // base_addressx(1), offset_pair(1,2), end
    byte[] list = new Bytes().u8(4).uleb(0x10).uleb(0x20).u8(7).u64(0x5000).uleb(8).u8(1).uleb(1).u8(4).uleb(1).uleb(2).u8(0).get();
    byte[] rng = new Bytes().u32(8 + 4 + list.length).u16(5).u8(8).u8(0).u32(1).u32(4).bytes(list).get();
    Bytes die = new Bytes();
    // unit header (DWARF 5, compile unit) is 12 bytes including the length; DIEs start at 12.
    die.uleb(1).u32(8).u32(8).u32(12).u8(0).uleb(0).u16(LANG_C).u8(0xab).u32(0xdeadbeefL).u64(-2L).sleb(-300)
        .uleb(624485).str("inline").u32(13).u8(5).u8(0x9c, 0, 0, 0, 0).u8(2, 0xaa, 0xbb);
    for (int i = 0; i < 16; i++) die.u8(i);
    die.u32(0).u16(2).u8(2, 0, 0);
    int sub = 12 + die.size();
    die.uleb(2).uleb(1).uleb(0);
    int lex = 12 + die.size();
    die.uleb(3).u32(sub).uleb(Form.DATA1.code).u8(0x30);
    die.uleb(0).uleb(0);
    byte[] info = new Bytes().u16(5).u8(DwarfUnit.UT_COMPILE).u8(8).u32(0).bytes(die.get()).withLength();
    assertEquals(12, 4 + 8);
    assertTrue(lex > sub);
    return new DwarfFile(sections(info, abbrev(), str, new byte[0], addr, strOff, new byte[0], rng));
  }

  @Test
  void formsAndBases() {
    DwarfFile f = file();
    assertEquals(1, f.units().size());
    DwarfUnit u = f.units().get(0);
    assertEquals(5, u.version());
    assertEquals(3, u.dieCount());
    Die cu = u.unitDie();
    assertEquals("main.c", ((AttributeValue.Str) cu.find(AT_NAME)).value());
    assertEquals(0x1000L, ((AttributeValue.Address) cu.find(AT_LOW_PC)).value());
    assertEquals((long) LANG_C, cu.find(AT_LANGUAGE).asUnsigned());
    assertEquals(0xabL, cu.find(0x3e).asUnsigned());
    assertEquals(0xdeadbeefL, cu.find(0x3f).asUnsigned());
    assertEquals(-2L, cu.find(0x40).asUnsigned());
    assertEquals(-300L, ((AttributeValue.Signed) cu.find(0x41)).value());
    assertEquals(624485L, cu.find(0x42).asUnsigned());
    assertEquals("inline", ((AttributeValue.Str) cu.find(0x43)).value());
    assertEquals("strp!", ((AttributeValue.Str) cu.find(0x44)).value());
    assertEquals(1L, cu.find(0x45).asUnsigned());
    assertEquals(-7L, ((AttributeValue.Signed) cu.find(0x46)).value());
    AttributeValue.Block expr = assertInstanceOf(AttributeValue.Block.class, cu.find(0x48));
    assertEquals(5, expr.bytes().size());
    assertEquals(2, ((AttributeValue.Block) cu.find(0x49)).bytes().size());
    assertEquals(16, ((AttributeValue.Block) cu.find(0x4a)).bytes().size());
    assertEquals("ls", ((AttributeValue.Str) cu.find(0x4b)).value());
    assertEquals(0x3000L, ((AttributeValue.Address) cu.find(0x4c)).value());
    assertEquals("strp!", ((AttributeValue.Str) cu.find(0x4d)).value());
    assertNull(cu.find(AT_COMP_DIR));
  }

  @Test
  void treeReferencesAndRnglists() {
    DwarfUnit u = file().units().get(0);
    List<Die> kids = u.unitDie().children();
    assertEquals(1, kids.size());
    Die sub = kids.get(0);
    assertEquals(TAG_SUBPROGRAM, sub.tag());
    assertEquals("func", sub.shortName());
    assertEquals(List.of(new AddressRange(0x1010, 0x1020), new AddressRange(0x5000, 0x5008), new AddressRange(0x2001, 0x2002)),
        sub.addressRanges());
    Die lex = sub.children().get(0);
    assertEquals(sub, lex.ref(AT_ABSTRACT_ORIGIN));
    assertEquals("func", lex.shortName()); // found through the abstract origin
    assertEquals(sub, lex.parent());
    assertEquals(0x30L, lex.find(AT_HIGH_PC).asUnsigned()); // DW_FORM_indirect -> data1
  }

  /** A DWARF 4 unit over abbreviations {@code abbrev}, with DIEs {@code dies} (after the header). */
  private static DwarfUnit unit4(byte[] abbrev, byte[] dies) {
    byte[] info = new Bytes().u16(4).u32(0).u8(8).bytes(dies).withLength();
    return new DwarfFile(sections(info, abbrev, new byte[0], new byte[0], new byte[0], new byte[0], new byte[0], new byte[0]))
        .units().getFirst();
  }

  /**
   * Abbreviation codes far apart (no dense table: the tree keeps a table of the abbreviations it
   * saw) give the same tree and attributes as small codes; an unknown code, and one whose ULEB128
   * does not fit a signed long, are errors at the DIE.
   */
  @Test
  void sparseAbbreviationCodes() {
    for (long[] codes : new long[][] {{1, 2}, {5000, 1000}}) {
      byte[] abbrev = new Bytes()
          .uleb(codes[0]).uleb(TAG_COMPILE_UNIT).u8(1).uleb(AT_NAME).uleb(Form.STRING.code).uleb(0).uleb(0)
          .uleb(codes[1]).uleb(TAG_SUBPROGRAM).u8(0).uleb(AT_NAME).uleb(Form.STRING.code)
          .uleb(AT_LOW_PC).uleb(Form.ADDR.code).uleb(AT_HIGH_PC).uleb(Form.DATA4.code).uleb(0).uleb(0)
          .uleb(0).get();
      byte[] dies = new Bytes().uleb(codes[0]).str("cu.c")
          .uleb(codes[1]).str("f").u64(0x1000).u32(0x10)
          .uleb(codes[1]).str("g").u64(0x2000).u32(0x20)
          .uleb(0).get();
      DwarfUnit u = unit4(abbrev, dies);
      assertEquals(3, u.dieCount());
      Die cu = u.unitDie();
      assertEquals(TAG_COMPILE_UNIT, cu.tag());
      assertEquals("cu.c", ((AttributeValue.Str) cu.find(AT_NAME)).value());
      List<Die> kids = cu.children();
      assertEquals(2, kids.size());
      assertEquals(TAG_SUBPROGRAM, kids.get(1).tag());
      assertEquals("g", kids.get(1).shortName());
      assertEquals(cu, kids.get(1).parent());
      assertEquals(List.of(new AddressRange(0x2000, 0x2020)), kids.get(1).addressRanges());
      assertEquals(List.of(new AddressRange(0x1000, 0x1010)), kids.get(0).addressRanges());
      for (long bad : new long[] {7, -1L}) {
        byte[] wrong = new Bytes().uleb(codes[0]).str("cu.c").uleb(bad).get();
        GsymFormatException e = assertThrows(GsymFormatException.class, () -> unit4(abbrev, wrong).load());
        assertTrue(e.getMessage().contains("invalid abbreviation code " + bad), e.getMessage());
      }
    }
  }

  @Test
  void lebEdgeCases() {
    ByteView b = v(new Bytes().uleb(0).uleb(127).uleb(128).uleb(-1L).sleb(-1).sleb(63).sleb(-64).sleb(Long.MIN_VALUE).get(), "leb");
    var c = b.cursor(0);
    assertEquals(0, c.uleb());
    assertEquals(127, c.uleb());
    assertEquals(128, c.uleb());
    assertEquals(-1L, c.uleb());
    assertEquals(-1, c.sleb());
    assertEquals(63, c.sleb());
    assertEquals(-64, c.sleb());
    assertEquals(Long.MIN_VALUE, c.sleb());
  }

  @Test
  void debugRangesWithBaseSelection() {
    byte[] r = new Bytes().u64(0x10).u64(0x20).u64(-1L).u64(0x8000).u64(1).u64(3).u64(0).u64(0).get();
    assertEquals(List.of(new AddressRange(0x1010, 0x1020), new AddressRange(0x8001, 0x8003)),
        RangeLists.ranges(v(r, ".debug_ranges"), 0, 8, 0x1000));
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> RangeLists.ranges(v(r, ".debug_ranges"), 0x100, 8, 0));
    assertTrue(e.getMessage().contains(".debug_ranges"), e.getMessage());
    // unterminated list runs into the section end
    byte[] cut = new Bytes().u64(0x10).u64(0x20).get();
    assertThrows(GsymFormatException.class, () -> RangeLists.ranges(v(cut, ".debug_ranges"), 0, 8, 0));
  }

  @Test
  void rnglistUnknownEntryKind() {
    byte[] r = new Bytes().u8(0x42).get();
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> RangeLists.rnglist(v(r, ".debug_rnglists"), 0, 8, 0, i -> i));
    assertTrue(e.getMessage().contains("unknown range list entry kind 0x42"), e.getMessage());
  }

  /** A DWARF 5 line program: header with entry formats, special opcodes, two sequences. */
  static byte[] lineV5() {
    Bytes hdr = new Bytes()
        .u8(1) // min_inst_length
        .u8(1) // max ops
        .u8(1) // default_is_stmt
        .u8(-5 & 0xff) // line_base
        .u8(14) // line_range
        .u8(13) // opcode_base
        .u8(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1)
        .u8(1).uleb(1).uleb(Form.STRING.code) // directory format: path/string
        .uleb(2).str("/comp").str("inc")
        .u8(2).uleb(1).uleb(Form.STRING.code).uleb(2).uleb(Form.UDATA.code) // file format: path, dir index
        .uleb(3).str("a.c").uleb(0).str("b.h").uleb(1).str("/abs/c.c").uleb(1);
    Bytes prog = new Bytes()
        .u8(0).uleb(9).u8(2).u64(0x1000) // set_address 0x1000
        .u8(3).sleb(9) // advance_line -> 10
        .u8(1) // copy: 0x1000 line 10
        .u8(13 + (2 - -5) + 14 * 4) // special: addr += 4, line += 2 -> 0x1004 line 12
        .u8(4).uleb(1) // set_file 1
        .u8(2).uleb(4) // advance_pc 4
        .u8(1) // copy: 0x1008 line 12 file 1
        .u8(2).uleb(8).u8(0).uleb(1).u8(1) // end_sequence at 0x1010
        .u8(0).uleb(9).u8(2).u64(0x800) // second sequence, lower addresses
        .u8(1)
        .u8(8) // const_add_pc: (255-13)/14 = 17
        .u8(0).uleb(1).u8(1); // end_sequence at 0x811
    byte[] h = hdr.get();
    byte[] body = new Bytes().u16(5).u8(8).u8(0).u32(h.length).bytes(h).bytes(prog.get()).withLength();
    return body;
  }

  @Test
  void lineProgramV5() {
    DwarfFile f = new DwarfFile(sections(new byte[0], new byte[] {0}, new byte[0], lineV5(), new byte[0], new byte[0], new byte[0], new byte[0]));
    LineTable t = f.lineTable(new DebugLineOffset(0), 8);
    assertEquals(5, t.version());
    assertEquals(List.of("/comp", "inc"), t.includeDirectories());
    assertEquals(3, t.files().size());
    assertEquals("/comp/a.c", t.filePath(0, "/ignored")); // v5 dir 0 is the compilation directory entry
    assertEquals("/cd/inc/b.h", t.filePath(1, "/cd")); // relative include dir gets the CU's comp_dir
    assertEquals("/abs/c.c", t.filePath(2, "/cd"));
    assertNull(t.filePath(3, "/cd"));
    List<LineTable.Row> rows = t.rows();
    assertEquals(new LineTable.Row(0x1000, 1, 10, 0, false), rows.get(0));
    assertEquals(new LineTable.Row(0x1004, 1, 12, 0, false), rows.get(1));
    assertEquals(new LineTable.Row(0x1008, 1, 12, 0, false), rows.get(2));
    assertTrue(rows.get(3).endSequence());
    assertEquals(0x1010, rows.get(3).address());
    assertEquals(0x811, rows.get(5).address());
    // sequences sorted by end address
    assertEquals(0x800, t.sequences().get(0).lowPc());
    assertEquals(0x1000, t.sequences().get(1).lowPc());
    // lookups: last row <= start; range end inside the sequence
    assertArrayEquals(new int[] {1, 2}, t.lookupAddressRange(0x1005, 4));
    assertArrayEquals(new int[] {0, 1, 2, 3}, t.lookupAddressRange(0x1000, 0x100));
    assertArrayEquals(new int[] {4, 5, 0, 1, 2}, t.lookupAddressRange(0x800, 0x1009 - 0x800));
    assertNull(t.lookupAddressRange(0x900, 4));
  }

  @Test
  void lineProgramV4FileIndexesAreOneBased() {
    Bytes hdr = new Bytes().u8(1).u8(1).u8(1).u8(-5 & 0xff).u8(14).u8(13).u8(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1)
        .str("inc").u8(0).str("x.c").uleb(0).uleb(0).uleb(0).str("y.h").uleb(1).uleb(0).uleb(0).u8(0);
    byte[] h = hdr.get();
    byte[] prog = new Bytes().u8(0).uleb(9).u8(2).u64(0x10).u8(1).u8(0).uleb(1).u8(1).get();
    byte[] line = new Bytes().u16(4).u32(h.length).bytes(h).bytes(prog).withLength();
    DwarfFile f = new DwarfFile(sections(new byte[0], new byte[] {0}, new byte[0], line, new byte[0], new byte[0], new byte[0], new byte[0]));
    LineTable t = f.lineTable(new DebugLineOffset(0), 8);
    assertNull(t.filePath(0, "/cd"));
    assertEquals("/cd/x.c", t.filePath(1, "/cd"));
    assertEquals("/cd/inc/y.h", t.filePath(2, "/cd"));
    assertEquals(2, t.rows().size());
    // a sequence of one address (low == high) is not a valid sequence
    assertTrue(t.sequences().isEmpty());
  }

  /** Regression (found by mutation): a v5 directory format without DW_LNCT_path gives empty directories. */
  @Test
  void lineV5DirectoryWithoutPath() {
    Bytes hdr = new Bytes().u8(1).u8(1).u8(1).u8(-5 & 0xff).u8(14).u8(13).u8(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1)
        .u8(1).uleb(2).uleb(Form.UDATA.code) // directory format: only a directory index (no path)
        .uleb(1).uleb(0)
        .u8(2).uleb(1).uleb(Form.STRING.code).uleb(2).uleb(Form.UDATA.code)
        .uleb(1).str("a.c").uleb(0);
    byte[] h = hdr.get();
    byte[] line = new Bytes().u16(5).u8(8).u8(0).u32(h.length).bytes(h).withLength();
    DwarfFile f = new DwarfFile(sections(new byte[0], new byte[] {0}, new byte[0], line, new byte[0], new byte[0], new byte[0], new byte[0]));
    LineTable t = f.lineTable(new DebugLineOffset(0), 8);
    assertEquals(List.of(""), t.includeDirectories());
    assertEquals("a.c", t.filePath(0, "/cd"));
  }

  /**
   * Every opcode of a DWARF 4 program with opcode_base 15 (two unknown standard opcodes, 13 with two
   * operands and 14 with none): the rows follow DWARF 6.2.5 by hand; the opcodes that set nothing
   * a row holds (negate_stmt, basic_block, prologue_end, epilogue_begin, set_isa, discriminator, an
   * unknown extended opcode) move nothing; define_file adds a file.
   */
  @Test
  void lineProgramEveryOpcode() {
    // min_inst_length 2, line_base -3, line_range 12, opcode_base 15
    Bytes hdr = new Bytes().u8(2).u8(1).u8(1).u8(-3 & 0xff).u8(12).u8(15).u8(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 2, 0)
        .u8(0).str("x.c").uleb(0).uleb(0).uleb(0).u8(0);
    Bytes prog = new Bytes()
        .u8(0).uleb(5).u8(2).u32(0x4000) // set_address (4 bytes) 0x4000
        .u8(5).uleb(300) // set_column 300
        .u8(6).u8(7).u8(10).u8(11) // negate_stmt, basic_block, prologue_end, epilogue_begin
        .u8(12).uleb(1000) // set_isa
        .u8(0).uleb(2).u8(4).uleb(9) // set_discriminator 9
        .u8(0).uleb(4).u8(0x80).u8(1, 2, 3) // unknown extended opcode 0x80, 3 operand bytes
        .u8(13).uleb(200).uleb(1) // unknown standard opcode 13: two ULEB operands
        .u8(14) // unknown standard opcode 14: none
        .u8(0).uleb(8).u8(3).str("d.c").uleb(1).uleb(0).uleb(0) // define_file d.c, directory 1
        .u8(1) // copy: 0x4000 line 1 column 300
        .u8(9).u16(0x20) // fixed_advance_pc 0x20 (not scaled) -> 0x4020
        .u8(3).sleb(-1).u8(3).sleb(41) // advance_line twice -> 41
        .u8(4).uleb(2) // set_file 2
        .u8(15 + 5 + 12 * 3) // special: address += 2 * 3, line += -3 + 5 -> 0x4026 line 43
        .u8(8) // const_add_pc: 2 * ((255 - 15) / 12) = 40 -> 0x404e
        .u8(2).uleb(5) // advance_pc 2 * 5 -> 0x4058
        .u8(0).uleb(1).u8(1); // end_sequence at 0x4058
    byte[] h = hdr.get();
    byte[] line = new Bytes().u16(4).u32(h.length).bytes(h).bytes(prog.get()).withLength();
    DwarfFile f = new DwarfFile(sections(new byte[0], new byte[] {0}, new byte[0], line, new byte[0], new byte[0], new byte[0], new byte[0]));
    LineTable t = f.lineTable(new DebugLineOffset(0), 8);
    assertEquals(List.of(new LineTable.FileEntry("x.c", 0), new LineTable.FileEntry("d.c", 1)), t.files());
    assertEquals(List.of(new LineTable.Row(0x4000, 1, 1, 300, false), new LineTable.Row(0x4026, 2, 43, 300, false),
        new LineTable.Row(0x4058, 2, 43, 300, true)), t.rows());
    assertEquals(1, t.sequences().size());
    assertEquals(0x4000, t.sequences().get(0).lowPc());
    assertEquals(0x4058, t.sequences().get(0).highPc());
  }

  /** A second sequence starts from the initial registers (address 0, file 1, line 1, column 0). */
  @Test
  void lineRegistersAreResetAfterEndSequence() {
    Bytes hdr = new Bytes().u8(1).u8(1).u8(1).u8(-5 & 0xff).u8(14).u8(13).u8(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1)
        .u8(0).str("x.c").uleb(0).uleb(0).uleb(0).u8(0);
    byte[] prog = new Bytes().u8(0).uleb(9).u8(2).u64(0x10).u8(4).uleb(3).u8(5).uleb(7).u8(3).sleb(5).u8(2).uleb(4)
        .u8(0).uleb(1).u8(1) // end_sequence at 0x14, file 3, line 6, column 7
        .u8(2).uleb(0x30).u8(1) // copy at 0x30: file 1, line 1, column 0 again
        .u8(2).uleb(2).u8(0).uleb(1).u8(1).get();
    byte[] h = hdr.get();
    byte[] line = new Bytes().u16(4).u32(h.length).bytes(h).bytes(prog).withLength();
    DwarfFile f = new DwarfFile(sections(new byte[0], new byte[] {0}, new byte[0], line, new byte[0], new byte[0], new byte[0], new byte[0]));
    LineTable t = f.lineTable(new DebugLineOffset(0), 8);
    assertEquals(List.of(new LineTable.Row(0x14, 3, 6, 7, true), new LineTable.Row(0x30, 1, 1, 0, false),
        new LineTable.Row(0x32, 1, 1, 0, true)), t.rows());
    assertEquals(0x30, t.sequences().get(0).lowPc());
  }

  /** Malformed opcodes name their offset in .debug_line. */
  @Test
  void badLineOpcodes() {
    Bytes hdr = new Bytes().u8(1).u8(1).u8(1).u8(-5 & 0xff).u8(0).u8(13).u8(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1)
        .u8(0).u8(0);
    byte[] h = hdr.get();
    int programAt = 4 + 2 + 4 + h.length;
    java.util.function.Function<byte[], String> error = prog -> {
      byte[] line = new Bytes().u16(4).u32(h.length).bytes(h).bytes(prog).withLength();
      DwarfFile f = new DwarfFile(sections(new byte[0], new byte[] {0}, new byte[0], line, new byte[0], new byte[0], new byte[0], new byte[0]));
      return assertThrows(GsymFormatException.class, () -> f.lineTable(new DebugLineOffset(0), 8)).getMessage();
    };
    assertTrue(error.apply(new byte[] {1, 20}).contains(String.format("offset 0x%08x: special opcode with line_range 0", programAt + 1)),
        error.apply(new byte[] {1, 20}));
    assertTrue(error.apply(new byte[] {8}).contains("DW_LNS_const_add_pc with line_range 0"));
    assertTrue(error.apply(new byte[] {1, 0, 0}).contains("bad extended opcode length 0x0"));
    assertTrue(error.apply(new byte[] {0, 9, 2, 0}).contains("bad extended opcode length 0x9"));
    assertTrue(error.apply(new byte[] {0, 4, 2, 1, 2, 3}).contains("bad DW_LNE_set_address size 3"));
  }

  @Test
  void truncatedLineHeader() {
    byte[] line = lineV5();
    byte[] cut = java.util.Arrays.copyOf(line, 30);
    cut[0] = 26; // unit length fits, header length does not
    DwarfFile f = new DwarfFile(sections(new byte[0], new byte[] {0}, new byte[0], cut, new byte[0], new byte[0], new byte[0], new byte[0]));
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> f.lineTable(new DebugLineOffset(0), 8));
    assertTrue(e.getMessage().contains(".debug_line"), e.getMessage());
  }
}
