package dev.gsym.stackwalk;

import java.util.List;

/**
 * Symbolicates an arbitrary address with the symbols a walk loaded (and only those, as
 * minidump_stackwalk's {@code -s} output does for the words of a stack): the frame of the address
 * (module, function, line; empty fields where unknown), then the frames inlined at it, innermost first.
 */
@FunctionalInterface
public interface FrameResolver {
  /** The frames at {@code address}: its own, then the ones inlined at it, innermost first. */
  List<StackFrame> resolve(long address);
}
