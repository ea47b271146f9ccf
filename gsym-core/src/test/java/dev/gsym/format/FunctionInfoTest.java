package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FunctionInfoTest {
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  private static byte[] encode(FunctionInfo fi, ByteOrder o) {
    GsymWriter w = new GsymWriter(o);
    fi.encode(w);
    return w.toByteArray();
  }

  private static FunctionInfo decode(String hex, long start) {
    return FunctionInfo.decode(ByteView.of(HexFormat.of().parseHex(hex.replace(" ", "")), LE, "fi").cursor(0), start);
  }

  @Test
  void minimalRecordIs16BytesBothOrders() {
    FunctionInfo fi = new FunctionInfo(new AddressRange(0x1000, 0x1010), 0x21);
    assertThat(HexFormat.of().formatHex(encode(fi, LE))).isEqualTo("10000000" + "21000000" + "00000000" + "00000000");
    assertThat(HexFormat.of().formatHex(encode(fi, ByteOrder.BIG_ENDIAN)))
        .isEqualTo("00000010" + "00000021" + "00000000" + "00000000");
    assertThat(FunctionInfo.decode(ByteView.of(encode(fi, ByteOrder.BIG_ENDIAN), ByteOrder.BIG_ENDIAN, "b")
        .cursor(0), 0x1000)).isEqualTo(fi);
  }

  @Test
  void vec1AddRecord() {
    // Size 0x18, Name 1 "add", line table chunk of 7 bytes, EndOfList
    String hex = "18000000 01000000 01000000 07000000 00010304191700 00000000 00000000";
    FunctionInfo fi = new FunctionInfo(new AddressRange(0x1140, 0x1158), 1,
        new LineTable(List.of(new LineEntry(0x1140, 1, 3), new LineEntry(0x114a, 1, 4),
            new LineEntry(0x1153, 1, 5))), null, null, null);
    assertThat(decode(hex, 0x1140)).isEqualTo(fi);
    assertThat(HexFormat.of().formatHex(encode(fi, LE))).isEqualTo(hex.replace(" ", ""));
  }

  @Test
  void vec4GTopRecord() throws Exception {
    byte[] file = MergedFunctionsInfoTest.gFile();
    byte[] record = Arrays.copyOfRange(file, 0x7c, file.length);
    assertThat(encode(MergedFunctionsInfoTest.G_TOP, LE)).isEqualTo(record);
    assertThat(FunctionInfo.decode(ByteView.of(record, LE, "G").cursor(0), 0x2000))
        .isEqualTo(MergedFunctionsInfoTest.G_TOP);
  }

  @ParameterizedTest
  @ValueSource(strings = {"t1.gsym", "t2.gsym", "t3g.gsym", "t3gm.gsym", "t3gmc.gsym", "t3s.gsym",
      "A.gsym", "B.gsym", "C.gsym", "D.gsym", "E.gsym", "F.gsym", "G.gsym",
      "t2seg.gsym-0x1000", "t2seg.gsym-0x1140", "t2seg.gsym-0x1190"})
  void everyVectorRecordReEncodesToItsBytes(String name) throws Exception {
    byte[] file = Files.readAllBytes(TestData.path("vectors", name));
    try (GsymReader r = GsymReader.of(file, name)) {
      for (int i = 0; i < r.numFunctions(); i++) {
        FunctionInfo fi = r.functionInfoAtIndex(i);
        byte[] enc = encode(fi, r.byteOrder());
        int at = (int) r.functionInfoOffset(i);
        assertThat(Arrays.copyOfRange(file, at, at + enc.length)).as(name + "[" + i + "]").isEqualTo(enc);
      }
    }
  }

  /**
   * Encoding through an IndexMap writes the bytes of the remapped copy, for every vector record
   * (line tables, inline trees, merged functions, call sites) and maps that shift offsets, swap
   * files 1 and 2 (the line table's implicit first file) or send every file to 1.
   */
  @ParameterizedTest
  @ValueSource(strings = {"t1.gsym", "t3g.gsym", "t3gm.gsym", "t3gmc.gsym", "A.gsym", "D.gsym", "G.gsym"})
  void encodingThroughAnIndexMapEqualsEncodingTheRemappedCopy(String name) throws Exception {
    java.util.function.IntUnaryOperator shift = o -> o * 3 + 7;
    java.util.function.IntUnaryOperator swap = i -> i == 1 ? 2 : i == 2 ? 1 : i + 10;
    java.util.function.IntUnaryOperator one = i -> 1;
    try (GsymReader r = GsymReader.open(TestData.path("vectors", name))) {
      for (int i = 0; i < r.numFunctions(); i++) {
        FunctionInfo fi = r.functionInfoAtIndex(i);
        for (java.util.function.IntUnaryOperator files : List.of(shift, swap, one)) {
          GsymWriter direct = new GsymWriter(LE);
          fi.encode(direct, new IndexMap(shift, files));
          assertThat(direct.toByteArray()).as("%s[%d]", name, i).isEqualTo(encode(fi.remap(shift, files), LE));
        }
        GsymWriter same = new GsymWriter(LE);
        fi.encode(same, IndexMap.IDENTITY);
        assertThat(same.toByteArray()).isEqualTo(encode(fi, LE));
      }
    }
  }

  @Test
  void unknownInfoTypeIsADecodeErrorWithLlvmText() {
    GsymFormatException e = org.junit.jupiter.api.Assertions.assertThrows(GsymFormatException.class,
        () -> decode("10000000 01000000 07000000 02000000 abcd 00000000 00000000", 0));
    assertThat(e.detail()).isEqualTo("0x00000008: unsupported InfoType 7");
    assertThat(e.offset()).isEqualTo(8);
    // after a 7-byte line table the chunk header is at record offset 0x17
    GsymFormatException e2 = org.junit.jupiter.api.Assertions.assertThrows(GsymFormatException.class,
        () -> decode("18000000 01000000 01000000 07000000 00010304191700 05000000 00000000 00000000 00000000", 0x1140));
    assertThat(e2.detail()).isEqualTo("0x00000017: unsupported InfoType 5");
    assertThat(org.junit.jupiter.api.Assertions.assertThrows(GsymFormatException.class,
        () -> decode("10000000 01000000 ffffffff 00000000", 0)).detail())
        .isEqualTo("0x00000008: unsupported InfoType 4294967295");
  }

  @Test
  void nameZeroIsRejectedBothWays() {
    assertThatThrownBy(() -> encode(new FunctionInfo(new AddressRange(0, 4), 0), LE))
        .isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("attempted to encode invalid FunctionInfo object");
    GsymFormatException e = org.junit.jupiter.api.Assertions.assertThrows(GsymFormatException.class,
        () -> decode("10000000 00000000 00000000 00000000", 0));
    assertThat(e.detail()).isEqualTo("0x00000004: invalid FunctionInfo Name value 0x00000000");
  }

  @ParameterizedTest
  @CsvSource({
      "'', 0x00000000: missing FunctionInfo Size",
      "100000, 0x00000000: missing FunctionInfo Size",
      "10000000, 0x00000004: missing FunctionInfo Name",
      "10000000 01000000, 0x00000008: missing FunctionInfo InfoType value",
      "10000000 01000000 01, 0x00000008: missing FunctionInfo InfoType value",
      "10000000 01000000 01000000, 0x0000000c: missing FunctionInfo InfoType length",
      "10000000 01000000 01000000 05000000 0001, 0x00000010: missing FunctionInfo data for InfoType 1",
      "10000000 01000000 07000000 ffffffff 00, 0x00000010: missing FunctionInfo data for InfoType 7",
      "10000000 01000000 01000000 02000000 0000, 0x00000012: missing LineTable FirstLine"})
  void truncation(String hex, String detail) {
    GsymFormatException e = org.junit.jupiter.api.Assertions.assertThrows(GsymFormatException.class,
        () -> decode(hex, 0));
    assertThat(e.detail()).endsWith(detail.substring(detail.indexOf(": ") + 2));
    if (!detail.contains("LineTable")) assertThat(e.detail()).isEqualTo(detail);
  }

  @Test
  void payloadsAreIndependentSlices() {
    // the line table chunk claims 3 bytes; the program inside would need more -> error inside the slice
    assertThatThrownBy(() -> decode("10000000 01000000 01000000 03000000 000001 04 00 00000000 00000000", 0))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("EOF found before EndSequence");
  }

  @Test
  void sizeOver4GiBCannotBeEncoded() {
    assertThatThrownBy(() -> encode(new FunctionInfo(new AddressRange(0, 0x100000000L), 1), LE))
        .isInstanceOf(GsymFormatException.class);
  }

  @Test
  void orderingAndEquality() {
    AddressRange r = new AddressRange(0x10, 0x20);
    LineTable lt = new LineTable(List.of(new LineEntry(0x10, 1, 1)));
    InlineInfo ii = new InlineInfo(List.of(r), 1, 0, 0, List.of());
    FunctionInfo plain = new FunctionInfo(r, 1);
    FunctionInfo withLt = new FunctionInfo(r, 1, lt, null, null, null);
    FunctionInfo withIi = new FunctionInfo(r, 1, null, ii, null, null);
    assertThat(FunctionInfo.compare(plain, withLt)).isNegative();
    assertThat(FunctionInfo.compare(withLt, withIi)).isNegative(); // inline info compares first
    assertThat(FunctionInfo.compare(new FunctionInfo(new AddressRange(0x10, 0x18), 9), plain)).isNegative();
    assertThat(plain.hasRichInfo()).isFalse();
    assertThat(withLt.hasRichInfo()).isTrue();
    assertThat(plain.withCallSites(new CallSiteInfoCollection(List.of())).hasRichInfo()).isTrue();
    assertThat(plain.sameAs(plain.withCallSites(new CallSiteInfoCollection(List.of())))).isTrue();
    assertThat(plain.sameAs(plain.withName(2))).isFalse();
  }
}
