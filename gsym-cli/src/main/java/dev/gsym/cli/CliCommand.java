package dev.gsym.cli;

import java.util.concurrent.Callable;

/** A gsymutil command: runs with the values it was given, by {@link Opt}. */
interface CliCommand extends Callable<Integer> {
  /** Where picocli ({@link CommandModel#collect}) or {@link QuickArgs} put the values given. */
  Args args();
}
