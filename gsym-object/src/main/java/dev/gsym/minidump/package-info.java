/**
 * Minidumps: the crash dumps of Breakpad, Crashpad and Windows' {@code MiniDumpWriteDump}, read as
 * Breakpad's processor reads them. {@link dev.gsym.minidump.Minidump} opens a file and checks its
 * header and stream directory; one class per on-disk structure reads each stream (system info,
 * threads and their names, modules with their CodeView records, unloaded modules, the memory
 * lists, memory info, the exception, misc, Breakpad and Crashpad info, assertions, Linux's /proc
 * copies) and the CPU contexts ({@link dev.gsym.minidump.CpuContext}), whose registers fill a
 * {@link dev.gsym.unwind.Registers}; {@link dev.gsym.minidump.MinidumpMemory} is the dump's
 * process memory as a {@link dev.gsym.unwind.MemoryReader}. Malformed input is a {@link
 * dev.gsym.GsymFormatException} with its absolute file offset.
 */
package dev.gsym.minidump;
