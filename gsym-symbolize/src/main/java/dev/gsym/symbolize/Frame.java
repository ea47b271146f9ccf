package dev.gsym.symbolize;

/**
 * One frame of a symbolized address. The frames of an address are ordered deepest first: inlined
 * frames, then the function that contains the address.
 *
 * @param function the function's name as the module stores it (raw: a linkage name is mangled;
 *     demangling is the caller's business)
 * @param location where the address is in this function: for the deepest frame the address's own
 *     line; for a caller of an inlined frame the line of the call that was inlined
 * @param startAddress the start of this function, or for an inlined frame the start of the inlined
 *     range that contains the address, in the module's address space (like {@code fileAddress} of
 *     {@link Symbolized.Found})
 * @param callSite for an inlined frame, where it was inlined into its caller (the next frame's
 *     {@code location}); null for the outermost frame
 */
public record Frame(String function, SourceLine location, long startAddress, SourceLine callSite) {
  public Frame {
    if (function == null || location == null) throw new IllegalArgumentException("null function or location");
  }

  /** True for a frame inlined into the next one. */
  public boolean inlined() {
    return callSite != null;
  }
}
