package dev.gsym.symbolize;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
   * @param merged the functions folded onto the address and how the one named was chosen; empty
   *     if the address has only one function
   * @param source where the module's symbols came from, when this process opened it
   */
  record Found(ModuleRef module, long address, long fileAddress, long base, List<Frame> frames, Optional<Merged> merged,
      Origin source)
      implements Symbolized {
    /** Copies the frames; checks that there is one at least and that nothing is null. */
    public Found {
      Objects.requireNonNull(module, "module");
      frames = List.copyOf(frames);
      if (frames.isEmpty()) throw new IllegalArgumentException("no frames");
      Objects.requireNonNull(merged, "merged");
      Objects.requireNonNull(source, "source");
    }

    /** The address relative to the module's base ({@code fileAddress - base}). */
    public long relativeAddress() {
      return fileAddress - base;
    }

    /** The outermost frame: the function that contains the address. */
    public Frame function() {
      return frames.getLast();
    }

    /** The components, with the addresses in hex. */
    @Override
    public String toString() {
      return "Found[module=" + module + ", address=" + hex(address) + ", fileAddress=" + hex(fileAddress) + ", base="
          + hex(base) + ", frames=" + frames + merged.map(m -> ", merged=" + m).orElse("") + ", source=" + source + "]";
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
  record ModuleNotFound(ModuleRef module, long address, String message, boolean retryable) implements Symbolized {
    /** The components, with the address in hex. */
    @Override
    public String toString() {
      return "ModuleNotFound[module=" + module + ", address=" + hex(address) + ", message=" + message + ", retryable="
          + retryable + "]";
    }
  }

  /**
   * The module was found but has no function at the address (also: a relative address that wraps
   * past 2^64 when the module's base is added).
   *
   * @param fileAddress the address looked up, in the module's address space
   * @param message llvm-gsymutil's message, e.g. {@code address 0x10 is not in GSYM}
   */
  record AddressNotCovered(ModuleRef module, long address, long fileAddress, String message) implements Symbolized {
    /** The components, with the addresses in hex. */
    @Override
    public String toString() {
      return "AddressNotCovered[module=" + module + ", address=" + hex(address) + ", fileAddress=" + hex(fileAddress)
          + ", message=" + message + "]";
    }
  }

  /**
   * Symbols were found but cannot be read: a malformed GSYM, ELF, DWARF or Breakpad file, a file
   * of another kind, or a store entry found corrupt by this lookup (removed from the store, and
   * converted again when a source has the module: then the answer is the new conversion's).
   *
   * @param message names the file and the problem (for malformed bytes, the offset too)
   */
  record ModuleUnreadable(ModuleRef module, long address, String message) implements Symbolized {
    /** The components, with the address in hex. */
    @Override
    public String toString() {
      return "ModuleUnreadable[module=" + module + ", address=" + hex(address) + ", message=" + message + "]";
    }
  }

  private static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }
}
