package dev.gsym.testing;

import java.time.Duration;

/**
 * The per-input time bound of the fuzz targets (docs/reliability.md). JUnit's {@code @Timeout}
 * cannot be used on a Jazzer {@code @FuzzTest}: it would also time the agent's installation and,
 * when fuzzing, the whole campaign. So each target measures its own inputs: an input slower than
 * the bound is a finding, in a plain test run and when fuzzing. An input that never finishes is
 * caught by libFuzzer's {@code -timeout} when fuzzing (bench/fuzz.sh sets it) and by Surefire's
 * fork timeout in a test run.
 *
 * <p>An input over the bound is run a second time, and is a finding only if it is slow again: the
 * first run of a code path also loads, instruments and compiles it (seconds under Jazzer's
 * instrumentation), and a shared machine pauses; an input that is really slow is slow twice.
 */
public final class FuzzLimits {
  private FuzzLimits() {}

  /**
   * Runs {@code body} (an input of {@code target}); if it took longer than {@code limit}, runs it
   * again and fails if that also took longer.
   */
  public static void within(Duration limit, String target, String what, Runnable body) {
    long first = timed(body);
    if (first <= limit.toNanos()) return;
    long second = timed(body);
    if (second > limit.toNanos()) {
      throw new AssertionError(target + ": " + what + " took " + first / 1_000_000 + " ms, then " + second / 1_000_000
          + " ms, over the per-input limit of " + limit.toMillis() + " ms");
    }
  }

  /**
   * Checks that {@code run} takes time roughly proportional to its input's size, with inputs from
   * {@code make} of about 10 KB, 100 KB and 1 MB: the 1 MB input may take at most 1,000 times the
   * 10 KB one (linear work is ~100 times; a quadratic blow-up ~10,000) and at most 60 times the
   * 100 KB one (linear ~10, quadratic ~100), the second check being the sharper one on a busy
   * machine where tiny runs time badly. Times are the calling thread's CPU time (a shared machine
   * stretches long runs' wall time more than short ones'), best of three runs each, after a
   * warm-up of every size; times under a millisecond count as one. Returns the three times in
   * nanoseconds.
   *
   * @param make builds an input of at least the given number of bytes
   */
  public static long[] assertScalesLinearly(String what, java.util.function.IntFunction<byte[]> make,
      java.util.function.Consumer<byte[]> run) {
    byte[][] in = {make.apply(10 << 10), make.apply(100 << 10), make.apply(1 << 20)};
    // warm-up: compiled code for every size, so that the timings measure the work, not the JIT
    for (int i = 0; i < 30; i++) run.accept(in[0]);
    for (int i = 0; i < 5; i++) run.accept(in[1]);
    run.accept(in[2]);
    long[] t = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
    for (int k = 0; k < 3; k++) {
      for (int i = 0; i < 3; i++) {
        byte[] input = in[i];
        t[i] = Math.min(t[i], Math.max(1_000_000L, cpuTimed(() -> run.accept(input))));
      }
    }
    System.out.printf("%s: %d bytes in %.3f ms, %d bytes in %.3f ms, %d bytes in %.3f ms of CPU (%.0fx, %.0fx)%n", what, in[0].length,
        t[0] / 1e6, in[1].length, t[1] / 1e6, in[2].length, t[2] / 1e6, (double) t[2] / t[0], (double) t[2] / t[1]);
    if (t[2] > 1000 * t[0] || t[2] > 60 * t[1]) {
      throw new AssertionError(what + ": " + in[2].length + " bytes took " + t[2] / 1_000_000 + " ms, " + t[2] / t[0] + " times "
          + in[0].length + " bytes and " + t[2] / t[1] + " times " + in[1].length + " bytes");
    }
    return t;
  }

  /** The calling thread's CPU time for {@code body}: not inflated when other processes share the cores. */
  private static long cpuTimed(Runnable body) {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    long t0 = mx.getCurrentThreadCpuTime();
    body.run();
    return mx.getCurrentThreadCpuTime() - t0;
  }

  private static long timed(Runnable body) {
    long t0 = System.nanoTime();
    body.run();
    return System.nanoTime() - t0;
  }
}
