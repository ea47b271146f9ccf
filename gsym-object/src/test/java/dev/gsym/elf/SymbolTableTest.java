package dev.gsym.elf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.NeedsLlvm;
import org.junit.jupiter.api.Test;

/** The section type names llvm prints in symbol-table messages (conversions: gsym-dwarf's SymbolTableTest). */
@NeedsLlvm
class SymbolTableTest {
  @Test
  void sectionTypeNames() {
    assertThat(SymbolTable.sectionTypeName(62, 1)).isEqualTo("SHT_PROGBITS");
    assertThat(SymbolTable.sectionTypeName(62, 0x70000001)).isEqualTo("SHT_X86_64_UNWIND");
    assertThat(SymbolTable.sectionTypeName(40, 0x70000001)).isEqualTo("SHT_ARM_EXIDX");
    assertThat(SymbolTable.sectionTypeName(3, 0x70000001)).isEqualTo("Unknown");
    assertThat(SymbolTable.sectionTypeName(183, 0x6ffffff6)).isEqualTo("SHT_GNU_HASH");
  }
}
