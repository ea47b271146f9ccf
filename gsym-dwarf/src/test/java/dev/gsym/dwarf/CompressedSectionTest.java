package dev.gsym.dwarf;

import dev.gsym.elf.ElfFile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.io.ByteView;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SHF_COMPRESSED (zlib, zstd) and .zdebug sections; corrupt compressed data. */
@StartsProcesses
class CompressedSectionTest {
  static final List<String> READ = List.of(".debug_info", ".debug_abbrev", ".debug_line", ".debug_str");

  static byte[] golden(String name) throws IOException {
    return Files.readAllBytes(TestData.path("bin", name));
  }

  static byte[] toBytes(ByteView v) {
    return v.bytes(0, (int) v.size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"c-clang-O2-gz-zlib", "c-clang-O2-gz-zstd", "c-gcc-O2-gz-zstd"})
  void inflatesToDeclaredSize(String name) throws IOException {
    byte[] b = golden(name);
    ElfFile elf = ElfFile.of(b, name);
    int n = 0;
    for (ElfFile.Section s : elf.sections()) {
      if ((s.flags() & ElfFile.SHF_COMPRESSED) == 0) continue;
      ByteView raw = elf.rawData(s);
      assertEquals(raw.u64(8), elf.data(s).size(), s.name());
      n++;
    }
    assertTrue(n >= 4, name + ": compressed sections " + n);
    // DWARF 5 unit header: the version is readable from the inflated bytes.
    assertEquals(5, elf.data(".debug_info").u16(4));
  }

  @Test
  void zdebugInflatesToTheUncompressedSection() throws IOException {
    ElfFile plain = ElfFile.of(golden("c-gcc-O2"), "plain");
    ElfFile z = ElfFile.of(golden("c-gcc-O2-zdebug"), "zdebug");
    for (String sec : READ) {
      ElfFile.Section zs = z.section(".z" + sec.substring(1));
      assertTrue(zs != null, ".z" + sec.substring(1) + " in c-gcc-O2-zdebug");
      assertArrayEquals(toBytes(plain.data(sec)), toBytes(z.data(zs)), sec);
    }
  }

  static void assertOneClearError(byte[] bytes, String section) {
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> {
      ElfFile elf = ElfFile.of(bytes, "mutant");
      GsymCreator c = new GsymCreator();
      DwarfConverter.Summary s = DwarfConverter.convert(elf, c, Diagnostics.silent(), DwarfConverter.Options.defaults());
      c.encode(s.byteOrder());
    });
    assertTrue(e.getMessage().contains(section), e.getMessage());
  }

  static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Offset of section {@code i}'s header field (ELF64). */
  static int shdr(byte[] b, int i, int field) {
    return (int) (le(b).getLong(40) + (long) i * 64 + field);
  }

  @ParameterizedTest
  @ValueSource(strings = {"c-clang-O2-gz-zlib", "c-clang-O2-gz-zstd", "c-gcc-O2-gz-zstd"})
  void corruptCompressedData(String name) throws IOException {
    byte[] orig = golden(name);
    ElfFile elf = ElfFile.of(orig, name);
    Random rnd = new Random(42);
    for (String sec : READ) {
      ElfFile.Section s = elf.section(sec);
      assertTrue((s.flags() & ElfFile.SHF_COMPRESSED) != 0, sec);
      int off = (int) s.offset();
      long declared = le(orig).getLong(off + 8);
      // Truncated compressed stream (section size cut).
      byte[] b = orig.clone();
      le(b).putLong(shdr(b, s.index(), 32), 24 + (s.size() - 24) / 2);
      assertOneClearError(b, sec);
      // Too small for the header.
      b = orig.clone();
      le(b).putLong(shdr(b, s.index(), 32), 10);
      assertOneClearError(b, sec);
      // Wrong declared sizes, including hostile huge ones.
      for (long d : new long[] {declared - 1, declared + 1, 0, 1L << 40, 1L << 62, -1}) {
        b = orig.clone();
        le(b).putLong(off + 8, d);
        assertOneClearError(b, sec);
      }
      // Unknown compression type.
      b = orig.clone();
      le(b).putInt(off, 7);
      assertOneClearError(b, sec);
      // Garbage payload.
      b = orig.clone();
      for (int i = off + 24; i < off + s.size(); i++) b[i] = (byte) rnd.nextInt();
      assertOneClearError(b, sec);
      // Garbage in the middle only.
      b = orig.clone();
      for (int i = off + 24 + (int) (s.size() - 24) / 3; i < off + s.size() - 4; i++) b[i] = (byte) rnd.nextInt();
      assertOneClearError(b, sec);
    }
  }

  @Test
  void corruptZdebugIsIgnoredLikeLlvm() throws IOException {
    // llvm 22 does not read .zdebug_* as DWARF; a corrupt one must not matter either.
    byte[] b = golden("c-gcc-O2-zdebug");
    ElfFile elf = ElfFile.of(b, "zdebug");
    ElfFile.Section s = elf.section(".zdebug_info");
    for (int i = (int) s.offset() + 12; i < s.offset() + s.size(); i++) b[i] = 0x55;
    GsymCreator c = new GsymCreator();
    DwarfConverter.convert(ElfFile.of(b, "zdebug"), c, Diagnostics.silent(), DwarfConverter.Options.defaults());
    // But inflating it explicitly is a clear error.
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> ElfFile.of(b, "zdebug").data(s));
    assertTrue(e.getMessage().contains(".zdebug_info"), e.getMessage());
  }

  /** Runs a command in {@code dir}; false if it is missing or fails. */
  static boolean run(java.nio.file.Path dir, String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /**
   * Fedora-style MiniDebugInfo: a stripped binary plus an xz-compressed ELF with the function
   * symbols in .gnu_debugdata. llvm main reads its symbols, and so do we by default;
   * llvm-gsymutil-22 ignores the section (0 functions from DWARF and from the symbol table, like the
   * stripped binary), and so do we with miniDebugInfo(false). ElfFile.miniDebugInfo reads it.
   */
  @Test
  void gnuDebugdata(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
    Files.copy(TestData.path("bin", "c-gcc-O2"), dir.resolve("full"));
    Files.writeString(dir.resolve("keep"), "main\n");
    String objcopy = Tools.require("objcopy").toString();
    String xz = Tools.require("xz").toString();
    String strip = Tools.require("strip").toString();
    assertTrue(run(dir, objcopy, "--only-keep-debug", "full", "dbg")
        && run(dir, objcopy, "-S", "--remove-section", ".comment", "--keep-symbols=keep", "dbg", "mini")
        && run(dir, xz, "-f", "mini")
        && run(dir, strip, "--strip-all", "-o", "stripped", "full")
        && run(dir, objcopy, "--add-section", ".gnu_debugdata=mini.xz", "stripped", "mdi"), "objcopy, xz and strip make mdi");
    try (ElfFile elf = ElfFile.open(dir.resolve("mdi"))) {
      assertTrue(elf.symbols().isEmpty());
      ElfFile mini = elf.miniDebugInfo();
      assertTrue(mini.symbols().stream().anyMatch(sym -> sym.name().equals("main") && sym.type() == ElfFile.STT_FUNC));
      // llvm main (the default) reads the section's symbols: main
      GsymCreator c = new GsymCreator();
      DwarfConverter.Summary s = DwarfConverter.convert(elf, c, Diagnostics.silent(), DwarfConverter.Options.defaults());
      assertEquals(0, s.dwarfFunctions());
      assertEquals(1, s.symbolFunctions());
      // llvm-gsymutil-22 ignores it: "no functions to encode"
      GsymCreator c22 = new GsymCreator();
      DwarfConverter.Summary s22 = DwarfConverter.convert(elf, c22, Diagnostics.silent(),
          DwarfConverter.Options.builder().miniDebugInfo(false).build());
      assertEquals(0, s22.symbolFunctions());
      assertThrows(GsymFormatException.class, c22::encode);
    }
    // Corrupt xz: one clear error.
    byte[] b = Files.readAllBytes(dir.resolve("mdi"));
    ElfFile.Section s = ElfFile.of(b, "mdi").section(".gnu_debugdata");
    for (int i = (int) s.offset() + 12; i < s.offset() + s.size(); i++) b[i] ^= 0x5a;
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> ElfFile.of(b, "mdi").miniDebugInfo());
    assertTrue(e.getMessage().contains(".gnu_debugdata"), e.getMessage());
  }
}
