package dev.gsym.bench;

import dev.gsym.read.GsymReader;
import java.io.IOException;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Opening a GSYM (map, validate the header and table bounds) and answering one lookup: the fixed
 * cost a short-lived symbolication pays before its first answer. {@code gsym} as in
 * {@link LookupBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow") // JMH uses sun.misc.Unsafe
public class OpenBenchmark {
  @Param({"auto"})
  public String gsym;

  private final LookupBenchmark files = new LookupBenchmark();
  Path path;
  long addr;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    files.gsym = gsym;
    files.setup();
    path = Path.of(files.reader.source());
    addr = files.addrs[0];
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    files.tearDown();
  }

  /** Open, one lookup, close (unmap). */
  @Benchmark
  public int openLookupClose() throws IOException {
    try (GsymReader r = GsymReader.open(path)) {
      return r.lookup(addr).locations().size();
    }
  }
}
