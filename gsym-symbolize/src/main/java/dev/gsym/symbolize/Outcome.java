package dev.gsym.symbolize;

/** The result of resolving a module: an open module, or why there is none. */
sealed interface Outcome {
  /** An open module; the handle must be closed after the lookups. */
  record Loaded(ReaderCache.Handle handle) implements Outcome {}

  /**
   * No module: {@link Miss#UNREADABLE} answers {@link Symbolized.ModuleUnreadable}, the others
   * {@link Symbolized.ModuleNotFound} ({@link Miss#UNAVAILABLE}: retryable).
   */
  record Missed(Miss reason, String message) implements Outcome {}
}
