package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.TextBuffer;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One GsymReader shared by 16 lookup threads while another thread keeps opening, using and closing
 * other readers (each close of a mapped reader is a handshake with every thread): every answer must
 * be the one a single-threaded run gives, byte for byte, for every lookup kind.
 */
@Slow
class ReaderConcurrencyTest {
  private static final int THREADS = 16;
  private static final int ROUNDS = Integer.getInteger("gsym.concurrency.rounds", 20);

  /** What one address answers, in every form the lookups give. */
  private static String answer(GsymReader r, long addr, LookupFrames frames, TextBuffer text) {
    StringBuilder sb = new StringBuilder();
    try {
      sb.append(r.lookup(addr)).append('\n');
    } catch (LookupException e) {
      sb.append("error: ").append(e.getMessage()).append('\n');
    }
    try {
      r.lookup(addr, frames);
      text.clear();
      frames.appendTo(text, true);
      sb.append(text).append('\n');
    } catch (LookupException e) {
      sb.append("error: ").append(e.getMessage()).append('\n');
    }
    try {
      for (LookupResult l : r.lookupAll(addr)) sb.append(l).append('\n');
    } catch (LookupException e) {
      sb.append("error: ").append(e.getMessage()).append('\n');
    }
    try {
      FunctionInfo fi = r.functionInfo(addr);
      r.dump(sb, fi, 0);
    } catch (LookupException e) {
      sb.append("error: ").append(e.getMessage()).append('\n');
    }
    return sb.toString();
  }

  /** Each function's start, middle and last byte, the byte after it, and addresses outside the table. */
  private static List<Long> addresses(GsymReader r) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < r.numFunctions(); i++) {
      FunctionInfo fi = r.functionInfoAtIndex(i);
      long start = fi.range().start();
      long size = fi.range().size();
      out.add(start);
      out.add(start + size / 2);
      out.add(start + Math.max(0, size - 1));
      out.add(start + size);
    }
    out.add(0L);
    out.add(-1L);
    out.add(r.header().baseAddress() - 1);
    return out;
  }

  /**
   * A GSYM with many more functions and names than the reader's caches hold, each with a line
   * table and an inline call whose rows and frames depend on the function (so that two functions'
   * decodes mixed up give a wrong answer).
   */
  private static Path manyFunctions(Path dir) throws Exception {
    GsymCreator c = new GsymCreator();
    int file = c.insertFile("/src/many.c");
    for (int i = 0; i < 20_000; i++) {
      long s = 0x1000 + 16L * i;
      LineTable lines = new LineTable(List.of(new LineEntry(s, file, 10 + i), new LineEntry(s + 4, file, 20 + i),
          new LineEntry(s + 8, file, 30 + i)));
      InlineInfo inline = new InlineInfo(List.of(new AddressRange(s, s + 12)), 0, 0, 0,
          List.of(new InlineInfo(List.of(new AddressRange(s + 4, s + 8)), c.insertString("inlined_" + i), file, 40 + i, List.of())));
      c.addFunctionInfo(new FunctionInfo(new AddressRange(s, s + 12), c.insertString("function_" + i), lines, inline, null, null));
    }
    c.finish(Diagnostics.silent());
    Path p = dir.resolve("many.gsym");
    c.save(p, ByteOrder.LITTLE_ENDIAN);
    return p;
  }

  @ParameterizedTest
  @ValueSource(strings = {"cpp-gcc-O2.gsym", "rust-O2.gsym", "icf-clang-O2-gold.merged-callsites.gsym", "many"})
  void sixteenThreadsAnswerAsOne(String name, @TempDir Path tmp) throws Exception {
    Path file = name.equals("many") ? manyFunctions(tmp) : TestData.path("gsym", name);
    List<Path> others;
    try (Stream<Path> s = Files.list(TestData.path("gsym"))) {
      others = s.filter(p -> !p.equals(file)).sorted().toList();
    }
    try (GsymReader shared = GsymReader.open(file)) {
      List<Long> addrs = addresses(shared);
      if (name.equals("many")) addrs = addrs.subList(0, 8_000); // bounded time; still past the caches
      // the single-threaded answers, from a reader of its own
      List<String> expected = new ArrayList<>(addrs.size());
      try (GsymReader alone = GsymReader.open(file)) {
        LookupFrames frames = new LookupFrames();
        TextBuffer text = new TextBuffer(256);
        for (long a : addrs) expected.add(answer(alone, a, frames, text));
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong opened = new AtomicLong();
      CountDownLatch started = new CountDownLatch(1);
      final List<Long> work = addrs;
      try (ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1)) {
        Future<?> churn = pool.submit(() -> {
          LookupFrames frames = new LookupFrames();
          TextBuffer text = new TextBuffer(256);
          started.countDown();
          while (!stop.get()) {
            for (Path p : others) {
              try (GsymReader r = GsymReader.open(p)) {
                answer(r, r.functionAddress(0), frames, text);
              }
              opened.incrementAndGet();
            }
          }
          return null;
        });
        started.await();
        List<Future<Integer>> jobs = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          long seed = t;
          jobs.add(pool.submit(() -> {
            LookupFrames frames = new LookupFrames();
            TextBuffer text = new TextBuffer(256);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < work.size(); i++) order.add(i);
            int checked = 0;
            for (int round = 0; round < ROUNDS; round++) {
              Collections.shuffle(order, new Random(seed * 1000 + round));
              for (int i : order.subList(0, Math.min(order.size(), 400))) {
                String got = answer(shared, work.get(i), frames, text);
                if (!got.equals(expected.get(i))) {
                  throw new AssertionError("thread " + seed + ", 0x" + Long.toHexString(work.get(i)) + ":\n" + got
                      + "\nexpected:\n" + expected.get(i));
                }
                checked++;
              }
            }
            return checked;
          }));
        }
        long total = 0;
        try {
          for (Future<Integer> f : jobs) total += f.get(5, TimeUnit.MINUTES);
        } finally {
          stop.set(true); // also when a thread failed: closing the pool waits for the churn
        }
        churn.get(1, TimeUnit.MINUTES);
        assertThat(total).isEqualTo((long) THREADS * ROUNDS * Math.min(work.size(), 400));
        assertThat(opened.get()).as("readers opened and closed meanwhile").isGreaterThan(0);
      }
    }
  }

  /**
   * All threads start at the same moment on cold functions, on a reader opened for the round, in
   * four groups: the four threads of a group go through the same functions in the same order, so
   * each function's first decode and its publication into the reader's caches is raced, while the
   * groups, a quarter of the addresses apart, decode different functions at the same time (any
   * scratch state shared between decodes). The test above mostly meets functions another thread
   * decoded long before. Answers must equal a single-threaded run's.
   */
  @ParameterizedTest
  @ValueSource(strings = {"cpp-gcc-O2.gsym", "icf-clang-O2-gold.merged-callsites.gsym", "many"})
  void sixteenThreadsRaceOnColdFunctions(String name, @TempDir Path tmp) throws Exception {
    Path file = name.equals("many") ? manyFunctions(tmp) : TestData.path("gsym", name);
    List<Long> addrs;
    List<String> expected = new ArrayList<>();
    try (GsymReader alone = GsymReader.open(file)) {
      addrs = addresses(alone);
      if (name.equals("many")) addrs = addrs.subList(0, 4_000);
      LookupFrames frames = new LookupFrames();
      TextBuffer text = new TextBuffer(256);
      for (long a : addrs) expected.add(answer(alone, a, frames, text));
    }
    final List<Long> work = addrs;
    int rounds = Math.max(4, ROUNDS);
    try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
      for (int round = 0; round < rounds; round++) {
        int first = round * 7919 % work.size(); // each round races from a different function on
        try (GsymReader shared = GsymReader.open(file)) {
          CyclicBarrier go = new CyclicBarrier(THREADS);
          List<Future<?>> jobs = new ArrayList<>();
          for (int t = 0; t < THREADS; t++) {
            int thread = t;
            jobs.add(pool.submit(() -> {
              LookupFrames frames = new LookupFrames();
              TextBuffer text = new TextBuffer(256);
              // four groups of four threads: a group races on one function's first decode and
              // publication, the groups decode different functions at once (shared scratch)
              int from = first + thread % 4 * (work.size() / 4);
              go.await();
              for (int k = 0; k < work.size(); k++) {
                int i = (from + k) % work.size();
                String got = answer(shared, work.get(i), frames, text);
                if (!got.equals(expected.get(i))) {
                  throw new AssertionError("thread " + thread + ", 0x" + Long.toHexString(work.get(i)) + ":\n" + got
                      + "\nexpected:\n" + expected.get(i));
                }
              }
              return null;
            }));
          }
          for (Future<?> f : jobs) f.get(5, TimeUnit.MINUTES);
        }
      }
    }
  }
}
