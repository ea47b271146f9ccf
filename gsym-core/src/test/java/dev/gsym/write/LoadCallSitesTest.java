package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.write.FunctionCallSites.CallSite;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link GsymCreator#loadCallSites}: llvm's CallSiteInfoLoader matching. */
class LoadCallSitesTest {

  private static FunctionInfo fi(GsymCreator c, long start, long size, String name) {
    return new FunctionInfo(new AddressRange(start, start + size), c.insertString(name));
  }

  private static CallSite site(long off, List<String> regex, int flags) {
    return new CallSite(off, regex, flags);
  }

  @Test
  void firstFunctionWithTheNameWinsAndMergedChildrenAreFound() {
    GsymCreator c = new GsymCreator();
    FunctionInfo child = fi(c, 0x100, 0x10, "child");
    c.addFunctionInfo(fi(c, 0x100, 0x10, "prim").withMergedFunctions(new MergedFunctionsInfo(List.of(child))));
    c.addFunctionInfo(fi(c, 0x200, 0x10, "dup"));
    c.addFunctionInfo(fi(c, 0x300, 0x10, "dup"));
    c.addFunctionInfo(fi(c, 0x400, 0x10, "child")); // the merged child was seen first
    c.loadCallSites(List.of(
        new FunctionCallSites("dup", List.of(site(4, List.of("r1", "r2"), CallSiteInfo.INTERNAL_CALL))),
        new FunctionCallSites("child", List.of(site(8, List.of(), CallSiteInfo.EXTERNAL_CALL | CallSiteInfo.INTERNAL_CALL))),
        new FunctionCallSites("dup", List.of(site(12, List.of("r1"), 0))),
        new FunctionCallSites("prim", List.of())));
    List<FunctionInfo> fis = c.functionInfos();
    int r1 = c.insertString("r1");
    int r2 = c.insertString("r2");
    assertThat(fis.get(0).callSites()).isEqualTo(new CallSiteInfoCollection(List.of()));
    assertThat(fis.get(0).mergedFunctions().mergedFunctions().getFirst().callSites().callSites())
        .containsExactly(new CallSiteInfo(8, 3, List.of()));
    assertThat(fis.get(1).callSites().callSites())
        .containsExactly(new CallSiteInfo(4, 1, List.of(r1, r2)), new CallSiteInfo(12, 0, List.of(r1)));
    assertThat(fis.get(2).callSites()).isNull();
    assertThat(fis.get(3).callSites()).isNull();
  }

  @Test
  void callSitesAreAppendedToExistingOnes() {
    GsymCreator c = new GsymCreator();
    int old = c.insertString("old");
    c.addFunctionInfo(fi(c, 0x100, 0x10, "f")
        .withCallSites(new CallSiteInfoCollection(List.of(new CallSiteInfo(2, 0, List.of(old))))));
    c.loadCallSites(List.of(new FunctionCallSites("f", List.of(site(0x1000, List.of("new"), 0)))));
    assertThat(c.functionInfos().getFirst().callSites().callSites())
        .containsExactly(new CallSiteInfo(2, 0, List.of(old)), new CallSiteInfo(0x1000, 0, List.of(c.insertString("new"))));
  }

  @Test
  void unknownNameIsLlvmsErrorAndChangesNothing() {
    GsymCreator c = new GsymCreator();
    c.addFunctionInfo(fi(c, 0x100, 0x10, "f"));
    assertThatThrownBy(() -> c.loadCallSites(List.of(new FunctionCallSites("f", List.of(site(1, List.of(), 1))),
        new FunctionCallSites("g", List.of()))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Can't find function 'g' specified in callsite YAML");
    assertThat(c.functionInfos().getFirst().callSites()).isNull();
  }

  @Test
  void flagsMustFitTheirByte() {
    assertThatThrownBy(() -> new CallSite(0, List.of(), 0x100)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new CallSite(0, List.of(), 0xff).flags()).isEqualTo(0xff);
  }
}
