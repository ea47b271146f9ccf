package dev.gsym.symbolize;

import java.nio.file.Path;

/** What one source answered when asked for a module's symbols. */
sealed interface Fetched {
  /**
   * A local file with the module's symbols.
   *
   * @param temporary a download to delete once converted
   * @param origin where it came from, for messages (a path or URL)
   */
  record Found(Path file, boolean temporary, String origin) implements Fetched {}

  /** The source has nothing usable: why, and what it answered. */
  record Missed(Miss reason, String message) implements Fetched {}
}
