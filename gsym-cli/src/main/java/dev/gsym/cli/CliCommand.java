package dev.gsym.cli;

import java.util.concurrent.Callable;

/** A gsymutil command: runs with the values it was given, by {@link Opt}. */
public interface CliCommand extends Callable<Integer> {
  /**
   * Where picocli ({@link dev.gsym.cli.gsymutil.CommandModel#collect}) or {@link
   * dev.gsym.cli.gsymutil.QuickArgs} put the values given.
   */
  Args args();
}
