package dev.gsym.bench;

import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.testing.SyntheticGsym;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Random-address lookups through {@link GsymReader} on one large GSYM, one address per operation.
 *
 * <p>{@code gsym}: a path, {@code auto} (the default: {@value #LIBJVM} if it exists, else
 * {@code synthetic}) or {@code synthetic[:N]} (a {@link SyntheticGsym} of N functions, default
 * 200,000 (~38 MB), generated into a temporary file for the trial). {@value #ADDRESSES} addresses
 * are drawn once from a fixed seed, uniformly over the span of the address table, keeping only
 * those that resolve (so no operation measures exception throwing); each thread walks them from
 * its own starting point.
 *
 * <p>The reader has no name-only lookup: {@link #findFunction} is the search without decoding the
 * record (binary search, range check), {@link #lookup} the full answer (name, file and line, inline
 * stack); file and line without the inline walk have no separate entry point.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow") // JMH uses sun.misc.Unsafe
public class LookupBenchmark {
  static final String LIBJVM = "/tmp/jvmdbg/libjvm.gsym";
  static final int ADDRESSES = 1 << 16;
  static final long SEED = 42;

  @Param({"auto"})
  public String gsym;

  GsymReader reader;
  long[] addrs;
  private Path generated;

  /** Resolves the file, maps it and draws the addresses. */
  @Setup(Level.Trial)
  public void setup() throws IOException {
    Path path = resolve(gsym);
    reader = GsymReader.open(path);
    int n = reader.numFunctions();
    long lo = reader.functionAddress(0);
    FunctionInfo last = reader.functionInfoAtIndex(n - 1);
    long hi = Math.max(last.range().end(), lo + 1);
    SplittableRandom rnd = new SplittableRandom(SEED);
    addrs = new long[ADDRESSES];
    int k = 0;
    for (long tries = 0; k < ADDRESSES && tries < 100L * ADDRESSES; tries++) {
      long a = lo + rnd.nextLong(hi - lo);
      try {
        reader.lookup(a);
        addrs[k++] = a;
      } catch (LookupException notInFile) {
        // keep only addresses that resolve
      }
    }
    if (k < ADDRESSES) throw new IllegalStateException(path + ": too few resolvable addresses (" + k + ")");
    System.out.printf("%n# gsym %s: %,d functions, %,d bytes%n", path, n, Files.size(path));
  }

  private Path resolve(String spec) throws IOException {
    if (spec.equals("auto")) spec = Files.isRegularFile(Path.of(LIBJVM)) ? LIBJVM : "synthetic";
    if (spec.equals("synthetic") || spec.startsWith("synthetic:")) {
      int n = spec.equals("synthetic") ? 200_000 : Integer.parseInt(spec.substring("synthetic:".length()));
      generated = Files.createTempFile("gsym-bench-", ".gsym");
      new SyntheticGsym(n).write(generated);
      return generated;
    }
    return Path.of(spec);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (reader != null) reader.close();
    if (generated != null) Files.deleteIfExists(generated);
  }

  /** Each thread's position in the address array. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;

    @Setup(Level.Trial)
    public void start() {
      next = (int) (Thread.currentThread().threadId() * 7919) & (ADDRESSES - 1);
    }

    long take(long[] addrs) {
      int i = next;
      next = (i + 1) & (ADDRESSES - 1);
      return addrs[i];
    }
  }

  /** Function search only: binary search over the address table and range check, no decoding. */
  @Benchmark
  public int findFunction(Cursor c) {
    return reader.indexForAddress(c.take(addrs));
  }

  /** Name, file and line, and the inline stack (what llvm-gsymutil --lookup prints). */
  @Benchmark
  public LookupResult lookup(Cursor c) {
    return reader.lookup(c.take(addrs));
  }

  /** {@link #lookup} plus merged functions (llvm's lookupAll). */
  @Benchmark
  public List<LookupResult> lookupAll(Cursor c) {
    return reader.lookupAll(c.take(addrs));
  }

  /** {@link #lookup} rendered as llvm-gsymutil's text. */
  @Benchmark
  public void lookupAndFormat(Cursor c, Blackhole bh) {
    StringBuilder sb = new StringBuilder(128);
    bh.consume(reader.lookup(c.take(addrs)).appendTo(sb));
  }

  /** The whole FunctionInfo as objects (every line row and inline node), as the dump decodes it. */
  @Benchmark
  public FunctionInfo decodeFunctionInfo(Cursor c) {
    return reader.functionInfo(c.take(addrs));
  }

  /** {@link #findFunction} on every core. */
  @Benchmark
  @Threads(Threads.MAX)
  public int findFunctionAllThreads(Cursor c) {
    return reader.indexForAddress(c.take(addrs));
  }

  /** {@link #lookup} on every core (one shared reader). */
  @Benchmark
  @Threads(Threads.MAX)
  public LookupResult lookupAllThreads(Cursor c) {
    return reader.lookup(c.take(addrs));
  }
}
