package dev.gsym.symbolize;

import java.nio.file.Path;

/**
 * A module reference resolved into what the search needs.
 *
 * @param cacheKey identifies the module among the open ones and the searches in flight
 * @param storeKey where it lives in the store, or null if it has no identity (then conversions
 *     stay private to this process)
 * @param buildId lower-case hex, or null
 * @param debugFile the Breakpad debug file name, or null
 * @param debugId the Breakpad debug id, or null
 * @param file the file given for a {@link ModuleRef.FilePath}, else null
 * @param kind what {@code file} holds
 * @param facts for an ELF {@code file}
 * @param error why the reference cannot be resolved at all (then the rest is unused)
 */
record Target(ModuleRef ref, String cacheKey, ModuleKey storeKey, String buildId, String debugFile, String debugId,
    Path file, ConverterAdapter.Kind kind, ConverterAdapter.ObjectFacts facts, Outcome error) {

  /** True if the file given has symbols of its own to convert (its DWARF or embedded GSYM, or Breakpad records). */
  boolean hasOwnSymbols() {
    return file != null && (kind == ConverterAdapter.Kind.BREAKPAD
        || kind == ConverterAdapter.Kind.OBJECT && facts.hasDebugInfo());
  }
}
