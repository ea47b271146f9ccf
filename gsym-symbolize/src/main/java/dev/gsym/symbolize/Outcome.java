package dev.gsym.symbolize;

/** The result of resolving a module: an open module, or why there is none. */
sealed interface Outcome {
  /** An open module; the handle must be closed after the lookups. */
  record Loaded(ReaderCache.Handle handle) implements Outcome {}

  /** See {@link Symbolized.ModuleNotFound}. */
  record NotFound(String message, boolean retryable) implements Outcome {}

  /** See {@link Symbolized.ModuleUnreadable}. */
  record Unreadable(String message) implements Outcome {}
}
