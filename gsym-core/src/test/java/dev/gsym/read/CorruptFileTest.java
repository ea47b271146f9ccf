package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.gsym.GsymFormatException;
import dev.gsym.format.FunctionInfo;
import dev.gsym.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hostile and corrupt files: exactly one clear error, never a crash, a huge allocation or a hang. */
class CorruptFileTest {
  static final long BASE = 0x1000;

  /** Outcome of opening, dumping and looking up: the errors that escaped, in order. */
  static String exercise(byte[] bytes, long... addrs) {
    StringBuilder out = new StringBuilder();
    GsymReader r;
    try {
      r = GsymReader.of(bytes, "corrupt");
    } catch (GsymFormatException e) {
      return "open: " + e.detail();
    }
    try (r) {
      StringBuilder dump = new StringBuilder();
      r.dump(dump);
      for (String line : dump.toString().split("\n")) {
        if (line.contains("FunctionInfo:")) out.append("dump: ").append(line, line.indexOf("FunctionInfo:"), line.length()).append('\n');
      }
      for (long a : addrs) {
        try {
          r.lookup(a);
          out.append("lookup ok\n");
        } catch (LookupException | dev.gsym.GsymFormatException e) {
          out.append("lookup: ").append(dev.gsym.testing.LookupErrors.llvm(e)).append('\n');
        }
        try {
          r.lookupAll(a);
        } catch (LookupException | dev.gsym.GsymFormatException e) {
          out.append("lookupAll: ").append(dev.gsym.testing.LookupErrors.llvm(e)).append('\n');
        }
      }
    }
    return out.toString();
  }

  /** A little-endian file with one function per record at BASE + 0x100 * i (name strp 1 = "func"). */
  static byte[] file(byte[]... records) {
    int n = records.length;
    byte[] strtab = "\0func\0/d\0f.c\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    int addrAt = 48;
    int infoAt = align(addrAt + 2 * n, 4);
    int filesAt = infoAt + 4 * n;
    int strAt = filesAt + 4 + 16;
    int pos = strAt + strtab.length;
    int[] recAt = new int[n];
    for (int i = 0; i < n; i++) {
      pos = align(pos, 4);
      recAt[i] = pos;
      pos += records[i].length;
    }
    ByteBuffer bb = ByteBuffer.allocate(pos).order(ByteOrder.LITTLE_ENDIAN);
    bb.putInt(0x4753594d).putShort((short) 1).put((byte) 2).put((byte) 0).putLong(BASE).putInt(n)
        .putInt(strAt).putInt(strtab.length);
    bb.position(addrAt);
    for (int i = 0; i < n; i++) bb.putShort((short) (0x100 * i));
    bb.position(infoAt);
    for (int i = 0; i < n; i++) bb.putInt(recAt[i]);
    bb.putInt(2).putInt(0).putInt(0).putInt(6).putInt(9);
    bb.put(strtab);
    for (int i = 0; i < n; i++) {
      bb.position(recAt[i]);
      bb.put(records[i]);
    }
    return bb.array();
  }

  static int align(int v, int a) {
    return (v + a - 1) / a * a;
  }

  /** A record: Size 0x100, Name, then chunks (type, payload) and EndOfList. */
  static byte[] record(int name, Object... chunks) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer head = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0x100).putInt(name);
    out.writeBytes(head.array());
    for (int i = 0; i < chunks.length; i += 2) {
      byte[] payload = chunks[i + 1] instanceof String s ? HexFormat.of().parseHex(s.replace(" ", "")) : (byte[]) chunks[i + 1];
      out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt((Integer) chunks[i])
          .putInt(payload.length).array());
      out.writeBytes(payload);
    }
    out.writeBytes(new byte[8]);
    return out.toByteArray();
  }

  static final String LT = "00 00 01 04 00"; // one row at the function start, file 1 line 1

  @Test
  void sanityOfTheBuilder() {
    byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, LT), record(1));
    assertThat(exercise(f, BASE, BASE + 0x105)).isEqualTo("lookup ok\nlookup ok\n");
    try (GsymReader r = GsymReader.of(f, "ok")) {
      assertThat(r.lookup(BASE + 4).toString()).isEqualTo("0x0000000000001004: func + 4 @ /d/f.c:1\n");
    }
  }

  @Test
  void numAddressesHuge() throws Exception {
    byte[] b = Files.readAllBytes(TestData.path("vectors", "A.gsym"));
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 0xffffffff);
    assertThat(exercise(b)).isEqualTo("open: failed to read address table");
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 0x7fffffff);
    assertThat(exercise(b)).isEqualTo("open: failed to read address table");
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 40); // fits the address table, not the info table
    assertThat(exercise(b)).isEqualTo("open: failed to read address info offsets table");
  }

  @Test
  void tablesPastEof() throws Exception {
    byte[] a = Files.readAllBytes(TestData.path("vectors", "A.gsym"));
    // A: addresses 0x30..0x36, infos 0x38..0x44, files 0x44..0x68, strings 0x68..0xb4
    assertThat(exercise(Arrays.copyOf(a, 0x35))).isEqualTo("open: failed to read address table");
    assertThat(exercise(Arrays.copyOf(a, 0x40))).isEqualTo("open: failed to read address info offsets table");
    assertThat(exercise(Arrays.copyOf(a, 0x46))).isEqualTo("open: failed to read file table");
    assertThat(exercise(Arrays.copyOf(a, 0x60))).isEqualTo("open: failed to read file table");
    assertThat(exercise(Arrays.copyOf(a, 0x90))).isEqualTo("open: failed to read string table");
  }

  @ParameterizedTest
  @ValueSource(longs = {0xc0, 0xfffffff0L, 0x7fffffffL, 0x80000000L})
  void strtabOffsetOrSizePastEof(long value) throws Exception {
    byte[] a = Files.readAllBytes(TestData.path("vectors", "A.gsym"));
    byte[] off = a.clone();
    ByteBuffer.wrap(off).order(ByteOrder.LITTLE_ENDIAN).putInt(20, (int) value);
    assertThat(exercise(off)).isEqualTo("open: failed to read string table");
    byte[] size = a.clone();
    ByteBuffer.wrap(size).order(ByteOrder.LITTLE_ENDIAN).putInt(24, (int) value);
    assertThat(exercise(size)).isEqualTo("open: failed to read string table");
  }

  @ParameterizedTest
  @ValueSource(ints = {0x102, 0x103, 0x104, 0x7fffffff, 0x80000000, 0xffffffff})
  void infoOffsetPastEof(int value) throws Exception {
    byte[] a = Files.readAllBytes(TestData.path("vectors", "A.gsym")); // 0x104 bytes
    ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).putInt(0x40, value); // info offset of 'last_zero'
    String out = exercise(a, 0x1000, 0x1100, 0x5000);
    assertThat(out).startsWith("dump: FunctionInfo:").contains("lookup ok\n");
    assertThat(out).contains("lookup: ");
    try (GsymReader r = GsymReader.of(a, "a")) {
      assertThatThrownBy(() -> r.functionInfoAtIndex(2)).isInstanceOf(GsymFormatException.class);
      // a record offset past the end is corruption, named with the file and the offset, not a miss
      assertThatThrownBy(() -> r.lookup(0x1100)).isInstanceOf(GsymFormatException.class)
          .hasMessageStartingWith("a: offset 0x");
    }
  }

  @Test
  void infoLengthHuge() {
    byte[] rec = record(1);
    byte[] big = Arrays.copyOf(rec, rec.length + 8);
    ByteBuffer.wrap(big).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 1).putInt(12, 0xfffffff0);
    assertThat(exercise(file(big), BASE)).isEqualTo(
        "dump: FunctionInfo:0x00000010: missing FunctionInfo data for InfoType 1\n"
            + "lookup: FunctionInfo data is truncated\nlookupAll: FunctionInfo data is truncated\n");
  }

  @Test
  void stringOffsetsPastTheTableAreEmpty() {
    byte[] f = file(record(0x7ffffff0, FunctionInfo.LINE_TABLE_INFO, LT));
    try (GsymReader r = GsymReader.of(f, "s")) {
      LookupResult res = r.lookup(BASE);
      assertThat(res.functionName()).isEmpty();
      assertThat(r.string(-1)).isEmpty();
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      assertThat(sb.toString()).contains("FunctionInfo @ ").contains(") \"\"\n");
    }
  }

  @Test
  void nameZero() {
    String out = exercise(file(record(0)), BASE);
    assertThat(out).isEqualTo("dump: FunctionInfo:0x00000004: invalid FunctionInfo Name value 0x00000000\n"
        + "lookup: 0x00000004: invalid FunctionInfo Name value 0x00000000\n"
        + "lookupAll: 0x00000004: invalid FunctionInfo Name value 0x00000000\n");
  }

  @Test
  void unknownInfoTypeIsSkippedByLookups() {
    byte[] f = file(record(1, 7, "0102030405", FunctionInfo.LINE_TABLE_INFO, LT));
    assertThat(exercise(f, BASE)).isEqualTo("dump: FunctionInfo:0x00000008: unsupported InfoType 7\nlookup ok\n");
    try (GsymReader r = GsymReader.of(f, "u")) {
      assertThat(r.lookup(BASE + 1).toString()).isEqualTo("0x0000000000001001: func + 1 @ /d/f.c:1\n");
    }
  }

  @Test
  void lineTableMaxDeltaBelowMinDelta() {
    // LineRange 0 would divide by zero (llvm-gsymutil crashes): a clear error
    byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, "01 00 01 04 10 00"));
    String out = exercise(f, BASE + 1);
    assertThat(out).contains("dump: FunctionInfo:").contains("invalid LineTable delta range [1, 0]")
        .contains("lookup: ").doesNotContain("lookup ok");
    // a negative LineRange decodes with C++ division semantics, as LLVM
    byte[] g = file(record(1, FunctionInfo.LINE_TABLE_INFO, "05 02 01 04 10 00"));
    assertThat(exercise(g, BASE + 1)).isEqualTo("lookup ok\n");
  }

  @Test
  void lineTableBadFileIndex() {
    byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, "00 00 01 01 07 04 00"));
    assertThat(exercise(f, BASE)).isEqualTo("lookup: failed to extract file[7]\nlookupAll: failed to extract file[7]\n");
  }

  @Test
  void lebRunsOf0x80() {
    byte[] run = new byte[10_000];
    Arrays.fill(run, (byte) 0x80);
    for (int type : new int[] {FunctionInfo.LINE_TABLE_INFO, FunctionInfo.INLINE_INFO}) {
      byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, type == 1 ? run : HexFormat.of().parseHex(LT.replace(" ", "")),
          type, run));
      String out = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> exercise(f, BASE));
      if (type == FunctionInfo.LINE_TABLE_INFO) {
        // the unreadable LEB128s read as 0 (as LLVM), then every 0x80 is a special opcode: no EndSequence
        assertThat(out).contains("dump: FunctionInfo:").contains("EOF found before EndSequence").contains("lookup: ");
      } else {
        // an unreadable range count reads as 0 (as LLVM): an empty inline tree, ignored by lookups
        assertThat(out).isEqualTo("lookup ok\n");
      }
    }
  }

  static byte[] nestedInline(int levels) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < levels; i++) out.writeBytes(HexFormat.of().parseHex("01 00 10 01 01000000 00 00".replace(" ", "")));
    for (int i = 0; i < levels; i++) out.write(0);
    return out.toByteArray();
  }

  @Test
  void deeplyNestedInlineInfo() {
    byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, LT, FunctionInfo.INLINE_INFO, nestedInline(100_000)));
    String out = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> exercise(f, BASE, BASE + 0x20));
    assertThat(out).contains("dump: FunctionInfo:").contains("nested deeper").contains("lookup: ");
    // outside the top node the subtree is still skipped node by node (as LLVM's skip()): same clear error
    assertThat(out).doesNotContain("lookup ok");
    // moderate nesting still works
    byte[] ok = file(record(1, FunctionInfo.LINE_TABLE_INFO, LT, FunctionInfo.INLINE_INFO, nestedInline(200)));
    assertThat(exercise(ok, BASE)).isEqualTo("lookup ok\n");
  }

  @Test
  void deeplyNestedMergedFunctions() {
    byte[] nested = dev.gsym.format.MergedFunctionsInfoTestAccess.nestedMerged(100_000);
    // wrap: the top-level record is the nested record itself
    byte[] f = file(nested);
    String out = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> exercise(f, BASE));
    assertThat(out).contains("dump: FunctionInfo:").contains("nested deeper");
  }

  @Test
  void mergedCountFfffffff() {
    byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, LT, FunctionInfo.MERGED_FUNCTIONS_INFO,
        "ffffffff 00000000 00000000"));
    String out = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> exercise(f, BASE));
    assertThat(out).contains("dump: FunctionInfo:").contains("lookup ok\n").contains("lookupAll: ");
  }

  @Test
  void callSiteNumRegexFfffffff() {
    byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, LT, FunctionInfo.CALL_SITE_INFO,
        "01000000 0000000000000000 00 ffffffff 01000000"));
    String out = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> exercise(f, BASE));
    assertThat(out).contains("dump: FunctionInfo:").contains("missing MatchRegex entry").contains("lookup: ");
    byte[] g = file(record(1, FunctionInfo.CALL_SITE_INFO, "ffffffff 0000000000000000 00 00000000"));
    assertThat(exercise(g, BASE)).contains("missing ReturnOffset");
  }

  @Test
  void emptyFileTable() {
    byte[] f = file(record(1, FunctionInfo.LINE_TABLE_INFO, LT));
    // NumFiles = 0: every file index is invalid
    int filesAt = align(48 + 2, 4) + 4;
    ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(filesAt, 0);
    assertThat(exercise(f, BASE)).isEqualTo("lookup: failed to extract file[1]\nlookupAll: failed to extract file[1]\n");
  }

  /** Lookup text as llvm-gsymutil prints it (without the heading). */
  static String llvmLookups(byte[] bytes, long... addrs) {
    StringBuilder sb = new StringBuilder();
    try (GsymReader r = GsymReader.of(bytes, "x")) {
      for (long a : addrs) {
        try {
          r.lookup(a).appendTo(sb);
        } catch (LookupException | dev.gsym.GsymFormatException e) {
          dev.gsym.format.Hex.append(sb, a, 16).append(": error: ").append(dev.gsym.testing.LookupErrors.llvm(e)).append('\n');
        }
      }
    }
    return sb.toString();
  }

  // Expected texts below are llvm-gsymutil-22's output for the same bytes.

  @Test
  void unsortedAddressTableSelectsLikeLlvm() throws Exception {
    byte[] b = Files.readAllBytes(TestData.path("vectors", "B.gsym"));
    ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN).putInt(0x30, 0x80000000); // entries 0x80000000, 0x13345
    assertThat(llvmLookups(b, 0x401005, 0x413345, 0x80400000L)).isEqualTo("""
        0x0000000000401005: error: address 0x401005 is not in GSYM
        0x0000000000413345: error: address 0x413345 is not in GSYM
        0x0000000080400000: error: address 0x80400000 is not in GSYM
        """);
  }

  @Test
  void recordOffsetIsValidatedBeforeTheStartAddressIsCompared() throws Exception {
    byte[] d = Files.readAllBytes(TestData.path("vectors", "D.gsym"));
    ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).putInt(0x48, 0x1000); // info offset of index 2
    assertThat(llvmLookups(d, 0x115, 0x125, 0x205)).isEqualTo("""
        0x0000000000000115: innerY_contained + 5
        0x0000000000000125: error: invalid address info offset 0x1000
        0x0000000000000205: error: invalid address info offset 0x1000
        """);
  }

  @Test
  void lastRecordCutShort() throws Exception {
    byte[] a = Arrays.copyOf(Files.readAllBytes(TestData.path("vectors", "A.gsym")), 0x102);
    assertThat(llvmLookups(a, 0x1100, 0x1000)).isEqualTo("""
        0x0000000000001100: error: FunctionInfo data is truncated
        0x0000000000001000: sym_zero_first
        """);
    assertThat(exercise(a)).isEqualTo("dump: FunctionInfo:0x0000000c: missing FunctionInfo InfoType length\n");
  }

  @Test
  void bigEndianTruncationsFollowLlvmsByteSwappingPath() throws Exception {
    // llvm-gsymutil-22 on x86-64 reads big-endian files through its byte-swapping path; messages
    // observed for B.gsym cut at each length
    byte[] b = Files.readAllBytes(TestData.path("vectors", "B.gsym"));
    String[] expect = new String[0x74 + 1];
    for (int n = 48; n < 64; n++) expect[n] = "open: failed to read address table";
    for (int n = 64; n < 68; n++) expect[n] = "open: failed to read string table";
    for (int n = 68; n < 76; n++) expect[n] = "open: failed to read file table";
    expect[76] = "open: failed to read string table";
    for (int n = 48; n <= 76; n++) {
      assertThat(exercise(Arrays.copyOf(b, n))).as("length " + n).isEqualTo(expect[n]);
    }
    // NumAddresses 0: the swapped reader fails on the empty address table (llvm-gsymutil-22)
    byte[] empty = b.clone();
    ByteBuffer.wrap(empty).order(ByteOrder.BIG_ENDIAN).putInt(16, 0);
    assertThat(exercise(empty)).isEqualTo("open: failed to read address table");
    // a string table cut by the end of the file is accepted (substr), unlike little-endian files
    try (GsymReader r = GsymReader.of(Arrays.copyOf(b, 80), "B80")) {
      assertThat(r.string(1)).isEqualTo("f1");
      assertThat(r.string(4)).isEmpty();
    }
  }
}
