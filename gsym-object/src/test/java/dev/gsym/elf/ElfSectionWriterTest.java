package dev.gsym.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ElfSectionWriter} on ELF files of both classes and byte orders (executables, PIE, non-PIE,
 * a shared library, a relocatable object): every byte a segment or another section names stays at
 * its offset, the new section holds exactly the bytes given, a second embedding replaces the
 * first without growing the file, extended section numbering is kept, and llvm-readelf-22 finds
 * nothing new to warn about.
 */
@NeedsLlvm
class ElfSectionWriterTest {
  @TempDir Path tmp;

  static Stream<Path> inputs() {
    return Stream.of(TestData.path("bin", "c-clang-O2"), TestData.path("bin", "symtab-gcc-O0-nopie"),
        TestData.path("bin", "fs-i386-O2-d5"), TestData.path("bin", "fs-ppc64-O2-d5"), TestData.path("bin", "fs-aarch64-O2-d5"),
        TestData.path("embed", "embed-mips-static"), TestData.path("embed", "embed-ppc.o"),
        TestData.path("breakpad", "elf", "libgsymtest-clang-O2.so"));
  }

  private static byte[] payload(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) b[i] = (byte) (i * 31 + seed);
    return b;
  }

  static byte[] embed(byte[] elf, byte[] payload) throws IOException {
    ElfFile in = ElfFile.of(elf, "in");
    ElfSectionWriter w = new ElfSectionWriter(in, ".gsym", payload.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    w.write(MemorySegment.ofArray(payload), Channels.newChannel(out));
    byte[] result = out.toByteArray();
    assertEquals(w.outputSize(), result.length);
    return result;
  }

  @ParameterizedTest
  @MethodSource("inputs")
  void keepsEveryByteTheLoaderUsesAndAddsTheSection(Path input) throws IOException {
    byte[] orig = Files.readAllBytes(input);
    byte[] first = payload(333, 1);
    byte[] out = embed(orig, first);
    ElfFile a = ElfFile.of(orig, "orig");
    ElfFile b = ElfFile.of(out, "out");
    assertPreserved(a, b, orig, out);
    assertEquals(a.sections().size() + 1, b.sections().size());
    ElfFile.Section g = b.section(".gsym");
    assertEquals(b.sections().size() - 1, g.index());
    assertEquals(1, g.type()); // SHT_PROGBITS
    assertEquals(0, g.flags());
    assertEquals(0, g.offset() % 8);
    assertEquals(8, align(b, g));
    assertArrayEquals(first, b.rawData(g).bytes(0, first.length));
    assertEquals(Optional.of(new EmbeddedGsym.Location(g.offset(), first.length)), EmbeddedGsym.find(b));

    // replacing: same index, one .gsym, the file does not grow by the old copy
    byte[] second = payload(1000, 2);
    byte[] again = embed(out, second);
    ElfFile c = ElfFile.of(again, "again");
    assertPreserved(a, c, orig, again);
    assertEquals(b.sections().size(), c.sections().size());
    assertEquals(1, c.sections().stream().filter(s -> s.name().equals(".gsym")).count());
    assertEquals(g.index(), c.section(".gsym").index());
    assertArrayEquals(second, c.rawData(c.section(".gsym")).bytes(0, second.length));
    assertArrayEquals(out, embed(again, first), "embedding the first payload again gives the first output");
    assertTrue(again.length < out.length + second.length, "the old section was cut from the end");
  }

  /** After embedding twice, llvm-readelf-22 warns about nothing it did not warn about before. */
  @ParameterizedTest
  @MethodSource("inputs")
  void llvmReadelfFindsNothingNewToWarnAbout(Path input) throws IOException {
    Path readelf = Tools.require(Llvm.readelf(), "llvm-readelf-22");
    byte[] again = embed(embed(Files.readAllBytes(input), payload(333, 1)), payload(1000, 2));
    Path o = Files.write(tmp.resolve("out"), again);
    String before = run(readelf.toString(), "-a", input.toString());
    String after = run(readelf.toString(), "-a", o.toString());
    assertEquals(warnings(before), warnings(after), after);
    assertTrue(after.contains(".gsym"), after);
  }

  /** Segments, the program header table and every section but the name table: same bytes, same places. */
  private static void assertPreserved(ElfFile a, ElfFile b, byte[] orig, byte[] out) {
    assertEquals(a.is64(), b.is64());
    assertEquals(a.byteOrder(), b.byteOrder());
    assertEquals(a.programHeaders(), b.programHeaders());
    int ehsize = a.is64() ? 64 : 52;
    // e_shoff, e_shnum, e_shstrndx may change (also inside the first segment); nothing else
    byte[] m1 = orig.clone();
    byte[] m2 = out.clone();
    for (int[] f : a.is64() ? new int[][] {{40, 8}, {60, 2}, {62, 2}} : new int[][] {{32, 4}, {48, 2}, {50, 2}}) {
      Arrays.fill(m1, f[0], f[0] + f[1], (byte) 0);
      Arrays.fill(m2, f[0], f[0] + f[1], (byte) 0);
    }
    assertArrayEquals(Arrays.copyOf(m1, ehsize), Arrays.copyOf(m2, ehsize));
    for (ElfFile.ProgramHeader p : a.programHeaders()) {
      assertArrayEquals(Arrays.copyOfRange(m1, (int) p.offset(), (int) (p.offset() + p.filesz())),
          Arrays.copyOfRange(m2, (int) p.offset(), (int) (p.offset() + p.filesz())));
    }
    int names = a.bytes().u16(a.is64() ? 62 : 50);
    for (ElfFile.Section s : a.sections()) {
      ElfFile.Section t = b.sections().get(s.index());
      if (s.index() == names) {
        assertEquals(s.name(), t.name());
        // the new table starts with the old one
        byte[] old = a.rawData(s).bytes(0, (int) s.size());
        assertArrayEquals(old, b.rawData(t).bytes(0, old.length));
        continue;
      }
      assertEquals(s, t);
      if (s.type() != ElfFile.SHT_NOBITS) {
        assertArrayEquals(a.rawData(s).bytes(0, (int) s.size()), b.rawData(t).bytes(0, (int) s.size()), s.name());
      }
    }
  }

  private static long align(ElfFile f, ElfFile.Section s) {
    long p = f.sectionHeaderOffset(s.index()) + (f.is64() ? 48 : 32);
    return f.is64() ? f.bytes().u64(p) : f.bytes().u32(p);
  }

  @Test
  void extendedNumberingIsKept() throws IOException {
    byte[] orig = Files.readAllBytes(TestData.path("bin", "c-clang-O2"));
    ElfFile a = ElfFile.of(orig, "orig");
    int count = a.sections().size();
    int names = a.bytes().u16(62);
    // the same file in extended form: e_shnum 0 and e_shstrndx SHN_XINDEX, the values in section 0
    ByteBuffer b = ByteBuffer.wrap(orig).order(ByteOrder.LITTLE_ENDIAN);
    long shoff = b.getLong(40);
    b.putShort(60, (short) 0).putShort(62, (short) 0xffff);
    b.putLong((int) shoff + 32, count).putInt((int) shoff + 40, names);
    byte[] out = embed(orig, payload(64, 3));
    ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    long newShoff = o.getLong(40);
    assertEquals(0, o.getShort(60));
    assertEquals((short) 0xffff, o.getShort(62));
    assertEquals(count + 1, o.getLong((int) newShoff + 32));
    assertEquals(names, o.getInt((int) newShoff + 40));
    ElfFile e = ElfFile.of(out, "out");
    assertEquals(count + 1, e.sections().size());
    assertEquals(".shstrtab", e.sections().get(names).name());
    assertArrayEquals(payload(64, 3), e.rawData(e.section(".gsym")).bytes(0, 64));
  }

  /** The 0xff00th section: e_shnum can no longer hold the count, which moves to section 0. */
  private static final int MOST_SHNUM = 0xff00 - 1; // the most e_shnum holds

  /** c-clang-O2 with {@link #MOST_SHNUM} sections (the added ones SHT_NULL). */
  private static byte[] mostSections() throws IOException {
    byte[] orig = Files.readAllBytes(TestData.path("bin", "c-clang-O2"));
    ElfFile a = ElfFile.of(orig, "orig");
    int shoff = (orig.length + 7) & ~7;
    byte[] many = Arrays.copyOf(orig, shoff + MOST_SHNUM * 64);
    System.arraycopy(orig, (int) a.sectionHeaderOffset(0), many, shoff, a.sections().size() * 64); // the rest: SHT_NULL
    ByteBuffer.wrap(many).order(ByteOrder.LITTLE_ENDIAN).putLong(40, shoff).putShort(60, (short) MOST_SHNUM);
    return many;
  }

  @Test
  void reachingShnLoreserveEntersExtendedNumbering() throws IOException {
    int count = MOST_SHNUM;
    byte[] many = mostSections();
    assertEquals(count, ElfFile.of(many, "many").sections().size());
    byte[] out = embed(many, payload(24, 6));
    ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0, o.getShort(60));
    assertEquals(0xff00, o.getLong((int) o.getLong(40) + 32));
    ElfFile e = ElfFile.of(out, "out");
    assertEquals(0xff00, e.sections().size());
    assertEquals(count, e.section(".gsym").index());
    assertArrayEquals(payload(24, 6), e.rawData(e.section(".gsym")).bytes(0, 24));
  }

  /** llvm-readelf-22 reads the count from section 0 and finds the new section, without a warning. */
  @Test
  void llvmReadelfReadsTheExtendedNumbering() throws IOException {
    Path readelf = Tools.require(Llvm.readelf(), "llvm-readelf-22");
    byte[] out = embed(mostSections(), payload(24, 6));
    String r = run(readelf.toString(), "-h", "-S", Files.write(tmp.resolve("many"), out).toString());
    assertTrue(r.contains("Number of section headers:         0 (65280)"), r);
    assertTrue(r.contains("[65279] .gsym"), r);
    assertEquals(0, warnings(r), r);
  }

  @Test
  void aFileWithoutSectionNamesGetsANameTable() throws IOException {
    byte[] orig = Files.readAllBytes(TestData.path("bin", "fs-i386-O2-d5"));
    ByteBuffer.wrap(orig).order(ByteOrder.LITTLE_ENDIAN).putShort(50, (short) 0); // e_shstrndx: none
    ElfFile a = ElfFile.of(orig, "orig");
    byte[] out = embed(orig, payload(40, 4));
    ElfFile e = ElfFile.of(out, "out");
    assertEquals(a.sections().size() + 2, e.sections().size());
    assertEquals(a.sections().size() + 1, ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).getShort(50));
    assertEquals(".gsym", e.sections().get(a.sections().size()).name());
    assertEquals(".shstrtab", e.sections().get(a.sections().size() + 1).name());
    assertArrayEquals(payload(40, 4), e.rawData(e.section(".gsym")).bytes(0, 40));
  }

  @Test
  void aFileWithoutSectionHeadersIsRefused() throws IOException {
    byte[] orig = Files.readAllBytes(TestData.path("bin", "fs-aarch64-O2-d5"));
    ByteBuffer.wrap(orig).order(ByteOrder.LITTLE_ENDIAN).putLong(40, 0).putShort(60, (short) 0);
    GsymFormatException e = assertThrows(GsymFormatException.class,
        () -> new ElfSectionWriter(ElfFile.of(orig, "nosections"), ".gsym", 10));
    assertEquals("nosections: offset 0x00000028: no section header table to add section .gsym to", e.getMessage());
  }

  @Test
  void findRefusesSectionsWithoutBytes() throws IOException {
    byte[] out = embed(Files.readAllBytes(TestData.path("bin", "c-clang-O2")), payload(16, 5));
    ElfFile e = ElfFile.of(out, "out");
    int at = (int) e.sectionHeaderOffset(e.section(".gsym").index());
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(at + 4, ElfFile.SHT_NOBITS);
    GsymFormatException nobits = assertThrows(GsymFormatException.class, () -> EmbeddedGsym.find(ElfFile.of(out, "out")));
    assertTrue(nobits.getMessage().contains("SHT_NOBITS"), nobits.getMessage());
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(at + 4, 1).putLong(at + 8, ElfFile.SHF_COMPRESSED);
    GsymFormatException compressed = assertThrows(GsymFormatException.class, () -> EmbeddedGsym.find(ElfFile.of(out, "out")));
    assertTrue(compressed.getMessage().contains("compressed"), compressed.getMessage());
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putLong(at + 8, 0).putLong(at + 32, 1L << 40);
    GsymFormatException past = assertThrows(GsymFormatException.class, () -> EmbeddedGsym.find(ElfFile.of(out, "out")));
    assertTrue(past.getMessage().contains("past end of file"), past.getMessage());
  }

  @Test
  void findIgnoresFilesThatAreNotElf() throws IOException {
    Path p = Files.write(tmp.resolve("x.gsym"), "GSYM not really".getBytes(StandardCharsets.US_ASCII));
    assertEquals(Optional.empty(), EmbeddedGsym.find(p));
    assertEquals(Optional.empty(), EmbeddedGsym.find(TestData.path("bin", "c-clang-O2")));
  }

  private static long warnings(String readelf) {
    return readelf.lines().filter(l -> l.contains("warning")).count();
  }

  private static String run(String... cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] b = p.getInputStream().readAllBytes();
    try {
      p.waitFor(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      throw new IOException(e);
    }
    return new String(b, StandardCharsets.UTF_8);
  }
}
