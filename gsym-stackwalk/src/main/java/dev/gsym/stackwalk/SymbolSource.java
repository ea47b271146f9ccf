package dev.gsym.stackwalk;

/**
 * Where the walker gets a module's symbols and unwind information. Asked at most once per module
 * (by its code file) and dump; an implementation may keep what it found for later dumps.
 */
public interface SymbolSource {
  /**
   * The symbols of {@code module}, or null when there are none. A symbol file that exists but cannot
   * be read or parsed gives symbols (possibly empty) marked {@link ModuleSymbols#corrupt()}, as
   * Breakpad loads it; this method does not throw for bad symbol files.
   */
  ModuleSymbols find(CodeModule module, SystemDescription system);
}
