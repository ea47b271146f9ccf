package dev.gsym.symbolize;

/**
 * What one source answered for one module, remembered until {@code expiresAt} (epoch
 * milliseconds).
 *
 * @param sourceId {@link Source#id()}
 * @param at when the answer was given (epoch milliseconds)
 */
record Failure(String sourceId, Kind kind, String message, long at, long expiresAt) {
  enum Kind {
    /** The source does not have the module. Persisted in the store's negative-cache marker. */
    NOT_FOUND,
    /** The source had something that cannot be read. Persisted in the marker. */
    UNREADABLE,
    /** The source could not be asked (network). Kept in memory only. */
    TRANSIENT
  }

  boolean expired(long now) {
    return now >= expiresAt;
  }
}
