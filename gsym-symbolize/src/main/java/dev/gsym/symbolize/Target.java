package dev.gsym.symbolize;

import java.nio.file.Path;

/** A module reference resolved into what obtaining the module needs. */
sealed interface Target {
  /** The reference as the caller gave it. */
  ModuleRef ref();

  /** A reference answered without a search: a file that is missing, unreadable or of no known kind. */
  record Answered(ModuleRef ref, Outcome.Missed answer) implements Target {}

  /**
   * A GSYM file given by path: opened as it is.
   *
   * @param cacheKey identifies the module among the open ones and the loads in flight
   */
  record GsymFile(ModuleRef ref, String cacheKey, Path file) implements Target {}

  /**
   * A module searched for: the store (under {@code storeKey}), then the file's own symbols, then the
   * sources that can look it up by its identity.
   *
   * @param cacheKey identifies the module among the open ones and the searches in flight
   * @param storeKey where it lives in the store, or null if it has no identity (then conversions
   *     stay private to this process)
   * @param buildId lower-case hex, or null
   * @param breakpad the Breakpad identity (debug file and debug id), or null
   * @param local the file the reference names, or null for a reference by identity
   */
  record Search(ModuleRef ref, String cacheKey, ModuleKey storeKey, String buildId, ModuleRef.Breakpad breakpad,
      Local local) implements Target {
    /** True if the file given has symbols of its own to convert (DWARF or an embedded GSYM, or Breakpad records). */
    boolean hasOwnSymbols() {
      return switch (local) {
        case null -> false;
        case Local.SymbolFile s -> true;
        case Local.Binary b -> b.facts().hasDebugInfo();
      };
    }

    /** The facts of the binary given, or null. */
    ConverterAdapter.ObjectFacts facts() {
      return local instanceof Local.Binary b ? b.facts() : null;
    }
  }

  /** The file a {@link Search} reference names. */
  sealed interface Local {
    /** The file. */
    Path file();

    /** How the file is converted. */
    ConverterAdapter.Kind kind();

    /** An ELF or Mach-O file, with the facts the search needs. */
    record Binary(Path file, ConverterAdapter.ObjectFacts facts) implements Local {
      @Override
      public ConverterAdapter.Kind kind() {
        return ConverterAdapter.Kind.OBJECT;
      }
    }

    /** A Breakpad symbol file. */
    record SymbolFile(Path file) implements Local {
      @Override
      public ConverterAdapter.Kind kind() {
        return ConverterAdapter.Kind.BREAKPAD;
      }
    }
  }
}
