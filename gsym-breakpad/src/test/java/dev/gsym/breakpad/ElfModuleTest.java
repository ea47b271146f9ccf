package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.io.ByteView;
import dev.gsym.testing.Breakpad;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.ReadelfFacts;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * dump_syms' MODULE identity of ELF files, checked against facts that do not come from our ELF
 * reader: Breakpad's dump_syms' records and llvm-readelf-22's output (checked in as {@code
 * breakpad/elf/X.dump_syms.txt} and {@code X.readelf.txt}, and compared with the live tools) and
 * Mozilla dump_syms' own test data.
 */
@NeedsLlvm
class ElfModuleTest {
  static final HexFormat HEX = HexFormat.of().withUpperCase();

  @TempDir
  Path dir;

  /** Every ELF with a checked-in readelf text: bin/X, else breakpad/elf/X. */
  static Stream<String> elfFiles() throws IOException {
    try (Stream<Path> s = Files.list(TestData.path("breakpad", "elf"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".readelf.txt"))
          .map(n -> n.substring(0, n.length() - ".readelf.txt".length())).sorted().toList().stream();
    }
  }

  static Path elfPath(String name) {
    Path bin = TestData.path("bin", name);
    return Files.exists(bin) ? bin : TestData.path("breakpad", "elf", name);
  }

  static ReadelfFacts facts(String name) throws IOException {
    return ReadelfFacts.parse(Files.readString(TestData.path("breakpad", "elf", name + ".readelf.txt")));
  }

  /**
   * The MODULE and INFO CODE_ID records are Breakpad's dump_syms' own ({@code X.dump_syms.txt},
   * written by regenerate-breakpad-elf.sh); that dump_syms build crashes on the big-endian ppc64
   * file, whose id is checked against readelf's facts and Mozilla's rule below.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("elfFiles")
  void recordsAreDumpSyms(String name) throws IOException {
    List<String> dumpSyms = Files.readAllLines(TestData.path("breakpad", "elf", name + ".dump_syms.txt"));
    if (dumpSyms.getFirst().startsWith("dump_syms: exit status")) {
      assertThat(name).isEqualTo("fs-ppc64-O2-d5");
      return;
    }
    ElfModule m;
    try (ElfFile elf = ElfFile.open(elfPath(name))) {
      m = ElfModule.of(elf, elfPath(name).getFileName().toString());
    }
    assertThat(dumpSyms.subList(0, 2)).containsExactly(
        "MODULE " + m.os() + " " + m.arch() + " " + m.debugId() + " " + m.name(), "INFO CODE_ID " + m.codeId());
  }

  /**
   * Breakpad's dump_syms, live ({@code -i}: the module records only), writes the committed MODULE and
   * INFO CODE_ID records, or fails as committed.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("elfFiles")
  void dumpSymsWritesTheCommittedRecords(String name) throws IOException, InterruptedException {
    Path tool = Breakpad.dumpSyms();
    List<String> committed = Files.readAllLines(TestData.path("breakpad", "elf", name + ".dump_syms.txt"));
    Process p = new ProcessBuilder(tool.toString(), "-i", elfPath(name).toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = ByteStrings.decode(p.getInputStream().readAllBytes());
    int status = p.waitFor();
    if (committed.getFirst().startsWith("dump_syms: exit status")) {
      assertThat("dump_syms: exit status " + status).isEqualTo(committed.getFirst());
    } else {
      assertThat(status).isZero();
      assertThat(out.lines()).containsExactlyElementsOf(committed.subList(0, 2));
    }
  }

  /** The MODULE id and CODE_ID text of an identifier, written out from the GUID layout. */
  static String[] ids(byte[] identifier, boolean little) {
    byte[] g = Arrays.copyOf(identifier, 16);
    if (little) {
      reverse(g, 0, 4);
      reverse(g, 4, 6);
      reverse(g, 6, 8);
    }
    return new String[] {HEX.formatHex(g) + "0", HEX.formatHex(identifier)};
  }

  private static void reverse(byte[] b, int from, int to) {
    for (int i = from, j = to - 1; i < j; i++, j--) {
      byte t = b[i];
      b[i] = b[j];
      b[j] = t;
    }
  }

  /** file_id.cc's HashElfTextSection over the raw file bytes: XOR of 16-byte blocks of the first page. */
  static byte[] breakpadTextHash(byte[] file, long offset, long size) {
    return xorBlocks(file, offset, Math.min(size, 4096));
  }

  /** XOR of the whole 16-byte blocks starting at {@code offset} that cover {@code n} bytes. */
  static byte[] xorBlocks(byte[] file, long offset, long n) {
    byte[] h = new byte[16];
    for (long b = 0; b < n; b += 16) {
      for (int i = 0; i < 16; i++) {
        long at = offset + b + i;
        if (at < file.length) h[i] ^= file[(int) at];
      }
    }
    return h;
  }

  static String arch(String readelfMachine) {
    return switch (readelfMachine) {
      case "Advanced Micro Devices X86-64" -> "x86_64";
      case "Intel 80386" -> "x86";
      case "AArch64" -> "arm64";
      case "PowerPC64" -> "ppc64";
      default -> throw new IllegalArgumentException(readelfMachine);
    };
  }

  /** The identity dump_syms gives the file, derived from readelf's facts and the raw bytes. */
  static ElfModule expected(String name, Path file, ReadelfFacts f) throws IOException {
    byte[] id;
    if (f.buildId() != null) {
      id = HexFormat.of().parseHex(f.buildId());
    } else {
      ReadelfFacts.Section text = f.section(".text");
      assertThat(text.type()).isEqualTo("PROGBITS");
      id = breakpadTextHash(Files.readAllBytes(file), text.offset(), text.size());
    }
    String[] ids = ids(id, f.littleEndian());
    return new ElfModule("Linux", arch(f.machine()), f.soname() != null ? f.soname() : name, ids[0], ids[1],
        f.buildId() != null, f.firstLoad() == null ? 0 : f.firstLoad());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("elfFiles")
  void matchesReadelfFacts(String name) throws IOException {
    Path file = elfPath(name);
    try (ElfFile elf = ElfFile.open(file)) {
      assertThat(ElfModule.of(elf, name)).isEqualTo(expected(name, file, facts(name)));
    }
  }

  /** llvm-readelf-22, live, gives the committed facts. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("elfFiles")
  void readelfGivesTheCommittedFacts(String name) throws IOException, InterruptedException {
    Path readelf = Tools.require(Llvm.readelf(), "llvm-readelf-22");
    Path file = elfPath(name);
    Process p = new ProcessBuilder(readelf.toString(), "--file-header", "--program-headers", "--section-headers",
        "--notes", "--dynamic-table", "-W", file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String live = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(ReadelfFacts.parse(live)).isEqualTo(facts(name));
  }

  /** The facts cover every rule: swap and no swap, SONAME, padding, PT_NOTE, .text hash, debug file. */
  @Test
  void factsCoverEveryCase() throws IOException {
    ReadelfFacts lib = facts("libgsymtest-clang-O2.so");
    assertThat(lib.soname()).isEqualTo("libgsymtest.so.1");
    assertThat(lib.buildId()).hasSize(16); // 8 bytes: zero-padded to the GUID
    assertThat(facts("fs-ppc64-O2-d5").littleEndian()).isFalse();
    assertThat(facts("c-gcc-O2-nobuildid").buildId()).isNull();
    assertThat(facts("c-clang-O2-notesegment").section(".note.gnu.build-id")).isNull();
    assertThat(facts("c-clang-O2.debug").section(".text").type()).isEqualTo("NOBITS");
    assertThat(facts("c-clang-O2.debug").section(".dynamic").type()).isEqualTo("NOBITS");
    assertThat(facts("c-clang-O2").section(".dynamic").type()).isEqualTo("DYNAMIC");
    try (ElfFile elf = ElfFile.open(elfPath("c-clang-O2-notesegment"))) {
      assertThat(ElfModule.of(elf, "x").fromBuildId()).isTrue();
      assertThat(elf.buildId()).as("llvm's rule reads only the section").isNull();
    }
    try (ElfFile elf = ElfFile.open(elfPath("fs-ppc64-O2-d5"))) {
      ElfModule m = ElfModule.of(elf, "x");
      assertThat(m.debugId()).isEqualTo(m.codeId().substring(0, 32) + "0"); // big endian: text order
      assertThat(m.loadAddress()).isEqualTo(0x10000000L);
    }
  }

  /**
   * Mozilla dump_syms' test data (test_data/linux/basic.full.sym): build-id
   * B060AD20C6B47781552708AA192E7739FAC7C84A is written as
   * {@code MODULE Linux x86_64 20AD60B0B4C68177552708AA192E77390 basic.full} and
   * {@code INFO CODE_ID B060AD20C6B47781552708AA192E7739FAC7C84A}.
   */
  @Test
  void dumpSymsExample() {
    byte[] id = HexFormat.of().parseHex("b060ad20c6b47781552708aa192e7739fac7c84a");
    assertThat(BreakpadIds.moduleId(id, true)).isEqualTo("20AD60B0B4C68177552708AA192E77390");
    assertThat(ids(id, true)).containsExactly("20AD60B0B4C68177552708AA192E77390",
        "B060AD20C6B47781552708AA192E7739FAC7C84A");
    assertThat(BreakpadIds.moduleId(id, false)).isEqualTo("B060AD20C6B47781552708AA192E77390");
    assertThat(BreakpadIds.moduleId(new byte[] {1, 2, 3}, true)).isEqualTo("00030201000000000000000000000000" + "0");
  }

  @Test
  void archNames() {
    assertThat(ElfModule.arch(62, true)).isEqualTo("x86_64");
    assertThat(ElfModule.arch(3, false)).isEqualTo("x86");
    assertThat(ElfModule.arch(183, true)).isEqualTo("arm64");
    assertThat(ElfModule.arch(40, false)).isEqualTo("arm");
    assertThat(ElfModule.arch(8, false)).isEqualTo("mips");
    assertThat(ElfModule.arch(8, true)).isEqualTo("mips64");
    assertThat(ElfModule.arch(20, false)).isEqualTo("ppc");
    assertThat(ElfModule.arch(21, true)).isEqualTo("ppc64");
    assertThat(ElfModule.arch(22, true)).isEqualTo("s390");
    assertThat(ElfModule.arch(243, true)).isEqualTo("riscv");
    assertThat(ElfModule.arch(2, false)).isEqualTo("sparc");
    assertThat(ElfModule.arch(43, true)).isEqualTo("sparcv9");
    assertThat(ElfModule.arch(167, false)).isEqualTo("nds32");
    assertThat(ElfModule.arch(0x1234, true)).isNull();
  }

  private static byte[] note(ByteOrder order, String owner, int type, byte[] desc) {
    byte[] name = (owner + "\0").getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.allocate(12 + pad4(name.length) + pad4(desc.length)).order(order);
    b.putInt(name.length).putInt(desc.length).putInt(type).put(name);
    b.position(12 + pad4(name.length));
    b.put(desc);
    return b.array();
  }

  private static int pad4(int n) {
    return (n + 3) & ~3;
  }

  private static ByteView view(ByteOrder order, byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) n += p.length;
    ByteBuffer b = ByteBuffer.allocate(n);
    for (byte[] p : parts) b.put(p);
    return ByteView.of(b.array(), order, "notes");
  }

  @Test
  void buildIdNoteWalk() {
    byte[] id = {1, 2, 3, 4, 5};
    for (ByteOrder o : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
      // another note first (odd sizes: padding), then the build-id
      assertThat(ElfModule.buildIdNote(view(o, note(o, "GNU", 1, new byte[] {9, 9, 9}), note(o, "GNU", 3, id))))
          .containsExactly(id);
      // dump_syms checks the type only, not the owner
      assertThat(ElfModule.buildIdNote(view(o, note(o, "Xen", 3, id)))).containsExactly(id);
      assertThat(ElfModule.buildIdNote(view(o, note(o, "GNU", 3, new byte[0])))).isNull();
      assertThat(ElfModule.buildIdNote(view(o, note(o, "GNU", 4, id)))).isNull();
      byte[] whole = note(o, "GNU", 3, id);
      assertThat(ElfModule.buildIdNote(view(o, Arrays.copyOf(whole, whole.length - 4)))).isNull(); // cut short
      assertThat(ElfModule.buildIdNote(view(o, new byte[11]))).isNull();
    }
  }

  @Test
  void textHashReadsPastTheSectionToFillTheLastBlock() {
    byte[] file = new byte[64];
    for (int i = 0; i < file.length; i++) file[i] = (byte) (i * 7 + 1);
    byte[] expect = new byte[16];
    for (int i = 0; i < 32; i++) expect[i % 16] ^= file[8 + i]; // 20 section bytes + 12 that follow
    assertThat(ElfModule.xorFold(ByteView.of(file, ByteOrder.LITTLE_ENDIAN, "f"), 8, 20)).containsExactly(expect);
    // past the end of the file: zeros
    byte[] tail = new byte[16];
    for (int i = 0; i < 4; i++) tail[i] = file[60 + i];
    assertThat(ElfModule.xorFold(ByteView.of(file, ByteOrder.LITTLE_ENDIAN, "f"), 60, 3)).containsExactly(tail);
  }

  /** Patches {@code file}'s section header field at {@code field} (ELF64 little endian). */
  private static void patchSection(byte[] file, ReadelfFacts f, String section, int field, long value) {
    int at = (int) (f.sectionHeaders() + 64L * f.section(section).index() + field);
    ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putLong(at, value);
  }

  /**
   * The .text hash uses at most the first 4096 bytes, and bytes after the section complete the
   * last block (file_id.cc), which Mozilla's symbolic does not do: a .text of 0x2b9 bytes (a copy
   * of c-gcc-O2-nobuildid with sh_size patched) gives a hash that differs from the
   * section-bytes-only one.
   */
  @Test
  void textHashOnPatchedCopies() throws IOException {
    String name = "c-gcc-O2-nobuildid";
    ReadelfFacts f = facts(name);
    ReadelfFacts.Section text = f.section(".text");
    byte[] orig = Files.readAllBytes(elfPath(name));
    for (long size : new long[] {0x2b9, 0x3000}) {
      byte[] b = orig.clone();
      patchSection(b, f, ".text", 32, size);
      Path p = dir.resolve(name + "-" + size);
      Files.write(p, b);
      byte[] want = breakpadTextHash(b, text.offset(), size);
      try (ElfFile elf = ElfFile.open(p)) {
        ElfModule m = ElfModule.of(elf, "x");
        assertThat(m.fromBuildId()).isFalse();
        assertThat(m.codeId()).isEqualTo(HEX.formatHex(want));
      }
      byte[] sectionOnly = new byte[16];
      for (int i = 0; i < Math.min(size, 4096); i++) sectionOnly[i % 16] ^= b[(int) (text.offset() + i)];
      assertThat(want).as("size %x distinguishes the rules", size)
          .isNotEqualTo(size == 0x2b9 ? sectionOnly : xorBlocks(b, text.offset(), size));
    }
    // no build-id and no .text to hash: one clear error
    byte[] b = orig.clone();
    ReadelfFacts.Section names = f.section(".shstrtab");
    int nameAt = indexOf(Arrays.copyOfRange(b, (int) names.offset(), (int) (names.offset() + names.size())),
        "\0.text\0".getBytes(StandardCharsets.US_ASCII));
    b[(int) names.offset() + nameAt + 2] = 'T'; // ".Text"
    Path p = dir.resolve(name + "-notext");
    Files.write(p, b);
    try (ElfFile elf = ElfFile.open(p)) {
      assertThatThrownBy(() -> ElfModule.of(elf, "x")).isInstanceOf(GsymFormatException.class)
          .hasMessageContaining("no GNU build-id note and no .text section to hash");
    }
  }

  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
      return i;
    }
    throw new AssertionError("not found");
  }

  /** A .note.gnu.build-id section without a build-id note: dump_syms hashes .text, PT_NOTE is not searched. */
  @Test
  void buildIdSectionWithoutTheNoteFallsBackToTheTextHash() throws IOException {
    String name = "c-clang-O2";
    ReadelfFacts f = facts(name);
    byte[] b = Files.readAllBytes(elfPath(name));
    ReadelfFacts.Section note = f.section(".note.gnu.build-id");
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt((int) note.offset() + 8, 0x103); // n_type
    Path p = dir.resolve("patched");
    Files.write(p, b);
    ReadelfFacts.Section text = f.section(".text");
    try (ElfFile elf = ElfFile.open(p)) {
      ElfModule m = ElfModule.of(elf, "patched");
      assertThat(m.fromBuildId()).isFalse();
      assertThat(m.codeId()).isEqualTo(HEX.formatHex(breakpadTextHash(b, text.offset(), text.size())));
    }
  }
}
