package dev.gsym.macho;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two names llvm gives a slice: its triple's architecture (getArchTriple: what --arch and the
 * "Output file (ARCH)" lines use) and its -arch flag name (getArchFlagName: what
 * MachOUniversalBinary::getObjectForArch matches, hence --symtab-file's slice choice).
 */
class FatArchNamesTest {
  private static FatArch arch(int cpuType, int cpuSubtype) {
    return new FatArch(0, cpuType, cpuSubtype, 0, 0, 0);
  }

  @Test
  void flagNamesDifferFromTripleNamesOnlyForThumbCores() {
    assertThat(arch(12, 15).archName()).isEqualTo("thumbv7m");
    assertThat(arch(12, 15).archFlagName()).isEqualTo("armv7m");
    assertThat(arch(12, 16).archName()).isEqualTo("thumbv7em");
    assertThat(arch(12, 16).archFlagName()).isEqualTo("armv7em");
    assertThat(arch(12, 9).archFlagName()).isEqualTo("armv7");
    assertThat(arch(0x01000007, 8).archFlagName()).isEqualTo("x86_64h");
    // the capability bits of the subtype do not count (CPU_SUBTYPE_LIB64)
    assertThat(arch(0x01000007, 0x80000003).archFlagName()).isEqualTo("x86_64");
    assertThat(arch(0x0100000c, 2).archFlagName()).isEqualTo("arm64e");
    assertThat(arch(0x0100000c, 7).archFlagName()).isEmpty();
  }

  @Test
  void slicesAreFoundByFlagName() throws Exception {
    try (MachOUniversal fat = MachOUniversal.open(TestData.path("macho", "bin", "fat64-objects.o"))) {
      List<FatArch> archs = fat.archs();
      for (FatArch a : archs) assertThat(fat.archNamed(a.archFlagName())).contains(a);
      assertThat(fat.archNamed("armv7").orElseThrow().cpuType()).isEqualTo(12);
      // triple names of other formats are no slice names; nor is the empty name of an unknown CPU
      assertThat(fat.archNamed("arm")).isEmpty();
      assertThat(fat.archNamed("aarch64")).isEmpty();
      assertThat(fat.archNamed("x86_64h")).isEmpty();
      assertThat(fat.archNamed("")).isEmpty();
    }
  }
}
