package dev.gsym.dwarf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.cfi.CfiReader;
import dev.gsym.coff.CoffFile;
import dev.gsym.coff.PeUnwind;
import dev.gsym.elf.ElfFile;
import dev.gsym.macho.CompactUnwind;
import dev.gsym.macho.MachOFile;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindState;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --unwind} conversions: the GSYM answers every address of every table the file's unwind
 * information has (DWARF CFI of every architecture in the corpus; Mach-O compact unwind beside
 * {@code __eh_frame}), the rest of the file is the conversion without it byte for byte where LLVM
 * reads it, and the unwind information takes no more bytes than the {@code .eh_frame} and {@code
 * .eh_frame_hdr} it came from.
 */
class UnwindConversionTest {
  private static byte[] convert(ObjectFile f, DwarfConverter.Unwind unwind) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(f, c, Diagnostics.silent(),
        DwarfConverter.Options.builder().threads(1).unwind(unwind).build());
    return c.encode(s.byteOrder());
  }

  /** The tables of {@code f} every address of which the GSYM must answer, as the converter selects them. */
  private static List<CfiTable> expectedTables(ObjectFile f) {
    List<CfiTable> out = new ArrayList<>(DwarfConverter.unwindEntries(f, null, DwarfConverter.Unwind.ALL, Diagnostics.silent())
        .entries().stream().map(e -> (CfiTable) e).toList());
    return out;
  }

  /** Every address covered by exactly one table answers that table's row; covered ones answer something. */
  private static int checkEveryAddress(GsymReader g, List<CfiTable> tables) {
    UnwindState s = new UnwindState();
    int checked = 0;
    for (CfiTable t : tables) {
      for (long a = t.start(); a < t.start() + t.length(); a++) {
        int covering = 0;
        for (CfiTable o : tables) if (o.contains(a)) covering++;
        assertThat(g.unwindRow(a, s)).as("0x%x", a).isTrue();
        if (covering == 1) {
          UnwindRow want = t.rowAt(a);
          assertThat(s.toRow()).as("0x%x in %s", a, t).isEqualTo(want);
          checked++;
        }
      }
    }
    return checked;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"c-gcc-O2", "c-clang-O2", "cpp-gcc-O2", "cpp-clang-O2", "rust-O2", "fs-aarch64-O2-d5",
      "fs-i386-O2-d5", "fs-ppc64-O2-d5", "symtab-gcc-O0-nopie"})
  void elfTablesAnswerEveryAddress(String name) throws Exception {
    Path p = TestData.path("bin", name);
    try (ElfFile f = ElfFile.open(p)) {
      byte[] plain = convert(f, DwarfConverter.Unwind.NONE);
      byte[] with = convert(f, DwarfConverter.Unwind.ALL);
      List<CfiTable> tables = expectedTables(f);
      assertThat(tables).isNotEmpty();
      GsymReader g = GsymReader.of(with, name);
      assertThat(checkEveryAddress(g, tables)).isPositive();
      // the same functions, ranges and names as without unwind information
      GsymReader p0 = GsymReader.of(plain, name);
      assertThat(g.numFunctions()).isEqualTo(p0.numFunctions());
      long unwindBytes = 0;
      for (int i = 0; i < g.numFunctions(); i++) {
        assertThat(g.functionInfoAtIndex(i).withUnwind(null)).isEqualTo(p0.functionInfoAtIndex(i));
        if (g.unwindInfoAtIndex(i) != null) {
          unwindBytes += 8 + g.functionInfoAtIndex(i).unwind().encode(g.functionAddress(i)).length;
        }
      }
      long ehBytes = size(f, ".eh_frame") + size(f, ".eh_frame_hdr");
      if (ehBytes > 0) assertThat(unwindBytes).as("unwind bytes against .eh_frame + .eh_frame_hdr").isLessThanOrEqualTo(ehBytes);
    }
  }

  private static long size(ElfFile f, String name) {
    ElfFile.Section s = f.section(name);
    return s == null ? 0 : s.size();
  }

  @Test
  void noUnwindIsLlvmsBytes() throws Exception {
    // Unwind.NONE is the default: the conversion llvm-gsymutil-22 makes, byte for byte (GoldenConvertTest)
    try (ElfFile f = ElfFile.open(TestData.path("bin", "c-gcc-O2"))) {
      assertThat(convert(f, DwarfConverter.Unwind.NONE)).isEqualTo(java.nio.file.Files.readAllBytes(TestData.path("gsym", "c-gcc-O2.gsym")));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"cu-x86_64", "cu-arm64", "cu-x86_64-omitfp"})
  void machOCompactUnwindAndEhFrame(String name) throws Exception {
    Path p = TestData.path("unwind", "bin", name);
    try (MachOFile f = MachOFile.open(p)) {
      List<CfiTable> tables = expectedTables(f);
      CompactUnwind cu = CompactUnwind.read(f);
      assertThat(cu).isNotNull();
      assertThat(tables.stream().filter(t -> t.source() == dev.gsym.unwind.UnwindSource.COMPACT_UNWIND).count())
          .isEqualTo(cu.tables().size()).isPositive();
      GsymReader g = GsymReader.of(convert(f, DwarfConverter.Unwind.ALL), name);
      assertThat(checkEveryAddress(g, tables)).isPositive();
    }
  }

  @Test
  void breakpadSelectionIsDwarfCfiOnly() throws Exception {
    try (MachOFile f = MachOFile.open(TestData.path("unwind", "bin", "cu-x86_64"))) {
      DwarfConverter.UnwindEntries all = DwarfConverter.unwindEntries(f, null, DwarfConverter.Unwind.ALL, Diagnostics.silent());
      DwarfConverter.UnwindEntries bp = DwarfConverter.unwindEntries(f, null, DwarfConverter.Unwind.BREAKPAD, Diagnostics.silent());
      assertThat(bp.entries()).allMatch(e -> e.source() == dev.gsym.unwind.UnwindSource.EH_FRAME
          || e.source() == dev.gsym.unwind.UnwindSource.DEBUG_FRAME);
      assertThat(all.entries().size()).isGreaterThan(bp.entries().size());
    }
  }
}
