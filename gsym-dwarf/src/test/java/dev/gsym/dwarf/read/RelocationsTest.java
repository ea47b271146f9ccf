package dev.gsym.dwarf.read;

import dev.gsym.elf.ElfFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.dwarf.read.DwarfSections;
import dev.gsym.io.ByteView;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Relocations of a hand-built x86-64 ET_REL object applied to .debug_info, and corrupt ones. */
class RelocationsTest {
  /** One RELA entry: offset, type, symbol index, addend. */
  record Rela(long offset, int type, int sym, long addend) {}

  private static final int TEXT = 1, INFO = 2, RELA = 3, SYMTAB = 4;

  /**
   * An ELF64 LE relocatable object: .text at sh_addr 0x1000 (4 bytes), .debug_info (16 bytes of
   * 0x11), .rela.debug_info with {@code relas} (its size plus {@code extraRelaBytes}), .symtab with
   * a section symbol for .text (1) and a function at .text+0x10 (2).
   */
  static byte[] object(List<Rela> relas, int extraRelaBytes, int type) {
    byte[] shstr = "\0.text\0.debug_info\0.rela.debug_info\0.symtab\0.strtab\0.shstrtab\0".getBytes(StandardCharsets.US_ASCII);
    int textOff = 64, infoOff = textOff + 4, relaOff = infoOff + 16, relaSize = relas.size() * 24 + extraRelaBytes;
    int symOff = relaOff + relaSize, strOff = symOff + 3 * 24, shstrOff = strOff + 1, shOff = shstrOff + shstr.length;
    ByteBuffer b = ByteBuffer.allocate(shOff + 7 * 64).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1});
    b.position(16);
    b.putShort((short) type).putShort((short) 62).putInt(1).putLong(0).putLong(0).putLong(shOff).putInt(0)
        .putShort((short) 64).putShort((short) 56).putShort((short) 0).putShort((short) 64).putShort((short) 7).putShort((short) 6);
    b.position(infoOff);
    for (int i = 0; i < 16; i++) b.put((byte) 0x11);
    b.position(relaOff);
    for (Rela r : relas) b.putLong(r.offset()).putLong((long) r.sym() << 32 | r.type()).putLong(r.addend());
    b.position(symOff + 24);
    b.putInt(0).put((byte) 3).put((byte) 0).putShort((short) TEXT).putLong(0).putLong(0);
    b.putInt(0).put((byte) (1 << 4 | ElfFile.STT_FUNC)).put((byte) 0).putShort((short) TEXT).putLong(0x10).putLong(4);
    b.position(shstrOff);
    b.put(shstr);
    b.position(shOff + 64);
    section(b, 1, 1, 6, 0x1000, textOff, 4, 0, 0, 0);
    section(b, 7, 1, 0, 0, infoOff, 16, 0, 0, 0);
    section(b, 19, 4, 0x40, 0, relaOff, relaSize, SYMTAB, INFO, 24);
    section(b, 36, 2, 0, 0, symOff, 3 * 24, 5, 1, 24);
    section(b, 44, 3, 0, 0, strOff, 1, 0, 0, 0);
    section(b, 52, 3, 0, 0, shstrOff, shstr.length, 0, 0, 0);
    return b.array();
  }

  private static void section(ByteBuffer b, int name, int type, long flags, long addr, long off, long size, int link, int info, long entsize) {
    b.putInt(name).putInt(type).putLong(flags).putLong(addr).putLong(off).putLong(size).putInt(link).putInt(info).putLong(1).putLong(entsize);
  }

  @Test
  void appliesRelaAsLlvm() {
    byte[] obj = object(List.of(new Rela(0, 1, 1, 0x20), // R_X86_64_64: .text (0x1000) + 0x20
        new Rela(8, 10, 2, 4), // R_X86_64_32: function (0x1000 + 0x10) + 4
        new Rela(12, 2, 0, 0x40)), 0, ElfFile.ET_REL); // R_X86_64_PC32, no symbol: 0x40 - 12
    try (ElfFile elf = ElfFile.of(obj, "t.o")) {
      ElfFile.Section info = elf.section(".debug_info");
      ByteView r = elf.relocatedData(info);
      assertEquals(0x1020L, r.u64(0));
      assertEquals(0x1014L, r.u32(8));
      assertEquals(0x40L - 12, r.u32(12));
      // the file's bytes are untouched; the copy is made once
      assertEquals(0x1111111111111111L, elf.data(info).u64(0));
      assertSame(r, elf.relocatedData(info));
      assertEquals(TEXT, elf.relocationSection(info, 0));
      assertEquals(TEXT, elf.relocationSection(info, 8));
      assertEquals(-1, elf.relocationSection(info, 12));
      assertTrue(elf.relocationWarnings().isEmpty());
    }
  }

  @Test
  void notRelocatedUnlessRelocatable() {
    byte[] obj = object(List.of(new Rela(0, 1, 1, 0x20)), 0, 2); // ET_EXEC
    try (ElfFile elf = ElfFile.of(obj, "t")) {
      assertEquals(0x1111111111111111L, elf.relocatedData(elf.section(".debug_info")).u64(0));
    }
  }

  @Test
  void skipsWhatLlvmSkips() {
    // R_X86_64_PLT32 (4) is not supported by llvm's resolver: warned about and skipped; a
    // relocation whose bytes are outside the section is never read by llvm: skipped.
    byte[] obj = object(List.of(new Rela(0, 4, 1, 0), new Rela(12, 1, 1, 0), new Rela(4, 10, 1, 7)), 0, ElfFile.ET_REL);
    try (ElfFile elf = ElfFile.of(obj, "t.o")) {
      ByteView r = elf.relocatedData(elf.section(".debug_info"));
      assertEquals(0x11111111L, r.u32(0));
      assertEquals(0x1007L, r.u32(4));
      assertEquals(0x1111111111111111L, r.u64(8));
      assertEquals(1, elf.relocationWarnings().size());
      assertTrue(elf.relocationWarnings().get(0).equals("failed to compute relocation: R_X86_64_PLT32, Invalid data was encountered while parsing the file"), elf.relocationWarnings().toString());
    }
  }

  @Test
  void corruptRelocationSections() {
    byte[] badSymbol = object(List.of(new Rela(0, 1, 1, 0), new Rela(8, 1, 9, 0)), 0, ElfFile.ET_REL);
    try (ElfFile elf = ElfFile.of(badSymbol, "bad.o")) {
      GsymFormatException e = assertThrows(GsymFormatException.class, () -> elf.relocatedData(elf.section(".debug_info")));
      assertTrue(e.getMessage().contains("bad.o") && e.getMessage().contains(".rela.debug_info")
          && e.getMessage().contains("symbol index 9 past the end of .symtab"), e.getMessage());
      // the entry's file offset: 64 + 4 + 16 + 24
      assertTrue(e.getMessage().contains("offset 0x0000006c"), e.getMessage());
    }
    byte[] ragged = object(List.of(new Rela(0, 1, 1, 0)), 5, ElfFile.ET_REL);
    try (ElfFile elf = ElfFile.of(ragged, "ragged.o")) {
      GsymFormatException e = assertThrows(GsymFormatException.class, () -> DwarfSections.of(elf));
      assertTrue(e.getMessage().contains("ragged.o") && e.getMessage().contains("not a multiple of the entry size 24"), e.getMessage());
    }
  }
}
