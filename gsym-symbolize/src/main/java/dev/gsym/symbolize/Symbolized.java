package dev.gsym.symbolize;

import java.util.List;

/**
 * The answer for one (module, address) pair: the frames, or why there are none. A failure concerns
 * its pair only: batches answer every pair.
 */
public sealed interface Symbolized {
  /** The module asked about. */
  ModuleRef module();

  /** The address as given (absolute or relative, as the call or the {@link Symbolizer} was configured). */
  long address();

  /**
   * The address resolved.
   *
   * @param fileAddress the address in the module's own address space (the address given, or for
   *     {@link AddressMode#RELATIVE} the address plus the module's base)
   * @param base the module's base (see {@link AddressMode#RELATIVE})
   * @param frames deepest first, at least one
   * @param merged the functions folded onto the address and how the one named was chosen, or null
   *     if the address has only one function
   * @param source where the module's symbols came from, when this process opened it: {@code
   *     "store"} (the GSYM store, converted earlier, maybe by another process), {@code "file"} (the
   *     file the reference names: a GSYM file, or a binary converted), {@code "debug-dir"}, {@code
   *     "debuginfod"} or {@code "breakpad"} (found there and converted by this process)
   */
  record Found(ModuleRef module, long address, long fileAddress, long base, List<Frame> frames, Merged merged,
      String source)
      implements Symbolized {
    public Found {
      frames = List.copyOf(frames);
      if (frames.isEmpty()) throw new IllegalArgumentException("no frames");
      java.util.Objects.requireNonNull(source, "source");
    }

    /** The address relative to the module's base ({@code fileAddress - base}). */
    public long relativeAddress() {
      return fileAddress - base;
    }

    /** The outermost frame: the function that contains the address. */
    public Frame function() {
      return frames.getLast();
    }
  }

  /**
   * No configured place has symbols for the module.
   *
   * @param message what was tried and what each place answered
   * @param retryable true if some place could not be asked (server down, timeout, truncated
   *     transfer): asking again later may succeed. Such failures are remembered for the
   *     symbolizer's transient-failure time only; "not found" answers for each source's negative
   *     time.
   */
  record ModuleNotFound(ModuleRef module, long address, String message, boolean retryable) implements Symbolized {}

  /**
   * The module was found but has no function at the address (also: a relative address that wraps
   * past 2^64 when the module's base is added).
   *
   * @param fileAddress the address looked up, in the module's address space
   * @param message llvm-gsymutil's message, e.g. {@code address 0x10 is not in GSYM}
   */
  record AddressNotCovered(ModuleRef module, long address, long fileAddress, String message) implements Symbolized {}

  /**
   * Symbols were found but cannot be read: a malformed GSYM, ELF, DWARF or Breakpad file, or a file
   * of another kind.
   *
   * @param message names the file and the problem
   */
  record ModuleUnreadable(ModuleRef module, long address, String message) implements Symbolized {}
}
