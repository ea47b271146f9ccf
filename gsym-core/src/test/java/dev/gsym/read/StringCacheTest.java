package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Many more names than string-cache slots: every lookup must still return its own name. */
class StringCacheTest {
  private static final int N = 20_000;

  private static GsymReader reader() {
    GsymCreator c = new GsymCreator();
    for (int i = 0; i < N; i++) {
      c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000 + 16L * i, 0x1000 + 16L * i + 16),
          c.insertString("function_number_" + i)));
    }
    c.finish(Diagnostics.silent());
    return GsymReader.of(c.encode(ByteOrder.LITTLE_ENDIAN), "many-names");
  }

  @Test
  void collidingSlotsNeverMixUpNames() {
    try (GsymReader r = reader()) {
      Random rnd = new Random(42);
      for (int k = 0; k < 5 * N; k++) {
        int i = rnd.nextInt(N);
        assertThat(r.lookup(0x1000 + 16L * i + 3).functionName()).isEqualTo("function_number_" + i);
      }
    }
  }

  @Test
  void concurrentLookupsSeeTheirOwnNames() throws Exception {
    try (GsymReader r = reader(); ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Future<Integer>> jobs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long seed = t;
        jobs.add(pool.submit(() -> {
          Random rnd = new Random(seed);
          int wrong = 0;
          for (int k = 0; k < 50_000; k++) {
            int i = rnd.nextInt(N);
            if (!r.lookup(0x1000 + 16L * i).functionName().equals("function_number_" + i)) wrong++;
          }
          return wrong;
        }));
      }
      for (Future<Integer> f : jobs) assertThat(f.get()).isZero();
    }
  }
}
