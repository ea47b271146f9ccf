package dev.gsym.stackwalk;

import java.util.List;

/**
 * A thread's walked stack: frames from the innermost (the context frame, or the frames inlined into
 * it) outwards.
 *
 * @param stack the thread's stack memory (what {@code -s} prints), or null
 * @param failure null when the walk ended as Breakpad's ends; else what unexpected error ended it
 *     (the frames found before are kept)
 */
public record CallStack(long threadId, String threadName, List<StackFrame> frames, StackMemory stack, String failure) {
  /** Copies the frames. */
  public CallStack {
    frames = List.copyOf(frames);
  }
}
