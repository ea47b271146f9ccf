package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.elf.ElfFile;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GSYM inside the binary (docs/embedding.md): {@code gsymutil embed} on programs built here (gcc and
 * clang, PIE and non-PIE, C and C++, static, a shared library, i386, aarch64, ppc64, mips and a
 * 32-bit PowerPC object) with llvm-gsymutil-22's GSYM of each; the copy still runs and prints what
 * the original prints, its section is llvm's file byte for byte, every function address looks up
 * through the binary as through the standalone file, {@code strip} keeps the section, binaries made
 * by {@code llvm-objcopy-22 --add-section} read the same, and bad sections and arguments fail with
 * one clear message.
 */
@NeedsLlvm
class EmbedCliTest {
  @TempDir Path tmp;

  /** (binary, llvm-gsymutil-22's GSYM of it, runs on an x86-64 host). */
  static Stream<Arguments> inputs() {
    List<Arguments> l = new ArrayList<>();
    for (String b : List.of("c-gcc-O2", "c-clang-O2", "cpp-gcc-O2", "cpp-clang-O2", "symtab-gcc-O0-nopie")) {
      l.add(Arguments.of(TestData.path("bin", b), TestData.path("gsym", b + ".gsym"), true));
    }
    for (String b : List.of("fs-i386-O2-d5", "fs-aarch64-O2-d5", "fs-ppc64-O2-d5")) {
      l.add(Arguments.of(TestData.path("bin", b), TestData.path("gsym", b + ".gsym"), false));
    }
    l.add(Arguments.of(TestData.path("breakpad", "elf", "libgsymtest-clang-O2.so"),
        TestData.path("breakpad", "elf", "libgsymtest-clang-O2.so.gsym"), false));
    l.add(Arguments.of(TestData.path("breakpad", "elf", "c-gcc-O2-nobuildid"),
        TestData.path("breakpad", "elf", "c-gcc-O2-nobuildid.gsym"), true));
    l.add(Arguments.of(TestData.path("embed", "embed-x86_64-static"), TestData.path("embed", "embed-x86_64-static.gsym"), true));
    for (String b : List.of("embed-i386-static", "embed-mips-static", "embed-ppc.o")) {
      l.add(Arguments.of(TestData.path("embed", b), TestData.path("embed", b + ".gsym"), false));
    }
    return l.stream();
  }

  static boolean hostRuns() {
    String arch = System.getProperty("os.arch");
    return System.getProperty("os.name").equals("Linux") && (arch.equals("amd64") || arch.equals("x86_64"));
  }

  @ParameterizedTest
  @MethodSource("inputs")
  void embeddedBinaryRunsAndAnswersAsTheStandaloneFile(Path bin, Path gsym, boolean runs) throws Exception {
    Path out = tmp.resolve(bin.getFileName() + ".embedded");
    CliRun r = CliRun.run("embed", bin.toString(), gsym.toString(), "-o", out.toString());
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    assertThat(r.out()).startsWith("Embedded " + Files.size(gsym) + " bytes of GSYM in section .gsym of " + out);

    // the section holds llvm's file
    assertThat(sectionBytes(out)).isEqualTo(Files.readAllBytes(gsym));
    assertAnswersAsStandalone(out, gsym);
    assertThat(Files.getPosixFilePermissions(out)).isEqualTo(Files.getPosixFilePermissions(bin));

    if (runs && hostRuns()) {
      Result original = run(bin.toString());
      Result embedded = run(out.toString());
      assertThat(embedded).isEqualTo(original);
      assertThat(original.out()).isNotEmpty();
    }
  }

  /** {@code gsymutil embed} of {@code bin}: the output file. */
  private Path embedded(Path bin, Path gsym) {
    Path out = tmp.resolve(bin.getFileName() + ".embedded");
    CliRun r = CliRun.run("embed", bin.toString(), gsym.toString(), "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    return out;
  }

  /** llvm-objcopy-22 --dump-section finds llvm's file in the section. */
  @ParameterizedTest
  @MethodSource("inputs")
  void llvmObjcopyDumpsTheSection(Path bin, Path gsym, boolean runs) throws Exception {
    Path objcopy = Tools.require("llvm-objcopy-22");
    Path out = embedded(bin, gsym);
    Path dumped = tmp.resolve("dumped.gsym");
    run(objcopy.toString(), "--dump-section", ".gsym=" + dumped, out.toString(), tmp.resolve("junk").toString());
    assertThat(Files.readAllBytes(dumped)).isEqualTo(Files.readAllBytes(gsym));
  }

  /**
   * strip --strip-debug keeps the section (the DWARF goes, the GSYM answers alone): llvm-strip-22
   * for every architecture, GNU strip for those this host's binutils know (x86) and for no other.
   */
  @ParameterizedTest
  @MethodSource("inputs")
  void stripDebugKeepsTheSection(Path bin, Path gsym, boolean runs) throws Exception {
    Path gnu = Tools.require("strip");
    Path llvm = Tools.require("llvm-strip-22");
    Path out = embedded(bin, gsym);
    boolean x86;
    try (ElfFile e = ElfFile.open(bin)) {
      x86 = e.machine() == 62 || e.machine() == 3; // EM_X86_64, EM_386
    }
    for (Path strip : List.of(gnu, llvm)) {
      Path s = tmp.resolve(bin.getFileName() + "." + strip.getFileName());
      Result res = run(strip.toString(), "--strip-debug", "-o", s.toString(), out.toString());
      if (strip == gnu && !x86) {
        assertThat(res.status()).as("GNU strip on " + bin.getFileName() + ", not x86").isNotZero();
        continue;
      }
      assertThat(res.status()).as(strip + " on " + bin.getFileName() + ": " + res).isZero();
      try (ElfFile e = ElfFile.open(s)) {
        assertThat(e.section(".debug_info")).isNull();
      }
      assertThat(sectionBytes(s)).isEqualTo(Files.readAllBytes(gsym));
      assertAnswersAsStandalone(s, gsym);
    }
  }

  /** Dump and every function address (start, middle, last byte) through the binary equal the standalone file's. */
  private static void assertAnswersAsStandalone(Path bin, Path gsym) throws IOException {
    CliRun dumpBin = CliRun.run(bin.toString());
    CliRun dumpGsym = CliRun.run(gsym.toString());
    assertThat(dumpBin.status()).as(dumpBin.err()).isZero();
    assertThat(dumpBin.out()).isEqualTo(dumpGsym.out());
    List<String> args = new ArrayList<>();
    try (GsymReader r = GsymReader.open(gsym)) {
      for (int i = 0; i < r.numFunctions(); i++) {
        long start = r.functionAddress(i);
        long size = r.functionInfoAtIndex(i).range().size();
        for (long a : new long[] {start, start + size / 2, start + Math.max(0, size - 1)}) {
          args.add("--lookup");
          args.add("0x" + Long.toHexString(a));
        }
      }
    }
    assertThat(args).isNotEmpty();
    List<String> a1 = new ArrayList<>(args);
    a1.add(bin.toString());
    List<String> a2 = new ArrayList<>(args);
    a2.add(gsym.toString());
    CliRun viaBin = CliRun.run(a1.toArray(String[]::new));
    CliRun viaGsym = CliRun.run(a2.toArray(String[]::new));
    assertThat(viaBin.status()).as(viaBin.err()).isZero();
    assertThat(viaBin.out().replace(bin.toString(), "FILE")).isEqualTo(viaGsym.out().replace(gsym.toString(), "FILE"));
    // the batch path (one reader per path) reads the binary too
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i < args.size(); i += 2) lines.append(args.get(i)).append(' ').append(bin).append('\n');
    CliRun batch = CliRun.stdin(lines.toString(), "--addresses-from-stdin");
    assertThat(batch.status()).as(batch.err()).isZero();
    assertThat(batch.out()).contains(viaGsym.out().lines().skip(1).findFirst().orElseThrow());
  }

  static byte[] sectionBytes(Path elf) throws IOException {
    try (ElfFile e = ElfFile.open(elf)) {
      ElfFile.Section s = e.section(EmbeddedGsym.SECTION);
      assertThat(s).as("%s has a .gsym section", elf).isNotNull();
      return e.rawData(s).bytes(0, (int) s.size());
    }
  }

  /** --dwarf X --embed -o OUT: the section holds the bytes --dwarf writes as a file (llvm's file). */
  @ParameterizedTest
  @MethodSource("inputs")
  void dwarfEmbedWritesTheStandaloneConversionIntoTheBinary(Path bin, Path gsym, boolean runs) throws Exception {
    Path out = tmp.resolve("embedded");
    Path standalone = tmp.resolve("standalone.gsym");
    CliRun file = CliRun.run("--dwarf", bin.toString(), "-o", standalone.toString());
    assertThat(file.status()).as(file.err()).isZero();
    CliRun r = CliRun.run("--dwarf", bin.toString(), "--embed", "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("Input file: " + bin + "\nOutput file (");
    assertThat(r.out()).endsWith("Embedded " + Files.size(standalone) + " bytes of GSYM in section .gsym of " + out
        + " at offset 0x" + Long.toHexString(EmbeddedGsym.find(out).orElseThrow().offset()) + ".\n");
    assertThat(sectionBytes(out)).isEqualTo(Files.readAllBytes(standalone)).isEqualTo(Files.readAllBytes(gsym));
    if (runs && hostRuns()) assertThat(run(out.toString())).isEqualTo(run(bin.toString()));
  }

  @Test
  void dwarfEmbedOptions() throws IOException {
    Path bin = TestData.path("bin", "c-clang-O2");
    CliRun noOut = CliRun.run("--dwarf", bin.toString(), "--embed");
    assertThat(noOut.status()).isEqualTo(1);
    assertThat(noOut.err()).isEqualTo("gsymutil: embedding needs an output: -o OUT (or --in-place to replace " + bin + ")\n");
    CliRun same = CliRun.run("--dwarf", bin.toString(), "--embed", "-o", bin.toString());
    assertThat(same.err()).isEqualTo("gsymutil: output file '" + bin + "' is the input file '" + bin
        + "'; refusing to overwrite it (--in-place replaces it)\n");
    assertThat(CliRun.run("--dwarf", bin.toString(), "--embed", "-o", "x", "--segment-size", "100").err())
        .isEqualTo("gsymutil: --embed cannot be used with --segment-size\n");
    assertThat(CliRun.run("--dwarf", bin.toString(), "-o", "x", "--in-place").err())
        .isEqualTo("gsymutil: --in-place only applies to --embed\n");
    assertThat(CliRun.run("--breakpad", "x.sym", "--embed", "-o", "x").err())
        .isEqualTo("gsymutil: --embed and --in-place only apply to --dwarf (and to gsymutil embed)\n");
    // --verify reads the GSYM back from the binary
    CliRun verify = CliRun.run("--dwarf", bin.toString(), "--embed", "-o", tmp.resolve("v").toString(), "--verify");
    assertThat(verify.status()).as(verify.err()).isZero();
    assertThat(verify.out()).contains("Verifying GSYM file \"" + tmp.resolve("v") + "\":\n");
    // in place, on a copy (through convert too)
    Path copy = Files.copy(bin, tmp.resolve("copy"));
    CliRun inPlace = CliRun.run("convert", "--dwarf", copy.toString(), "--embed", "--in-place");
    assertThat(inPlace.status()).as(inPlace.err()).isZero();
    assertThat(sectionBytes(copy)).isEqualTo(Files.readAllBytes(TestData.path("gsym", "c-clang-O2.gsym")));
  }

  @Test
  void embeddingAgainReplacesTheSectionAndInPlaceRewritesTheInput() throws IOException {
    Path bin = TestData.path("bin", "c-clang-O2");
    Path gsym = TestData.path("gsym", "c-clang-O2.gsym");
    Path out = tmp.resolve("out");
    assertThat(CliRun.run("embed", bin.toString(), gsym.toString(), "-o", out.toString()).status()).isZero();
    byte[] first = Files.readAllBytes(out);
    Path again = tmp.resolve("again");
    assertThat(CliRun.run("embed", out.toString(), gsym.toString(), "-o", again.toString()).status()).isZero();
    assertThat(Files.readAllBytes(again)).isEqualTo(first);

    // -o naming the input is refused (also through a link) unless --in-place
    Path link = Files.createSymbolicLink(tmp.resolve("link"), out);
    CliRun refused = CliRun.run("embed", out.toString(), gsym.toString(), "-o", link.toString());
    assertThat(refused.status()).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("gsymutil: output file '" + link + "' is the input file '" + out
        + "'; refusing to overwrite it (--in-place replaces it)\n");
    CliRun noOutput = CliRun.run("embed", out.toString(), gsym.toString());
    assertThat(noOutput.err()).isEqualTo("gsymutil: embedding needs an output: -o OUT (or --in-place to replace " + out + ")\n");
    assertThat(Files.readAllBytes(out)).isEqualTo(first);
    CliRun inPlace = CliRun.run("embed", out.toString(), gsym.toString(), "--in-place");
    assertThat(inPlace.status()).as(inPlace.err()).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(first);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.getPosixFilePermissions(out)).contains(PosixFilePermission.OWNER_EXECUTE);
  }

  @Test
  void aGsymOfAnotherBuildIsRefusedUnlessForced() throws IOException {
    Path bin = TestData.path("bin", "c-gcc-O2");
    Path gsym = TestData.path("gsym", "c-clang-O2.gsym");
    Path out = tmp.resolve("out");
    CliRun r = CliRun.run("embed", bin.toString(), gsym.toString(), "-o", out.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("gsymutil: the UUID of " + gsym + " (1d296d52c49352d44988045e45e7a2c66d5f77ea) is not"
        + " the GNU build-id of " + bin + " (ad9283b1d1156bfc188228548023104f7a513f1c); --force embeds it anyway\n");
    assertThat(out).doesNotExist();
    CliRun forced = CliRun.run("embed", bin.toString(), gsym.toString(), "-o", out.toString(), "--force");
    assertThat(forced.status()).isZero();
    assertThat(forced.err()).startsWith("warning: the UUID of " + gsym);
    assertThat(sectionBytes(out)).isEqualTo(Files.readAllBytes(gsym));
  }

  @Test
  void onlyElfFilesAndGsymFilesAreTaken() throws IOException {
    Path gsym = TestData.path("gsym", "c-clang-O2.gsym");
    Path macho = Files.write(tmp.resolve("macho"), new byte[] {(byte) 0xcf, (byte) 0xfa, (byte) 0xed, (byte) 0xfe, 0, 0, 0, 0});
    Path out = tmp.resolve("out");
    CliRun m = CliRun.run("embed", macho.toString(), gsym.toString(), "-o", out.toString(), "--force");
    assertThat(m.status()).isEqualTo(1);
    assertThat(m.err()).isEqualTo(macho + ": is a Mach-O object file: gsymutil embeds GSYM in ELF files only (a Mach-O"
        + " __gsym section needs a Mach-O writer, which gsymutil does not have yet)\n");
    CliRun notGsym = CliRun.run("embed", TestData.path("bin", "c-clang-O2").toString(), TestData.path("bin", "c-gcc-O2").toString(),
        "-o", out.toString());
    assertThat(notGsym.status()).isEqualTo(1);
    assertThat(notGsym.err()).startsWith(TestData.path("bin", "c-gcc-O2") + " is an ELF object file, not a GSYM file;");
    CliRun args = CliRun.run("embed", gsym.toString(), "-o", out.toString());
    assertThat(args.err()).isEqualTo("gsymutil: embed takes a BINARY and a GSYM file (gsymutil embed BINARY GSYM -o OUT);"
        + " got 1 argument\n");
    assertThat(out).doesNotExist();
  }

  /** llvm-objcopy-22 --add-section .gsym=X: the same answers (its layout, not ours). */
  @Test
  void binariesFromLlvmObjcopyAddSectionAreRead() throws Exception {
    Path objcopy = Tools.require("llvm-objcopy-22");
    Path readelf = Tools.require(Llvm.readelf(), "llvm-readelf-22");
    for (String name : List.of("cpp-gcc-O2", "fs-ppc64-O2-d5", "fs-i386-O2-d5")) {
      Path bin = TestData.path("bin", name);
      Path gsym = TestData.path("gsym", name + ".gsym");
      Path out = tmp.resolve(name + ".objcopy");
      run(objcopy.toString(), "--add-section", ".gsym=" + gsym, bin.toString(), out.toString());
      assertAnswersAsStandalone(out, gsym);
      // and ours replaces objcopy's section in place of adding a second one
      Path ours = tmp.resolve(name + ".ours");
      assertThat(CliRun.run("embed", out.toString(), gsym.toString(), "-o", ours.toString()).status()).isZero();
      try (ElfFile e = ElfFile.open(ours); ElfFile o = ElfFile.open(out)) {
        assertThat(e.sections()).hasSameSizeAs(o.sections());
        assertThat(e.section(".gsym").index()).isEqualTo(o.section(".gsym").index());
      }
      // ours on the original vs objcopy's: llvm-readelf-22 lists the same segments and sections
      // (objcopy rewrites the file, so only section offsets differ)
      Path mine = tmp.resolve(name + ".mine");
      assertThat(CliRun.run("embed", bin.toString(), gsym.toString(), "-o", mine.toString()).status()).isZero();
      assertThat(run(readelf.toString(), "-l", "-W", mine.toString())).isEqualTo(run(readelf.toString(), "-l", "-W", out.toString()));
      assertThat(sectionsWithoutOffsets(run(readelf.toString(), "-S", "-W", mine.toString()).out()))
          .isEqualTo(sectionsWithoutOffsets(run(readelf.toString(), "-S", "-W", out.toString()).out()));
    }
  }

  /** llvm-readelf's section lines without the offset and alignment columns (name, type, address, size, flags, links). */
  private static List<String> sectionsWithoutOffsets(String readelf) {
    return readelf.lines().filter(l -> l.startsWith("  [")).map(l -> {
      String[] f = l.substring(l.indexOf(']') + 1).trim().split("\\s+");
      // Name Type Address Off Size ES [Flg] Lk Inf Al
      List<String> keep = new ArrayList<>(List.of(f));
      keep.remove(keep.size() - 1);
      if (keep.size() > 3) keep.remove(3);
      return String.join(" ", keep);
    }).toList();
  }

  /** GNU strip --strip-all keeps the section. */
  @Test
  void gnuStripAllKeepsTheSection() throws Exception {
    Path gnu = Tools.require("strip");
    Path gsym = TestData.path("gsym", "c-clang-O2.gsym");
    Path out = embedded(TestData.path("bin", "c-clang-O2"), gsym);
    Path s = tmp.resolve("gnu-strip-all");
    run(gnu.toString(), "--strip-all", "-o", s.toString(), out.toString());
    assertThat(sectionBytes(s)).isEqualTo(Files.readAllBytes(gsym));
    assertAnswersAsStandalone(s, gsym);
  }

  /** llvm-strip-22 --strip-all removes the section (every non-allocated one) unless --keep-section=.gsym. */
  @Test
  void llvmStripAllRemovesTheSectionUnlessKept() throws Exception {
    Path llvm = Tools.require("llvm-strip-22");
    Path gsym = TestData.path("gsym", "c-clang-O2.gsym");
    Path out = embedded(TestData.path("bin", "c-clang-O2"), gsym);
    {
      Path s = tmp.resolve("llvm-strip-all");
      run(llvm.toString(), "--strip-all", "-o", s.toString(), out.toString());
      try (ElfFile e = ElfFile.open(s)) {
        assertThat(e.section(".gsym")).isNull();
      }
      CliRun r = CliRun.run("--lookup", "0x1179", s.toString());
      assertThat(r.err()).startsWith(s + " is an ELF object file, not a GSYM file; convert it first");
      Path kept = tmp.resolve("llvm-strip-all-kept");
      run(llvm.toString(), "--strip-all", "--keep-section=.gsym", "-o", kept.toString(), out.toString());
      assertAnswersAsStandalone(kept, gsym);
    }
  }

  /**
   * --to-breakpad of a binary whose DWARF was stripped but which carries its GSYM: the Breakpad file
   * dump_syms' conversion of the unstripped binary gives (the checked-in golden), MODULE and CODE_ID
   * from the ELF, functions from the embedded GSYM.
   */
  @Test
  void toBreakpadUsesTheEmbeddedGsym() throws Exception {
    Path strip = Tools.require("llvm-strip-22");
    for (String name : List.of("cpp-gcc-O2", "fs-ppc64-O2-d5")) {
      Path dir = Files.createDirectories(tmp.resolve(name + "-dir"));
      Path embedded = tmp.resolve(name + ".embedded");
      assertThat(CliRun.run("embed", TestData.path("bin", name).toString(), TestData.path("gsym", name + ".gsym").toString(),
          "-o", embedded.toString()).status()).isZero();
      Path bin = dir.resolve(name); // the file name is the MODULE name
      run(strip.toString(), "--strip-debug", "-o", bin.toString(), embedded.toString());
      Path sym = tmp.resolve(name + ".sym");
      CliRun r = CliRun.run("--to-breakpad", bin.toString(), "-o", sym.toString());
      assertThat(r.status()).as(r.err()).isZero();
      assertThat(r.out()).contains("Using the GSYM in section .gsym at offset 0x");
      assertThat(Files.readString(sym)).isEqualTo(Files.readString(TestData.path("breakpad", "elf", name + ".sym")));
    }
  }

  /** A malformed section: one line naming the file, the section and the offset in the file. */
  @Test
  void malformedEmbeddedGsymIsOneClearError() throws IOException {
    Path bin = TestData.path("bin", "c-clang-O2");
    Path gsym = TestData.path("gsym", "c-clang-O2.gsym");
    Path out = tmp.resolve("out");
    assertThat(CliRun.run("embed", bin.toString(), gsym.toString(), "-o", out.toString()).status()).isZero();
    long at;
    try (ElfFile e = ElfFile.open(out)) {
      at = e.section(".gsym").offset();
    }
    byte[] b = Files.readAllBytes(out);
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort((int) at + 4, (short) 9); // version 9
    Path bad = Files.write(tmp.resolve("bad"), b);
    CliRun r = CliRun.run("--lookup", "0x1179", bad.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(bad + " (section .gsym): offset " + String.format("0x%08x", at + 4)
        + ": unsupported GSYM version 9\n");
    CliRun dump = CliRun.run(bad.toString());
    assertThat(dump.err()).isEqualTo(r.err());
  }

  record Result(int status, String out) {}

  static Result run(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), out);
  }
}
