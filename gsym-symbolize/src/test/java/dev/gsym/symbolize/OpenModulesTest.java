package dev.gsym.symbolize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.read.LookupFrames;
import dev.gsym.read.LookupResult;
import dev.gsym.testing.TestData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Symbolizer#openModules}: one {@link Symbolizer.OpenModule} per element, in order, as
 * {@link Symbolizer#openModule} opens each (found or with its problem), readers that answer as the
 * symbolizer's own lookups, and modules that stay open until closed.
 */
class OpenModulesTest {
  @TempDir Path tmp;

  @Test
  void eachModuleAsOpenModuleOpensIt() throws Exception {
    ModuleRef cpp = ModuleRef.file(TestData.path("gsym", "cpp-clang-O2.gsym"));
    ModuleRef c = ModuleRef.file(TestData.path("gsym", "c-gcc-O2.gsym"));
    ModuleRef missing = ModuleRef.buildId("00112233445566778899aabbccddeeff00112233");
    try (Symbolizer s = Symbolizer.builder().demangle(false).threads(2)
        .addSource(Source.DebugDirectories.of(tmp)).build()) {
      List<Symbolizer.OpenModule> open = s.openModules(List.of(cpp, missing, c, cpp));
      try {
        assertThat(open).hasSize(4);
        assertThat(open.get(0).found()).isTrue();
        assertThat(open.get(2).found()).isTrue();
        assertThat(open.get(3).found()).isTrue();
        assertThat(open.get(1).found()).isFalse();
        try (Symbolizer.OpenModule one = s.openModule(missing)) {
          assertThat(open.get(1).problem()).isEqualTo(one.problem()).contains("00112233445566778899aabbccddeeff00112233");
        }
        // each reader is its module's: its lookups are the symbolizer's answers for that module
        LookupFrames frames = new LookupFrames();
        for (int k : new int[] {0, 2}) {
          ModuleRef ref = k == 0 ? cpp : c;
          var r = open.get(k).reader();
          int checked = 0;
          for (int i = 0; i < r.numFunctions(); i++) {
            long addr = r.functionAddress(i);
            if (!(s.symbolize(ref, addr) instanceof Symbolized.Found f)) continue;
            assertThat(r.lookup(addr, frames)).isTrue();
            LookupResult res = frames.toResult();
            assertThat(res.locations().getLast().name()).isEqualTo(f.function().rawName());
            assertThat(res.functionRange().start()).isEqualTo(f.function().startAddress());
            checked++;
          }
          assertThat(checked).isGreaterThanOrEqualTo(5);
        }
      } finally {
        open.forEach(Symbolizer.OpenModule::close);
      }
      assertThat(s.openModules(List.of())).isEmpty();
    }
  }

  @Test
  void notAfterClose() {
    Symbolizer s = Symbolizer.builder().build();
    s.close();
    assertThatThrownBy(() -> s.openModules(List.of(ModuleRef.buildId("0011")))).isInstanceOf(IllegalStateException.class);
  }
}
