package dev.gsym.dwarf.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.elf.ElfFile;
import dev.gsym.internal.concurrent.ScopedPool;
import dev.gsym.testing.TestData;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Line tables parsed ahead while .debug_info inflates must equal the ones the units parse (rows,
 * files, sequences), cover every table of a sound file, and the conversion must not depend on it.
 */
class LineTablePreparserTest {
  @Test
  void tablesParsedAheadEqualTheUnitsOwn() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2,
        "one processor: nothing is parsed ahead");
    int tables = 0;
    for (String bin : new String[] {"cpp-gcc-O2", "cpp-clang-O2", "rust-O2", "c-gcc-O2-gz-zstd", "fs-i386-O2-d4", "fs-ppc64-O2-d5"}) {
      try (ElfFile elf = ElfFile.open(TestData.path("bin", bin)); ScopedPool pool = new ScopedPool(1, "test")) {
        LineTablePreparser p = LineTablePreparser.start(elf, pool);
        assertThat(p).as(bin).isNotNull();
        Map<DebugLineOffset, LineTable> ahead = p.awaitAll();
        try (DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf), null)) {
          int units = 0;
          for (DwarfUnit u : dwarf.units()) {
            DebugLineOffset off = u.stmtList();
            if (off == null) continue;
            LineTable own = LineTable.parse(dwarf, off, u.addressSize());
            LineTable pre = ahead.get(off);
            assertThat(pre).as("%s: table at %s parsed ahead", bin, off).isNotNull();
            assertThat(pre.rows()).as(bin).isEqualTo(own.rows());
            assertThat(pre.files()).as(bin).isEqualTo(own.files());
            assertThat(pre.sequences()).as(bin).isEqualTo(own.sequences());
            units++;
          }
          assertThat(units).as(bin).isPositive();
          tables += units;
        }
      }
    }
    assertThat(tables).isGreaterThanOrEqualTo(6);
  }
}
