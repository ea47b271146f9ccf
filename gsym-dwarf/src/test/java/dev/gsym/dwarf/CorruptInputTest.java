package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.GsymFormatException;
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
 * functions: a converter that refused everything would otherwise pass.
 */
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

  @Test
  void mutatedDebugSections() throws IOException {
    Random rnd = new Random(20261122);
    for (String name : List.of("c-clang-O2", "c-gcc-O2", "cpp-clang-O2", "cpp-gcc-O2", "icf-clang-O2-gold")) {
      mutateSections(golden(name), name, DEBUG, Integer.getInteger("gsym.fuzz.iterations", 1000), rnd);
    }
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

  /**
   * The later goldens: ELF32 and big-endian cross targets, Rust, line-tables-only, gc-sections,
   * compressed sections (zlib and zstd streams damaged), a skeleton binary and a .dwo on its own.
   */
  @Test
  void mutatedCrossTargetCompressedAndSplitGoldens() throws IOException {
    Random rnd = new Random(20261123);
    List<String> sections = new java.util.ArrayList<>(DEBUG);
    for (String d : List.of(".debug_info", ".debug_abbrev", ".debug_str", ".debug_str_offsets", ".debug_line", ".debug_rnglists")) {
      sections.add(d + ".dwo");
    }
    for (String name : List.of("fs-ppc64-O2-d5", "fs-i386-O2-d5", "fs-aarch64-O2-d5", "rust-O2", "c-clang-O2-gline-tables-only",
        "gc-clang-O2-lld", "c-clang-O2-gz-zlib", "c-gcc-O2-gz-zstd", "split-clang-O2", "split-gcc-O2-c_main.dwo")) {
      mutateSections(golden(name), name, sections, Integer.getInteger("gsym.fuzz.iterations", 1000) / 3, rnd);
    }
  }

  /**
   * DWARF packages: damaged unit indexes (GNU version 2 and DWARF 5, CU and TU) and package
   * sections, converted through the binary beside its damaged .dwp.
   */
  @Test
  void mutatedPackages(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws IOException {
    Random rnd = new Random(12);
    List<String> sections = List.of(".debug_cu_index", ".debug_tu_index", ".debug_info.dwo", ".debug_abbrev.dwo",
        ".debug_str_offsets.dwo", ".debug_str.dwo", ".debug_rnglists.dwo");
    for (String name : List.of("dwp-gcc-O2-d4", "dwp-clang-O2-d5", "dwp-gxx-O2-d4-types", "dwp-clangxx-O2-d5-types")) {
      java.nio.file.Path bin = Files.copy(TestData.path("bin", name), tmp.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      java.nio.file.Path dwp = tmp.resolve(name + ".dwp");
      byte[] orig = golden(name + ".dwp");
      Files.write(dwp, orig);
      assertConverts(name + " beside " + name + ".dwp", () -> convertPath(bin));
      ElfFile elf = ElfFile.of(orig, name);
      List<ElfFile.Section> present = new java.util.ArrayList<>();
      for (ElfFile.Section s : elf.sections()) if (sections.contains(s.name()) && s.size() > 0) present.add(s);
      for (int i = 0; i < Integer.getInteger("gsym.fuzz.iterations", 1000) / 4; i++) {
        ElfFile.Section s = present.get(rnd.nextInt(present.size()));
        StringBuilder what = new StringBuilder(name + ".dwp " + s.name());
        byte[] b = mutate(orig, s.offset(), s.size(), 4, rnd, what);
        Files.write(dwp, b);
        try {
          GsymCreator c = new GsymCreator();
          DwarfConverter.Summary sum = DwarfConverter.convert(bin, c, Diagnostics.silent(), DwarfConverter.Options.defaults());
          c.encode(sum.byteOrder());
        } catch (GsymFormatException expected) {
          // fine
        } catch (StackOverflowError | OutOfMemoryError | RuntimeException e) {
          fail(what + ": " + e, e);
        }
      }
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

  @Test
  void mutatedElfHeadersAndSymbols() throws IOException {
    Random rnd = new Random(7);
    for (String name : List.of("c-gcc-O2", "cpp-clang-O0")) {
      byte[] orig = golden(name);
      assertConverts(name, () -> convertElf(orig));
      ElfFile elf = ElfFile.of(orig, name);
      ElfFile.Section symtab = elf.section(".symtab");
      ElfFile.Section note = elf.section(".note.gnu.build-id");
      int shoff = shdr(orig, 0, 0);
      int shEnd = shdr(orig, elf.sections().size(), 0);
      for (int i = 0; i < 600; i++) {
        byte[] b = orig.clone();
        int at = switch (i % 4) {
          case 0 -> rnd.nextInt(64 + 56 * 4);
          case 1 -> shoff + rnd.nextInt(shEnd - shoff);
          case 2 -> (int) (symtab.offset() + rnd.nextLong(symtab.size()));
          default -> (int) (note.offset() + rnd.nextLong(note.size()));
        };
        b[at] = (byte) rnd.nextInt(256);
        check(b, name + " @0x" + Integer.toHexString(at) + "=" + (b[at] & 0xff));
      }
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

  /** Converts the file at {@code bin} (beside its package, if any); the functions found. */
  static int convertPath(java.nio.file.Path bin) {
    try {
      GsymCreator c = new GsymCreator();
      DwarfConverter.Summary s = DwarfConverter.convert(bin, c, Diagnostics.silent(), DwarfConverter.Options.defaults());
      c.encode(s.byteOrder());
      return s.dwarfFunctions() + s.symbolFunctions();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Converts a Mach-O or universal file's bytes as the CLI does (every slice); the functions found,
   * summed over the slices (GsymFormatException for a damaged file).
   */
  static int convertMachOSlices(byte[] bytes) {
    int functions = 0;
    if (dev.gsym.object.FileKind.sniff(bytes) == dev.gsym.object.FileKind.MACH_O_UNIVERSAL) {
      try (dev.gsym.macho.MachOUniversal fat = dev.gsym.macho.MachOUniversal.of(bytes, "mutant")) {
        for (dev.gsym.macho.FatArch a : fat.archs()) {
          try (dev.gsym.macho.MachOFile m = fat.slice(a)) {
            GsymCreator c = new GsymCreator();
            DwarfConverter.Summary s = DwarfConverter.convert(m, c, Diagnostics.silent(), DwarfConverter.Options.defaults());
            c.encode(s.byteOrder());
            functions += s.dwarfFunctions() + s.symbolFunctions();
          }
        }
      }
      return functions;
    }
    dev.gsym.macho.MachOFile m = dev.gsym.macho.MachOFile.of(bytes, "mutant");
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(m, c, Diagnostics.silent(), DwarfConverter.Options.defaults());
    c.encode(s.byteOrder());
    return s.dwarfFunctions() + s.symbolFunctions();
  }

  /** As {@link #convertMachOSlices}; returns or throws GsymFormatException only. */
  static void convertMachO(byte[] bytes) {
    try {
      convertMachOSlices(bytes);
    } catch (GsymFormatException expected) {
      // fine
    }
  }

  static void checkMachO(byte[] b, String what) {
    try {
      convertMachO(b);
    } catch (StackOverflowError | OutOfMemoryError | RuntimeException e) {
      fail(what + ": " + e, e);
    }
  }

  /**
   * Mach-O (src-test-data/macho): damaged headers and load commands (segments, sections, LC_SYMTAB,
   * LC_UUID), symbol and string tables and DWARF sections of objects, dSYM companions and
   * executables, 32- and 64-bit; and damaged universal headers (nfat_arch, offsets, sizes,
   * alignments) of fat and fat64 files. Every mutant converts or fails with one GsymFormatException.
   */
  @Test
  void mutatedMachO() throws IOException {
    Random rnd = new Random(16);
    int iterations = Integer.getInteger("gsym.fuzz.iterations", 1000);
    for (String name : List.of("c-arm64-O2.o", "cpp-x86_64-O0-d4.o", "c-i386-O2.o", "c-armv7-O2.o", "c-x86_64-O2",
        "cpp-arm64-O2-d5.dSYM/Contents/Resources/DWARF/cpp-arm64-O2-d5", "c-arm64_32-O2.dSYM/Contents/Resources/DWARF/c-arm64_32-O2")) {
      byte[] orig = Files.readAllBytes(TestData.path("macho", "bin", name));
      assertConverts(name, () -> convertMachOSlices(orig));
      dev.gsym.macho.MachOFile m = dev.gsym.macho.MachOFile.of(orig, name);
      long headers = m.header().size() + m.header().sizeofcmds();
      List<long[]> regions = new java.util.ArrayList<>();
      regions.add(new long[] {0, headers});
      for (dev.gsym.macho.MachSection s : m.sections()) {
        if (s.name().startsWith("__debug") && s.offset() != 0 && s.size() > 0) regions.add(new long[] {s.offset(), s.size()});
      }
      regions.add(new long[] {0, orig.length});
      for (int i = 0; i < iterations / 2; i++) {
        long[] r = regions.get(i % 3 == 0 ? 0 : rnd.nextInt(regions.size()));
        StringBuilder what = new StringBuilder(name);
        byte[] b = mutate(orig, r[0], r[1], 6, rnd, what);
        checkMachO(b, what.toString());
      }
      for (int cut : new int[] {0, 3, 4, 27, 31, (int) headers - 1, (int) headers, orig.length / 2, orig.length - 1}) {
        checkMachO(java.util.Arrays.copyOf(orig, Math.max(0, Math.min(cut, orig.length))), name + " cut to " + cut);
      }
    }
    for (String name : List.of("fat-c-O2", "fat64-objects.o")) {
      byte[] orig = Files.readAllBytes(TestData.path("macho", "bin", name));
      assertConverts(name, () -> convertMachOSlices(orig));
      for (int i = 0; i < iterations / 4; i++) {
        StringBuilder what = new StringBuilder(name);
        byte[] b = mutate(orig, 4, 8 + 5 * 32 - 4, 3, rnd, what);
        checkMachO(b, what.toString());
      }
    }
  }

  /**
   * PE/COFF (src-test-data/pecoff): damaged DOS/PE/COFF headers, section tables, symbol and string
   * tables, relocation entries and DWARF of images and objects convert or fail with one
   * GsymFormatException.
   */
  @Test
  void mutatedPeCoff() throws IOException {
    Random rnd = new Random(17);
    int iterations = Integer.getInteger("gsym.fuzz.iterations", 1000);
    for (String name : List.of("c-x86_64-O2.o", "util-i686-O2-fs.o", "cpp-aarch64-O0-d4.o", "c-x86_64-O2.exe", "cpp-i686-O0-d4.exe")) {
      byte[] orig = Files.readAllBytes(TestData.path("pecoff", "bin", name));
      assertConverts(name, () -> convertCoff(orig));
      dev.gsym.coff.CoffFile f = dev.gsym.coff.CoffFile.of(orig, name);
      List<long[]> regions = new java.util.ArrayList<>();
      regions.add(new long[] {0, f.header().sectionTable() + (long) f.header().numberOfSections() * 40});
      long symtab = f.header().pointerToSymbolTable();
      if (symtab != 0) regions.add(new long[] {symtab, Math.min(orig.length - symtab, f.header().numberOfSymbols() * 18 + 64)});
      for (dev.gsym.coff.CoffSection s : f.sections()) {
        if (s.name().startsWith(".debug") && s.sizeOfRawData() > 0) regions.add(new long[] {s.pointerToRawData(), s.size(f.header().isImage())});
        if (s.numberOfRelocations() > 0) regions.add(new long[] {s.pointerToRelocations(), s.numberOfRelocations() * 10L});
      }
      for (int i = 0; i < iterations / 3; i++) {
        long[] r = regions.get(i % 3 == 0 ? 0 : rnd.nextInt(regions.size()));
        StringBuilder what = new StringBuilder(name);
        byte[] b = mutate(orig, r[0], r[1], 6, rnd, what);
        checkCoff(b, what.toString());
      }
      for (int cut : new int[] {0, 1, 2, 19, 63, 64, orig.length / 2, orig.length - 1}) {
        checkCoff(java.util.Arrays.copyOf(orig, Math.min(cut, orig.length)), name + " cut to " + cut);
      }
    }
  }

  /** Converts a PE/COFF file's bytes; the functions found (GsymFormatException for a damaged file). */
  static int convertCoff(byte[] b) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(dev.gsym.coff.CoffFile.of(b, "mutant"), c, Diagnostics.silent(),
        DwarfConverter.Options.defaults());
    c.encode(s.byteOrder());
    return s.dwarfFunctions() + s.symbolFunctions();
  }

  static void checkCoff(byte[] b, String what) {
    try {
      convertCoff(b);
    } catch (GsymFormatException expected) {
      // fine
    } catch (StackOverflowError | OutOfMemoryError | RuntimeException e) {
      fail(what + ": " + e, e);
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
