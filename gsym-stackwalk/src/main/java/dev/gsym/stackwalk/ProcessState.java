package dev.gsym.stackwalk;

import java.util.List;

/**
 * The result of walking a crashed process: what Breakpad's {@code ProcessState} holds and
 * minidump_stackwalk prints.
 *
 * @param crash the crash, or null when the process did not crash
 * @param assertion a failed assertion's description, or ""
 * @param dumpTime when the dump was written (seconds since 1970), 0 when unknown
 * @param processCreateTime when the process started, 0 when unknown
 * @param requestingThread index in {@code threads} of the thread that crashed or requested the dump, -1 if none
 * @param modules the loaded modules, or null when the dump has no readable module list
 * @param modulesWithoutSymbols modules a frame fell into whose symbols could not be found, in the
 *     order they were met (minidump_stackwalk warns of them in the module list)
 * @param modulesWithCorruptSymbols modules whose symbols were found but had bad records
 * @param resolver looks addresses up in the symbols the walk loaded (for printing stack contents)
 */
public record ProcessState(SystemDescription system, CrashInfo crash, String assertion, long dumpTime,
    long processCreateTime, int requestingThread, List<CallStack> threads, CodeModules modules,
    List<CodeModule> modulesWithoutSymbols, List<CodeModule> modulesWithCorruptSymbols, FrameResolver resolver) {
  /** Copies the lists. */
  public ProcessState {
    threads = List.copyOf(threads);
    modulesWithoutSymbols = List.copyOf(modulesWithoutSymbols);
    modulesWithCorruptSymbols = List.copyOf(modulesWithCorruptSymbols);
  }

  /** Whether the process crashed (rather than being dumped on request). */
  public boolean crashed() {
    return crash != null;
  }
}
