package dev.gsym.macho;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link CompactUnwind} against the goldens of src-test-data/unwind (regenerate-unwind.sh): the
 * records of every {@code __unwind_info} section are llvm-objdump-22's, line for line; and the rows
 * made of every compact encoding are the rules of the DWARF FDE MC wrote for the same function
 * (the objects are assembled with -femit-dwarf-unwind=always), as llvm-dwarfdump-22 prints its
 * last row (the body's: none of these functions has epilog CFI).
 */
class CompactUnwindGoldenTest {
  static String golden(String name) throws IOException {
    return Files.readString(TestData.path("unwind", "expected", name));
  }

  /** Opens an image of unwind/bin by its golden name: "cu-x86_64", or "cu-fat.arm64" for a slice. */
  static <T> T withImage(String name, java.util.function.Function<MachOFile, T> body) throws IOException {
    int dot = name.indexOf('.');
    if (dot < 0) {
      try (MachOFile m = MachOFile.open(TestData.path("unwind", "bin", name))) {
        return body.apply(m);
      }
    }
    try (MachOUniversal fat = MachOUniversal.open(TestData.path("unwind", "bin", name.substring(0, dot)))) {
      try (MachOFile m = fat.slice(fat.archNamed(name.substring(dot + 1)).orElseThrow())) {
        return body.apply(m);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"cu-x86_64", "cu-arm64", "cu-x86_64-omitfp", "cu-pages-x86_64", "cu-fat.x86_64", "cu-fat.arm64"})
  void recordsAreLlvmObjdumps(String name) throws IOException {
    String ours = withImage(name, m -> CompactUnwindGoldens.render(CompactUnwind.read(m)));
    String llvm = CompactUnwindGoldens.unwindInfoSection(golden(name + ".unwind-info.txt"));
    assertThat(ours.lines()).containsExactlyElementsOf(llvm.lines().toList());
  }

  @Test
  void pagesOfAllKindsAreCovered() throws IOException {
    CompactUnwind cu = withImage("cu-pages-x86_64", CompactUnwind::read);
    assertThat(cu.pages()).extracting(CompactUnwind.Page::kind)
        .containsExactly(CompactUnwind.UNWIND_SECOND_LEVEL_REGULAR, CompactUnwind.UNWIND_SECOND_LEVEL_REGULAR,
            CompactUnwind.UNWIND_SECOND_LEVEL_COMPRESSED);
    assertThat(cu.pages().getLast().pageEncodings()).hasSize(50);
    assertThat(cu.index()).hasSize(4);
    // every function of the image is a range of its own (no two neighbours share an encoding)
    assertThat(cu.ranges()).hasSize(1 + 1022 + 300);
    assertThat(cu.tables()).hasSize(1022 + 300);
    CompactUnwind fat = withImage("cu-x86_64", CompactUnwind::read);
    assertThat(fat.lsdas()).hasSize(1);
    assertThat(fat.personalities()).containsExactly(0x2000L);
  }

  @Test
  void theDsymHasNoUnwindInformation() throws IOException {
    // dsymutil keeps the section headers of __TEXT but not their contents: llvm-objdump reads the
    // file's first bytes as the section there ("unknown version" 0xfeedfacf)
    assertThat(golden("cu-x86_64.dSYM.unwind-info.txt")).contains("Version:                                   0xfeedfacf");
    try (MachOFile m = MachOFile.open(TestData.path("unwind", "bin", "cu-x86_64.dSYM", "Contents", "Resources", "DWARF", "cu-x86_64"))) {
      assertThat(CompactUnwind.read(m)).isNull();
    }
    try (MachOFile m = MachOFile.open(TestData.path("unwind", "bin", "cu-x86_64-asm.o"))) {
      assertThat(CompactUnwind.read(m)).as("an object has __LD,__compact_unwind").isNull();
    }
  }

  /** Rows of every encoding of an object's __compact_unwind, against the FDE of the same function. */
  @ParameterizedTest
  @ValueSource(strings = {"cu-x86_64-asm.o", "cu-arm64-asm.o", "cu-i386-asm.o", "cu-x86_64-c.o", "cu-arm64-c.o", "cu-x86_64-omitfp-c.o"})
  void rowsAreTheRulesOfTheFdes(String object) throws IOException {
    List<CompactUnwindGoldens.ObjectEntry> entries = CompactUnwindGoldens.objectEntries(golden(object + ".unwind-info.txt"));
    List<CompactUnwindGoldens.Fde> fdes = CompactUnwindGoldens.fdes(golden(object + ".eh-frame.txt"));
    Map<CompactUnwindGoldens.ObjectEntry, CompactUnwindGoldens.Fde> pairs = pair(object, entries, fdes);
    int compared = 0;
    try (MachOFile m = MachOFile.open(TestData.path("unwind", "bin", object))) {
      Arch arch = CompactUnwind.arch(m.header().cpuType());
      CompactUnwind.CodeReader code = CompactUnwind.codeReader(m);
      for (var p : pairs.entrySet()) {
        CompactUnwindGoldens.ObjectEntry e = p.getKey();
        CompactUnwind.Plan plan = CompactUnwind.plan(arch, e.encoding(), 0, e.start(), e.length(), code);
        if ((e.encoding() & CompactUnwind.UNWIND_MODE_MASK) == (arch == Arch.AARCH64 ? 0x03000000 : 0x04000000)) {
          assertThat(plan).as(e.name()).isInstanceOf(CompactUnwind.Plan.Dwarf.class);
          continue;
        }
        assertThat(plan).as(e.name() + " " + Integer.toHexString(e.encoding())).isInstanceOf(CompactUnwind.Plan.Rows.class);
        CfiTable t = ((CompactUnwind.Plan.Rows) plan).table();
        assertThat(t.rows()).hasSize(1);
        assertThat(CompactUnwindGoldens.dwarfdumpRules(arch, t.rows().getFirst())).as(e.name()).isEqualTo(p.getValue().lastRow());
        compared++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(object.endsWith("-asm.o") ? 3 : 8);
  }

  /**
   * The FDE of each compact entry: by address (x86: llvm-dwarfdump prints i386 pcs 2^32 higher), by
   * order on arm64, whose FDE pcs llvm-dwarfdump prints unrelocated (every FDE a function, in order,
   * and every function with CFI an entry).
   */
  static Map<CompactUnwindGoldens.ObjectEntry, CompactUnwindGoldens.Fde> pair(String object,
      List<CompactUnwindGoldens.ObjectEntry> entries, List<CompactUnwindGoldens.Fde> fdes) {
    Map<CompactUnwindGoldens.ObjectEntry, CompactUnwindGoldens.Fde> out = new java.util.LinkedHashMap<>();
    if (object.contains("arm64")) {
      assertThat(fdes).hasSameSizeAs(entries);
      for (int i = 0; i < entries.size(); i++) {
        assertThat(fdes.get(i).pcEnd() - fdes.get(i).pcStart()).as(entries.get(i).name()).isEqualTo(entries.get(i).length());
        out.put(entries.get(i), fdes.get(i));
      }
      return out;
    }
    for (CompactUnwindGoldens.ObjectEntry e : entries) {
      CompactUnwindGoldens.Fde fde = fdes.stream().filter(f -> (f.pcStart() & 0xffffffffL) == e.start()).findFirst().orElseThrow();
      assertThat(fde.pcEnd() - fde.pcStart()).as(e.name()).isEqualTo(e.length());
      out.put(e, fde);
    }
    return out;
  }

  /**
   * Every function of an image in a range whose plan is what its object says: a Rows range (where the
   * linker may have folded neighbours with the same encoding) holds the rules of each function's
   * FDE, a DWARF range points at the image's FDE of the function, a function without CFI has no
   * unwind information.
   */
  @ParameterizedTest
  @ValueSource(strings = {"cu-x86_64", "cu-arm64", "cu-x86_64-omitfp", "cu-fat.x86_64", "cu-fat.arm64"})
  void everyFunctionIsUnwoundAsItsObjectSays(String name) throws IOException {
    String arch = name.contains("arm64") ? "arm64" : "x86_64";
    List<String> objects = name.equals("cu-x86_64-omitfp") ? List.of("cu-x86_64-omitfp-c.o") : List.of("cu-" + arch + "-asm.o", "cu-" + arch + "-c.o");
    // the FDE rules of each function, by name, from the objects
    Map<String, String> rules = new HashMap<>();
    List<String> withoutCompactEntry = new ArrayList<>();
    for (String o : objects) {
      List<CompactUnwindGoldens.ObjectEntry> entries = CompactUnwindGoldens.objectEntries(golden(o + ".unwind-info.txt"));
      List<CompactUnwindGoldens.Fde> fdes = CompactUnwindGoldens.fdes(golden(o + ".eh-frame.txt"));
      Map<String, Long> symbols = CompactUnwindGoldens.textSymbols(golden(o + ".symbols.txt"));
      for (var p : pair(o, entries, fdes).entrySet()) rules.put(nameAt(symbols, p.getKey()), p.getValue().lastRow());
      for (var s : symbols.entrySet()) {
        if (entries.stream().noneMatch(e -> e.start() == s.getValue())) withoutCompactEntry.add(s.getKey());
      }
    }
    String symbolsGolden = golden(name + ".symbols.txt");
    List<CompactUnwindGoldens.Fde> imageFdes = CompactUnwindGoldens.fdes(golden(name + ".eh-frame.txt"));
    int rows = 0, dwarf = 0, none = 0;
    CompactUnwind cu = withImage(name, CompactUnwind::read);
    Arch a = arch.equals("arm64") ? Arch.AARCH64 : Arch.X86_64;
    for (var s : CompactUnwindGoldens.textSymbols(symbolsGolden).entrySet()) {
      if (s.getKey().equals("__mh_execute_header")) continue;
      CompactUnwind.Range r = cu.ranges().stream().filter(x -> Long.compareUnsigned(s.getValue() - x.start(), x.length()) < 0).findFirst()
          .orElseThrow(() -> new AssertionError("no range holds " + s.getKey()));
      switch (r.plan()) {
        case CompactUnwind.Plan.Rows p -> {
          assertThat(p.table().source()).isEqualTo(UnwindSource.COMPACT_UNWIND);
          assertThat(p.table().ordinal()).isEqualTo(r.ordinal());
          assertThat(CompactUnwindGoldens.dwarfdumpRules(a, p.table().rows().getFirst())).as(s.getKey()).isEqualTo(rules.get(s.getKey()));
          rows++;
        }
        case CompactUnwind.Plan.Dwarf d -> {
          CompactUnwindGoldens.Fde fde = imageFdes.stream().filter(f -> f.offset() == d.ehFrameOffset()).findFirst()
              .orElseThrow(() -> new AssertionError(s.getKey() + ": no FDE at __eh_frame offset 0x" + Long.toHexString(d.ehFrameOffset())));
          assertThat(fde.pcStart()).as(s.getKey()).isEqualTo(s.getValue());
          assertThat(r.start()).isEqualTo(s.getValue());
          dwarf++;
        }
        case CompactUnwind.Plan.NoInfo n -> {
          assertThat(withoutCompactEntry).as(s.getKey()).contains(s.getKey());
          assertThat(rules).doesNotContainKey(s.getKey());
          none++;
        }
        case CompactUnwind.Plan.Invalid i -> throw new AssertionError(s.getKey() + ": " + i.reason());
      }
    }
    assertThat(rows).isGreaterThan(5);
    if (!name.contains("omitfp")) {
      assertThat(dwarf).as("DWARF ranges").isGreaterThanOrEqualTo(1);
      assertThat(none).as("ranges without unwind information").isEqualTo(1);
    }
  }

  private static String nameAt(Map<String, Long> symbols, CompactUnwindGoldens.ObjectEntry e) {
    if (!e.name().startsWith("ltmp")) return e.name();
    return symbols.entrySet().stream().filter(s -> s.getValue() == e.start()).map(Map.Entry::getKey).findFirst().orElse(e.name());
  }

  static Path bin(String name) {
    return TestData.path("unwind", "bin", name);
  }
}
