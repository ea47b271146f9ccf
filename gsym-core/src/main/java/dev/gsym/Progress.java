package dev.gsym;

/**
 * Receives how far a long job is (units converted, bytes parsed). Called on one thread at a time,
 * often: implementations must be cheap and decide themselves how often to show anything.
 */
@FunctionalInterface
public interface Progress {
  /** Ignores every update. */
  Progress NONE = (done, total) -> {};

  /** {@code done} of {@code total} work items are finished ({@code total} may be 0 if unknown). */
  void update(long done, long total);
}
