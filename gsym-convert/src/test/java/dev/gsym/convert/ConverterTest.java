package dev.gsym.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.ElfSectionWriter;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.io.AtomicFile;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The front door itself: each {@link Input} kind converts, the options reach the conversion, and
 * a bad input is one error naming the file. The goldens are llvm-gsymutil-22's outputs in
 * src-test-data (regenerate.sh, regenerate-macho.sh).
 */
class ConverterTest {
  private static final Path ELF = TestData.path("bin", "c-clang-O2");
  private static final Path ELF_GSYM = TestData.path("gsym", "c-clang-O2.gsym");
  private static final Path MACHO = TestData.path("macho", "bin");
  private static final Path MACHO_GSYM = TestData.path("macho", "gsym");

  @TempDir Path tmp;

  /** Every GSYM a conversion yields, saved to bytes, by "arch" (or the file name without one). */
  private static Map<String, byte[]> convert(Input input, ConvertOptions options) throws IOException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    Converter.convert(input, options, Diagnostics.silent(), gsym -> {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      gsym.creator().save(bytes, gsym.byteOrder());
      String key = gsym.unit().arch() != null ? gsym.unit().arch() : gsym.unit().source().getFileName().toString();
      out.put(out.containsKey(key) ? key + "#2" : key, bytes.toByteArray());
    });
    return out;
  }

  @Test
  void anElfFileConvertsToLlvmGsymutilsBytes() throws IOException {
    Map<String, byte[]> out = convert(new Input.ObjectFile(ELF), ConvertOptions.builder().threads(1).build());
    assertThat(out).hasSize(1);
    assertThat(out.values().iterator().next()).isEqualTo(Files.readAllBytes(ELF_GSYM));
  }

  /** An object already open (as a core's vDSO is, from memory) converts as the file itself does. */
  @Test
  void anOpenObjectFromMemoryConvertsAsItsFile() throws IOException {
    try (ElfFile elf = ElfFile.of(Files.readAllBytes(ELF), "image of c-clang-O2")) {
      Map<String, byte[]> out = convert(new Input.OpenObject(elf, "image of c-clang-O2"),
          ConvertOptions.builder().threads(1).build());
      assertThat(out).hasSize(1);
      assertThat(out.values().iterator().next()).isEqualTo(Files.readAllBytes(ELF_GSYM));
    }
    // and a store writes it
    try (ElfFile elf = ElfFile.of(Files.readAllBytes(ELF), "image of c-clang-O2");
        FileChannel ch = FileChannel.open(tmp.resolve("x.gsym"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      Converter.write(new Input.OpenObject(elf, "image of c-clang-O2"), ConvertOptions.builder().threads(1).build(),
          Diagnostics.silent(), ch);
      assertThat(ch.size()).isEqualTo(Files.size(ELF_GSYM));
    }
  }

  @Test
  void aUniversalFileConvertsEverySliceOrTheChosenOnes() throws IOException {
    Path fat = MACHO.resolve("fat-c-O2");
    List<Converter.Unit> units = new ArrayList<>();
    ConvertOptions options = ConvertOptions.builder().listener(new Converter.Listener() {
      @Override
      public void objectStarted(Converter.Unit unit) {
        units.add(unit);
      }
    }).build();
    Map<String, byte[]> all = convert(new Input.ObjectFile(fat), options);
    assertThat(all.keySet()).containsExactly("x86_64", "arm64");
    assertThat(units).allMatch(Converter.Unit::oneOfSeveral);
    assertThat(all.get("arm64")).isEqualTo(Files.readAllBytes(MACHO_GSYM.resolve("fat-c-O2.gsym.arm64")));
    assertThat(all.get("x86_64")).isEqualTo(Files.readAllBytes(MACHO_GSYM.resolve("fat-c-O2.gsym.x86_64")));

    units.clear();
    Map<String, byte[]> one = convert(new Input.ObjectFile(fat, List.of("arm64")), options);
    assertThat(one.keySet()).containsExactly("arm64");
    assertThat(units).singleElement().matches(u -> !u.oneOfSeveral());
    assertThat(one.get("arm64")).isEqualTo(Files.readAllBytes(MACHO_GSYM.resolve("fat-c-O2.arch-arm64.gsym")));
    // by CPU type number, as llvm's --arch reads one: CPU_TYPE_X86_64 = 0x01000007
    assertThat(convert(new Input.ObjectFile(fat, List.of("0x1000007")), options).keySet()).containsExactly("x86_64");
    assertThat(convert(new Input.ObjectFile(fat, List.of("16777223")), options).keySet()).containsExactly("x86_64");

    assertThatThrownBy(() -> convert(new Input.ObjectFile(fat, List.of("armv7")), options))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining(fat.toString())
        .hasMessageContaining("no matching architectures found");
  }

  @Test
  void aDsymBundleConvertsEachDwarfFile() throws IOException {
    Path bundle = MACHO.resolve("fat-c-O2.dSYM");
    Input input = Input.detect(bundle);
    assertThat(input).isEqualTo(new Input.DsymBundle(bundle, List.of()));
    Map<String, byte[]> out = convert(input, ConvertOptions.defaults());
    assertThat(out.get("arm64")).isEqualTo(Files.readAllBytes(MACHO_GSYM.resolve("fat-c-O2.dSYM.gsym.arm64")));
    assertThat(out.get("x86_64")).isEqualTo(Files.readAllBytes(MACHO_GSYM.resolve("fat-c-O2.dSYM.gsym.x86_64")));
  }

  @Test
  void aThinMachOFileIsNamedAsTheChosenLlvmReleaseNamesIt() throws IOException {
    Path thin = MACHO.resolve("c-arm64-O2");
    assertThat(convert(new Input.ObjectFile(thin), ConvertOptions.defaults()).keySet()).containsExactly("aarch64");
    assertThat(convert(new Input.ObjectFile(thin), ConvertOptions.builder().llvmCompat(23).build()).keySet())
        .containsExactly("arm64");
  }

  @Test
  void theOutputVersionIsHonoured() throws IOException {
    byte[] v2 = convert(new Input.ObjectFile(ELF), ConvertOptions.builder().outputVersion(2).build()).values()
        .iterator().next();
    try (GsymReader r = GsymReader.of(v2, "v2")) {
      assertThat(r.version()).isEqualTo(2);
      try (GsymReader llvm = GsymReader.open(ELF_GSYM)) {
        assertThat(r.numFunctions()).isEqualTo(llvm.numFunctions());
        assertThat(r.functionInfoAtIndex(0)).isEqualTo(llvm.functionInfoAtIndex(0));
      }
    }
  }

  @Test
  void aBreakpadFileConvertsLenientlyOnlyWhenAsked() throws IOException {
    Path basic = TestData.path("breakpad", "basic.sym");
    assertThat(Input.detect(basic)).isEqualTo(new Input.BreakpadFile(basic));
    long funcRecords = Files.readAllLines(basic).stream().filter(l -> l.startsWith("FUNC ")).count();
    List<Long> functions = new ArrayList<>();
    Converter.convert(new Input.BreakpadFile(basic), ConvertOptions.defaults(), Diagnostics.silent(),
        gsym -> functions.add(gsym.breakpad().functions()));
    assertThat(functions).containsExactly(funcRecords);

    // the same text from a stream (standard input) gives the same GSYM
    byte[] fromFile = convert(new Input.BreakpadFile(basic), ConvertOptions.defaults()).values().iterator().next();
    List<byte[]> fromStream = new ArrayList<>();
    Converter.convert(new Input.BreakpadStream(new java.io.ByteArrayInputStream(Files.readAllBytes(basic)), "-"),
        ConvertOptions.defaults(), Diagnostics.silent(), gsym -> {
          java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
          gsym.creator().save(bytes, gsym.byteOrder());
          fromStream.add(bytes.toByteArray());
        });
    assertThat(fromStream).singleElement().isEqualTo(fromFile);

    Path bad = TestData.path("breakpad", "bad.sym");
    assertThatThrownBy(() -> convert(new Input.BreakpadFile(bad), ConvertOptions.defaults()))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("bad.sym");
    // lines 5 (size 'zz'), 7 (FILE 9 undefined) and 8 (BOGUS), each a warning through the diagnostics
    List<Long> skipped = new ArrayList<>();
    StringBuilder log = new StringBuilder();
    Converter.convert(new Input.BreakpadFile(bad), ConvertOptions.builder().lenient(true).build(), new Diagnostics(log),
        gsym -> skipped.add(gsym.breakpad().badRecords()));
    assertThat(skipped).containsExactly(3L);
    assertThat(log).contains("warning: " + bad + ":5: invalid line record size 'zz'\n");
  }

  @Test
  void aGsymFileIsRewrittenInTheOtherVersionAndBack() throws IOException {
    assertThat(Input.detect(ELF_GSYM)).isEqualTo(new Input.GsymFile(ELF_GSYM));
    byte[] v2 = convert(new Input.GsymFile(ELF_GSYM), ConvertOptions.builder().outputVersion(2).build()).values()
        .iterator().next();
    Path v2File = Files.write(tmp.resolve("v2.gsym"), v2);
    byte[] back = convert(new Input.GsymFile(v2File), ConvertOptions.defaults()).values().iterator().next();
    assertThat(back).isEqualTo(Files.readAllBytes(ELF_GSYM));
  }

  /** A GSYM already open is rewritten as its file is. */
  @Test
  void anOpenGsymIsRewrittenAsItsFile() throws IOException {
    byte[] fromFile = convert(new Input.GsymFile(ELF_GSYM), ConvertOptions.builder().outputVersion(2).build()).values()
        .iterator().next();
    java.io.ByteArrayOutputStream fromOpen = new java.io.ByteArrayOutputStream();
    try (GsymReader r = GsymReader.open(ELF_GSYM)) {
      Converter.convert(new Input.OpenGsym(r, "c-clang-O2.gsym"), ConvertOptions.builder().outputVersion(2).build(),
          Diagnostics.silent(), gsym -> {
            assertThat(gsym.unit().source()).isNull();
            gsym.creator().save(fromOpen, gsym.byteOrder());
          });
    }
    assertThat(fromOpen.toByteArray()).isEqualTo(fromFile);
  }

  @Test
  void writeCopiesAnEmbeddedGsymOnlyWhenAsked() throws IOException {
    // an ELF file carrying, in its .gsym section, a GSYM that is not its own conversion (v2 bytes)
    byte[] v2 = convert(new Input.ObjectFile(ELF), ConvertOptions.builder().outputVersion(2).build()).values()
        .iterator().next();
    Path carrier = tmp.resolve("carrier");
    try (ElfFile elf = ElfFile.open(ELF); Arena arena = Arena.ofConfined()) {
      MemorySegment bytes = arena.allocate(v2.length);
      bytes.copyFrom(MemorySegment.ofArray(v2));
      ElfSectionWriter w = new ElfSectionWriter(elf, EmbeddedGsym.SECTION, v2.length);
      AtomicFile.write(carrier, ch -> {
        w.write(bytes, ch);
        return null;
      });
    }
    assertThat(write(carrier, ConvertOptions.builder().embeddedGsym(true).build())).isEqualTo(v2);
    assertThat(write(carrier, ConvertOptions.defaults())).isEqualTo(Files.readAllBytes(ELF_GSYM));
  }

  @Test
  void writeTakesOneArchitectureOfAUniversalFile() throws IOException {
    Path fat = MACHO.resolve("fat-c-O2");
    assertThat(write(new Input.ObjectFile(fat, List.of("arm64")), ConvertOptions.defaults()))
        .isEqualTo(Files.readAllBytes(MACHO_GSYM.resolve("fat-c-O2.arch-arm64.gsym")));
    Path out = Files.createTempFile(tmp, "out", ".gsym");
    try (FileChannel ch = FileChannel.open(out, StandardOpenOption.WRITE)) {
      assertThatThrownBy(() -> Converter.write(new Input.ObjectFile(fat), ConvertOptions.defaults(), Diagnostics.silent(), ch))
          .isInstanceOf(GsymFormatException.class).hasMessageContaining(fat.toString())
          .hasMessageContaining("several architectures");
    }
    assertThat(Files.size(out)).isZero();
  }

  private byte[] write(Path in, ConvertOptions options) throws IOException {
    return write(new Input.ObjectFile(in), options);
  }

  private byte[] write(Input in, ConvertOptions options) throws IOException {
    Path out = Files.createTempFile(tmp, "out", ".gsym");
    try (FileChannel ch = FileChannel.open(out, StandardOpenOption.WRITE)) {
      Converter.write(in, options, Diagnostics.silent(), ch);
    }
    return Files.readAllBytes(out);
  }

  @Test
  void aBadInputIsOneErrorNamingTheFile() throws IOException {
    Path text = Files.writeString(tmp.resolve("notes.txt"), "not a binary\n");
    assertThatThrownBy(() -> Input.detect(text)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining(text.toString()).hasMessageContaining("not an object file");
    assertThatThrownBy(() -> convert(new Input.ObjectFile(text), ConvertOptions.defaults()))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining(text.toString())
        .hasMessageContaining("not recognized as a valid object file");
    assertThatThrownBy(() -> convert(new Input.ObjectFile(ELF), ConvertOptions.builder().symtabFile(text.toString())
        .build())).isInstanceOf(ConvertException.class).hasMessage("The file was not recognized as a valid object file");
    assertThatThrownBy(() -> convert(new Input.ObjectFile(ELF), ConvertOptions.builder()
        .symtabFile(tmp.resolve("missing").toString()).build())).isInstanceOf(ConvertException.class)
        .hasMessage("failed to open symbol table file '" + tmp.resolve("missing") + "'");
    assertThatThrownBy(() -> convert(new Input.ObjectFile(ELF), ConvertOptions.builder().callSitesYaml(tmp.toString())
        .build())).isInstanceOf(ConvertException.class).hasMessage("Is a directory");
  }

  @Test
  void cpuTypesAreReadAsLlvmReadsIntegers() {
    assertThat(Converter.cpuType("0x1000007")).isEqualTo(0x1000007L);
    assertThat(Converter.cpuType("0b11")).isEqualTo(3L);
    assertThat(Converter.cpuType("0o17")).isEqualTo(15L);
    assertThat(Converter.cpuType("017")).isEqualTo(15L);
    assertThat(Converter.cpuType("12")).isEqualTo(12L);
    assertThat(Converter.cpuType("0xffffffff")).isEqualTo(0xffffffffL);
    assertThat(Converter.cpuType("0x100000000")).isNull();
    assertThat(Converter.cpuType("08")).isNull();
    assertThat(Converter.cpuType("0x")).isNull();
    assertThat(Converter.cpuType("")).isNull();
    assertThat(Converter.cpuType("arm64")).isNull();
  }
}
