package dev.gsym.golden;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Regressions found by LlvmDifferentialTest against live llvm-gsymutil-22. */
class LookupRegressionTest {
  /**
   * The line-table row chosen for an address has file index 0: llvm-gsymutil-22 reports
   * "address 0x20 is not in the line table" (LineEntry::isValid() is File != 0); we used to print
   * the bare function name.
   */
  @Test
  void rowWithFileZeroIsNotInTheLineTable() {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/odd/x.c");
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x20, 0x30), c.insertString("file0"),
        new LineTable(List.of(new LineEntry(0x20, 0, 5), new LineEntry(0x24, f, 6))), null, null, null));
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(ByteOrder.LITTLE_ENDIAN), "mem")) {
      assertThatThrownBy(() -> r.lookup(0x22)).isInstanceOf(LookupException.class)
          .hasMessage("address 0x22 is not in the line table");
      assertThatThrownBy(() -> r.lookupAll(0x20)).isInstanceOf(LookupException.class)
          .hasMessage("address 0x20 is not in the line table");
      assertThat(r.lookup(0x24).toString()).isEqualTo("0x0000000000000024: file0 + 4 @ /odd/x.c:6\n");
    }
  }

  @Test
  void lookupCandidatesLeavesOutAMergedFunctionThatDoesNotCover() {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile("/m/x.c");
    FunctionInfo shortChild = new FunctionInfo(new AddressRange(0x100, 0x110), c.insertString("short_child"),
        new LineTable(List.of(new LineEntry(0x100, f, 3))), null, null, null);
    FunctionInfo longChild = new FunctionInfo(new AddressRange(0x100, 0x120), c.insertString("long_child"),
        new LineTable(List.of(new LineEntry(0x100, f, 4))), null, null,
        new CallSiteInfoCollection(List.of(new CallSiteInfo(0x18, CallSiteInfo.EXTERNAL_CALL, List.of(c.insertString("callee"))))));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x100, 0x120), c.insertString("primary"),
        new LineTable(List.of(new LineEntry(0x100, f, 2))), null,
        new MergedFunctionsInfo(List.of(shortChild, longChild)), null));
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(ByteOrder.LITTLE_ENDIAN), "mem")) {
      // llvm's lookupAll fails as a whole; the candidates are those that cover the address
      assertThatThrownBy(() -> r.lookupAll(0x118)).isInstanceOf(LookupException.class);
      List<LookupResult> all = r.lookupCandidates(0x118);
      assertThat(all).extracting(LookupResult::functionName).containsExactly("primary", "long_child");
      assertThat(all.get(1).callSiteFuncRegex()).containsExactly("callee");
      assertThat(all.get(1).callSiteFlags()).isEqualTo(CallSiteInfo.EXTERNAL_CALL);
      assertThat(all.get(0).callSiteFlags()).isZero();
      assertThat(r.lookupCandidates(0x108)).extracting(LookupResult::functionName)
          .containsExactly("primary", "short_child", "long_child");
      assertThatThrownBy(() -> r.lookupCandidates(0x120)).isInstanceOf(LookupException.class)
          .hasMessage("address 0x120 is not in GSYM");
    }
  }
}
