package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.unwind.UnwindSource;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every {@code DW_EH_PE} encoding, with values and bases worked out by hand (LSB Core's rules), in
 * pointers on their own and as FDE initial locations: the encodings compilers and linkers never
 * emit for FDEs (uleb128, datarel, textrel, aligned, indirect) have no llvm-dwarfdump golden, since
 * llvm decodes only absolute and pcrel ones.
 */
class PointerEncodingTest {
  private static final PointerEncoding.Bases BASES = new PointerEncoding.Bases(0x1000, 0x5000L, 0x9000L, 0x7000L);

  private static long read(int encoding, int addressSize, int... bytes) {
    return read(ByteOrder.LITTLE_ENDIAN, encoding, addressSize, 0, bytes);
  }

  /** Reads one pointer at position {@code at} of {@code bytes} and checks it consumed them all. */
  private static long read(ByteOrder order, int encoding, int addressSize, int at, int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < b.length; i++) b[i] = (byte) bytes[i];
    Cursor c = ByteView.of(b, order, "p").cursor(at);
    long v = PointerEncoding.read(c, encoding, addressSize, BASES, "pointer").value();
    assertEquals(b.length, c.position(), "bytes read by encoding 0x" + Integer.toHexString(encoding));
    return v;
  }

  @Test
  void formats() {
    assertEquals(0x8877665544332211L, read(PointerEncoding.ABSPTR, 8, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88));
    assertEquals(0x44332211L, read(PointerEncoding.ABSPTR, 4, 0x11, 0x22, 0x33, 0x44));
    assertEquals(624485, read(PointerEncoding.ULEB128, 8, 0xe5, 0x8e, 0x26));
    assertEquals(0xfffeL, read(PointerEncoding.UDATA2, 8, 0xfe, 0xff));
    assertEquals(0xfffffffeL, read(PointerEncoding.UDATA4, 8, 0xfe, 0xff, 0xff, 0xff));
    assertEquals(-2L, read(PointerEncoding.UDATA8, 8, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
    assertEquals(-123456L, read(PointerEncoding.SLEB128, 8, 0xc0, 0xbb, 0x78));
    assertEquals(-2L, read(PointerEncoding.SDATA2, 8, 0xfe, 0xff));
    assertEquals(-2L, read(PointerEncoding.SDATA4, 8, 0xfe, 0xff, 0xff, 0xff));
    assertEquals(-2L, read(PointerEncoding.SDATA8, 8, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
    // big-endian
    assertEquals(0x1234L, read(ByteOrder.BIG_ENDIAN, PointerEncoding.UDATA2, 8, 0, 0x12, 0x34));
    assertEquals(-2L, read(ByteOrder.BIG_ENDIAN, PointerEncoding.SDATA4, 8, 0, 0xff, 0xff, 0xff, 0xfe));
  }

  @Test
  void applications() {
    // pcrel: from the value's own address, section address 0x1000 + position 4
    assertEquals(0x1000 + 4 - 0x10, read(ByteOrder.LITTLE_ENDIAN, PointerEncoding.PCREL | PointerEncoding.SDATA4, 8, 4, 0, 0, 0, 0, 0xf0, 0xff,
        0xff, 0xff));
    assertEquals(0x5000 + 0x20, read(PointerEncoding.TEXTREL | PointerEncoding.UDATA2, 8, 0x20, 0));
    assertEquals(0x9000 - 8, read(PointerEncoding.DATAREL | PointerEncoding.SLEB128, 8, 0x78));
    assertEquals(0x7000 + 0x40, read(PointerEncoding.FUNCREL | PointerEncoding.ULEB128, 8, 0x40));
    // a 32-bit address space wraps
    assertEquals(0xfffffff0L, read(PointerEncoding.SDATA4, 4, 0xf0, 0xff, 0xff, 0xff));
    assertEquals(0x0fe0L, read(PointerEncoding.PCREL | PointerEncoding.SDATA8, 4, 0xe0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
  }

  @Test
  void aligned() {
    // section at 0x1003: position 1 is address 0x1004, already 4-aligned; position 2 (0x1005) moves to
    // position 5 (0x1008). An aligned value is an absolute address-size value.
    PointerEncoding.Bases at1003 = new PointerEncoding.Bases(0x1003, null, null, null);
    byte[] b = {9, 0x44, 0x33, 0x22, 0x11, 0x78, 0x56, 0x34, 0x12};
    Cursor c = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "p").cursor(1);
    assertEquals(0x11223344L, PointerEncoding.read(c, PointerEncoding.ALIGNED, 4, at1003, "p").value());
    assertEquals(5, c.position());
    c = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "p").cursor(2);
    assertEquals(0x12345678L, PointerEncoding.read(c, PointerEncoding.ALIGNED, 4, at1003, "p").value());
    assertEquals(9, c.position());
  }

  @Test
  void indirectIsReported() {
    Cursor c = ByteView.of(new byte[] {0x10, 0, 0, 0}, ByteOrder.LITTLE_ENDIAN, "p").cursor(0);
    PointerEncoding.Pointer p = PointerEncoding.read(c, PointerEncoding.INDIRECT | PointerEncoding.PCREL | PointerEncoding.SDATA4, 8, BASES, "p");
    assertEquals(new PointerEncoding.Pointer(0x1010, true), p);
  }

  @Test
  void badEncodings() {
    for (int e : new int[] {0x05, 0x06, 0x07, 0x08, 0x0d, 0x0e, 0x0f, 0x60, 0x70, 0x51, 0xd0}) {
      assertFalse(PointerEncoding.valid(e), "0x" + Integer.toHexString(e));
      GsymFormatException x = assertThrows(GsymFormatException.class, () -> read(e, 8, 0, 0, 0, 0, 0, 0, 0, 0));
      assertEquals("pointer: unknown pointer encoding 0x" + Integer.toHexString(e), x.detail());
    }
    for (int e : new int[] {0x00, 0x1b, 0x9b, 0x50, 0x3b, 0x44, 0xff}) assertTrue(PointerEncoding.valid(e), "0x" + Integer.toHexString(e));
    PointerEncoding.Bases none = new PointerEncoding.Bases(0, null, null, null);
    Cursor c = ByteView.of(new byte[4], ByteOrder.LITTLE_ENDIAN, "p").cursor(0);
    assertEquals("pointer: DW_EH_PE_datarel pointer, but the data base (.got) is not known",
        assertThrows(GsymFormatException.class, () -> PointerEncoding.read(c, 0x3b, 8, none, "pointer")).detail());
    assertEquals("pointer: no value (encoding DW_EH_PE_omit)",
        assertThrows(GsymFormatException.class, () -> PointerEncoding.read(c, 0xff, 8, none, "pointer")).detail());
    assertEquals("pcrel|sdata4", PointerEncoding.name(0x1b));
    assertEquals("indirect|pcrel|sdata4", PointerEncoding.name(0x9b));
  }

  /**
   * FDEs whose initial location uses each encoding, read through the section walker: section at
   * 0x2000, text base 0x5000, data base 0x9000 (CfiBytes.section), function at 0x4000 of 0x30 bytes.
   */
  @Test
  void initialLocationInEveryEncoding() {
    record Case(int encoding, int[] begin, int[] range) {}
    List<Case> cases = List.of(
        new Case(0x01, new int[] {0x80, 0x80, 0x01}, new int[] {0x30}), // uleb128 0x4000
        new Case(0x09, new int[] {0x80, 0x80, 0x01}, new int[] {0x30}), // sleb128 0x4000
        new Case(0x02, new int[] {0x00, 0x40}, new int[] {0x30, 0}), // udata2
        new Case(0x0a, new int[] {0x00, 0x40}, new int[] {0x30, 0}), // sdata2
        new Case(0x00, new int[] {0, 0x40, 0, 0, 0, 0, 0, 0}, new int[] {0x30, 0, 0, 0, 0, 0, 0, 0}), // absptr
        new Case(0x2b, new int[] {0x00, 0xf0, 0xff, 0xff}, new int[] {0x30, 0, 0, 0}), // textrel sdata4: 0x5000 - 0x1000
        new Case(0x3b, new int[] {0x00, 0xb0, 0xff, 0xff}, new int[] {0x30, 0, 0, 0}), // datarel sdata4: 0x9000 - 0x5000
        new Case(0x39, new int[] {0x80, 0xe0, 0x7e}, new int[] {0x30})); // datarel sleb128 -0x5000
    for (Case k : cases) {
      CfiBytes b = new CfiBytes();
      b.begin().u32(0).u8(1).cstring("zR").uleb(1).sleb(-8).u8(16).uleb(1).u8(k.encoding()).u8(0x0c, 7, 8).end();
      b.begin().u32(b.position()).u8(k.begin()).u8(k.range()).uleb(0).u8(0x41, 0x0e, 0x10).end();
      List<Fde> fdes = CallFrameInfoTest.fdes(b.section(UnwindSource.EH_FRAME, 0x2000, 0, 8, "x86_64"));
      assertEquals(1, fdes.size(), "encoding 0x" + Integer.toHexString(k.encoding()));
      assertEquals(0x4000, fdes.getFirst().pcBegin(), "encoding 0x" + Integer.toHexString(k.encoding()));
      assertEquals(0x30, fdes.getFirst().pcRange());
    }
  }

  /** An indirect initial location is the pointer at the address it gives, read from the loaded image. */
  @Test
  void indirectInitialLocation() {
    CfiBytes b = new CfiBytes();
    b.ehCie(0x80 | 0x03); // indirect udata4
    b.begin().u32(b.position()).u32(0x8000).u32(0x30).uleb(0).end();
    byte[] slot = {0, 0x40, 0, 0, 0, 0, 0, 0}; // 0x4000 at 0x8000
    CfiSection base = b.section(UnwindSource.EH_FRAME, 0x2000, 0, 8, "x86_64");
    CfiSection withMemory = new CfiSection(base.kind(), base.name(), base.data(), base.address(), 8, "x86_64", null, null,
        (address, size) -> address == 0x8000 ? ByteView.of(slot, ByteOrder.LITTLE_ENDIAN, "image").slice(0, size) : null);
    assertEquals(0x4000, CallFrameInfoTest.fdes(withMemory).getFirst().pcBegin());
    // without the image, the FDE is reported and skipped
    CfiReader.Result r = CallFrameInfoTest.read(base);
    assertEquals(List.of(), r.entries());
    assertEquals(".eh_frame FDE at 0x18: initial location: indirect pointer to 0x8000, which no section holds", r.problems().getFirst().detail());
    assertEquals(0x18 + 8, r.problems().getFirst().offset());
  }

  @Test
  void errorOffsetsAreAbsolute() {
    // a section at file offset 0x3000 whose FDE's LSDA encoding is unknown: the error points at the CIE's byte
    CfiBytes b = new CfiBytes();
    b.begin().u32(0).u8(1).cstring("zLR").uleb(1).sleb(-8).u8(16).uleb(2).u8(0x07).u8(0x1b).end();
    ByteView v = new ByteView(MemorySegment.ofArray(b.bytes()), 0x3000, ByteOrder.LITTLE_ENDIAN, "f");
    CfiSection s = new CfiSection(UnwindSource.EH_FRAME, ".eh_frame", v, 0, 8, "x86_64", null, null, null);
    CfiReader.Result r = CallFrameInfoTest.read(s);
    assertEquals(".eh_frame CIE at 0x0: unknown LSDA encoding 0x7", r.problems().getFirst().detail());
    assertEquals(0x3000 + 4 + 4 + 1 + 4 + 3 + 1, r.problems().getFirst().offset());
  }
}
