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
   * Checks that {@code run} takes time roughly proportional to its input's size: an input of
   * about 1 MB from {@code make} may take at most 1,000 times as long as one of about 10 KB (100
   * times for linear work; a quadratic blow-up gives 10,000). Best of three runs each, after a
   * warm-up. Returns the two times in nanoseconds.
   *
   * @param make builds an input of at least the given number of bytes
   */
  public static long[] assertScalesLinearly(String what, java.util.function.IntFunction<byte[]> make,
      java.util.function.Consumer<byte[]> run) {
    byte[] small = make.apply(10 << 10);
    byte[] large = make.apply(1 << 20);
    for (int i = 0; i < 20; i++) run.accept(small);
    long ts = Long.MAX_VALUE;
    long tl = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      ts = Math.min(ts, timed(() -> run.accept(small)));
      tl = Math.min(tl, timed(() -> run.accept(large)));
    }
    System.out.printf("%s: %d bytes in %.3f ms, %d bytes in %.3f ms (%.0fx)%n", what, small.length, ts / 1e6, large.length, tl / 1e6,
        (double) tl / ts);
    if (tl > 1000 * ts + 50_000_000L) {
      throw new AssertionError(what + ": " + large.length + " bytes took " + tl / 1_000_000 + " ms, " + tl / Math.max(1, ts)
          + " times the " + ts / 1000 + " us of " + small.length + " bytes");
    }
    return new long[] {ts, tl};
  }

  private static long timed(Runnable body) {
    long t0 = System.nanoTime();
    body.run();
    return System.nanoTime() - t0;
  }
}
