package dev.gsym.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DwarfConverter#convert(Path, Path)}: one call writes llvm-gsymutil's file, in the input's
 * byte order (a big-endian ppc64 binary gives a big-endian GSYM, as llvm-gsymutil writes it).
 */
class OneCallConvertTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"c-gcc-O2", "cpp-clang-O2", "fs-ppc64-O2-d5"})
  void writesLlvmGsymutilsFile(String name) throws Exception {
    Path out = tmp.resolve(name + ".gsym");
    DwarfConverter.Summary s = DwarfConverter.convert(TestData.path("bin", name), out);
    assertThat(s.byteOrder()).isEqualTo(name.contains("ppc64") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(TestData.path("gsym", name + ".gsym")));
    try (var files = Files.list(tmp)) {
      assertThat(files.toList()).containsExactly(out);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void withOptions(boolean merged) throws Exception {
    Path out = tmp.resolve("icf.gsym");
    DwarfConverter.convert(TestData.path("bin", "icf-clang-O2-gold"), out,
        DwarfConverter.Options.builder().mergedFunctions(merged).dwarfCallSites(merged).threads(2).build());
    String ref = "icf-clang-O2-gold" + (merged ? ".merged-callsites" : "") + ".gsym";
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(TestData.path("gsym", ref)));
  }

  @ParameterizedTest
  @ValueSource(ints = {64, 4096})
  void malformedInputLeavesNoFile(int length) throws Exception {
    Path cut = Files.write(tmp.resolve("cut"), Arrays.copyOf(Files.readAllBytes(TestData.path("bin", "c-gcc-O2")), length));
    Path out = tmp.resolve("out.gsym");
    assertThatThrownBy(() -> DwarfConverter.convert(cut, out)).isInstanceOf(GsymFormatException.class).hasMessageContaining(cut.toString());
    assertThat(out).doesNotExist();
  }
}
