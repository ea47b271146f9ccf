package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rebuilds the vec4 files A-G through the creator API and compares them with LLVM's bytes. */
class GsymCreatorTest {
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  static AddressRange r(long start, long size) {
    return new AddressRange(start, start + size);
  }

  static FunctionInfo fi(GsymCreator c, long start, long size, String name) {
    return new FunctionInfo(r(start, size), c.insertString(name));
  }

  static LineTable lt(LineEntry... rows) {
    return new LineTable(List.of(rows));
  }

  static LineEntry row(long a, int f, int l) {
    return new LineEntry(a, f, l);
  }

  static byte[] vector(String name) throws Exception {
    return Files.readAllBytes(TestData.path("vectors", name));
  }

  static String finalizeAndLog(GsymCreator c) {
    StringBuilder log = new StringBuilder();
    c.finish(new Diagnostics(log));
    return log.toString();
  }

  @Test
  void fileA() throws Exception {
    GsymCreator c = new GsymCreator();
    assertThat(c.insertFile("/src/dir/a.c")).isEqualTo(1);
    assertThat(c.insertFile("C:\\win\\b.c", PathStyle.WINDOWS)).isEqualTo(2);
    assertThat(c.insertFile("nodir.c")).isEqualTo(3);
    c.addFunctionInfo(fi(c, 0x1000, 0x10, "sym_zero_first"));
    c.addFunctionInfo(fi(c, 0x1000, 0, "zero_size"));
    c.addFunctionInfo(new FunctionInfo(r(0x1020, 0x20), c.insertString("lt_func"),
        lt(row(0x1020, 2, 50), row(0x1024, 2, 10), row(0x1030, 3, 1000), row(0x1034, 1, 999)),
        null, null, null));
    c.addFunctionInfo(fi(c, 0x1100, 0, "last_zero"));
    assertThat(finalizeAndLog(c)).contains("Pruned 1 functions, ended with 3 total\n");
    assertThat(c.encode(LE)).isEqualTo(vector("A.gsym"));
  }

  @Test
  void fileB() throws Exception {
    GsymCreator c = new GsymCreator();
    c.setBaseAddress(0x400000);
    c.setUUID(new byte[] {1, 2, 3, 4});
    c.addFunctionInfo(fi(c, 0x401000, 0x10, "f1"));
    c.addFunctionInfo(fi(c, 0x413345, 0x10, "f2"));
    assertThat(finalizeAndLog(c)).isEqualTo("Pruned 0 functions, ended with 2 total\n");
    assertThat(c.encode(ByteOrder.BIG_ENDIAN)).isEqualTo(vector("B.gsym"));
  }

  @Test
  void fileC() throws Exception {
    GsymCreator c = new GsymCreator();
    c.addFunctionInfo(fi(c, 0x10, 0x10, "lo"));
    c.addFunctionInfo(fi(c, 0x100000010L, 0x10, "hi"));
    finalizeAndLog(c);
    assertThat(c.encode(LE)).isEqualTo(vector("C.gsym"));
  }

  @Test
  void fileD() throws Exception {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/x/y.c");
    c.addFunctionInfo(fi(c, 0x100, 0x40, "outerX"));
    c.addFunctionInfo(fi(c, 0x110, 0x10, "innerY_contained"));
    c.addFunctionInfo(fi(c, 0x200, 0x40, "X_c"));
    c.addFunctionInfo(fi(c, 0x220, 0x40, "Y_c_overlapping"));
    c.addFunctionInfo(fi(c, 0x300, 0x10, "sym"));
    c.addFunctionInfo(new FunctionInfo(r(0x300, 0x10), c.insertString("dbg"), lt(row(0x300, f, 7)), null, null, null));
    c.addFunctionInfo(fi(c, 0x400, 0, "zero_then_real"));
    c.addFunctionInfo(fi(c, 0x400, 0x10, "real_after_zero"));
    c.addFunctionInfo(fi(c, 0x500, 0, "zero_before_containing"));
    c.addFunctionInfo(fi(c, 0x4f0, 0x40, "containing"));
    String log = finalizeAndLog(c);
    assertThat(log).contains("Pruned 2 functions, ended with 8 total\n");
    assertThat(log.split("function ranges overlap", -1)).hasSize(4); // contained, partial, size-0 after container
    assertThat(log).doesNotContain("different debug info"); // sym has no debug info
    assertThat(c.encode(LE)).isEqualTo(vector("D.gsym"));
  }

  @Test
  void fileE() throws Exception {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/l/t.c");
    int[] lines = {10, 12, 14, 16, 18, 100, 101, 5, 5, 6};
    LineEntry[] rows = new LineEntry[lines.length + 1];
    for (int i = 0; i < lines.length; i++) rows[i] = row(0x1000 + 3L * i, f, lines[i]);
    rows[lines.length] = row(0x114a, f, 7);
    c.addFunctionInfo(new FunctionInfo(r(0x1000, 0x1000), c.insertString("deltas"), lt(rows), null, null, null));
    c.addFunctionInfo(new FunctionInfo(r(0x3000, 0x10), c.insertString("one_row"), lt(row(0x3000, f, 42)), null, null, null));
    c.addFunctionInfo(new FunctionInfo(r(0x3100, 0x10), c.insertString("same_delta"),
        lt(row(0x3100, f, 3), row(0x3104, f, 5), row(0x3108, f, 7)), null, null, null));
    c.addFunctionInfo(new FunctionInfo(r(0x3200, 0x10), c.insertString("neg_delta"),
        lt(row(0x3200, f, 30), row(0x3204, f, 28), row(0x3208, f, 26)), null, null, null));
    finalizeAndLog(c);
    assertThat(c.encode(LE)).isEqualTo(vector("E.gsym"));
  }

  @Test
  void fileF() throws Exception {
    GsymCreator c = new GsymCreator();
    int main = c.insertFile("/f/main.c");
    int inc = c.insertFile("/f/inc.h");
    c.addFunctionInfo(fi(c, 0x100, 0x20, "short_same_start"));
    c.addFunctionInfo(fi(c, 0x100, 0x40, "long_same_start"));
    c.addFunctionInfo(new FunctionInfo(r(0x200, 0x40), c.insertString("late_first_row"),
        lt(row(0x210, main, 5)), null, null, null));
    int inlNoLt = c.insertString("inl_no_lt");
    InlineInfo inl1 = new InlineInfo(List.of(r(0x300, 0x40)), inlNoLt, 0, 0,
        List.of(new InlineInfo(List.of(r(0x310, 0x10)), c.insertString("child"), inc, 77, List.of())));
    c.addFunctionInfo(new FunctionInfo(r(0x300, 0x40), inlNoLt, null, inl1, null, null));
    int midNoFile = c.insertString("inl_mid_nofile");
    int mid = c.insertString("mid");
    int deep = c.insertString("deep");
    InlineInfo inl2 = new InlineInfo(List.of(r(0x400, 0x40)), midNoFile, 0, 0,
        List.of(new InlineInfo(List.of(new AddressRange(0x408, 0x430)), mid, 0, 9,
            List.of(new InlineInfo(List.of(new AddressRange(0x410, 0x418), new AddressRange(0x420, 0x428)),
                deep, main, 3, List.of())))));
    c.addFunctionInfo(new FunctionInfo(r(0x400, 0x40), midNoFile,
        lt(row(0x400, main, 1), row(0x410, inc, 2)), inl2, null, null));
    String log = finalizeAndLog(c);
    assertThat(log).contains("function ranges overlap").contains("Pruned 0 functions, ended with 5 total");
    assertThat(c.encode(LE)).isEqualTo(vector("F.gsym"));
  }

  @Test
  void fileG() throws Exception {
    GsymCreator c = new GsymCreator();
    int m = c.insertFile("/m/m.c");
    int top = c.insertString("top");
    int foo = c.insertString("^foo$");
    int bar = c.insertString("bar.*");
    int child = c.insertString("merged_child");
    int inl = c.insertString("inl");
    int baz = c.insertString("baz");
    FunctionInfo mergedChild = new FunctionInfo(r(0x2000, 0x20), child, lt(row(0x2000, m, 20)),
        new InlineInfo(List.of(r(0x2000, 0x20)), child, 0, 0,
            List.of(new InlineInfo(List.of(new AddressRange(0x2004, 0x200c)), inl, m, 21, List.of()))),
        null, new CallSiteInfoCollection(List.of(new CallSiteInfo(8, 0, List.of(baz)))));
    c.addFunctionInfo(new FunctionInfo(r(0x2000, 0x20), top, lt(row(0x2000, m, 10), row(0x2008, m, 11)), null,
        new MergedFunctionsInfo(List.of(mergedChild)),
        new CallSiteInfoCollection(List.of(
            new CallSiteInfo(8, CallSiteInfo.INTERNAL_CALL | CallSiteInfo.EXTERNAL_CALL, List.of(foo, bar)),
            new CallSiteInfo(0x10, CallSiteInfo.EXTERNAL_CALL, List.of())))));
    finalizeAndLog(c);
    assertThat(c.encode(LE)).isEqualTo(vector("G.gsym"));
  }

  @Test
  void stringTableOrderWithoutSuffixSharing() {
    GsymCreator c = new GsymCreator();
    assertThat(c.insertString("barfoo")).isEqualTo(1);
    assertThat(c.insertString("foo")).isEqualTo(8);
    assertThat(c.insertString("oo")).isEqualTo(12);
    assertThat(c.insertString("barfoo")).isEqualTo(1);
    assertThat(c.insertString("")).isZero();
    assertThat(c.getString(8)).isEqualTo("foo");
    assertThat(c.getString(0)).isEmpty();
  }

  @Test
  void insertFileSplitsLikeLlvm() {
    GsymCreator c = new GsymCreator();
    int a = c.insertFile("/tmp/x/./sub/../sub/u.c");
    assertThat(c.getString(c.getFile(a).dir())).isEqualTo("/tmp/x/./sub/../sub");
    assertThat(c.getString(c.getFile(a).base())).isEqualTo("u.c");
    int b = c.insertFile("a.c");
    assertThat(c.getFile(b).dir()).isZero();
    int root = c.insertFile("/a.c");
    assertThat(c.getString(c.getFile(root).dir())).isEqualTo("/");
    int win = c.insertFile("C:\\win\\b.c", PathStyle.WINDOWS);
    assertThat(c.getString(c.getFile(win).dir())).isEqualTo("C:\\win");
    assertThat(c.getString(c.getFile(win).base())).isEqualTo("b.c");
    assertThat(c.insertFile("/tmp/x/./sub/../sub/u.c")).isEqualTo(a);
    assertThat(c.getFile(0).dir()).isZero();
    assertThat(c.getFile(0).base()).isZero();
  }
}
