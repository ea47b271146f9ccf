package dev.gsym.bench;

import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupFrames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * In-process lookups through our {@link GsymReader}, the peer of bench/inprocess/llvm_gsym_lookup.cpp
 * (libLLVM-22's GsymReader); bench/inprocess-vs-llvm.sh runs both on the same address file.
 *
 * <pre>java -cp gsym-bench/target/benchmarks.jar dev.gsym.bench.InProcessLookups GSYM ADDRESSES PASSES THREADS</pre>
 *
 * ADDRESSES holds one hex address per line. Pass 1 is the cold pass, in a JVM that has run nothing
 * else (interpreter and JIT included, the reader just opened: no decoded function cached); passes
 * 2..PASSES are warm. With THREADS > 1 a last pass runs on THREADS threads over slices of the
 * addresses. Each lookup gives the full inline stack; its frames and lines are summed (the lines as
 * unsigned 32-bit values, as LLVM's) so that the two programs can be checked to agree. Prints
 * lines of the C++ program's form.
 */
public final class InProcessLookups {
  private InProcessLookups() {}

  /** Frames, lines and misses of a slice of the addresses. */
  record Sums(long frames, long lines, long misses) {
    Sums plus(Sums o) {
      return new Sums(frames + o.frames, lines + o.lines, misses + o.misses);
    }
  }

  static Sums lookupAll(GsymReader r, long[] a, int from, int to) {
    long frames = 0;
    long lines = 0;
    long misses = 0;
    LookupFrames out = new LookupFrames();
    for (int i = from; i < to; i++) {
      try {
        r.lookup(a[i], out);
      } catch (LookupException e) {
        misses++;
        continue;
      }
      for (int k = 0; k < out.count(); k++) {
        frames++;
        lines += Integer.toUnsignedLong(out.line(k));
      }
    }
    return new Sums(frames, lines, misses);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: InProcessLookups GSYM ADDRESSES PASSES THREADS");
      System.exit(2);
    }
    long[] a = read(Path.of(args[1]));
    int passes = Integer.parseInt(args[2]);
    int threads = Integer.parseInt(args[3]);
    try (GsymReader r = GsymReader.open(Path.of(args[0]))) {
      for (int p = 1; p <= passes; p++) {
        long t0 = System.nanoTime();
        Sums s = lookupAll(r, a, 0, a.length);
        print(p, 1, a.length, System.nanoTime() - t0, s);
      }
      if (threads > 1) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
          long t0 = System.nanoTime();
          @SuppressWarnings("unchecked")
          Future<Sums>[] parts = new Future[threads];
          for (int t = 0; t < threads; t++) {
            int from = (int) ((long) a.length * t / threads);
            int to = (int) ((long) a.length * (t + 1) / threads);
            parts[t] = pool.submit(() -> lookupAll(r, a, from, to));
          }
          Sums s = new Sums(0, 0, 0);
          for (Future<Sums> f : parts) s = s.plus(f.get());
          print(passes + 1, threads, a.length, System.nanoTime() - t0, s);
        } finally {
          pool.shutdown();
        }
      }
    }
  }

  private static void print(int pass, int threads, int n, long nanos, Sums s) {
    double sec = nanos / 1e9;
    System.out.printf("pass %d threads %d lookups %d seconds %.4f per_second %.0f frames %d lines %d misses %d%n",
        pass, threads, n, sec, n / sec, s.frames(), s.lines(), s.misses());
  }

  private static long[] read(Path p) throws IOException {
    return Files.readAllLines(p).stream().filter(l -> !l.isBlank())
        .mapToLong(l -> Long.parseUnsignedLong(l.strip().replaceFirst("^0[xX]", ""), 16)).toArray();
  }
}
