package dev.gsym.symbolize;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;

/**
 * One configured {@link Source} at work: whether it can look a module up, and looking it up. The
 * search asks the fetchers in the order their sources were added.
 */
sealed interface Fetcher extends AutoCloseable permits LocalDebugFiles, DebuginfodFetcher, BreakpadFetcher {
  /** The configuration. */
  Source source();

  /** What {@link Symbolized.Found#source()} says of a module this fetcher found. */
  Origin origin();

  /** True if the source can look {@code t} up (it has the identity the source is keyed by). */
  boolean applies(Target.Search t);

  /**
   * Looks {@code t} up; a download goes to a new file from {@code temp} (deleted by the fetcher if
   * nothing usable arrives, else marked temporary for the caller to delete after converting it).
   */
  Fetched fetch(Target.Search t, TempFiles temp) throws InterruptedException;

  /** Releases HTTP clients; nothing to do for local sources. */
  @Override
  default void close() {}

  /** The fetcher of {@code source}; downloads are counted in {@code downloads}. */
  static Fetcher of(Source source, LongAdder downloads) {
    return switch (source) {
      case Source.DebugDirectories d -> new LocalDebugFiles(d);
      case Source.Debuginfod d -> new DebuginfodFetcher(d, downloads);
      case Source.BreakpadSymbols b -> new BreakpadFetcher(b, downloads);
    };
  }

  /** Creates temporary files for downloads. */
  interface TempFiles {
    /** A new empty file. */
    Path create() throws IOException;
  }
}
