package dev.gsym.stackwalk;

import dev.gsym.unwind.UnwindState;
import dev.gsym.unwind.WindowsFrameInfo;

/**
 * A module's symbols and unwind information, addressed by offsets from the module's base (the
 * addresses of its Breakpad symbol file). Lookups never throw: malformed data answers as absent.
 */
public interface ModuleSymbols {
  /** Whether the symbol file had records that could not be read (minidump_stackwalk warns of corrupt symbols). */
  boolean corrupt();

  /** What the symbols say of {@code offset}, as Breakpad's resolver answers, or null when no function covers it. */
  SourceInfo lookup(long offset);

  /** Fills {@code state} with the CFI row in effect at {@code offset}; false when there is none. */
  boolean cfi(long offset, UnwindState state);

  /**
   * The Windows frame data at {@code offset}: a {@code STACK WIN} record covering it (FrameData
   * before FPO), else null.
   */
  WindowsFrameInfo windowsFrameInfo(long offset);

  /**
   * The parameter size the FUNC (or, when no FUNC covers it, PUBLIC) record covering {@code offset}
   * declares, or -1 when none does or the symbols do not keep it.
   */
  long parameterSize(long offset);

  /**
   * The symbols and unwind information of a GSYM file whose addresses are the offsets from the
   * module's base (one converted from the module's Breakpad symbol file, with its {@code STACK}
   * records as unwind information when it was converted with them): what a walker needs from a
   * GSYM store. Not corrupt; no FUNC parameter sizes. The reader stays the caller's to close.
   */
  static ModuleSymbols of(dev.gsym.read.GsymReader reader) {
    return new GsymModuleSymbols(java.util.Objects.requireNonNull(reader, "reader"), false, null);
  }
}
