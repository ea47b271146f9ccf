package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.GlobalData;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GSYM version 2 files written here from the layout of LLVM main's HeaderV2.h and GlobalData.h
 * (not through GsymCreator): every address-offset size from 1 to 8, both byte orders, with and
 * without a UUID; string offsets of 1 to 8 bytes in the codecs; and corrupt directories, each
 * refused with one clear error.
 */
class Version2FileTest {
  static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

  /** A hand-built version 2 file: two functions "alpha" and "beta", one file, any layout knobs. */
  static final class V2 {
    ByteOrder order = LE;
    int addrOffSize = 4;
    int strTableEncoding = 0;
    byte[] uuid = new byte[0];
    long base = 0x400000;
    long[] starts = {0x400000, 0x4000f0};
    /** Edits the directory (type, offset, size triples) before it is written. */
    Consumer<List<long[]>> editDirectory = d -> {};
    /** Directory entries the edit adds (room is left for them). */
    int extraEntries = 0;

    byte[] build() {
      byte[] strtab = "\0alpha\0beta\0/src\0a.c\0".getBytes(StandardCharsets.UTF_8);
      // FunctionInfo section: two records, 8-byte names, 4-aligned
      GsymWriter fi = new GsymWriter(order, 0, 64, 8);
      long[] rel = new long[2];
      long[] names = {1, 7};
      long[] sizes = {0x20, 0x40};
      for (int i = 0; i < 2; i++) {
        fi.alignTo(4);
        rel[i] = fi.length();
        FunctionInfo f = new FunctionInfo(new AddressRange(starts[i], starts[i] + sizes[i]), (int) names[i],
            new LineTable(List.of(new LineEntry(starts[i], 1, 10 + i))), null, null, null);
        f.encode(fi);
      }
      byte[] fis = fi.toByteArray();
      int entries = 5 + (uuid.length > 0 ? 1 : 0) + 1 + extraEntries;
      long cur = 20 + entries * 20L;
      long uuidAt = cur;
      cur += uuid.length;
      long addrAt = align(cur, addrOffSize);
      cur = addrAt + 2L * addrOffSize;
      long infoAt = align(cur, 8);
      cur = infoAt + 16;
      long fileAt = align(cur, 4);
      long fileSize = 4 + 2 * 16;
      long strAt = fileAt + fileSize;
      long fiAt = align(strAt + strtab.length, 4);
      List<long[]> dir = new ArrayList<>();
      if (uuid.length > 0) dir.add(new long[] {GlobalData.UUID, uuidAt, uuid.length});
      dir.add(new long[] {GlobalData.ADDR_OFFSETS, addrAt, 2L * addrOffSize});
      dir.add(new long[] {GlobalData.ADDR_INFO_OFFSETS, infoAt, 16});
      dir.add(new long[] {GlobalData.FILE_TABLE, fileAt, fileSize});
      dir.add(new long[] {GlobalData.STRING_TABLE, strAt, strtab.length});
      dir.add(new long[] {GlobalData.FUNCTION_INFO, fiAt, fis.length});
      editDirectory.accept(dir);
      GsymWriter w = new GsymWriter(order, 0, 512, 8);
      w.u32(0x4753594d);
      w.u16(2);
      w.u8(addrOffSize);
      w.u8(strTableEncoding);
      w.u64(base);
      w.u32(2);
      for (long[] e : dir) {
        w.u32(e[0]);
        w.u64(e[1]);
        w.u64(e[2]);
      }
      w.u32(0);
      w.u64(0);
      w.u64(0);
      // sections at their planned offsets (zero padding between them)
      pad(w, uuidAt);
      w.bytes(uuid);
      pad(w, addrAt);
      for (long s : starts) w.uN(s - base, Math.min(addrOffSize, 8));
      pad(w, infoAt);
      for (long r : rel) w.u64(r);
      pad(w, fileAt);
      w.u32(2);
      w.u64(0);
      w.u64(0);
      w.u64(12);
      w.u64(17);
      w.bytes(strtab);
      pad(w, fiAt);
      w.bytes(fis);
      return w.toByteArray();
    }

    private static void pad(GsymWriter w, long at) {
      while (w.position() < at) w.u8(0);
    }

    private static long align(long v, long a) {
      return (v + a - 1) / a * a;
    }
  }

  static List<Arguments> layouts() {
    List<Arguments> out = new ArrayList<>();
    for (int size = 1; size <= 8; size++) {
      for (ByteOrder order : List.of(LE, BE)) {
        for (boolean uuid : List.of(false, true)) out.add(Arguments.of(size, order, uuid));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "AddrOffSize {0}, {1}, UUID {2}")
  @MethodSource("layouts")
  void readsEveryLayout(int size, ByteOrder order, boolean withUuid) throws Exception {
    V2 v = new V2();
    v.order = order;
    v.addrOffSize = size;
    v.uuid = withUuid ? new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, 1, 2, 3, 4} : new byte[0];
    try (GsymReader r = GsymReader.of(v.build(), "hand.gsym")) {
      assertThat(r.version()).isEqualTo(2);
      assertThat(r.byteOrder()).isEqualTo(order);
      assertThat(r.header().addrOffSize()).isEqualTo(size);
      assertThat(r.uuid()).isEqualTo(v.uuid);
      assertThat(r.numFunctions()).isEqualTo(2);
      assertThat(r.functionAddress(1)).isEqualTo(0x4000f0);
      assertThat(r.lookup(0x400010).toString()).isEqualTo("0x0000000000400010: alpha + 16 @ /src/a.c:10\n");
      assertThat(r.lookup(0x4000f1).toString()).isEqualTo("0x00000000004000f1: beta + 1 @ /src/a.c:11\n");
      assertThatThrownBy(() -> r.lookup(0x400020)).isInstanceOf(LookupException.class)
          .hasMessage("address 0x400020 is not in GSYM");
      assertThatThrownBy(() -> r.lookup(0x3fffff)).isInstanceOf(LookupException.class);
      StringBuilder dump = new StringBuilder();
      r.dump(dump);
      assertThat(dump.toString()).startsWith("Header:\n  Magic          = 0x4753594d\n  Version        = 0x0002\n")
          .contains("String table:\n0x0000000000000000: \"\"\n0x0000000000000001: \"alpha\"\n")
          .contains("[   1] 0x000000000000000c 0x0000000000000011 /src/a.c\n".replace("0x000000000000000c", "0x0000000c")
              .replace("0x0000000000000011", "0x00000011"))
          .contains("FunctionInfo @ ")
          .contains("\"beta\"\nLineTable:\n  0x00000000004000f0 /src/a.c:11\n");
      assertThat(dump.toString().contains("UUID:\ndeadbeef01020304\n\n")).isEqualTo(withUuid);
      if (size == 1 || size == 2 || size == 4 || size == 8) {
        assertThat(dump.toString()).doesNotContain("??");
      }
    }
  }

  /** The dump of a small file, every line as llvm main's GsymReaderV2::dump prints it. */
  @Test
  void dumpText() {
    V2 v = new V2();
    v.addrOffSize = 2;
    v.uuid = new byte[] {0x01, 0x23};
    StringBuilder sb = new StringBuilder();
    try (GsymReader r = GsymReader.of(v.build(), "hand.gsym")) {
      r.dump(sb);
    }
    assertThat(sb.toString()).isEqualTo("""
        Header:
          Magic          = 0x4753594d
          Version        = 0x0002
          AddrOffSize    = 0x02
          StrTableEnc    = 0x00
          BaseAddress    = 0x0000000000400000
          NumAddresses   = 0x00000002

        Global Data Sections:
        TYPE            FILE OFFSET         FILE SIZE
        =============== ==================  ==================
        UUID            0x00000000000000a0  0x0000000000000002
        AddrOffsets     0x00000000000000a2  0x0000000000000004
        AddrInfoOffsets 0x00000000000000a8  0x0000000000000010
        FileTable       0x00000000000000b8  0x0000000000000024
        StringTable     0x00000000000000dc  0x0000000000000015
        FunctionInfo    0x00000000000000f4  0x0000000000000045
        EndOfList       0x0000000000000000  0x0000000000000000

        UUID:
        0123

        Address Table:
        INDEX  OFFSET 16 (ADDRESS 64)
        ====== ========================================
        [   0] 0x0000 (0x0000000000400000)
        [   1] 0x00f0 (0x00000000004000f0)

        Address Info Offsets:
        INDEX  OFFSET 64 (FILE OFFSET 64)
        ====== ========================================
        [   0] 0x0000000000000000 (0x00000000000000f4)
        [   1] 0x0000000000000024 (0x0000000000000118)

        Files:
        INDEX  DIRECTORY  BASENAME   PATH
        ====== ========== ========== ========================================
        [   0] 0x00000000 0x00000000\s
        [   1] 0x0000000c 0x00000011 /src/a.c

        String table:
        0x0000000000000000: ""
        0x0000000000000001: "alpha"
        0x0000000000000007: "beta"
        0x000000000000000c: "/src"
        0x0000000000000011: "a.c"

        FunctionInfo @ 0x000000f4: [0x0000000000400000 - 0x0000000000400020) "alpha"
        LineTable:
          0x0000000000400000 /src/a.c:10
        FunctionInfo @ 0x00000118: [0x00000000004000f0 - 0x0000000000400130) "beta"
        LineTable:
          0x00000000004000f0 /src/a.c:11
        """);
  }

  private static GsymFormatException refused(V2 v) {
    try {
      GsymReader.of(v.build(), "bad.gsym").close();
    } catch (GsymFormatException e) {
      assertThat(e.source()).isEqualTo("bad.gsym");
      return e;
    }
    throw new AssertionError("accepted");
  }

  private static V2 editing(Consumer<List<long[]>> edit) {
    V2 v = new V2();
    v.editDirectory = edit;
    return v;
  }

  @Test
  void corruptDirectoriesAreRefusedWithOneClearError() {
    assertThat(refused(editing(d -> d.get(3)[2] = 0)).detail()).isEqualTo("GlobalData section type 3 has zero size");
    assertThat(refused(editing(d -> d.get(4)[1] = 1L << 40)).detail())
        .startsWith("GlobalData section type 5 extends beyond buffer (offset=1099511627776, size=");
    assertThat(refused(editing(d -> d.get(4)[2] = -1L)).detail())
        .startsWith("GlobalData section type 5 extends beyond buffer");
    assertThat(refused(editing(d -> d.add(d.getFirst().clone()))).detail())
        .startsWith("GlobalData section type 1 (AddrOffsets) is listed twice (first at offset 0x14)");
    long[] types = {GlobalData.ADDR_OFFSETS, GlobalData.ADDR_INFO_OFFSETS, GlobalData.STRING_TABLE,
        GlobalData.FILE_TABLE, GlobalData.FUNCTION_INFO};
    String[] names = {"AddrOffsets", "AddrInfoOffsets", "StringTable", "FileTable", "FunctionInfo"};
    for (int i = 0; i < types.length; i++) {
      long type = types[i];
      // the entry is replaced by an unknown type, so the directory keeps its length
      GsymFormatException e = refused(editing(d -> d.stream().filter(x -> x[0] == type).forEach(x -> x[0] = 77)));
      assertThat(e.detail()).isEqualTo("missing required section type " + names[i] + " (" + type + ")");
    }
    assertThat(refused(editing(d -> d.get(0)[2] = 4)).detail()).isEqualTo("AddrOffsets section size mismatch");
    assertThat(refused(editing(d -> d.get(1)[2] = 8)).detail()).isEqualTo("AddrInfoOffsets section size mismatch");
    assertThat(refused(editing(d -> d.get(2)[2] = 20)).detail()).isEqualTo("FileTable section too small for 2 files");
    // a header and two entries, then the end of the file: no EndOfList
    GsymWriter open = new GsymWriter(LE, 0, 64, 8);
    open.u32(0x4753594d);
    open.u16(2);
    open.u8(4);
    open.u8(0);
    open.u64(0x1000);
    open.u32(1);
    open.u32(1);
    open.u64(0);
    open.u64(4);
    open.u32(99);
    open.u64(0);
    open.u64(4);
    assertThatThrownBy(() -> GsymReader.of(open.toByteArray(), "bad.gsym")).isInstanceOf(GsymFormatException.class)
        .hasMessage("bad.gsym: offset 0x0000003c: GlobalData array not terminated by EndOfList");
    V2 badSize = new V2();
    badSize.addrOffSize = 9;
    assertThat(refused(badSize).detail()).isEqualTo("invalid address offset size 9");
    V2 badEnc = new V2();
    badEnc.strTableEncoding = 1;
    assertThat(refused(badEnc).detail()).isEqualTo("unsupported string table encoding 1");
  }

  /** An unknown section type is skipped, as LLVM keeps but never uses it; the dump names it. */
  @Test
  void unknownSectionTypeIsSkipped() {
    V2 v = editing(d -> d.add(new long[] {99, 0, 4}));
    v.extraEntries = 1;
    try (GsymReader r = GsymReader.of(v.build(), "x.gsym")) {
      assertThat(r.lookup(0x400000).toString()).contains("alpha");
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      assertThat(sb.toString()).contains("\nUnknown         0x0000000000000000  0x0000000000000004\n");
    }
  }

  static List<Arguments> strpSizes() {
    List<Arguments> out = new ArrayList<>();
    for (int n = 1; n <= 8; n++) for (ByteOrder o : List.of(LE, BE)) out.add(Arguments.of(n, o));
    return out;
  }

  /** Records and file tables with string offsets of every size from 1 to 8 bytes decode to what was encoded. */
  @ParameterizedTest(name = "strp {0} bytes, {1}")
  @MethodSource("strpSizes")
  void stringOffsetsOfEverySize(int n, ByteOrder order) {
    int big = n == 1 ? 0xfe : 0x1234 & (int) ((1L << (8 * Math.min(n, 3))) - 1);
    InlineInfo inline = new InlineInfo(List.of(new AddressRange(0x1000, 0x1100)), big, 0, 0,
        List.of(new InlineInfo(List.of(new AddressRange(0x1010, 0x1020)), 3, 1, 7, List.of())));
    FunctionInfo merged = new FunctionInfo(new AddressRange(0x1000, 0x1100), 5);
    FunctionInfo fi = new FunctionInfo(new AddressRange(0x1000, 0x1100), big,
        new LineTable(List.of(new LineEntry(0x1000, 1, 3))), inline,
        new MergedFunctionsInfo(List.of(merged)),
        new CallSiteInfoCollection(List.of(new CallSiteInfo(0x10, 1, List.of(big, 9)))));
    GsymWriter w = new GsymWriter(order, 0, 64, n);
    fi.encode(w);
    byte[] bytes = w.toByteArray();
    ByteView v = ByteView.of(bytes, order, "t").withStrpSize(n);
    assertThat(FunctionInfo.decode(v.cursor(0), 0x1000)).isEqualTo(fi);
    GsymWriter w4 = new GsymWriter(order);
    fi.encode(w4);
    // each string offset takes n bytes instead of 4: name, inline name x2, merged name, 2 regexes
    assertThat(bytes.length - w4.length()).isEqualTo(6 * (n - 4));

    GsymWriter ft = new GsymWriter(order, 0, 64, n);
    FileTable.encode(ft, List.of(new FileEntry(0, 0), new FileEntry(big, 2)));
    byte[] fb = ft.toByteArray();
    assertThat(fb.length).isEqualTo(FileTable.encodedSize(2, n));
    FileTable t = FileTable.bindV2(ByteView.of(fb, order, "t").withStrpSize(n), 0, fb.length);
    assertThat(t.count()).isEqualTo(2);
    assertThat(t.get(1)).isEqualTo(new FileEntry(big, 2));
    assertThat(t.isUnnamed(0)).isTrue();
    assertThat(t.isUnnamed(1)).isFalse();
  }

  /** An 8-byte string offset of 4 GiB or more reads as past the table: "" (as LLVM for any offset past it). */
  @Test
  void hugeStringOffsetReadsAsPastTheTable() {
    GsymWriter w = new GsymWriter(LE, 0, 16, 8);
    w.u64(1L << 33);
    assertThat(ByteView.of(w.toByteArray(), LE, "t").withStrpSize(8).cursor(0).strp()).isEqualTo(-1);
  }
}
