package dev.gsym.symbolize;

/**
 * Why a module, or one place asked for it, gave no symbols: the one vocabulary of the search
 * (what a source answered, what is remembered per source, what the search concludes). Declared
 * from the mildest to the worst: a module's answer is the worst of its sources' misses.
 */
enum Miss {
  /** The place does not have the module. Remembered in the store's negative-cache marker. */
  NOT_FOUND,
  /**
   * The place could not be asked now (connection refused, timeout, truncated transfer, 5xx, a
   * store that is full or locked): asking again later may succeed. Remembered in memory only.
   */
  UNAVAILABLE,
  /**
   * The place had something that cannot be used (malformed, another module's file, too large).
   * Remembered in the store's negative-cache marker.
   */
  UNREADABLE;

  /** The worse of this miss and {@code other}. */
  Miss worse(Miss other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
