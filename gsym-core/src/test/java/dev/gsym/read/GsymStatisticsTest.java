package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code --statistics}: llvm main's figures, and the sums on every golden in both versions. */
class GsymStatisticsTest {

  /**
   * The GSYM of llvm main's test llvm/test/tools/llvm-gsymutil/X86/statistics-detailed.yaml
   * (converted with --merged-functions --dwarf-callsites --output-version=2), built here from the
   * FunctionInfos that conversion produces: its report must be the test's, figure for figure.
   */
  static byte[] llvmStatisticsTestGsym() {
    GsymCreator c = new GsymCreator();
    int main = c.insertString("main");
    int f1 = c.insertFile("/tmp/main.c");
    int f2 = c.insertFile("/tmp/inline.h");
    int inline1 = c.insertString("inline1");
    int dupfunc = c.insertString("dupfunc");
    AddressRange range = new AddressRange(0x1000, 0x2000);
    LineTable lines = new LineTable(List.of(new LineEntry(0x1000, f1, 10), new LineEntry(0x1100, f2, 20),
        new LineEntry(0x1180, f2, 21), new LineEntry(0x1200, f1, 11)));
    InlineInfo inline = new InlineInfo(List.of(range), main, 0, 0,
        List.of(new InlineInfo(List.of(new AddressRange(0x1100, 0x1200)), inline1, f1, 10, List.of())));
    FunctionInfo mainFi = new FunctionInfo(range, main, lines, inline, null,
        new CallSiteInfoCollection(List.of(new CallSiteInfo(0x10, 0, List.of()))));
    c.addFunctionInfo(new FunctionInfo(range, dupfunc, lines, null, new MergedFunctionsInfo(List.of(mainFi)), null));
    c.setBaseAddress(0x1000);
    c.setUUID(HexFormat.of().parseHex("0123456789ABCDEFFEDCBA9876543210"));
    c.setOutputVersion(2);
    c.finish(Diagnostics.silent());
    return c.encode(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void llvmMainStatisticsTestFigures() throws Exception {
    try (GsymReader r = GsymReader.of(llvmStatisticsTestGsym(), "t.gsym")) {
      GsymStatistics s = GsymStatistics.of(r, "t.gsym");
      for (GsymStatistics.Format f : GsymStatistics.Format.values()) {
        assertThat(s.render(f)).as(f.toString()).isEqualTo(llvmExpected(f, "t.gsym"));
      }
    }
  }

  /**
   * What llvm main's statistics-detailed test expects in format {@code f}, for a file named {@code
   * path}: src-test-data/llvmtests/statistics.expected.*, its CHECK lines written out.
   */
  private static String llvmExpected(GsymStatistics.Format f, String path) throws java.io.IOException {
    String ext = switch (f) {
      case TEXT -> "txt";
      case JSON -> "json";
      case PRETTY_JSON -> "pretty.json";
    };
    return Files.readString(TestData.path("llvmtests", "statistics.expected." + ext)).replace("{{PATH}}", path);
  }

  /** UUIDs other than 16 bytes: undashed upper-case hex (20-byte ELF build IDs, 8 bytes), "" for none. */
  @Test
  void uuidsOfOtherLengths() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("gsym", "c-gcc-O2.gsym"))) {
      assertThat(r.uuid()).hasSize(20);
      String text = GsymStatistics.of(r, "c").uuidText();
      assertThat(text).isEqualTo(HexFormat.of().withUpperCase().formatHex(r.uuid())).matches("[0-9A-F]{40}");
      assertThat(GsymStatistics.of(r, "c").render(GsymStatistics.Format.TEXT)).contains("\nuuid: " + text + "\n");
    }
    try (GsymReader r = GsymReader.of(withUuid(new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) 0xab}), "u8")) {
      assertThat(GsymStatistics.of(r, "u8").uuidText()).isEqualTo("01020304050607AB");
    }
    try (GsymReader r = GsymReader.of(withUuid(new byte[0]), "none")) {
      GsymStatistics s = GsymStatistics.of(r, "none");
      assertThat(s.uuidText()).isEmpty();
      assertThat(s.render(GsymStatistics.Format.JSON)).startsWith("{\"path\":\"none\",\"uuid\":\"\",");
    }
  }

  private static byte[] withUuid(byte[] uuid) {
    GsymCreator c = new GsymCreator();
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000, 0x1010), c.insertString("f")));
    c.setUUID(uuid);
    c.finish(Diagnostics.silent());
    return c.encode(ByteOrder.LITTLE_ENDIAN);
  }

  /** Every GSYM golden under src-test-data (llvm's and ours: {@link TestData#gsymFiles}). */
  static List<Path> goldens() {
    return TestData.gsymFiles();
  }

  static void assertSums(GsymStatistics s, String what) {
    assertThat(s.header() + s.globalDataDirectory() + s.uuidSection() + s.padding() + s.addressTable()
        + s.addrInfoOffsets() + s.fileTable() + s.stringTable() + s.functionInfoData())
        .as("%s: top-level sizes add up to the file size", what).isEqualTo(s.fileSize());
    assertThat(s.padding()).as("%s padding", what).isBetween(0L, 16L);
    GsymStatistics.InfoTypeSizes f = s.functionInfo();
    assertThat(f.sizeAndName() + f.lineTable() + f.inlineInfo() + f.callSites() + f.mergedFunctions()
        + f.endOfList() + f.padding()).as("%s: FunctionInfo parts add up", what).isEqualTo(s.functionInfoData());
    assertThat(f.padding()).as("%s FunctionInfo padding", what).isBetween(0L, 3L * s.numAddresses());
    GsymStatistics.InfoTypeSizes m = s.merged();
    assertThat(m.countAndSizes() + m.sizeAndName() + m.lineTable() + m.inlineInfo() + m.callSites()
        + m.mergedFunctions() + m.endOfList()).as("%s: merged parts add up", what).isEqualTo(f.mergedFunctions());
    assertThat(f.sizeAndName()).isEqualTo(s.numAddresses() * (s.header() == 20 ? 12 : 8));
    assertThat(f.endOfList()).isEqualTo(8 * s.numAddresses());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void byteCountsAddUpOnEveryGoldenInBothVersions(Path gsym) throws Exception {
    try (GsymReader v1 = GsymReader.open(gsym)) {
      GsymStatistics s1 = GsymStatistics.of(v1, gsym.toString());
      assertThat(s1.fileSize()).isEqualTo(Files.size(gsym));
      assertSums(s1, gsym + " v1");
      GsymCreator c = GsymCreator.from(v1);
      c.setOutputVersion(2);
      c.finish(Diagnostics.silent());
      byte[] v2bytes = c.encode(v1.byteOrder());
      try (GsymReader v2 = GsymReader.of(v2bytes, "v2")) {
        GsymStatistics s2 = GsymStatistics.of(v2, "v2");
        assertThat(s2.fileSize()).isEqualTo(v2bytes.length);
        assertSums(s2, gsym + " v2");
        assertThat(s2.stringTable()).isEqualTo(s1.stringTable());
        assertThat(s2.functionInfo().lineTable()).isEqualTo(s1.functionInfo().lineTable());
        assertThat(s2.functionInfo().inlineInfo()).isGreaterThanOrEqualTo(s1.functionInfo().inlineInfo());
      }
    }
  }
}
