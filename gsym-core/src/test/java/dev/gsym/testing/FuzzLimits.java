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

  private static long timed(Runnable body) {
    long t0 = System.nanoTime();
    body.run();
    return System.nanoTime() - t0;
  }
}
