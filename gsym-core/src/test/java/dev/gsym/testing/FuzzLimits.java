package dev.gsym.testing;

import java.time.Duration;

/**
 * The per-input time bound of the fuzz targets (docs/reliability.md). JUnit's {@code @Timeout}
 * cannot be used on a Jazzer {@code @FuzzTest}: it would also time the agent's installation and,
 * when fuzzing, the whole campaign. So each target measures its own input: an input that finishes
 * later than the bound is a finding in a plain test run and when fuzzing. An input that never
 * finishes is caught by libFuzzer's {@code -timeout} when fuzzing (bench/fuzz.sh sets it to the same
 * bound) and by Surefire's fork timeout in a test run.
 */
public final class FuzzLimits {
  private FuzzLimits() {}

  /** Runs {@code body}; fails if it took longer than {@code limit}. */
  public static void within(Duration limit, String what, Runnable body) {
    long t0 = System.nanoTime();
    body.run();
    long took = System.nanoTime() - t0;
    if (took > limit.toNanos()) {
      throw new AssertionError(what + " took " + took / 1_000_000 + " ms, over the per-input limit of " + limit.toMillis() + " ms");
    }
  }
}
