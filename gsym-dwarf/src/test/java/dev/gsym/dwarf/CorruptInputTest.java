package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.testing.NeedsLlvm;
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

/**
 * Damaged inputs must fail with one GsymFormatException (or convert), never with
 * IndexOutOfBounds, StackOverflow, OOM or a hang. Each unmutated input must convert, with
 * functions: a converter that refused everything would otherwise pass. Random damage to the
 * golden ELF, Mach-O, PE/COFF and DWARF package files is the fuzz targets' (DwarfConverterFuzzTest,
 * ObjectFileFuzzTest, DwpPackageFuzzTest); here are the damaged inputs they have no seeds for:
 * relocatable objects built live, and section headers of an embedded GSYM.
 */
@NeedsLlvm
class CorruptInputTest {
  static final List<String> DEBUG = List.of(".debug_info", ".debug_abbrev", ".debug_line", ".debug_str",
      ".debug_line_str", ".debug_rnglists", ".debug_addr", ".debug_str_offsets", ".debug_ranges", ".symtab", ".strtab");

  static byte[] golden(String name) throws IOException {
    return Files.readAllBytes(TestData.path("bin", name));
  }

  /** Converts an ELF file's bytes; the functions found (GsymFormatException for a damaged file). */
  static int convertElf(byte[] bytes) {
    ElfFile elf = ElfFile.of(bytes, "mutant");
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(elf, c, Diagnostics.silent(), DwarfConverter.Options.defaults());
    c.encode(s.byteOrder());
    return s.dwarfFunctions() + s.symbolFunctions();
  }

  /** Converts bytes; returns normally or throws GsymFormatException only. */
  static void convertBytes(byte[] bytes) {
    try {
      convertElf(bytes);
    } catch (GsymFormatException expected) {
      // fine
    }
  }

  /** The unmutated input {@code name} converts, to at least one function. */
  static void assertConverts(String name, java.util.function.IntSupplier conversion) {
    int functions;
    try {
      functions = conversion.getAsInt();
    } catch (GsymFormatException e) {
      throw new AssertionError(name + " (not mutated) is refused: " + e.getMessage(), e);
    }
    assertTrue(functions > 0, name + " (not mutated) converts to no function");
  }

  /** Offset of section {@code i}'s header field at {@code field} (ELF64). */
  static int shdr(byte[] b, int i, int field) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    return (int) (bb.getLong(40) + (long) i * 64 + field);
  }

  static void setSize(byte[] b, ElfFile.Section s, long size) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(shdr(b, s.index(), 32), size);
  }

  @Test
  void truncatedSections() throws IOException {
    for (String name : List.of("c-clang-O2", "c-gcc-O2", "cpp-clang-O2", "cpp-gcc-O2")) {
      byte[] orig = golden(name);
      assertConverts(name, () -> convertElf(orig));
      ElfFile elf = ElfFile.of(orig, name);
      for (String sec : DEBUG) {
        ElfFile.Section s = elf.section(sec);
        if (s == null) continue;
        for (long cut : new long[] {0, 1, 3, 11, s.size() / 2, s.size() - 1}) {
          if (cut < 0 || cut >= s.size()) continue;
          byte[] b = orig.clone();
          setSize(b, s, cut);
          check(b, name + " " + sec + " cut to " + cut);
        }
      }
    }
  }

  @Test
  void sectionPastEndOfFile() throws IOException {
    byte[] b = golden("c-gcc-O0");
    ElfFile elf = ElfFile.of(b, "x");
    setSize(b, elf.section(".debug_info"), 1L << 40);
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> DwarfConverter.convert(ElfFile.of(b, "x"), new GsymCreator(), Diagnostics.silent(), DwarfConverter.Options.defaults()));
    assertTrue(e.getMessage().contains("past end of file"), e.getMessage());
  }

  @Test
  void badAbbreviationCode() throws IOException {
    byte[] b = golden("c-gcc-O0");
    ElfFile elf = ElfFile.of(b, "x");
    ElfFile.Section info = elf.section(".debug_info");
    // The first DIE's abbreviation code follows the 12-byte DWARF 5 unit header.
    b[(int) info.offset() + 12] = 0x7f;
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> DwarfConverter.convert(ElfFile.of(b, "x"), new GsymCreator(), Diagnostics.silent(), DwarfConverter.Options.defaults()));
    assertTrue(e.getMessage().contains(".debug_info") && e.getMessage().contains("invalid abbreviation code 127"), e.getMessage());
  }

  @Test
  void lineTableOffsetPastSection() throws IOException {
    byte[] b = golden("c-gcc-O0");
    ElfFile elf = ElfFile.of(b, "x");
    setSize(b, elf.section(".debug_line"), 4);
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> DwarfConverter.convert(ElfFile.of(b, "x"), new GsymCreator(), Diagnostics.silent(), DwarfConverter.Options.defaults()));
    assertTrue(e.getMessage().contains(".debug_line"), e.getMessage());
  }

  @Test
  void notElf() {
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> ElfFile.of(new byte[] {1, 2, 3}, "junk"));
    assertTrue(e.getMessage().contains("The file was not recognized as a valid object file"), e.getMessage());
  }

  /**
   * A copy of {@code orig} with 1 to {@code maxChanges} bytes in {@code [start, start + length)}
   * set to a random value, 0xff or 0x80; each change is appended to {@code what}.
   */
  static byte[] mutate(byte[] orig, long start, long length, int maxChanges, Random rnd, StringBuilder what) {
    byte[] b = orig.clone();
    for (int j = 1 + rnd.nextInt(maxChanges); j > 0; j--) {
      int at = (int) (start + rnd.nextLong(length));
      byte v = (byte) (rnd.nextBoolean() ? rnd.nextInt(256) : (rnd.nextBoolean() ? 0xff : 0x80));
      b[at] = v;
      what.append(" @0x").append(Integer.toHexString(at)).append('=').append(v & 0xff);
    }
    return b;
  }

  /** Mutates bytes inside the named sections of {@code orig} ({@code iterations} mutants). */
  static void mutateSections(byte[] orig, String name, List<String> sections, int iterations, Random rnd) {
    ElfFile elf = ElfFile.of(orig, name);
    List<ElfFile.Section> present = new java.util.ArrayList<>();
    for (ElfFile.Section s : elf.sections()) {
      if (sections.contains(s.name()) && s.size() > 0 && s.type() != ElfFile.SHT_NOBITS) present.add(s);
    }
    assertTrue(!present.isEmpty(), name + " has none of " + sections);
    if (name.endsWith(".dwo")) {
      // a .dwo alone has no skeleton units to name its functions: read through, nothing to encode (as llvm)
      GsymFormatException e = assertThrows(GsymFormatException.class, () -> convertElf(orig), name);
      assertTrue(e.getMessage().endsWith("no functions to encode"), name + ": " + e.getMessage());
    } else {
      assertConverts(name, () -> convertElf(orig));
    }
    for (int i = 0; i < iterations; i++) {
      ElfFile.Section s = present.get(rnd.nextInt(present.size()));
      StringBuilder what = new StringBuilder(name + " " + s.name());
      byte[] b = mutate(orig, s.offset(), s.size(), 8, rnd, what);
      check(b, what.toString());
    }
  }

  /** Relocatable objects: damaged relocation entries and DWARF (built live by clang-22 and clang++-22). */
  @Test
  void mutatedRelocatableObjects(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    Random rnd = new Random(5);
    for (String f : List.of("c_util.c", "c_util.h", "cpp_shapes.cpp", "cpp_shapes.h")) {
      if (Files.exists(TestData.path("src", f))) Files.copy(TestData.path("src", f), tmp.resolve(f));
    }
    String clang = Tools.require("clang-22").toString();
    String clangxx = Tools.require("clang++-22").toString();
    for (List<String> cmd : List.of(List.of(clang, "-g", "-O2", "-c", "c_util.c", "-o", "a.o"),
        List.of(clangxx, "-g", "-gdwarf-4", "-O2", "-c", "cpp_shapes.cpp", "-o", "b.o"),
        List.of(clang, "--target=i386-linux-gnu", "-g", "-O2", "-c", "c_util.c", "-o", "c.o"))) {
      assertTrue(LlvmConvertDifferentialTest.run(tmp, cmd), String.join(" ", cmd));
      String out = cmd.get(cmd.size() - 1);
      List<String> sections = new java.util.ArrayList<>(DEBUG);
      for (String d : DEBUG) {
        sections.add(".rela" + d);
        sections.add(".rel" + d);
      }
      mutateSections(Files.readAllBytes(tmp.resolve(out)), out, sections, 400, rnd);
    }
  }

  /**
   * Binaries carrying a damaged GSYM: random bytes and interesting values in the {@code .gsym}
   * section and in its section header (offset, size, type, flags). Finding and opening the section
   * and looking every function up may only fail with GsymFormatException (errors from the GSYM
   * naming the file and section, at an offset inside the file) or LookupException.
   */
  @Test
  void mutatedEmbeddedGsymSections(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    byte[] gsym = Files.readAllBytes(TestData.path("gsym", "c-clang-O2.gsym"));
    ElfFile in = ElfFile.of(golden("c-clang-O2"), "c-clang-O2");
    dev.gsym.elf.ElfSectionWriter w = new dev.gsym.elf.ElfSectionWriter(in, ".gsym", gsym.length);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    w.write(java.lang.foreign.MemorySegment.ofArray(gsym), java.nio.channels.Channels.newChannel(bytes));
    byte[] orig = bytes.toByteArray();
    int section = (int) w.dataOffset();
    int header = shdr(orig, w.sectionIndex(), 0);
    long[] addrs;
    try (dev.gsym.read.GsymReader r = dev.gsym.read.GsymReader.of(gsym, "g")) {
      addrs = java.util.stream.IntStream.range(0, r.numFunctions()).mapToLong(r::functionAddress).toArray();
    }
    long[] interesting = {0, 1, 7, 8, 48, 0x7fffffffL, 0xffffffffL, -1L, orig.length, orig.length - 1, section, section + 4};
    Random rnd = new Random(21);
    java.nio.file.Path file = tmp.resolve("embedded");
    Files.write(file, orig);
    assertTrue(openAndLookUp(file, addrs, section), "the GSYM embedded in c-clang-O2 (not mutated) opens");
    int opened = 0;
    for (int i = 0; i < 1500; i++) {
      byte[] b = orig.clone();
      String what;
      ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
      switch (i % 4) {
        case 0, 1 -> {
          int n = 1 + rnd.nextInt(4);
          StringBuilder sb = new StringBuilder("section bytes");
          for (int k = 0; k < n; k++) {
            int at = section + rnd.nextInt(gsym.length);
            b[at] = (byte) rnd.nextInt(256);
            sb.append(" @0x").append(Integer.toHexString(at));
          }
          what = sb.toString();
        }
        case 2 -> {
          int field = new int[] {24, 32}[rnd.nextInt(2)]; // sh_offset, sh_size
          long v = interesting[rnd.nextInt(interesting.length)] + (rnd.nextBoolean() ? 0 : rnd.nextInt(16) - 8);
          bb.putLong(header + field, v);
          what = "sh_" + (field == 24 ? "offset" : "size") + "=" + v;
        }
        default -> {
          int at = header + rnd.nextInt(64);
          b[at] = (byte) rnd.nextInt(256);
          what = "section header @" + (at - header);
        }
      }
      Files.write(file, b);
      try {
        if (openAndLookUp(file, addrs, section)) opened++;
      } catch (StackOverflowError | OutOfMemoryError | RuntimeException e) {
        fail(what + ": " + e, e);
      }
    }
    assertTrue(opened > 300, "only " + opened + " mutants opened");
  }

  private static boolean openAndLookUp(java.nio.file.Path file, long[] addrs, long section) throws IOException {
    java.util.Optional<dev.gsym.elf.EmbeddedGsym.Location> at;
    try {
      at = dev.gsym.elf.EmbeddedGsym.find(file);
    } catch (GsymFormatException expected) {
      return false;
    }
    if (at.isEmpty()) return false;
    String source = at.get().source(file.toString());
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file);
        dev.gsym.read.GsymReader r = dev.gsym.read.GsymReader.open(ch, at.get().offset(), at.get().size(), source)) {
      for (long a : addrs) {
        try {
          r.lookup(a).toString();
        } catch (dev.gsym.read.LookupException | GsymFormatException expected) {
          // fine
        }
      }
      r.dump(new StringBuilder());
      return true;
    } catch (GsymFormatException e) {
      if (!e.source().equals(source) || e.offset() < at.get().offset() && e.offset() != -1) {
        fail("error does not name the section and an offset in it: " + e.getMessage() + " (section at " + at.get() + ")");
      }
      return false;
    }
  }

  /** A named Mach-O problem: llvm's description, the file and the offset. */
  @Test
  void machOErrorsNameFileOffsetAndProblem() throws IOException {
    byte[] orig = Files.readAllBytes(TestData.path("macho", "bin", "c-x86_64-O2"));
    byte[] b = orig.clone();
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 100000); // ncmds
    GsymFormatException e = assertThrows(GsymFormatException.class, () -> convertMachOStrict(b));
    assertTrue(e.getMessage().startsWith("x: offset 0x"), e.getMessage());
    assertTrue(e.detail().matches("truncated or malformed object \\(load command \\d+ extends past the end all load commands in the file\\)"
        + " at offset 0x[0-9a-f]+"), e.detail());
    byte[] fat = Files.readAllBytes(TestData.path("macho", "bin", "fat64-objects.o"));
    ByteBuffer.wrap(fat).order(ByteOrder.BIG_ENDIAN).putInt(4, 0);
    GsymFormatException z = assertThrows(GsymFormatException.class, () -> dev.gsym.macho.MachOUniversal.of(fat, "f"));
    assertTrue(z.getMessage().equals("f: offset 0x00000004: truncated or malformed fat file (contains zero architecture types) at offset 0x4"),
        z.getMessage());
  }

  private static void convertMachOStrict(byte[] b) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.convert(dev.gsym.macho.MachOFile.of(b, "x"), c, Diagnostics.silent(), DwarfConverter.Options.defaults());
  }

  static void check(byte[] b, String what) {
    try {
      convertBytes(b);
    } catch (StackOverflowError | OutOfMemoryError | RuntimeException e) {
      fail(what + ": " + e, e);
    }
  }
}
