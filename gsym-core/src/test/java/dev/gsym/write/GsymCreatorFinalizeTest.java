package dev.gsym.write;

import static dev.gsym.write.GsymCreatorTest.fi;
import static dev.gsym.write.GsymCreatorTest.lt;
import static dev.gsym.write.GsymCreatorTest.r;
import static dev.gsym.write.GsymCreatorTest.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The finish() rules (LLVM's finalize, spec section 8.3), one at a time, and encode errors. */
class GsymCreatorFinalizeTest {
  private final GsymCreator c = new GsymCreator();
  private final StringBuilder log = new StringBuilder();
  private final Diagnostics diag = new Diagnostics(log);

  private List<String> names() {
    return c.functionInfos().stream().map(f -> c.getString(f.name()) + f.range()).toList();
  }

  private static String n(String name, long start, long end) {
    return name + new AddressRange(start, end);
  }

  @Test
  void identicalDuplicateIsDroppedSilently() {
    c.addFunctionInfo(fi(c, 0x100, 0x10, "a"));
    c.addFunctionInfo(fi(c, 0x100, 0x10, "a"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("a", 0x100, 0x110));
    assertThat(log.toString()).isEqualTo("Pruned 1 functions, ended with 1 total\n");
    assertThat(diag.categories()).isEmpty();
  }

  @Test
  void laterSameRangeWins() {
    c.addFunctionInfo(fi(c, 0x100, 0x10, "first"));
    c.addFunctionInfo(fi(c, 0x100, 0x10, "second"));
    c.addFunctionInfo(fi(c, 0x100, 0x10, "third"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("third", 0x100, 0x110));
    assertThat(log.toString()).isEqualTo("Pruned 2 functions, ended with 1 total\n");
  }

  @Test
  void richerEntryWinsRegardlessOfOrder() {
    int f = c.insertFile("/a/b.c");
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x10), c.insertString("dwarf"), lt(row(0x100, f, 1)), null, null, null));
    c.addFunctionInfo(fi(c, 0x100, 0x10, "symbol"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("dwarf", 0x100, 0x110));
    assertThat(log.toString()).doesNotContain("warning");
  }

  @Test
  void richVsRichWarns() {
    int f = c.insertFile("/a/b.c");
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x10), c.insertString("one"), lt(row(0x100, f, 1)), null, null, null));
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x10), c.insertString("two"), lt(row(0x100, f, 2)), null, null, null));
    c.finish(diag);
    assertThat(names()).containsExactly(n("two", 0x100, 0x110));
    assertThat(log.toString())
        .contains("warning: same address range contains different debug info. Removing:\n")
        .contains("In favor of this one:\n")
        .endsWith("Pruned 1 functions, ended with 1 total\n");
    assertThat(diag.categories()).containsEntry("Duplicate address ranges with different debug info.", 1L);
  }

  @Test
  void moreInlineNodesSortLaterAndWin() {
    int f = c.insertFile("/a/b.c");
    InlineInfo big = new InlineInfo(List.of(r(0x100, 0x10)), c.insertString("big"), 0, 0,
        List.of(new InlineInfo(List.of(r(0x104, 4)), c.insertString("x"), f, 3, List.of())));
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x10), c.insertString("big"), null, big, null, null));
    c.addFunctionInfo(new FunctionInfo(r(0x100, 0x10), c.insertString("lt_only"), lt(row(0x100, f, 1)), null, null, null));
    c.finish(diag);
    assertThat(names()).containsExactly(n("big", 0x100, 0x110));
    assertThat(log.toString()).contains("different debug info");
  }

  @Test
  void overlapsAreKeptWithWarning() {
    c.addFunctionInfo(fi(c, 0x100, 0x40, "outer"));
    c.addFunctionInfo(fi(c, 0x110, 0x10, "inner"));
    c.addFunctionInfo(fi(c, 0x200, 0x40, "x"));
    c.addFunctionInfo(fi(c, 0x220, 0x40, "y"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("outer", 0x100, 0x140), n("inner", 0x110, 0x120),
        n("x", 0x200, 0x240), n("y", 0x220, 0x260));
    assertThat(log.toString().split("warning: function ranges overlap:\n", -1)).hasSize(3);
    assertThat(diag.categories()).containsEntry("Overlapping function ranges", 2L);
  }

  @Test
  void sizeZeroIsReplacedByFollowingContainingEntry() {
    c.addFunctionInfo(fi(c, 0x400, 0x10, "real"));
    c.addFunctionInfo(fi(c, 0x400, 0, "zero"));
    c.addFunctionInfo(fi(c, 0x500, 0, "zero_kept"));
    c.addFunctionInfo(fi(c, 0x4f0, 0x40, "container"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("real", 0x400, 0x410), n("container", 0x4f0, 0x530),
        n("zero_kept", 0x500, 0x500));
    assertThat(log.toString()).endsWith("Pruned 1 functions, ended with 3 total\n");
  }

  @Test
  void trailingSizeZeroIsExtendedToItsTextRange() {
    AddressRanges text = new AddressRanges();
    text.insert(new AddressRange(0x1000, 0x1800));
    text.insert(new AddressRange(0x1800, 0x2000)); // adjacent sections merge
    c.setValidTextRanges(text);
    c.addFunctionInfo(fi(c, 0x1000, 0, "first_zero"));
    c.addFunctionInfo(fi(c, 0x1100, 0x10, "sized"));
    c.addFunctionInfo(fi(c, 0x1900, 0, "last_zero"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("first_zero", 0x1000, 0x1000), n("sized", 0x1100, 0x1110),
        n("last_zero", 0x1900, 0x2000));
    assertThat(c.isValidTextAddress(0x1fff)).isTrue();
    assertThat(c.isValidTextAddress(0x2000)).isFalse();
  }

  @Test
  void trailingSizeZeroOutsideTextIsUnchanged() {
    AddressRanges text = new AddressRanges();
    text.insert(new AddressRange(0x1000, 0x2000));
    c.setValidTextRanges(text);
    c.addFunctionInfo(fi(c, 0x3000, 0, "outside"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("outside", 0x3000, 0x3000));
  }

  @Test
  void trailingSizeZeroWithoutTextRangesIsUnchanged() {
    c.addFunctionInfo(fi(c, 0x3000, 0, "z"));
    c.finish(diag);
    assertThat(names()).containsExactly(n("z", 0x3000, 0x3000));
  }

  @Test
  void finishOnlyOnceAndNoAddsAfter() {
    c.addFunctionInfo(fi(c, 0x3000, 4, "z"));
    c.finish(diag);
    assertThatThrownBy(() -> c.finish(diag)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> c.addFunctionInfo(fi(c, 0, 4, "late"))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void encodeErrors() {
    // an unfinished creator is a misuse even when it is empty (as documented), not malformed input
    assertThatThrownBy(() -> c.encode(ByteOrder.LITTLE_ENDIAN)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("GsymCreator wasn't finished (finish()) prior to encoding");
    assertThatThrownBy(() -> c.save(new java.io.ByteArrayOutputStream(), ByteOrder.LITTLE_ENDIAN))
        .isInstanceOf(IllegalStateException.class);
    c.addFunctionInfo(fi(c, 0x3000, 4, "z"));
    // a misuse, not malformed input
    assertThatThrownBy(() -> c.encode(ByteOrder.LITTLE_ENDIAN)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("GsymCreator wasn't finished (finish()) prior to encoding");
    assertThatThrownBy(() -> c.saveSegments(java.nio.file.Path.of("unused"), ByteOrder.LITTLE_ENDIAN, 1000))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("wasn't finished");
    c.setUUID(new byte[21]);
    c.finish(diag);
    assertThatThrownBy(() -> c.encode(ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("invalid UUID size 21");
    c.setUUID(new byte[20]);
    assertThat(c.encode(ByteOrder.LITTLE_ENDIAN)[7]).isEqualTo((byte) 20);
  }

  @Test
  void finishedButEmptyIsNoFunctions() {
    c.finish(diag);
    assertThat(log.toString()).isEqualTo("Pruned 0 functions, ended with 0 total\n");
    assertThatThrownBy(() -> c.encode(ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("no functions to encode");
  }

  @Test
  void functionBelowBaseAddressIsAnEncodeError() {
    c.setBaseAddress(0x2000);
    c.addFunctionInfo(fi(c, 0x1000, 4, "low"));
    c.finish(diag);
    assertThatThrownBy(() -> c.encode(ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class);
  }

  @Test
  void addrOffSizeDependsOnLastStartOnly() {
    for (long[] t : new long[][] {{0xff, 1}, {0x100, 2}, {0xffff, 2}, {0x10000, 4}, {0xffffffffL, 4},
        {0x100000000L, 8}}) {
      GsymCreator g = new GsymCreator();
      g.setBaseAddress(0);
      g.addFunctionInfo(fi(g, 0, 0x1000000, "big"));
      g.addFunctionInfo(fi(g, t[0], 1, "last"));
      g.finish(Diagnostics.silent());
      assertThat(g.encode(ByteOrder.BIG_ENDIAN)[6]).as(Long.toHexString(t[0])).isEqualTo((byte) t[1]);
    }
  }

  @Test
  void prepareMergedFunctions() {
    int f = c.insertFile("/a/b.c");
    c.addFunctionInfo(fi(c, 0x100, 0x10, "a"));
    c.addFunctionInfo(fi(c, 0x100, 0x10, "b"));
    c.addFunctionInfo(fi(c, 0x100, 0x10, "b"));
    c.addFunctionInfo(new FunctionInfo(r(0x200, 8), c.insertString("c"), lt(row(0x200, f, 1)), null, null, null));
    c.prepareMergedFunctions(diag);
    // LLVM counts Funcs.size() - TopLevelFuncs.size(): the dropped duplicate is counted too
    assertThat(log.toString()).isEqualTo("Have 2 merged functions as children of other functions\n");
    List<FunctionInfo> fis = c.functionInfos();
    assertThat(fis).hasSize(2);
    assertThat(c.getString(fis.getFirst().name())).isEqualTo("a");
    assertThat(fis.getFirst().mergedFunctions().mergedFunctions()).hasSize(1);
    assertThat(fis.get(1).mergedFunctions()).isNull();
  }
}
