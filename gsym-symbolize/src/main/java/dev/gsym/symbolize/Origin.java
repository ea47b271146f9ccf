package dev.gsym.symbolize;

/**
 * Where the symbols of a {@link Symbolized.Found} answer came from, when the symbolizer opened the
 * module.
 */
public enum Origin {
  /** The GSYM store: converted earlier, by this process or another one sharing the store. */
  STORE("store"),
  /** The file the reference names: a GSYM file, or a binary or symbol file converted. */
  FILE("file"),
  /** Found in a {@link Source.DebugDirectories} directory and converted. */
  DEBUG_DIRECTORIES("debug-dir"),
  /** Downloaded from a {@link Source.Debuginfod} server (or its client cache) and converted. */
  DEBUGINFOD("debuginfod"),
  /** Found in a {@link Source.BreakpadSymbols} store and converted. */
  BREAKPAD("breakpad");

  private final String id;

  Origin(String id) {
    this.id = id;
  }

  /**
   * A short lower-case name: {@code store}, {@code file}, {@code debug-dir}, {@code debuginfod},
   * {@code breakpad} (what the HTTP service reports as a frame's {@code source}).
   */
  public String id() {
    return id;
  }
}
