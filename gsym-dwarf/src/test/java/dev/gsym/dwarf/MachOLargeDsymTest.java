package dev.gsym.dwarf;

import dev.gsym.macho.DsymBundle;
import dev.gsym.macho.MachOFile;
import dev.gsym.macho.MachSection;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.io.ByteView;
import dev.gsym.testing.LargeDsym;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * dSYMs larger than 4 GB (sparse files made by {@link LargeDsym} from the dSYM goldens of
 * src-test-data/macho): the {@code __DWARF} segment moved so that 2^32 falls inside or at the end of
 * each of its sections in turn, the later sections' offsets stored wrapped. The file offsets are
 * reconstructed as llvm 22 reconstructs them, so the DWARF and the GSYM equal the original's (a
 * section starting at 2^32 exactly stores offset 0, which llvm takes for stripped); where
 * llvm cannot reconstruct (the whole segment past 4 GB) or refuses (offsets out of order), we read
 * what llvm reads.
 */
class MachOLargeDsymTest {
  private static final long FOUR_GB = 1L << 32;

  @TempDir Path tmp;

  private static byte[] dwarfFile(String dsym) throws IOException {
    return Files.readAllBytes(DsymBundle.members(TestData.path("macho", "bin", dsym).toString()).getFirst());
  }

  /** Each golden dSYM with 2^32 in the middle, and at the end, of each __DWARF section. */
  static Stream<Arguments> splits() throws IOException {
    List<Arguments> all = new ArrayList<>();
    for (String dsym : List.of("c-x86_64-O2.dSYM", "cpp-arm64-O2-d5.dSYM")) {
      LargeDsym.Segment seg = LargeDsym.dwarfSegment(dwarfFile(dsym));
      for (int j = 0; j < seg.nsects() - 1; j++) { // (the last section's own offset never wraps)
        long rel = seg.sectionOffsets()[j] - seg.fileoff();
        all.add(Arguments.of(dsym, j, FOUR_GB - rel - seg.sectionSizes()[j] / 2, "inside " + j));
        all.add(Arguments.of(dsym, j, FOUR_GB - rel - seg.sectionSizes()[j], "at the end of " + j));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}: 4 GB {3}")
  @MethodSource("splits")
  void wrappedOffsetsAreReconstructed(String dsym, int section, long at, String where) throws IOException {
    byte[] small = dwarfFile(dsym);
    LargeDsym.Segment seg = LargeDsym.dwarfSegment(small);
    Path big = LargeDsym.write(small, at, tmp.resolve("big"));
    assertThat(Files.size(big)).isGreaterThan(FOUR_GB);
    try (MachOFile orig = MachOFile.of(small, dsym); MachOFile m = MachOFile.open(big)) {
      List<MachSection> dwarf = m.sections().stream().filter(s -> s.segment().equals("__DWARF")).toList();
      assertThat(dwarf).hasSize(seg.nsects());
      for (int j = 0; j < seg.nsects(); j++) {
        long expected = at + seg.sectionOffsets()[j] - seg.fileoff();
        assertThat(dwarf.get(j).offset()).as("stored").isEqualTo(expected & 0xFFFF_FFFFL);
        assertThat(dwarf.get(j).fileOffset()).as(dwarf.get(j).name()).isEqualTo(expected);
      }
      assertThat(dwarf.get(seg.nsects() - 1).offset()).as("the last offset wrapped").isLessThan(at);
      if (where.startsWith("at the end")) {
        // the next section starts at 2^32 exactly: stored offset 0, which llvm (and we) take for stripped
        boolean next = seg.sectionOffsets()[section + 1] == seg.sectionOffsets()[section] + seg.sectionSizes()[section];
        assertThat(dwarf.get(section + 1).isStripped()).isEqualTo(next);
        return;
      }
      for (MachSection s : orig.sections()) {
        if (!s.segment().equals("__DWARF")) continue;
        String name = "." + s.name().substring(2);
        ByteView a = orig.dwarfSection(name), b = m.dwarfSection(name);
        if (a == null) continue; // __apple_* and the 16-character names
        assertThat(b.bytes(0, (int) b.size())).as(name).isEqualTo(a.bytes(0, (int) a.size()));
      }
      assertThat(convert(m)).isEqualTo(Files.readAllBytes(TestData.path("macho", "gsym", dsym + ".gsym")));
    }
  }

  /**
   * The whole segment past 4 GB: no section crosses a 4 GB boundary, so llvm (and we) read the
   * stored offsets, here in the hole of zeros; sections out of order after a crossing: llvm refuses
   * the contents of every section after the pair, and reads them as empty.
   */
  @ParameterizedTest
  @MethodSource("dsyms")
  void whatLlvmCannotReconstruct(String dsym) throws IOException {
    byte[] small = dwarfFile(dsym);
    LargeDsym.Segment seg = LargeDsym.dwarfSegment(small);
    long past = FOUR_GB + seg.fileoff();
    try (MachOFile m = MachOFile.open(LargeDsym.write(small, past, tmp.resolve("past")))) {
      for (MachSection s : m.sections()) {
        if (s.segment().equals("__DWARF")) assertThat(s.fileOffset()).isEqualTo(s.offset()).isLessThan(FOUR_GB);
      }
      ByteView info = m.dwarfSection(".debug_info");
      assertThat(info.bytes(0, (int) info.size())).containsOnly(0);
    }
    // 2^32 inside section 1; the headers of sections 3 and 4 swapped: 5 and after are refused
    long at = FOUR_GB - (seg.sectionOffsets()[1] - seg.fileoff()) - seg.sectionSizes()[1] / 2;
    try (MachOFile orig = MachOFile.of(small, dsym); MachOFile m = MachOFile.open(LargeDsym.write(small, at, tmp.resolve("swap"), 3, 4))) {
      List<MachSection> dwarf = m.sections().stream().filter(s -> s.segment().equals("__DWARF")).toList();
      for (int j = 0; j < seg.nsects(); j++) {
        MachSection s = dwarf.get(j);
        if (j >= 5) {
          assertThat(s.fileOffset()).as(s.name()).isEqualTo(-1);
          assertThat(m.data(s).size()).isZero();
        } else {
          int k = j == 3 ? 4 : j == 4 ? 3 : j;
          assertThat(s.fileOffset()).as(s.name()).isEqualTo(at + seg.sectionOffsets()[k] - seg.fileoff());
          MachSection o = orig.sections().stream().filter(x -> x.name().equals(s.name())).findFirst().orElseThrow();
          assertThat(m.data(s).bytes(0, (int) s.size())).isEqualTo(orig.data(o).bytes(0, (int) o.size()));
        }
      }
    }
  }

  static Stream<String> dsyms() {
    return Stream.of("c-x86_64-O2.dSYM", "cpp-arm64-O2-d5.dSYM");
  }

  private static byte[] convert(MachOFile f) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(f, c, Diagnostics.silent(), DwarfConverter.Options.builder().threads(1).build());
    return c.encode(s.byteOrder());
  }
}
