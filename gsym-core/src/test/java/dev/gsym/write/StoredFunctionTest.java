package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The compact form must sort and de-duplicate exactly as the FunctionInfo objects would. */
class StoredFunctionTest {

  /** Few distinct values per field, so equal ranges, counts and whole functions are frequent. */
  private static FunctionInfo random(Random rnd) {
    long start = 0x1000 + 0x10L * rnd.nextInt(3);
    AddressRange range = new AddressRange(start, start + (rnd.nextInt(4) == 0 ? 0 : 0x20 + rnd.nextInt(2)));
    int name = 1 + rnd.nextInt(2);
    LineTable lt = null;
    if (rnd.nextInt(3) != 0) {
      List<LineEntry> rows = new ArrayList<>();
      int n = rnd.nextInt(3);
      for (int i = 0; i < n; i++) rows.add(new LineEntry(start + i * (1 + rnd.nextInt(2)), 1, 10 + rnd.nextInt(2)));
      lt = new LineTable(rows);
    }
    InlineInfo ii = null;
    if (rnd.nextInt(3) == 0) {
      List<InlineInfo> kids = new ArrayList<>();
      for (int i = rnd.nextInt(3); i > 0; i--) {
        kids.add(new InlineInfo(List.of(new AddressRange(start + 1, start + 2 + rnd.nextInt(2))), 2, 1, 5, List.of()));
      }
      ii = new InlineInfo(List.of(new AddressRange(start, start + 0x20)), name, 0, 0, kids);
    }
    CallSiteInfoCollection cs = rnd.nextInt(5) == 0
        ? new CallSiteInfoCollection(List.of(new CallSiteInfo(rnd.nextInt(2), 0, List.of()))) : null;
    return new FunctionInfo(range, name, lt, ii, null, cs);
  }

  @Test
  void compareSameAsAndDecodeAgreeWithFunctionInfo() {
    Random rnd = new Random(42);
    List<FunctionInfo> infos = new ArrayList<>();
    for (int i = 0; i < 300; i++) infos.add(random(rnd));
    List<StoredFunction> stored = new ArrayList<>();
    for (FunctionInfo fi : infos) stored.add(StoredFunction.of(fi));
    int ties = 0;
    for (int i = 0; i < infos.size(); i++) {
      assertThat(stored.get(i).info()).isEqualTo(infos.get(i));
      for (int j = 0; j < infos.size(); j++) {
        FunctionInfo a = infos.get(i);
        FunctionInfo b = infos.get(j);
        assertThat(Integer.signum(StoredFunction.compare(stored.get(i), stored.get(j))))
            .as("compare %s %s", a, b).isEqualTo(Integer.signum(FunctionInfo.compare(a, b)));
        assertThat(stored.get(i).sameAs(stored.get(j))).as("sameAs %s %s", a, b).isEqualTo(a.sameAs(b));
        if (i != j && a.range().equals(b.range()) && FunctionInfo.compare(a, b) == 0) ties++;
      }
    }
    assertThat(ties).as("the generator must produce full ties").isGreaterThan(100);
  }

  @Test
  void unencodableFunctionIsKeptAndFailsOnlyWhenWritten() {
    FunctionInfo bad = new FunctionInfo(new AddressRange(0x1000, 0x1010), 0);
    StoredFunction sf = StoredFunction.of(bad);
    assertThat(sf.info()).isSameAs(bad);
    GsymCreator c = new GsymCreator();
    c.addFunctionInfo(bad); // no error yet, as LLVM's addFunctionInfo
    c.finish(Diagnostics.silent());
    assertThatThrownBy(c::encode).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("attempted to encode invalid FunctionInfo object");
  }

  @Test
  void replacedUnencodableFunctionNeverFails() {
    GsymCreator c = new GsymCreator();
    int name = c.insertString("f");
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000, 0x1000), 0)); // size 0, replaced below
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000, 0x1010), name,
        new LineTable(List.of(new LineEntry(0x1000, 0, 3))), null, null, null));
    c.finish(Diagnostics.silent());
    assertThat(c.functionInfos()).hasSize(1);
    assertThat(c.encode()).isNotEmpty();
  }
}
