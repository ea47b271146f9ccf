package dev.gsym.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.symbolize.Merged.Resolution;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every rule of the merged-function resolution along a stack (docs/symbolize.md, "Merged
 * functions") on small GSYM files built here: A holds the merged callee (leaf_a, leaf_b, leaf_c)
 * and callers in the same module; B callers in another module, a merged caller (mid_x, mid_y, each
 * with its own call sites) and its caller; T a trampoline without call sites.
 */
class StackResolutionTest {
  @TempDir static Path tmp;
  static ModuleRef a;
  static ModuleRef b;
  static ModuleRef t;
  static ModuleRef rel;
  static ModuleRef ret;

  /** A small GSYM file under construction. */
  static final class Mod {
    final GsymCreator c = new GsymCreator();
    final int file = c.insertFile("/t/src.c");
    int line = 1;

    FunctionInfo fn(String name, long start, long size, CallSiteInfo... callSites) {
      return new FunctionInfo(new AddressRange(start, start + size), c.insertString(name),
          new LineTable(List.of(new LineEntry(start, file, line++))), null, null,
          callSites.length == 0 ? null : new CallSiteInfoCollection(List.of(callSites)));
    }

    CallSiteInfo cs(long returnOffset, int flags, String... regex) {
      List<Integer> rx = new ArrayList<>();
      for (String r : regex) rx.add(c.insertString(r));
      return new CallSiteInfo(returnOffset, flags, rx);
    }

    Mod add(FunctionInfo primary, FunctionInfo... merged) {
      c.addFunctionInfo(merged.length == 0 ? primary : new FunctionInfo(primary.range(), primary.name(),
          primary.lineTable(), null, new MergedFunctionsInfo(List.of(merged)), primary.callSites()));
      return this;
    }

    ModuleRef save(String name) throws Exception {
      c.finish(Diagnostics.silent());
      Path p = tmp.resolve(name + ".gsym");
      c.save(p);
      return ModuleRef.file(p);
    }
  }

  @BeforeAll
  static void modules() throws Exception {
    Mod m = new Mod();
    m.add(m.fn("leaf_a", 0x1000, 0x20), m.fn("leaf_b", 0x1000, 0x20), m.fn("leaf_c", 0x1000, 0x20));
    m.add(m.fn("local_caller", 0x2000, 0x40,
        m.cs(0x10, 0, "leaf_b"),
        m.cs(0x20, 0, "leaf_[ab]"),
        m.cs(0x30, CallSiteInfo.EXTERNAL_CALL, "leaf_c"),
        m.cs(0x38, 0, "(")));                                      // invalid in llvm: matches nothing
    m.add(m.fn("same", 0x7000, 0x10), m.fn("same", 0x7000, 0x10));
    a = m.save("a");

    m = new Mod();
    m.add(m.fn("ext_caller", 0x3000, 0x40,
        m.cs(0x10, CallSiteInfo.INTERNAL_CALL, "leaf_c"),
        m.cs(0x20, CallSiteInfo.EXTERNAL_CALL, "leaf_c"),
        m.cs(0x30, 0, "nothing_here"),
        m.cs(0x38, 0, "^leaf_a$")));
    m.add(m.fn("mid_x", 0x4000, 0x20, m.cs(0x10, 0, "leaf_a")), m.fn("mid_y", 0x4000, 0x20, m.cs(0x10, 0, "leaf_b")));
    m.add(m.fn("top", 0x5000, 0x40, m.cs(0x10, 0, "mid_x"), m.cs(0x20, 0, "mid_y")));
    b = m.save("b");

    m = new Mod();
    m.add(m.fn("tramp", 0x6000, 0x20));
    t = m.save("t");

    m = new Mod();
    m.c.setBaseAddress(0x1000);
    m.add(m.fn("leaf_a", 0x1000, 0x20), m.fn("leaf_b", 0x1000, 0x20));
    m.add(m.fn("caller", 0x1100, 0x20, m.cs(0x8, 0, "leaf_b")));
    rel = m.save("rel");

    // return addresses: a call (0x8004..0x8008, line 10) followed by line 11; a call to a function
    // that does not return, last in noreturn_caller, whose return address is next_fn's first byte;
    // a merged callee whose caller's call site (its last instruction) returns to after_fn's start
    m = new Mod();
    m.c.addFunctionInfo(new FunctionInfo(new AddressRange(0x8000, 0x8010), m.c.insertString("two_lines"),
        new LineTable(List.of(new LineEntry(0x8000, m.file, 10), new LineEntry(0x8008, m.file, 11))), null, null, null));
    m.add(m.fn("noreturn_caller", 0x8100, 0x10));
    m.add(m.fn("next_fn", 0x8110, 0x10));
    m.add(m.fn("x_a", 0x8200, 0x10), m.fn("x_b", 0x8200, 0x10));
    m.add(m.fn("c2", 0x8300, 0x10, m.cs(0x10, 0, "x_b")));
    m.add(m.fn("after_fn", 0x8310, 0x10));
    ret = m.save("ret");
  }

  static Symbolizer.Request at(ModuleRef m, long address) {
    return new Symbolizer.Request(m, address);
  }

  static List<Symbolized> stack(Symbolizer.Request... frames) {
    try (Symbolizer s = Symbolizer.builder().threads(2).build()) {
      List<List<Symbolized>> out = s.symbolizeStacks(List.of(Arrays.asList(frames)));
      assertThat(out).hasSize(1);
      assertThat(out.getFirst()).hasSize(frames.length);
      return out.getFirst();
    }
  }

  static Symbolized.Found found(Symbolized s) {
    assertThat(s).isInstanceOf(Symbolized.Found.class);
    return (Symbolized.Found) s;
  }

  /** Asserts frame {@code s}: its resolution, the names left, the deciding frame and the function named. */
  static void assertMerged(Symbolized s, Resolution r, List<String> chosen, int by, String function) {
    Symbolized.Found f = found(s);
    assertThat(f.merged()).as("merged of %s", f).isPresent();
    Merged m = f.merged().orElseThrow();
    assertThat(m.resolution()).isEqualTo(r);
    assertThat(m.chosen()).isEqualTo(chosen);
    assertThat(m.callerFrame()).isEqualTo(by);
    assertThat(f.function().function()).isEqualTo(function);
  }

  static final List<String> LEAVES = List.of("leaf_a", "leaf_b", "leaf_c");

  @Test
  void theCallerInTheSameModuleChooses() {
    List<Symbolized> s = stack(at(a, 0x1004), at(a, 0x2010));
    assertMerged(s.get(0), Resolution.CALL_SITE, List.of("leaf_b"), 1, "leaf_b");
    assertThat(found(s.get(0)).merged().orElseThrow().candidates()).isEqualTo(LEAVES);
    assertThat(found(s.get(0)).frames().getFirst().location().line()).as("leaf_b's own line table").isEqualTo(2);
    assertThat(found(s.get(1)).merged()).isEmpty();
    assertThat(found(s.get(1)).function().function()).isEqualTo("local_caller");
  }

  @Test
  void aCallerInAnotherModuleChooses() {
    assertMerged(stack(at(a, 0x1004), at(b, 0x3038)).get(0), Resolution.CALL_SITE, List.of("leaf_a"), 1, "leaf_a");
  }

  @Test
  void aCallSiteMatchingSeveralCandidatesNarrowsAndStops() {
    // the call site names the callee (leaf_a or leaf_b): no further caller is asked
    assertMerged(stack(at(a, 0x1004), at(a, 0x2020), at(b, 0x3038)).get(0), Resolution.AMBIGUOUS,
        List.of("leaf_a", "leaf_b"), 1, "leaf_a");
  }

  @Test
  void flagsRestrictTheModule() {
    // ExternalCall from the callee's own module, InternalCall from another: the call site does not apply
    assertMerged(stack(at(a, 0x1004), at(a, 0x2030)).get(0), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
    assertMerged(stack(at(a, 0x1004), at(b, 0x3010)).get(0), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
    assertMerged(stack(at(a, 0x1004), at(b, 0x3020)).get(0), Resolution.CALL_SITE, List.of("leaf_c"), 1, "leaf_c");
    // a call site that does not apply passes the search on
    assertMerged(stack(at(a, 0x1004), at(a, 0x2030), at(b, 0x3038)).get(0), Resolution.CALL_SITE, List.of("leaf_a"), 2,
        "leaf_a");
  }

  @Test
  void aTrampolineWithoutCallSitesIsPassedOver() {
    assertMerged(stack(at(a, 0x1004), at(t, 0x6008), at(b, 0x3020)).get(0), Resolution.CALL_SITE, List.of("leaf_c"), 2,
        "leaf_c");
    // call-site regexes that match no candidate (it called the trampoline), and an invalid one
    assertMerged(stack(at(a, 0x1004), at(b, 0x3030), at(b, 0x3038)).get(0), Resolution.CALL_SITE, List.of("leaf_a"), 2,
        "leaf_a");
    assertMerged(stack(at(a, 0x1004), at(a, 0x2038), at(b, 0x3038)).get(0), Resolution.CALL_SITE, List.of("leaf_a"), 2,
        "leaf_a");
  }

  @Test
  void theSearchStopsAtTheBound() {
    int d = StackResolver.MAX_CALLER_DISTANCE;
    assertThat(d).isEqualTo(4);
    List<Symbolizer.Request> frames = new ArrayList<>(List.of(at(a, 0x1004)));
    for (int i = 1; i < d; i++) frames.add(at(t, 0x6008));
    frames.add(at(b, 0x3038)); // caller at distance 4: asked
    assertMerged(stack(frames.toArray(Symbolizer.Request[]::new)).get(0), Resolution.CALL_SITE, List.of("leaf_a"), d,
        "leaf_a");
    frames.add(1, at(t, 0x6008)); // now at distance 5: not asked
    assertMerged(stack(frames.toArray(Symbolizer.Request[]::new)).get(0), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
  }

  @Test
  void aMergedCallerUsesTheCallSitesOfTheCandidateItResolvedTo() {
    List<Symbolized> x = stack(at(a, 0x1004), at(b, 0x4010), at(b, 0x5010));
    assertMerged(x.get(1), Resolution.CALL_SITE, List.of("mid_x"), 2, "mid_x");
    assertMerged(x.get(0), Resolution.CALL_SITE, List.of("leaf_a"), 1, "leaf_a");
    List<Symbolized> y = stack(at(a, 0x1004), at(b, 0x4010), at(b, 0x5020));
    assertMerged(y.get(1), Resolution.CALL_SITE, List.of("mid_y"), 2, "mid_y");
    assertMerged(y.get(0), Resolution.CALL_SITE, List.of("leaf_b"), 1, "leaf_b");
    // the merged caller unresolved (no call site at top+0x30) and its candidates disagree: no choice
    List<Symbolized> u = stack(at(a, 0x1004), at(b, 0x4010), at(b, 0x5030));
    assertMerged(u.get(1), Resolution.AMBIGUOUS, List.of("mid_x", "mid_y"), -1, "mid_x");
    assertMerged(u.get(0), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
  }

  @Test
  void framesWithoutAnAnswerPassTheSearchOn() {
    ModuleRef missing = ModuleRef.file(tmp.resolve("missing.gsym"));
    List<Symbolized> s = stack(at(a, 0x1004), at(missing, 0x10), at(b, 0x3038));
    assertThat(s.get(1)).isInstanceOf(Symbolized.ModuleNotFound.class);
    assertMerged(s.get(0), Resolution.CALL_SITE, List.of("leaf_a"), 2, "leaf_a");
    // a caller address no function covers
    s = stack(at(a, 0x1004), at(b, 0x9000), at(b, 0x3038));
    assertThat(s.get(1)).isInstanceOf(Symbolized.AddressNotCovered.class);
    assertMerged(s.get(0), Resolution.CALL_SITE, List.of("leaf_a"), 2, "leaf_a");
    // the merged frame itself not covered: its answer, and the others unaffected
    s = stack(at(a, 0x1020), at(b, 0x3038));
    assertThat(s.get(0)).isInstanceOf(Symbolized.AddressNotCovered.class);
    assertThat(found(s.get(1)).function().function()).isEqualTo("ext_caller");
  }

  @Test
  void noCallSiteInformationIsAmbiguousAndOneNameIsUnique() {
    assertMerged(stack(at(a, 0x1004)).get(0), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
    assertMerged(stack(at(a, 0x1004), at(t, 0x6008)).get(0), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
    Symbolized.Found u = found(stack(at(a, 0x7004), at(b, 0x3038)).get(0));
    assertMerged(u, Resolution.UNIQUE, List.of("same"), -1, "same");
    assertThat(u.merged().orElseThrow().candidates()).containsExactly("same", "same");
  }

  @Test
  void singleAddressesAndBatchesListTheCandidates() {
    try (Symbolizer s = Symbolizer.builder().build()) {
      assertMerged(s.symbolize(a, 0x1004), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
      List<Symbolized> batch = s.symbolize(List.of(at(a, 0x1004), at(a, 0x2010), at(a, 0x7000)));
      assertMerged(batch.get(0), Resolution.AMBIGUOUS, LEAVES, -1, "leaf_a");
      assertThat(found(batch.get(1)).merged()).isEmpty();
      assertMerged(batch.get(2), Resolution.UNIQUE, List.of("same"), -1, "same");
    }
  }

  @Test
  void manyStacksInOneCallWithAPerCallAddressMode() {
    try (Symbolizer s = Symbolizer.builder().threads(3).build()) {
      List<List<Symbolizer.Request>> stacks = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        stacks.add(i % 2 == 0 ? List.of(at(a, 0x1004), at(a, 0x2010)) : List.of(at(a, 0x1004), at(b, 0x3038)));
      }
      stacks.add(List.of());
      List<List<Symbolized>> out = s.symbolizeStacks(stacks);
      assertThat(out).hasSize(51);
      for (int i = 0; i < 50; i++) {
        assertThat(found(out.get(i).get(0)).function().function()).isEqualTo(i % 2 == 0 ? "leaf_b" : "leaf_a");
      }
      assertThat(out.get(50)).isEmpty();
      // relative addresses: the module's base (0x1000) is added, for this call only
      List<Symbolized> r = s.symbolizeStacks(List.of(List.of(at(rel, 0x4), at(rel, 0x108))), AddressMode.RELATIVE).getFirst();
      assertMerged(r.get(0), Resolution.CALL_SITE, List.of("leaf_b"), 1, "leaf_b");
      assertThat(found(r.get(0)).fileAddress()).isEqualTo(0x1004);
      assertThat(s.symbolizeStacks(List.of(List.of(at(rel, 0x4), at(rel, 0x108)))).getFirst().get(0))
          .as("absolute by default").isInstanceOf(Symbolized.AddressNotCovered.class);
    }
  }

  static List<Symbolized> stack(AddressAdjustment adjust, Symbolizer.Request... frames) {
    try (Symbolizer s = Symbolizer.builder().build()) {
      return s.symbolizeStacks(List.of(Arrays.asList(frames)), AddressMode.ABSOLUTE, adjust).getFirst();
    }
  }

  @Test
  void callersAreLookedUpInsideTheirCallInstruction() {
    // the caller's line is that of the call (10), not of the instruction after it (11)
    List<Symbolized> s = stack(at(ret, 0x8004), at(ret, 0x8008));
    assertThat(found(s.get(1)).frames().getFirst().location().line()).isEqualTo(10);
    assertThat(found(s.get(1)).address()).as("the address as given").isEqualTo(0x8008);
    assertThat(found(s.get(1)).fileAddress()).isEqualTo(0x8008);
    // frame 0 is where the thread was: as given
    assertThat(found(stack(at(ret, 0x8008)).get(0)).frames().getFirst().location().line()).isEqualTo(11);
    // a call last in its function: the return address is the next function's first byte
    s = stack(at(ret, 0x8004), at(ret, 0x8110));
    assertThat(found(s.get(1)).function().function()).isEqualTo("noreturn_caller");
  }

  @Test
  void aCallSiteAtTheEndOfItsFunctionStillChooses() {
    // c2's call site returns to 0x8310 (after_fn's start): found in c2 at 0x830f, matched at 0x8310
    List<Symbolized> s = stack(at(ret, 0x8204), at(ret, 0x8310));
    assertThat(found(s.get(1)).function().function()).isEqualTo("c2");
    assertMerged(s.get(0), Resolution.CALL_SITE, List.of("x_b"), 1, "x_b");
  }

  @Test
  void theAdjustmentIsChosenPerCall() {
    List<Symbolized> none = stack(AddressAdjustment.NONE, at(ret, 0x8110), at(ret, 0x8008));
    assertThat(found(none.get(0)).function().function()).isEqualTo("next_fn");
    assertThat(found(none.get(1)).frames().getFirst().location().line()).isEqualTo(11);
    List<Symbolized> all = stack(AddressAdjustment.ALL, at(ret, 0x8110), at(ret, 0x8008));
    assertThat(found(all.get(0)).function().function()).isEqualTo("noreturn_caller");
    assertThat(found(all.get(1)).frames().getFirst().location().line()).isEqualTo(10);
    // a return address with nothing before it in the module
    Symbolized first = stack(AddressAdjustment.ALL, at(ret, 0x8000)).get(0);
    assertThat(first).isInstanceOf(Symbolized.AddressNotCovered.class);
    assertThat(((Symbolized.AddressNotCovered) first).message())
        .isEqualTo("return address 0x8000 (looked up at its call, 0x7fff): address 0x7fff is not in GSYM");
  }

  @Test
  void aPlaceholderKeepsItsPlace() {
    // between the merged frame and its caller: counted in the caller's index, passed over
    List<Symbolized> s = stack(at(a, 0x1004), (Symbolizer.Request) null, at(b, 0x3038));
    assertThat(s.get(1)).isNull();
    assertMerged(s.get(0), Resolution.CALL_SITE, List.of("leaf_a"), 2, "leaf_a");
    // first: the frame after it is a caller, looked up inside its call
    s = stack((Symbolizer.Request) null, at(ret, 0x8110));
    assertThat(s.get(0)).isNull();
    assertThat(found(s.get(1)).function().function()).isEqualTo("noreturn_caller");
  }

  @Test
  void theRegexCacheIsBounded() {
    RegexCache c = new RegexCache(16);
    for (int i = 0; i < 100; i++) {
      assertThat(c.find("f" + i + "$", "f" + i)).isTrue();
      assertThat(c.size()).isLessThanOrEqualTo(16);
    }
    assertThat(c.find("(", "(")).as("invalid in llvm: matches nothing").isFalse();
    assertThat(c.pattern("a|b")).isSameAs(c.pattern("a|b"));
  }
}
