package dev.gsym.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ElfFileTest {
  @Test
  void goldenGccBinary() throws Exception {
    try (ElfFile elf = ElfFile.open(TestData.path("bin", "c-gcc-O2"))) {
      assertTrue(elf.is64());
      assertEquals(ByteOrder.LITTLE_ENDIAN, elf.byteOrder());
      assertEquals(62, elf.machine());
      assertEquals(0L, elf.baseAddress());
      // .init .plt .plt.got .text extra_text .fini: adjacent/overlapping ones merged (.symtab has 19 STT_FUNC, .dynsym is not read)
      assertEquals(new AddressRange(0x1000, 0x1017), elf.textRanges().get(0));
      assertTrue(elf.textRanges().contains(0x1335)); // extra_text
      assertTrue(elf.textRanges().contains(0x1060));
      assertEquals("ad9283b1d1156bfc188228548023104f7a513f1c", HexFormat.of().formatHex(elf.buildId()));
      ElfFile.Section text = elf.section(".text");
      assertNotNull(text);
      assertEquals(0x2c1, elf.data(text).size());
      assertEquals(0x1060, elf.data(text).fileOffset());
      assertNull(elf.section(".nope"));
      assertEquals(19, elf.symbols().stream().filter(s -> s.type() == ElfFile.STT_FUNC).count());
      assertTrue(elf.symbols().stream().anyMatch(s -> s.name().equals("main") && s.type() == ElfFile.STT_FUNC));
    }
  }

  @Test
  void truncatedHeader() throws Exception {
    byte[] b = java.nio.file.Files.readAllBytes(TestData.path("bin", "c-gcc-O0"));
    byte[] cut = java.util.Arrays.copyOf(b, 40);
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> ElfFile.of(cut, "cut"));
    assertTrue(e.getMessage().contains("cut"), e.getMessage());
  }

  @Test
  void badClass() throws Exception {
    byte[] b = java.nio.file.Files.readAllBytes(TestData.path("bin", "c-gcc-O0"));
    b[4] = 9;
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> ElfFile.of(b, "x"));
    assertTrue(e.getMessage().contains("bad ELF class 9"), e.getMessage());
  }
}
