package dev.gsym.symbolize;

import dev.gsym.read.SourceLine;
import java.util.Objects;
import java.util.Optional;

/**
 * One frame of a symbolized address. The frames of an address are ordered deepest first: inlined
 * frames, then the function that contains the address.
 *
 * @param function the function's name as the symbolizer shows it: demangled when the {@link
 *     Symbolizer} demangles ({@link Symbolizer.Builder#demangle(boolean)}, the default), else
 *     {@code rawName}
 * @param rawName the name as the module stores it (a linkage name is mangled)
 * @param location where the address is in this function: for the deepest frame the address's own
 *     line; for a caller of an inlined frame the line of the call that was inlined
 * @param startAddress the start of this function, or for an inlined frame the start of the inlined
 *     range that contains the address, in the module's address space (like {@code fileAddress} of
 *     {@link Symbolized.Found})
 * @param callSite for an inlined frame, where it was inlined into its caller (the next frame's
 *     {@code location}); empty for the outermost frame
 */
public record Frame(String function, String rawName, SourceLine location, long startAddress,
    Optional<SourceLine> callSite) {
  /** Checks that no component is null. */
  public Frame {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(rawName, "rawName");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(callSite, "callSite");
  }

  /** True for a frame inlined into the next one. */
  public boolean inlined() {
    return callSite.isPresent();
  }

  /** The components, with the address in hex. */
  @Override
  public String toString() {
    return "Frame[function=" + function + (rawName.equals(function) ? "" : ", rawName=" + rawName) + ", location="
        + location + ", startAddress=0x" + Long.toHexString(startAddress)
        + callSite.map(c -> ", callSite=" + c).orElse("") + "]";
  }
}
