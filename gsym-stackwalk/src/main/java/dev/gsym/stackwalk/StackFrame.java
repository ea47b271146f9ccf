package dev.gsym.stackwalk;

/**
 * One frame of a thread's stack, as Breakpad's processor reports it.
 *
 * @param instruction the address looked up: the pc for the context frame, an address inside the call
 *     instruction for callers (the return address minus 1 on x86, 2 on ARM, 4 on AArch64)
 * @param returnAddress the address minidump_stackwalk prints offsets from: the return address (eip,
 *     rip) for x86 and x86-64 frames, {@code instruction} otherwise (and for inlined frames)
 * @param module the module holding {@code instruction} (a loaded one, else an unloaded one), or null
 * @param function the function's name, "" when the module has no symbols covering the address
 * @param functionBase the function's (for an inlined frame: the inlined range's) first address
 * @param sourceFile the source file, "" when the symbols have no line for the address
 * @param sourceLine the source line (0 with no file)
 * @param sourceLineBase the first address of the line record
 * @param registers the frame's registers, null for an inlined frame
 */
public record StackFrame(long instruction, long returnAddress, CodeModule module, String function, long functionBase,
    String sourceFile, int sourceLine, long sourceLineBase, FrameTrust trust, FrameRegisters registers) {
  /** A null function or source file becomes "". */
  public StackFrame {
    function = function == null ? "" : function;
    sourceFile = sourceFile == null ? "" : sourceFile;
  }
}
