package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class HeaderTest {
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

  static byte[] encode(Header h, ByteOrder o) {
    GsymWriter w = new GsymWriter(o);
    h.encode(w);
    return w.toByteArray();
  }

  static Header decode(byte[] b) {
    ByteOrder o = Header.detectByteOrder(MemorySegment.ofArray(b), "h");
    return Header.decode(ByteView.of(b, o, "h"));
  }

  @Test
  void vec1HeaderBytesLittleEndian() {
    byte[] uuid = HexFormat.of().parseHex("d37ac58e8ce4c0ad700874007ba424e129d5ef8f");
    Header h = new Header(1, 2, 0, 10, 0x80, 0x81, uuid);
    assertThat(HexFormat.of().formatHex(encode(h, LE))).isEqualTo(
        "4d595347" + "0100" + "02" + "14" + "0000000000000000" + "0a000000" + "80000000" + "81000000"
            + "d37ac58e8ce4c0ad700874007ba424e129d5ef8f");
    assertThat(decode(encode(h, LE))).isEqualTo(h);
  }

  @Test
  void vec4BHeaderBytesBigEndian() throws Exception {
    Header h = new Header(1, 4, 0x400000, 2, 0x4c, 7, new byte[] {1, 2, 3, 4});
    byte[] file = Files.readAllBytes(TestData.path("vectors", "B.gsym"));
    assertThat(encode(h, BE)).isEqualTo(Arrays.copyOf(file, 48));
    Header d = decode(file);
    assertThat(d).isEqualTo(h);
    assertThat(d.uuidSize()).isEqualTo(4);
    assertThat(Header.detectByteOrder(MemorySegment.ofArray(file), "B")).isEqualTo(BE);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 8})
  void roundTripEveryOffsetSizeBothOrders(int size) {
    for (ByteOrder o : new ByteOrder[] {LE, BE}) {
      Header h = new Header(1, size, 0xfedcba9876543210L, 0xffffffffL, 0x12345678L, 0x9abcdef0L,
          new byte[20]);
      byte[] b = encode(h, o);
      assertThat(b).hasSize(Header.SIZE);
      assertThat(Header.detectByteOrder(MemorySegment.ofArray(b), "x")).isEqualTo(o);
      assertThat(decode(b)).isEqualTo(h);
    }
  }

  @Test
  void uuidIsZeroPaddedAndOnlyUuidSizeBytesAreValid() {
    Header h = new Header(1, 1, 0, 0, 0, 0, new byte[] {9, 8, 7});
    byte[] b = encode(h, LE);
    assertThat(b[7]).isEqualTo((byte) 3);
    assertThat(Arrays.copyOfRange(b, 28, 48)).containsExactly(9, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0);
    b[40] = 0x55; // bytes past UUIDSize are ignored by the reader
    assertThat(decode(b).uuid()).containsExactly(9, 8, 7);
  }

  @Test
  void magicBytesOnDisk() {
    Header h = new Header(1, 1, 0, 0, 0, 0, null);
    assertThat(new String(encode(h, LE), 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("MYSG");
    assertThat(new String(encode(h, BE), 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("GSYM");
  }

  static IntStream shortLengths() {
    return IntStream.range(0, 48);
  }

  @ParameterizedTest
  @MethodSource("shortLengths")
  void truncatedHeader(int len) throws Exception {
    byte[] file = Files.readAllBytes(TestData.path("vectors", "A.gsym"));
    byte[] b = Arrays.copyOf(file, len);
    assertThatThrownBy(() -> GsymReader.of(b, "t"))
        .isInstanceOf(GsymFormatException.class)
        .extracting(e -> ((GsymFormatException) e).detail()).isEqualTo("not enough data for a GSYM header");
    byte[] garbage = new byte[len];
    Arrays.fill(garbage, (byte) 0x33);
    assertThatThrownBy(() -> GsymReader.of(garbage, "t"))
        .isInstanceOf(GsymFormatException.class)
        .extracting(e -> ((GsymFormatException) e).detail()).isEqualTo("not enough data for a GSYM header");
  }

  private static String errorOf(byte[] b) {
    try {
      GsymReader.of(b, "t");
    } catch (GsymFormatException e) {
      return e.detail();
    }
    throw new AssertionError("no error");
  }

  private static byte[] validHeader(ByteOrder o) {
    return encode(new Header(1, 4, 0, 0, 0, 0, null), o);
  }

  @Test
  void badMagic() {
    for (String m : new String[] {"00000000", "4d595348", "4753594e", "4d594753", "ffffffff"}) {
      byte[] b = validHeader(LE);
      System.arraycopy(HexFormat.of().parseHex(m), 0, b, 0, 4);
      assertThat(errorOf(b)).isEqualTo("not a GSYM file");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 3, 0xffff}) // 2 is GSYM version 2 (Version2FileTest)
  void badVersion(int version) {
    for (ByteOrder o : new ByteOrder[] {LE, BE}) {
      byte[] b = validHeader(o);
      ByteView.of(b, o, "x"); // keep order handy
      b[4] = (byte) (o == LE ? version : version >> 8);
      b[5] = (byte) (o == LE ? version >> 8 : version);
      assertThat(errorOf(b)).isEqualTo("unsupported GSYM version " + version);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 3, 5, 6, 7, 9, 16, 255})
  void badAddrOffSize(int size) {
    byte[] b = validHeader(BE);
    b[6] = (byte) size;
    assertThat(errorOf(b)).isEqualTo("invalid address offset size " + size);
  }

  @ParameterizedTest
  @ValueSource(ints = {21, 32, 255})
  void badUuidSize(int size) {
    byte[] b = validHeader(LE);
    b[7] = (byte) size;
    assertThat(errorOf(b)).isEqualTo("invalid UUID size " + size);
  }

  @Test
  void validationOrderIsVersionThenOffsetSizeThenUuid() {
    byte[] b = validHeader(LE);
    b[4] = 3;
    b[6] = 3;
    b[7] = 99;
    assertThat(errorOf(b)).isEqualTo("unsupported GSYM version 3");
    b[4] = 1;
    assertThat(errorOf(b)).isEqualTo("invalid address offset size 3");
    b[6] = 8;
    assertThat(errorOf(b)).isEqualTo("invalid UUID size 99");
  }

  @Test
  void encodeValidatesToo() {
    assertThatThrownBy(() -> encode(new Header(2, 4, 0, 0, 0, 0, null), LE))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("unsupported GSYM version 2");
    assertThatThrownBy(() -> encode(new Header(1, 3, 0, 0, 0, 0, null), LE))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("invalid address offset size 3");
    assertThatThrownBy(() -> encode(new Header(1, 4, 0, 0, 0, 0, new byte[21]), LE))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("invalid UUID size 21");
  }

  @Test
  void dumpMatchesLlvm() {
    Header h = new Header(1, 4, 0x400000, 2, 0x4c, 7, new byte[] {1, 2, 3, 4});
    assertThat(h.toString()).isEqualTo("""
        Header:
          Magic        = 0x4753594d
          Version      = 0x0001
          AddrOffSize  = 0x04
          UUIDSize     = 0x04
          BaseAddress  = 0x0000000000400000
          NumAddresses = 0x00000002
          StrtabOffset = 0x0000004c
          StrtabSize   = 0x00000007
          UUID         = 01020304
        """);
    assertThat(new Header(1, 1, 0, 0, 0, 0, null).toString()).contains("  UUID         = \n");
  }
}
