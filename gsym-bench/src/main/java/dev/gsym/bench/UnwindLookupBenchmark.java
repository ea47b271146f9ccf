package dev.gsym.bench;

import dev.gsym.read.GsymReader;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindEntry;
import dev.gsym.unwind.UnwindState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Unwind-rule lookups ({@link GsymReader#unwindRow(long, UnwindState)}, the stack walker's question
 * for every frame) at random addresses covered by a GSYM's unwind information, one address per
 * operation, into one reused {@link UnwindState}: what a stack walker pays per frame.
 *
 * <p>{@code gsym}: a GSYM made with {@code --unwind} (default {@value #LIBJVM}: {@code gsymutil
 * --dwarf /tmp/jvmdbg/libjvm.debug --symtab-file /tmp/jvmdbg/libjvm.so --unwind -o ...}).
 * {@value #ADDRESSES} addresses are drawn once from a fixed seed, uniformly over the bytes the
 * unwind tables cover.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
public class UnwindLookupBenchmark {
  static final String LIBJVM = "/tmp/jvmdbg/libjvm.unwind.gsym";
  static final int ADDRESSES = 1 << 16;

  @Param({LIBJVM})
  public String gsym;

  GsymReader reader;
  long[] addrs;
  int next;
  final UnwindState state = new UnwindState();

  @Setup(Level.Trial)
  public void setup() throws IOException {
    reader = GsymReader.open(Path.of(gsym));
    List<CfiTable> tables = new ArrayList<>();
    long covered = 0;
    for (int i = 0; i < reader.numFunctions(); i++) {
      var u = reader.unwindInfoAtIndex(i);
      if (u == null) continue;
      for (UnwindEntry e : u.entries()) {
        if (e instanceof CfiTable t && t.length() > 0) {
          tables.add(t);
          covered += t.length();
        }
      }
    }
    if (tables.isEmpty()) throw new IllegalStateException(gsym + " has no unwind information (convert it with --unwind)");
    SplittableRandom rnd = new SplittableRandom(35);
    addrs = new long[ADDRESSES];
    for (int k = 0; k < ADDRESSES; k++) {
      long pick = rnd.nextLong(covered);
      for (CfiTable t : tables) {
        if (pick < t.length()) {
          addrs[k] = t.start() + pick;
          break;
        }
        pick -= t.length();
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    reader.close();
  }

  /** One unwind-rule lookup: the row in effect at a random covered address. */
  @Benchmark
  public boolean unwindRow(Blackhole bh) {
    long a = addrs[next++ & (ADDRESSES - 1)];
    boolean found = reader.unwindRow(a, state);
    bh.consume(state.cfaOffset());
    return found;
  }
}
