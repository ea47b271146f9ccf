package dev.gsym.stackwalk;

import java.util.List;

/**
 * What a module's symbols say of an address, offsets relative to the module's base, as Breakpad's
 * resolver fills a frame: the function, and the line record holding the address if any. With
 * inlined calls at the address, {@code file} and {@code line} are the call site of the outermost
 * inlined call, and each inlined frame has the location inside it ({@code inlined}: innermost first).
 *
 * @param file the source file as written in the symbols, "" for none
 * @param line the line, 0 without a line record
 * @param lineBase the first address of the line record holding the address (with {@code hasLine})
 * @param hasLine whether a line record holds the address
 */
public record SourceInfo(String function, long functionBase, String file, int line, long lineBase, boolean hasLine,
    List<Inlined> inlined) {
  /** Copies the inlined frames. */
  public SourceInfo {
    inlined = List.copyOf(inlined);
  }

  /** One inlined call: the inlined function, the range holding the address, and the location inside it. */
  public record Inlined(String function, long base, String file, int line) {}
}
