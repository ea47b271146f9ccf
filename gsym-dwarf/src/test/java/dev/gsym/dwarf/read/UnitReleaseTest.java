package dev.gsym.dwarf.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.dwarf.transform.DwarfTransformer;
import dev.gsym.elf.ElfFile;
import dev.gsym.internal.concurrent.ScopedPool;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Progress is reported once per unit. Memory follows the units in flight: a converted unit's DIE tree is dropped, and a dropped tree
 * parses again to the same DIEs when something needs it later (e.g. --verify).
 */
class UnitReleaseTest {
  @Test
  void convertedUnitsAreReleasedAndReloadIdentically() throws Exception {
    for (int threads : new int[] {1, 2}) {
      try (ElfFile elf = ElfFile.open(TestData.path("bin", "cpp-clang-O2"))) {
        DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf));
        List<List<Long>> before = new ArrayList<>();
        for (DwarfUnit u : dwarf.units()) before.add(offsets(u));
        assertThat(dwarf.units()).anyMatch(DwarfUnit::isLoaded);
        GsymCreator c = new GsymCreator();
        List<String> progress = new ArrayList<>();
        int n;
        try (ScopedPool pool = new ScopedPool(1, "test")) {
          n = new DwarfTransformer(dwarf, c, Diagnostics.silent())
              .progress((done, total) -> progress.add(done + "/" + total)).convert(threads, pool);
        }
        assertThat(n).isGreaterThan(5);
        long cus = dwarf.units().stream().filter(u -> u.unitType() == DwarfUnit.UT_COMPILE).count();
        assertThat(progress).hasSize((int) cus).last().isEqualTo(cus + "/" + cus);
        for (DwarfUnit u : dwarf.units()) {
          if (u.unitType() == DwarfUnit.UT_COMPILE) assertThat(u.isLoaded()).as("unit at %d", u.offset()).isFalse();
        }
        for (int i = 0; i < before.size(); i++) assertThat(offsets(dwarf.units().get(i))).isEqualTo(before.get(i));
      }
    }
  }

  private static List<Long> offsets(DwarfUnit u) {
    List<Long> l = new ArrayList<>();
    for (int i = 0; i < u.dieCount(); i++) l.add(u.dieOffset(i) * 31 + u.tag(i) * 7L + u.parent(i));
    return l;
  }
}
