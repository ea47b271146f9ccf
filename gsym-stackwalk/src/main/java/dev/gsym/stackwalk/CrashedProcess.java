package dev.gsym.stackwalk;

import java.util.List;
import java.util.OptionalLong;

/**
 * A crashed (or dumped) process as the {@link Stackwalker} walks it: the system, why it stopped, its
 * modules and its threads with their registers and stack memory. {@link MinidumpProcess} reads a
 * minidump as Breakpad's processor reads it; other sources (core files) implement the same.
 */
public interface CrashedProcess {
  /** The system, {@link SystemDescription#UNKNOWN} when the source does not say. */
  SystemDescription system();

  /** When the dump was written (seconds since 1970), 0 when unknown. */
  long dumpTime();

  /** When the process was created (seconds since 1970), 0 when unknown. */
  long processCreateTime();

  /** The crash, or null when the process was dumped without crashing. */
  CrashInfo crash();

  /** A failed assertion's description, or "". */
  String assertion();

  /** The id of the thread that crashed or asked for the dump, if known. */
  OptionalLong requestingThreadId();

  /** The loaded modules, or null when the source has no (readable) module list. */
  CodeModules modules();

  /** Modules unloaded before the crash (frames in their ranges are attributed to them), or null. */
  CodeModules unloadedModules();

  /**
   * The threads to walk, in order (minidumps: without the thread that wrote the dump); the
   * requesting thread's context is its state at the crash.
   */
  List<ProcessThread> threads();
}
