package dev.gsym.testing;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-input time bound of the fuzz targets (docs/reliability.md). JUnit's {@code @Timeout}
 * cannot be used on a Jazzer {@code @FuzzTest}: it would also time the agent's installation and,
 * when fuzzing, the whole campaign. So each target measures its own inputs: an input that finishes
 * later than the bound is a finding, in a plain test run and when fuzzing. An input that never
 * finishes is caught by libFuzzer's {@code -timeout} when fuzzing (bench/fuzz.sh sets it) and by
 * Surefire's fork timeout in a test run.
 *
 * <p>The first input of each target in a JVM also loads, instruments and compiles the code under
 * test; it gets {@link #FIRST_INPUT} instead.
 */
public final class FuzzLimits {
  private FuzzLimits() {}

  /** The bound on a target's first input in this JVM (class loading and instrumentation). */
  public static final Duration FIRST_INPUT = Duration.ofSeconds(60);

  private static final Set<String> WARM = ConcurrentHashMap.newKeySet();

  /** Runs {@code body}, input of {@code target}; fails if it took longer than {@code limit}. */
  public static void within(Duration limit, String target, String what, Runnable body) {
    Duration bound = WARM.add(target) ? FIRST_INPUT : limit;
    long t0 = System.nanoTime();
    body.run();
    long took = System.nanoTime() - t0;
    if (took > bound.toNanos()) {
      throw new AssertionError(target + ": " + what + " took " + took / 1_000_000 + " ms, over the per-input limit of "
          + bound.toMillis() + " ms");
    }
  }
}
