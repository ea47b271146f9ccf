package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Breakpad's RangeMap (merge strategies) and ContainedRangeMap (nesting), worked out by hand. */
class RangeMapsTest {
  @Test
  void exclusiveRefusesOverlaps() {
    RangeMap<String> m = new RangeMap<>(RangeMap.Merge.EXCLUSIVE);
    assertThat(m.store(0x1000, 0x100, "a")).isTrue();
    assertThat(m.store(0x10ff, 0x10, "b")).isFalse();
    assertThat(m.store(0x0f00, 0x101, "c")).isFalse();
    assertThat(m.store(0x1100, 0x10, "d")).isTrue();
    assertThat(m.store(0x2000, 0, "empty")).isFalse();
    assertThat(m.store(-0x10L, 0x20, "wraps")).isFalse();
    assertThat(m.retrieve(0x10ff).value()).isEqualTo("a");
    assertThat(m.retrieve(0x1100).value()).isEqualTo("d");
    assertThat(m.retrieve(0x1110)).isNull();
    assertThat(m.retrieveNearest(0x1200).value()).isEqualTo("d");
    assertThat(m.retrieveNearest(0x0fff)).isNull();
  }

  @Test
  void truncateLowerCutsTheLowerModule() {
    // Linux dumps: a module overlapping the next one ends where that one begins
    CodeModules m = CodeModules.of(List.of(
        new CodeModule(0x1000, 0x2000, "main", "", "main", "", ""),
        new CodeModule(0x2000, 0x1000, "lib", "", "lib", "", ""),
        new CodeModule(0x2000, 0x1000, "dup", "", "dup", "", "")), true);
    assertThat(m.forAddress(0x1fff).codeFile()).isEqualTo("main");
    assertThat(m.forAddress(0x2000).codeFile()).isEqualTo("lib");
    assertThat(m.inAddressOrder()).extracting(CodeModule::codeFile).containsExactly("main", "lib");
    assertThat(m.main().codeFile()).isEqualTo("main");
    // elsewhere the overlapping module is left out
    CodeModules w = CodeModules.of(List.of(
        new CodeModule(0x1000, 0x2000, "main", "", "main", "", ""),
        new CodeModule(0x2000, 0x1000, "lib", "", "lib", "", "")), false);
    assertThat(w.inAddressOrder()).extracting(CodeModule::codeFile).containsExactly("main");
  }

  @Test
  void containedRangesNestAndAnswerTheInnermost() {
    ContainedRangeMap<String> m = new ContainedRangeMap<>();
    assertThat(m.store(0x1000, 0x100, "outer")).isTrue();
    assertThat(m.store(0x1010, 0x10, "inner")).isTrue();
    assertThat(m.store(0x1010, 0x10, "equal")).isFalse();
    assertThat(m.store(0x10f0, 0x20, "partly over")).isFalse(); // MSVC writes such; Breakpad refuses it
    assertThat(m.store(0x0f00, 0x400, "around")).isTrue(); // takes the others as children
    assertThat(m.retrieve(0x1015)).isEqualTo("inner");
    assertThat(m.retrieve(0x1050)).isEqualTo("outer");
    assertThat(m.retrieve(0x0f00)).isEqualTo("around");
    assertThat(m.retrieve(0x1300)).isNull();
  }
}
