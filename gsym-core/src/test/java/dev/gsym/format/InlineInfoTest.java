package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InlineInfoTest {
  private static AddressRange r(long start, long end) {
    return new AddressRange(start, end);
  }

  private static InlineInfo node(List<AddressRange> ranges, int name, int file, int line, InlineInfo... kids) {
    return new InlineInfo(ranges, name, file, line, List.of(kids));
  }

  static final InlineInfo VEC2_OUTER = node(List.of(r(0x1150, 0x1186)), 1, 0, 0,
      node(List.of(r(0x1151, 0x116a), r(0x1181, 0x1186)), 0x1d, 1, 16,
          node(List.of(r(0x1151, 0x1156)), 0x24, 1, 11),
          node(List.of(r(0x1156, 0x115b), r(0x1161, 0x1167)), 0x24, 1, 12),
          node(List.of(r(0x1181, 0x1186)), 0x24, 1, 0)));

  static final String VEC2_OUTER_HEX = "01 00 36 01 01000000 00 00"
      + " 02 01 19 31 05 01 1d000000 01 10"
      + " 01 00 05 00 24000000 01 0b"
      + " 02 05 05 10 06 00 24000000 01 0c"
      + " 01 30 05 00 24000000 01 00"
      + " 00 00";

  static final InlineInfo VEC4F_MID_NOFILE = node(List.of(r(0x400, 0x440)), 0x51, 0, 0,
      node(List.of(r(0x408, 0x430)), 0x60, 0, 9,
          node(List.of(r(0x410, 0x418), r(0x420, 0x428)), 0x64, 1, 3)));

  static final String VEC4F_HEX = "01 00 40 01 51000000 00 00 01 08 28 01 60000000 00 09"
      + " 02 08 08 18 08 00 64000000 01 03 00 00";

  private static String encode(InlineInfo ii, long base, ByteOrder o) {
    GsymWriter w = new GsymWriter(o);
    ii.encode(w, base);
    return HexFormat.of().formatHex(w.toByteArray());
  }

  private static Cursor cursor(String hex, ByteOrder o) {
    return ByteView.of(HexFormat.of().parseHex(hex.replace(" ", "")), o, "ii").cursor(0);
  }

  @Test
  void vec2OuterPayloadExactly() {
    String hex = VEC2_OUTER_HEX.replace(" ", "");
    assertThat(hex).hasSize(56 * 2);
    assertThat(encode(VEC2_OUTER, 0x1150, ByteOrder.LITTLE_ENDIAN)).isEqualTo(hex);
    Cursor c = cursor(hex, ByteOrder.LITTLE_ENDIAN);
    assertThat(InlineInfo.decode(c, 0x1150)).isEqualTo(VEC2_OUTER);
    assertThat(c.remaining()).isZero();
    assertThat(VEC2_OUTER.totalChildren()).isEqualTo(4);
  }

  @Test
  void vec4FPayloadExactly() {
    String hex = VEC4F_HEX.replace(" ", "");
    assertThat(hex).hasSize(0x22 * 2);
    assertThat(encode(VEC4F_MID_NOFILE, 0x400, ByteOrder.LITTLE_ENDIAN)).isEqualTo(hex);
    assertThat(InlineInfo.decode(cursor(hex, ByteOrder.LITTLE_ENDIAN), 0x400)).isEqualTo(VEC4F_MID_NOFILE);
  }

  @Test
  void bigEndianNames() {
    String be = encode(VEC2_OUTER, 0x1150, ByteOrder.BIG_ENDIAN);
    assertThat(be).isEqualTo(("01 00 36 01 00000001 00 00"
        + " 02 01 19 31 05 01 0000001d 01 10"
        + " 01 00 05 00 00000024 01 0b"
        + " 02 05 05 10 06 00 00000024 01 0c"
        + " 01 30 05 00 00000024 01 00"
        + " 00 00").replace(" ", ""));
    assertThat(InlineInfo.decode(cursor(be, ByteOrder.BIG_ENDIAN), 0x1150)).isEqualTo(VEC2_OUTER);
  }

  record Frame(int name, int callFile, int callLine, long firstStart) {}

  private static List<Frame> frames(String hex, long base, long addr) {
    List<Frame> out = new ArrayList<>();
    InlineInfo.lookup(cursor(hex, ByteOrder.LITTLE_ENDIAN), base, addr,
        (n, f, l, s) -> out.add(new Frame(n, f, l, s)));
    return out;
  }

  @Test
  void lookupFramesDeepestFirst() {
    assertThat(frames(VEC2_OUTER_HEX, 0x1150, 0x1158)).containsExactly(
        new Frame(0x24, 1, 12, 0x1156), new Frame(0x1d, 1, 16, 0x1151), new Frame(1, 0, 0, 0x1150));
    assertThat(frames(VEC2_OUTER_HEX, 0x1150, 0x115b)).containsExactly(
        new Frame(0x1d, 1, 16, 0x1151), new Frame(1, 0, 0, 0x1150));
    assertThat(frames(VEC2_OUTER_HEX, 0x1150, 0x1183)).containsExactly(
        new Frame(0x24, 1, 0, 0x1181), new Frame(0x1d, 1, 16, 0x1151), new Frame(1, 0, 0, 0x1150));
    assertThat(frames(VEC2_OUTER_HEX, 0x1150, 0x1170)).containsExactly(new Frame(1, 0, 0, 0x1150));
    assertThat(frames(VEC2_OUTER_HEX, 0x1150, 0x1186)).isEmpty();
    assertThat(frames(VEC2_OUTER_HEX, 0x1150, 0x114f)).isEmpty();
  }

  @Test
  void lookupFramesThroughCallFileZeroNode() {
    // the CallFile-0 node 'mid' is reported; the reader drops it (see GsymReaderTest)
    assertThat(frames(VEC4F_HEX, 0x400, 0x424)).containsExactly(
        new Frame(0x64, 1, 3, 0x410), new Frame(0x60, 0, 9, 0x408), new Frame(0x51, 0, 0, 0x400));
    assertThat(frames(VEC4F_HEX, 0x400, 0x41a)).containsExactly(
        new Frame(0x60, 0, 9, 0x408), new Frame(0x51, 0, 0, 0x400));
  }

  @Test
  void rangesAreMergedAndEmptyOnesDropped() {
    InlineInfo ii = node(List.of(r(0x20, 0x30), r(0x10, 0x20), r(0x40, 0x40), r(0x50, 0x58), r(0x54, 0x60)), 5, 0, 0);
    assertThat(ii.ranges()).containsExactly(r(0x10, 0x30), r(0x50, 0x60));
    // decoding merges too: [0,4) [4,8) -> [0,8)
    InlineInfo d = InlineInfo.decode(cursor("02 00 04 04 04 00 05000000 00 00", ByteOrder.LITTLE_ENDIAN), 0x100);
    assertThat(d.ranges()).containsExactly(r(0x100, 0x108));
  }

  @Test
  void terminatorAndEmptyRangesDecodeAsInvalid() {
    assertThat(InlineInfo.decode(cursor("00", ByteOrder.LITTLE_ENDIAN), 0).isValid()).isFalse();
    assertThat(InlineInfo.decode(cursor("01 05 00", ByteOrder.LITTLE_ENDIAN), 0).isValid()).isFalse();
    assertThat(frames("01 05 00", 0, 5)).isEmpty();
  }

  @Test
  void encodeErrors() {
    InlineInfo bad = node(List.of(r(0x100, 0x110)), 1, 0, 0, node(List.of(r(0x108, 0x118)), 2, 1, 1));
    assertThatThrownBy(() -> encode(bad, 0x100, ByteOrder.LITTLE_ENDIAN))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("child range not contained in parent");
    InlineInfo gap = node(List.of(r(0x100, 0x110), r(0x120, 0x130)), 1, 0, 0,
        node(List.of(r(0x10c, 0x124)), 2, 1, 1));
    assertThatThrownBy(() -> encode(gap, 0x100, ByteOrder.LITTLE_ENDIAN))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("child range not contained in parent");
    assertThatThrownBy(() -> encode(node(List.of(), 1, 0, 0), 0, ByteOrder.LITTLE_ENDIAN))
        .isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("attempted to encode invalid InlineInfo object");
  }

  @Test
  void truncationErrors() {
    // decode: LLVM's checks, with LEB128 values past the end read as 0
    String[][] decode = {
        {"", "0x00000000: missing InlineInfo address ranges data"},
        {"01", null}, // the range reads as [0, 0): empty, so this is a terminator
        {"01 00", null},
        {"01 00 10", "0x00000003: missing InlineInfo uint8_t indicating children"},
        {"01 00 10 00", "0x00000004: missing InlineInfo uint32_t for name"},
        {"01 00 10 00 0100", "0x00000004: missing InlineInfo uint32_t for name"},
        {"01 00 10 00 01000000", "0x00000008: missing ULEB128 for InlineInfo call file"},
        {"01 00 10 00 01000000 00", "0x00000009: missing ULEB128 for InlineInfo call line"},
        {"01 00 10 01 01000000 00 00", "0x0000000a: missing InlineInfo address ranges data"},
        {"01 00 10 01 01000000 00 00 01 00 04", "0x0000000d: missing InlineInfo uint8_t indicating children"}};
    for (String[] t : decode) {
      if (t[1] == null) {
        assertThat(InlineInfo.decode(cursor(t[0], ByteOrder.LITTLE_ENDIAN), 0).isValid()).as(t[0]).isFalse();
      } else {
        assertThatThrownBy(() -> InlineInfo.decode(cursor(t[0], ByteOrder.LITTLE_ENDIAN), 0))
            .as(t[0]).isInstanceOf(GsymFormatException.class)
            .extracting(e -> ((GsymFormatException) e).detail()).isEqualTo(t[1]);
      }
    }
    // lookup: as LLVM's, every read is lenient (0 past the end)
    assertThat(frames("", 0, 1)).isEmpty();
    assertThat(frames("01", 0, 1)).isEmpty();
    assertThat(frames("01 00 10", 0, 1)).containsExactly(new Frame(0, 0, 0, 0)); // the rest reads as 0
    assertThat(frames("01 00 10 00", 0, 1)).containsExactly(new Frame(0, 0, 0, 0));
    assertThat(frames("01 00 10 01 01000000 00 00", 0, 1)).containsExactly(new Frame(1, 0, 0, 0));
    // a node not containing the address is skipped leniently, up to the end of the data
    assertThat(frames("01 00 10 01 01000000 00 00 01 08 04 01 02000000", 0, 1)).containsExactly(new Frame(1, 0, 0, 0));
  }

  /** n nested levels; every level's range is [base+off, +1). */
  private static byte[] nested(int levels, int off) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(HexFormat.of().parseHex("01000a01010000000000"));
    byte[] level = HexFormat.of().parseHex("01" + String.format("%02x", off) + "0101010000000000");
    for (int i = 0; i < levels; i++) out.writeBytes(level);
    return out.toByteArray();
  }

  @Test
  void hundredThousandLevelsAreAClearError() {
    for (int off : new int[] {0, 5}) {
      byte[] b = nested(100_000, off);
      ByteView v = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "deep");
      assertThatThrownBy(() -> InlineInfo.decode(v.cursor(0), 0))
          .isInstanceOf(GsymFormatException.class).hasMessageContaining("nested deeper");
      assertThatThrownBy(() -> InlineInfo.lookup(v.cursor(0), 0, 0, (n, f, l, s) -> {}))
          .isInstanceOf(GsymFormatException.class).hasMessageContaining("nested deeper");
    }
  }

  @Test
  void moderateNestingIsFine() {
    // 500 levels, all containing the address, properly terminated
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(nested(500, 0));
    for (int i = 0; i < 501; i++) out.write(0);
    // the innermost node has HasChildren=1 as well: its child list is the first terminator
    byte[] b = out.toByteArray();
    InlineInfo ii = InlineInfo.decode(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "d").cursor(0), 0);
    assertThat(ii.totalChildren()).isEqualTo(500);
    int[] count = {0};
    InlineInfo.lookup(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "d").cursor(0), 0, 0, (n, f, l, s) -> count[0]++);
    assertThat(count[0]).isEqualTo(501);
  }

  @Test
  void hugeRangeCountFailsCleanly() {
    String hex = "ffffffffffffffffff01 00 01";
    assertThatThrownBy(() -> InlineInfo.decode(cursor(hex, ByteOrder.LITTLE_ENDIAN), 0))
        .isInstanceOf(GsymFormatException.class);
    // the lookup reads the rest leniently and ends quickly with the one readable range
    assertThat(assertTimeoutPreemptivelyFrames(hex)).containsExactly(new Frame(0, 0, 0, 0));
  }

  private static List<Frame> assertTimeoutPreemptivelyFrames(String hex) {
    return org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(5),
        () -> frames(hex, 0, 0));
  }

  @Test
  void manyDescendingRangesDecodeInLinearTime() {
    // ranges in descending order (200k in the 1 MB input): a quadratic range set would take
    // minutes; CPU time compared across sizes, not a wall-clock limit (it failed under load)
    dev.gsym.testing.FuzzLimits.assertScalesLinearly("descending inline ranges", size -> {
      int n = size / 3; // 3 to 4 bytes per range
      GsymWriter w = new GsymWriter(ByteOrder.LITTLE_ENDIAN);
      w.uleb(n);
      for (int i = n; i > 0; i--) {
        w.uleb(4L * i);
        w.uleb(1);
      }
      w.u8(0);
      w.u32(1);
      w.uleb(0);
      w.uleb(0);
      return w.toByteArray();
    }, b -> {
      InlineInfo ii = InlineInfo.decode(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "r").cursor(0), 0);
      assertThat(ii.ranges().getFirst()).isEqualTo(r(4, 5));
    });
  }

  @Test
  void randomTreesRoundTrip() {
    Random rnd = new Random(3);
    for (int i = 0; i < 500; i++) {
      long base = rnd.nextLong() >>> 8;
      InlineInfo tree = randomNode(rnd, base, base + 1 + rnd.nextInt(10_000), 0);
      for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
        String hex = encode(tree, base, o);
        assertThat(InlineInfo.decode(cursor(hex, o), base)).isEqualTo(tree);
      }
    }
  }

  private static InlineInfo randomNode(Random rnd, long start, long end, int depth) {
    List<InlineInfo> kids = new ArrayList<>();
    long pos = start;
    while (depth < 5 && end - pos > 4 && rnd.nextInt(3) != 0) {
      long s = pos + rnd.nextInt((int) Math.min(end - pos - 2, 100));
      long e = s + 1 + rnd.nextInt((int) Math.min(end - s - 1, 1000));
      kids.add(randomNode(rnd, s, e, depth + 1));
      pos = e + 1;
    }
    return new InlineInfo(List.of(r(start, end)), rnd.nextInt(), rnd.nextInt(1000), rnd.nextInt(), kids);
  }
}
