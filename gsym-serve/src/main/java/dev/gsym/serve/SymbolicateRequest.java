package dev.gsym.serve;

import dev.gsym.symbolize.AddressAdjustment;
import dev.gsym.symbolize.ModuleRef;
import java.util.List;

/**
 * One parsed {@code POST /symbolicate} body: the modules, and every frame of every stack flattened
 * into arrays (frame {@code j} of stack {@code s} is entry {@code stackStart[s] + j}).
 *
 * @param modules the {@code modules} array, in order
 * @param stackStart where each stack's frames begin in {@code frameModule}/{@code frameAddress};
 *     one more entry than there are stacks (the total frame count last)
 * @param frameModule each frame's index into {@code modules}
 * @param frameAddress each frame's address (unsigned 64-bit)
 * @param options the {@code options} object, with defaults for what it does not say
 */
record SymbolicateRequest(List<Module> modules, int[] stackStart, int[] frameModule, long[] frameAddress,
    Options options) {

  /** A {@code modules} entry: what the symbolizer is asked, or why the entry cannot be used. */
  record Module(ModuleRef ref, String error) {}

  /**
   * The {@code options} object.
   *
   * @param demangle demangle function names (default true)
   * @param inlines one output frame per inlined function (default true); else only the function
   *     containing the address, with the address's file and line
   * @param relative addresses are relative to the module's base address (default false: addresses
   *     in the module's own address space, as linked)
   * @param adjust which frames hold return addresses, looked up inside their call instruction
   *     (default: every frame but the first)
   */
  record Options(boolean demangle, boolean inlines, boolean relative, AddressAdjustment adjust) {
    static final Options DEFAULT = new Options(true, true, false, AddressAdjustment.ALL_BUT_FIRST);
  }

  int stacks() {
    return stackStart.length - 1;
  }

  int frames() {
    return frameModule.length;
  }
}
