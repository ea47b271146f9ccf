package dev.gsym.dwarf.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.elf.ElfFile;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.GsymFormatException;
import dev.gsym.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The form table: every form is skipped, sized and read over exactly the same bytes, for every
 * address size, offset size and version; codes map to forms and back; indirect forms are checked
 * the same way when skipping and reading.
 */
class FormTest {
  private static final Form.Params[] PARAMS = {new Form.Params(2, 4, 4), new Form.Params(2, 8, 4), new Form.Params(4, 8, 4),
      new Form.Params(4, 4, 8), new Form.Params(5, 8, 4), new Form.Params(5, 8, 8)};

  /** One value of {@code f} (zeros except lengths), followed by a canary byte 0x5a. */
  private static byte[] value(Form f, Form.Params p) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    switch (f.encoding) {
      case FIXED, ADDRESS_SIZE, OFFSET_SIZE, REF_ADDR_SIZE -> b.writeBytes(new byte[f.size(p)]);
      case ULEB, SLEB -> b.writeBytes(new byte[] {(byte) 0x80, 0x00}); // two-byte encoding of 0
      case CSTRING -> b.writeBytes(new byte[] {'a', 'b', 0});
      case BLOCK -> {
        if (f.width == 0) b.writeBytes(new byte[] {(byte) 0x83, 0x00}); // uleb 3, two bytes
        else b.writeBytes(new byte[f.width]); // little endian: first byte is the length
        byte[] len = b.toByteArray();
        len[0] = (byte) (f.width == 0 ? 0x83 : 3);
        b.reset();
        b.writeBytes(len);
        b.writeBytes(new byte[] {1, 2, 3});
      }
      case INDIRECT -> b.writeBytes(new byte[] {(byte) Form.DATA2.code, 0, 0});
      case IMPLICIT -> {}
    }
    b.write(0x5a);
    return b.toByteArray();
  }

  private static Cursor cursor(byte[] bytes) {
    return new ByteView(MemorySegment.ofArray(bytes), 0, ByteOrder.LITTLE_ENDIAN, "test").cursor(0);
  }

  @Test
  void sizeAndSkipAgreeForEveryFormAndShape() {
    for (Form f : Form.values()) {
      for (Form.Params p : PARAMS) {
        byte[] v = value(f, p);
        Cursor c = cursor(v);
        f.skip(c, p);
        assertThat(c.position()).as("%s %s", f, p).isEqualTo(v.length - 1);
        int size = f.size(p);
        if (size >= 0) assertThat(size).as("%s %s", f, p).isEqualTo(v.length - 1);
      }
    }
  }

  @Test
  void readConsumesWhatSkipSkips() throws Exception {
    // a real DWARF 5 unit (clang: str_offsets and addr bases), so index forms resolve
    try (ElfFile elf = ElfFile.open(TestData.path("bin", "c-clang-O2")); DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf))) {
      DwarfUnit u = dwarf.units().getFirst();
      assertThat(u.version()).isEqualTo(5);
      for (Form f : Form.values()) {
        byte[] v = value(f, u.formParams());
        Cursor c = cursor(v);
        AttributeValue a = f.read(c, u, 9);
        assertThat(c.position()).as("%s", f).isEqualTo(v.length - 1);
        assertThat(a.form()).as("%s", f).isEqualTo(f == Form.INDIRECT ? Form.DATA2.code : f.code);
      }
    }
  }

  /**
   * DwarfUnit.find makes the value of a fixed-size number ({@link Form#fixedNumber}) or an implicit
   * form with {@link Form#value} from the bytes, without a cursor: that is what {@link Form#read}
   * makes of the same bytes, for every such form (index forms resolved through a real unit); strings
   * in .debug_info, blocks, data16 and LEB128 forms are left to read.
   */
  @Test
  void valueOfANumberIsWhatReadMakes() throws Exception {
    try (ElfFile elf = ElfFile.open(TestData.path("bin", "c-clang-O2")); DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf))) {
      DwarfUnit u = dwarf.units().getFirst();
      Form.Params p = u.formParams();
      int numbers = 0;
      for (Form f : Form.values()) {
        boolean number = f.fixedNumber(p);
        switch (f.encoding) {
          case FIXED, ADDRESS_SIZE, OFFSET_SIZE, REF_ADDR_SIZE -> assertThat(number).as("%s", f).isEqualTo(f != Form.DATA16);
          default -> assertThat(number).as("%s", f).isFalse();
        }
        if (f.encoding == Form.Encoding.IMPLICIT) {
          assertThat(f.value(f == Form.FLAG_PRESENT ? 1 : -9, u)).as("%s", f).isEqualTo(f.read(cursor(new byte[0]), u, -9));
        }
        if (!number) continue;
        numbers++;
        for (int raw : new int[] {0, 1, 2}) {
          byte[] v = new byte[f.size(p)];
          v[0] = (byte) raw;
          assertThat(f.value(raw, u)).as("%s %d", f, raw).isEqualTo(f.read(cursor(v), u, 0));
        }
      }
      assertThat(numbers).isEqualTo(28);
    }
  }

  @Test
  void codesMapToForms() {
    for (Form f : Form.values()) assertThat(Form.of(f.code)).isSameAs(f);
    assertThat(Form.of(0)).isNull();
    assertThat(Form.of(0x02)).isNull(); // reserved
    assertThat(Form.of(0x2d)).isNull();
    assertThat(Form.of(0x1f00)).isNull();
    assertThat(Form.of(-1)).isNull();
    assertThat(Form.of(Long.MAX_VALUE)).isNull();
    assertThat(Form.DATA4).hasToString("DW_FORM_data4");
  }

  @Test
  void indirectToImplicitConstOrUnknownFailsWhenSkippedAndWhenRead() throws Exception {
    Form.Params p = new Form.Params(5, 8, 4);
    try (ElfFile elf = ElfFile.open(TestData.path("bin", "c-clang-O2")); DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf))) {
      DwarfUnit u = dwarf.units().getFirst();
      for (int code : new int[] {Form.IMPLICIT_CONST.code, Form.INDIRECT.code, 0x7f}) {
        byte[] v = {(byte) code, 0, 0, 0};
        assertThatThrownBy(() -> Form.INDIRECT.skip(cursor(v), p)).isInstanceOf(GsymFormatException.class)
            .hasMessageContaining("bad indirect form 0x" + Integer.toHexString(code));
        assertThatThrownBy(() -> Form.INDIRECT.read(cursor(v), u, 0)).isInstanceOf(GsymFormatException.class)
            .hasMessageContaining("bad indirect form 0x" + Integer.toHexString(code));
      }
    }
  }

  @Test
  void truncatedValuesFailTheSameWayWhenSkippedAndWhenRead() throws Exception {
    try (ElfFile elf = ElfFile.open(TestData.path("bin", "c-clang-O2")); DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf))) {
      DwarfUnit u = dwarf.units().getFirst();
      for (Form f : new Form[] {Form.DATA4, Form.ADDR, Form.STRP, Form.DATA16, Form.BLOCK1}) {
        byte[] v = f == Form.BLOCK1 ? new byte[] {9, 1} : new byte[] {1};
        String skip = null;
        try {
          f.skip(cursor(v), u.formParams());
        } catch (GsymFormatException e) {
          skip = e.getMessage();
        }
        assertThat(skip).as("%s", f).isNotNull();
        assertThatThrownBy(() -> f.read(cursor(v), u, 0)).as("%s", f).hasMessage(skip);
      }
    }
  }
}
