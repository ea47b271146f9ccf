package dev.gsym.symbolize;

import java.nio.file.Path;

/** What one source answered when asked for a module's symbols. */
sealed interface Fetched {
  /**
   * A local file with the module's symbols.
   *
   * @param temporary a download to delete once converted
   * @param origin where it came from, for messages
   */
  record Found(Path file, boolean temporary, String origin) implements Fetched {}

  /** The source does not have the module. */
  record Missing(String message) implements Fetched {}

  /**
   * The source could not answer ({@code transientFailure}: network trouble, ask again later) or
   * answered with something unusable.
   */
  record Failed(String message, boolean transientFailure) implements Fetched {}
}
