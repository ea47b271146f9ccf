package dev.gsym.symbolize;

/**
 * What one source answered for one module, remembered until {@code expiresAt} (epoch
 * milliseconds).
 *
 * @param sourceId {@link Source#id()}
 * @param at when the answer was given (epoch milliseconds)
 */
record Failure(String sourceId, Miss reason, String message, long at, long expiresAt) {
  boolean expired(long now) {
    return now >= expiresAt;
  }
}
