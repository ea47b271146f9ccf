package dev.gsym.cli;

import dev.gsym.Progress;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.function.LongSupplier;

/** What tests of the program packages need of this package's package-private constructors. */
public final class CliTesting {
  private CliTesting() {}

  /** A session on the given streams, as {@link GsymUtil#run} makes one. */
  public static Session session(InputStream in, OutputStream out, PrintStream err) {
    return new Session(in, out, err);
  }

  /** A progress bar on {@code err} whose time is read from {@code clock} (nanoseconds). */
  public static Progress progressBar(PrintStream err, String what, LongSupplier clock) {
    return new ProgressBar(err, what, clock);
  }
}
