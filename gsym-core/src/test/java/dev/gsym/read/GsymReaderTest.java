package dev.gsym.read;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.Hex;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lookups and dumps on the vector files, compared with llvm-gsymutil-22's output. */
class GsymReaderTest {

  static String lookups(String name, long... addrs) throws Exception {
    StringBuilder sb = new StringBuilder("Looking up addresses in \"" + name + "\":\n");
    try (GsymReader r = GsymReader.open(TestData.path("vectors", name))) {
      for (long a : addrs) {
        try {
          r.lookup(a).withoutCallSites().appendTo(sb);
        } catch (LookupException | dev.gsym.GsymFormatException e) {
          Hex.append(sb, a, 16).append(": error: ").append(dev.gsym.testing.LookupErrors.llvm(e)).append('\n');
        }
      }
    }
    return sb.toString();
  }

  @Test
  void vecA() throws Exception {
    assertThat(lookups("A.gsym", 0x1000, 0x1008, 0x1010, 0x1020, 0x1025, 0x1031, 0x1040, 0x1100, 0x5000, 0xfff))
        .isEqualTo("""
            Looking up addresses in "A.gsym":
            0x0000000000001000: sym_zero_first
            0x0000000000001008: sym_zero_first + 8
            0x0000000000001010: error: address 0x1010 is not in GSYM
            0x0000000000001020: lt_func @ C:\\win\\b.c:50
            0x0000000000001025: lt_func + 5 @ C:\\win\\b.c:10
            0x0000000000001031: lt_func + 17 @ nodir.c:1000
            0x0000000000001040: error: address 0x1040 is not in GSYM
            0x0000000000001100: last_zero
            0x0000000000005000: last_zero + 16128
            0x0000000000000fff: error: address 0xfff is not in GSYM
            """);
  }

  @Test
  void vecB() throws Exception {
    assertThat(lookups("B.gsym", 0x401005, 0x412350, 0x413345)).isEqualTo("""
        Looking up addresses in "B.gsym":
        0x0000000000401005: f1 + 5
        0x0000000000412350: error: address 0x412350 is not in GSYM
        0x0000000000413345: f2
        """);
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "B.gsym"))) {
      assertThat(r.byteOrder()).isEqualTo(ByteOrder.BIG_ENDIAN);
      assertThat(r.uuid()).containsExactly(1, 2, 3, 4);
    }
  }

  @Test
  void vecC() throws Exception {
    assertThat(lookups("C.gsym", 0x15, 0x20, 0x100000015L)).isEqualTo("""
        Looking up addresses in "C.gsym":
        0x0000000000000015: lo + 5
        0x0000000000000020: error: address 0x20 is not in GSYM
        0x0000000100000015: hi + 5
        """);
  }

  @Test
  void vecD() throws Exception {
    assertThat(lookups("D.gsym", 0x100, 0x115, 0x125, 0x205, 0x225, 0x245, 0x300, 0x400, 0x405, 0x4f0, 0x500,
        0x510, 0x540)).isEqualTo("""
        Looking up addresses in "D.gsym":
        0x0000000000000100: outerX
        0x0000000000000115: innerY_contained + 5
        0x0000000000000125: error: address 0x125 is not in GSYM
        0x0000000000000205: X_c + 5
        0x0000000000000225: Y_c_overlapping + 5
        0x0000000000000245: Y_c_overlapping + 37
        0x0000000000000300: dbg @ /x/y.c:7
        0x0000000000000400: real_after_zero
        0x0000000000000405: real_after_zero + 5
        0x00000000000004f0: containing
        0x0000000000000500: zero_before_containing
        0x0000000000000510: zero_before_containing + 16
        0x0000000000000540: zero_before_containing + 64
        """);
  }

  @Test
  void vecE() throws Exception {
    assertThat(lookups("E.gsym", 0x1000, 0x1004, 0x1010, 0x101e, 0x1149, 0x114a, 0x3000, 0x3105, 0x3209))
        .isEqualTo("""
            Looking up addresses in "E.gsym":
            0x0000000000001000: deltas @ /l/t.c:10
            0x0000000000001004: deltas + 4 @ /l/t.c:12
            0x0000000000001010: deltas + 16 @ /l/t.c:100
            0x000000000000101e: deltas + 30 @ /l/t.c:6
            0x0000000000001149: deltas + 329 @ /l/t.c:6
            0x000000000000114a: deltas + 330 @ /l/t.c:7
            0x0000000000003000: one_row @ /l/t.c:42
            0x0000000000003105: same_delta + 5 @ /l/t.c:5
            0x0000000000003209: neg_delta + 9 @ /l/t.c:26
            """);
  }

  @Test
  void vecF() throws Exception {
    assertThat(lookups("F.gsym", 0x110, 0x130, 0x205, 0x215, 0x315, 0x409, 0x412, 0x41a, 0x424)).isEqualTo("""
        Looking up addresses in "F.gsym":
        0x0000000000000110: short_same_start + 16
        0x0000000000000130: long_same_start + 48
        0x0000000000000205: error: address 0x205 is not in the line table
        0x0000000000000215: late_first_row + 21 @ /f/main.c:5
        0x0000000000000315: inl_no_lt + 21
        0x0000000000000409: inl_mid_nofile + 9 @ /f/main.c:1
        0x0000000000000412: deep + 2 @ /f/inc.h:2 [inlined]
                            inl_mid_nofile + 18 @ /f/main.c:3
        0x000000000000041a: inl_mid_nofile + 26 @ /f/inc.h:2
        0x0000000000000424: deep + 20 @ /f/inc.h:2 [inlined]
                            inl_mid_nofile + 36 @ /f/main.c:3
        """);
  }

  @Test
  void vecG() throws Exception {
    assertThat(lookups("G.gsym", 0x2008, 0x2010)).isEqualTo("""
        Looking up addresses in "G.gsym":
        0x0000000000002008: top + 8 @ /m/m.c:11
        0x0000000000002010: top + 16 @ /m/m.c:11
        """);
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "G.gsym"))) {
      assertThat(r.lookup(0x2008).callSiteFuncRegex()).containsExactly("^foo$", "bar.*");
      assertThat(r.lookup(0x2009).callSiteFuncRegex()).isEmpty();
      assertThat(r.lookup(0x2008).callSiteFlags()).isEqualTo(CallSiteInfo.INTERNAL_CALL | CallSiteInfo.EXTERNAL_CALL);
      assertThat(r.lookup(0x2010).callSiteFlags()).isEqualTo(CallSiteInfo.EXTERNAL_CALL); // no regex
      assertThat(r.lookup(0x2009).callSiteFlags()).isZero();
      assertThat(r.lookupAll(0x2008).get(1).callSiteFlags()).isZero(); // the child's own call site
      List<LookupResult> all = r.lookupAll(0x2008);
      assertThat(all).hasSize(2);
      assertThat(all.get(0).toString()).isEqualTo("0x0000000000002008: top + 8 @ /m/m.c:11\n      CallSites: ^foo$, bar.*\n");
      assertThat(all.get(1).toString()).isEqualTo("0x0000000000002008: inl + 4 @ /m/m.c:20 [inlined]\n"
          + "                    merged_child + 8 @ /m/m.c:21\n      CallSites: baz\n");
      assertThat(r.lookupAll(0x2005).get(1).toString()).isEqualTo("0x0000000000002005: inl + 1 @ /m/m.c:20 [inlined]\n"
          + "                    merged_child + 5 @ /m/m.c:21\n");
      assertThat(r.lookupAll(0x2010).get(1).toString()).isEqualTo("0x0000000000002010: merged_child + 16 @ /m/m.c:20\n");
      assertThatThrownBy(() -> r.lookupAll(0x2020)).isInstanceOf(LookupException.class)
          .hasMessage("address 0x2020 is not in GSYM");
    }
  }

  @Test
  void vec2Inlining() throws Exception {
    assertThat(lookups("t2.gsym", 0x1158, 0x115b)).isEqualTo("""
        Looking up addresses in "t2.gsym":
        0x0000000000001158: leaf + 2 @ /tmp/specwork/v2/t2.c:5 [inlined]
                            middle + 7 @ /tmp/specwork/v2/t2.c:12 [inlined]
                            outer + 8 @ /tmp/specwork/v2/t2.c:16
        0x000000000000115b: middle + 10 @ /tmp/specwork/v2/t2.c:11 [inlined]
                            outer + 11 @ /tmp/specwork/v2/t2.c:16
        """);
  }

  @Test
  void fileZeroRowFailsTheLookupLikeLlvm() throws Exception {
    // F.gsym with inl_mid_nofile's "SetFile 2" patched to "SetFile 0"; expected text from llvm-gsymutil-22
    byte[] b = Files.readAllBytes(TestData.path("vectors", "F.gsym"));
    assertThat(b[0x15d]).isEqualTo((byte) 2);
    b[0x15d] = 0;
    StringBuilder sb = new StringBuilder();
    try (GsymReader r = GsymReader.of(b, "F0.gsym")) {
      for (long a : new long[] {0x405, 0x412, 0x41a}) {
        try {
          r.lookup(a).appendTo(sb);
        } catch (LookupException | dev.gsym.GsymFormatException e) {
          Hex.append(sb, a, 16).append(": error: ").append(dev.gsym.testing.LookupErrors.llvm(e)).append('\n');
        }
      }
      assertThat(sb.toString()).isEqualTo("""
          0x0000000000000405: inl_mid_nofile + 5 @ /f/main.c:1
          0x0000000000000412: error: address 0x412 is not in the line table
          0x000000000000041a: error: address 0x41a is not in the line table
          """);
      StringBuilder dump = new StringBuilder();
      r.dump(dump);
      assertThat(dump.toString()).contains("  0x0000000000000400 /f/main.c:1\n  0x0000000000000410 :2\n");
    }
  }

  @Test
  void vec1GapAndSizeZero() throws Exception {
    String out = lookups("t1.gsym", 0x1010, 0x1158);
    assertThat(out).contains("0x0000000000001010: _init + 16\n")
        .contains("0x0000000000001158: error: address 0x1158 is not in GSYM\n");
  }

  @Test
  void dumpOfA() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "A.gsym"))) {
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      assertThat(sb.toString()).startsWith("""
          Header:
            Magic        = 0x4753594d
            Version      = 0x0001
            AddrOffSize  = 0x02
            UUIDSize     = 0x00
            BaseAddress  = 0x0000000000001000
            NumAddresses = 0x00000003
            StrtabOffset = 0x00000068
            StrtabSize   = 0x0000004c
            UUID         =\s

          Address Table:
          INDEX  OFFSET16 (ADDRESS)
          ====== =============================== \n""").endsWith("""
          FunctionInfo @ 0x000000b4: [0x0000000000001000 - 0x0000000000001010) "sym_zero_first"
          FunctionInfo @ 0x000000c4: [0x0000000000001020 - 0x0000000000001040) "lt_func"
          LineTable:
            0x0000000000001020 C:\\win\\b.c:50
            0x0000000000001024 C:\\win\\b.c:10
            0x0000000000001030 nodir.c:1000
            0x0000000000001034 /src/dir/a.c:999
          FunctionInfo @ 0x000000f4: [0x0000000000001100 - 0x0000000000001100) "last_zero"
          """);
    }
  }

  @Test
  void dumpOfFInlineAndG() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "F.gsym"))) {
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      assertThat(sb.toString()).endsWith("""
          InlineInfo:
          [0x0000000000000400 - 0x0000000000000440) inl_mid_nofile
            [0x0000000000000408 - 0x0000000000000430) mid
              [0x0000000000000410 - 0x0000000000000418) [0x0000000000000420 - 0x0000000000000428) deep called from /f/main.c:3
          """);
    }
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "G.gsym"))) {
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      assertThat(sb.toString()).endsWith("""
          FunctionInfo @ 0x0000007c: [0x0000000000002000 - 0x0000000000002020) "top"
          LineTable:
            0x0000000000002000 /m/m.c:10
            0x0000000000002008 /m/m.c:11
          CallSites (by relative return offset):
            0x0008 Flags[InternalCall | ExternalCall] MatchRegex[^foo$;bar.*]
            0x0010 Flags[ExternalCall]
          ++ Merged FunctionInfos[0]:
              [0x0000000000002000 - 0x0000000000002020) "merged_child"
              LineTable:
                0x0000000000002000 /m/m.c:20
              [0x0000000000002000 - 0x0000000000002020) merged_child
                [0x0000000000002004 - 0x000000000000200c) inl called from /m/m.c:21
              CallSites (by relative return offset):
                0x0008 Flags[None] MatchRegex[baz]
          """);
    }
  }

  @Test
  void inMemoryAndMappedAgree() throws Exception {
    byte[] bytes = Files.readAllBytes(TestData.path("vectors", "t1.gsym"));
    try (GsymReader a = GsymReader.of(bytes, "t1"); GsymReader b = GsymReader.open(TestData.path("vectors", "t1.gsym"))) {
      assertThat(a.numFunctions()).isEqualTo(10);
      for (int i = 0; i < a.numFunctions(); i++) {
        long addr = a.functionAddress(i);
        assertThat(a.lookup(addr)).isEqualTo(b.lookup(addr));
        assertThat(a.functionInfo(addr)).isEqualTo(b.functionInfoAtIndex(i));
      }
    }
  }
}
