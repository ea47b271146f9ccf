package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.testing.Slow;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap an open reader holds (docs/reliability.md, "Resource bounds"): a mapped file costs its
 * caches' fixed tables, bounded whatever the file's size (at most 2^18 function slots, 2^16 paths,
 * 2^13 strings), not a copy of the file; decoded functions add up to the cache's budget.
 */
@Slow
class ReaderFootprintTest {
  private static long usedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }

  @Test
  void anOpenReaderHoldsBoundedTablesNotTheFile(@TempDir Path tmp) throws Exception {
    int functions = 200_000; // over the cache's slot count: the tables are at their bound
    GsymCreator c = new GsymCreator();
    for (int i = 0; i < functions; i++) {
      c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000 + 16L * i, 0x1000 + 16L * i + 12), c.insertString("f" + i)));
    }
    c.finish(Diagnostics.silent());
    Path file = tmp.resolve("big.gsym");
    c.save(file, ByteOrder.LITTLE_ENDIAN);
    c = null;
    long fileSize = java.nio.file.Files.size(file);
    int n = 20;
    List<GsymReader> readers = new ArrayList<>();
    long before = usedAfterGc();
    for (int i = 0; i < n; i++) readers.add(GsymReader.open(file));
    long opened = (usedAfterGc() - before) / n;
    for (GsymReader r : readers) {
      for (int i = 0; i < functions; i += 7) r.lookup(0x1000 + 16L * i + 3);
    }
    long used = (usedAfterGc() - before) / n;
    for (GsymReader r : readers) r.close();
    System.out.printf("GSYM of %d functions, %d bytes: %d bytes of heap per open reader, %d after %d lookups%n", functions, fileSize,
        opened, used, functions / 7);
    assertThat(opened).as("heap per open reader").isLessThan(2L << 20).isLessThan(fileSize);
    assertThat(used).as("heap per reader after lookups").isLessThan(8L << 20);
  }
}
