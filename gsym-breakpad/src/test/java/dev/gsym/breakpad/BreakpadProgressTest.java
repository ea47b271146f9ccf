package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Conversion of a file reports MiB read of MiB in all, rising to the whole file. */
class BreakpadProgressTest {
  @TempDir Path tmp;

  @Test
  void reportsMebibytesReadUpToTheFileSize() throws Exception {
    StringBuilder sb = new StringBuilder("MODULE Linux x86_64 000102030405060708090A0B0C0D0E0F0 p\nFILE 0 /src/p.c\n");
    for (int i = 0; i < 60_000; i++) {
      long a = 0x1000L + 0x40L * i;
      sb.append("FUNC ").append(Long.toHexString(a)).append(" 40 0 function_number_").append(i).append('\n');
      sb.append(Long.toHexString(a)).append(" 20 ").append(10 + i % 50).append(" 0\n");
    }
    Path sym = tmp.resolve("p.sym");
    Files.writeString(sym, sb);
    long mib = Files.size(sym) >> 20;
    assertThat(mib).isGreaterThanOrEqualTo(3);
    List<long[]> updates = new ArrayList<>();
    BreakpadTransformer.Result r = BreakpadTransformer.convert(sym, new GsymCreator(), false, Diagnostics.silent(), 0,
        (done, total) -> updates.add(new long[] {done, total}));
    assertThat(r.functions()).isEqualTo(60_000);
    assertThat(updates.size()).isGreaterThan(3);
    for (int i = 1; i < updates.size(); i++) assertThat(updates.get(i)[0]).isGreaterThanOrEqualTo(updates.get(i - 1)[0]);
    assertThat(updates.getLast()).containsExactly(mib, mib);
  }
}
