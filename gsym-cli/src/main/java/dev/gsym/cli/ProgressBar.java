package dev.gsym.cli;

import dev.gsym.Progress;
import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar for a terminal's stderr: nothing during the first second, then at most
 * ten redraws a second of {@code [#####.....] done/total what  pct  rate/s  ETA m:ss}, and the
 * line erased by {@link #close()} so later output starts on a clean line.
 */
public final class ProgressBar implements Progress, AutoCloseable {
  private static final long QUIET_NANOS = 1_000_000_000L;
  private static final long REDRAW_NANOS = 100_000_000L;
  private static final int WIDTH = 30;

  private final PrintStream err;
  private final String what;
  private final LongSupplier clock;
  private final long start;
  private long lastDraw = Long.MIN_VALUE;
  /** First update (work may start late, e.g. after decompression): the rate is measured from it. */
  private long firstTime = Long.MIN_VALUE;
  private long firstDone;
  private int drawnWidth;

  /** @param clock nanosecond clock (System::nanoTime; tests pass their own) */
  ProgressBar(PrintStream err, String what, LongSupplier clock) {
    this.err = err;
    this.what = what;
    this.clock = clock;
    this.start = clock.getAsLong();
  }

  /**
   * A bar for {@code what} on {@code err} if stderr is a terminal (the launcher passes
   * {@code -Dgsym.stderr.tty=true}) and the job is not {@code quiet}; otherwise {@link Progress#NONE}.
   */
  public static Progress forTerminal(PrintStream err, String what, boolean quiet) {
    if (quiet || !Boolean.getBoolean("gsym.stderr.tty")) return Progress.NONE;
    return new ProgressBar(err, what, System::nanoTime);
  }

  @Override
  public void update(long done, long total) {
    long now = clock.getAsLong();
    if (firstTime == Long.MIN_VALUE) {
      firstTime = now;
      firstDone = done;
    }
    long elapsed = now - start;
    if (elapsed < QUIET_NANOS) return;
    if (done < total && lastDraw != Long.MIN_VALUE && now - lastDraw < REDRAW_NANOS) return;
    lastDraw = now;
    draw(done, total, now);
  }

  private void draw(long done, long total, long now) {
    StringBuilder sb = new StringBuilder(96).append('[');
    int filled = total > 0 ? (int) Math.min(WIDTH, done * WIDTH / total) : 0;
    sb.repeat('#', filled).repeat('.', WIDTH - filled).append("] ");
    sb.append(done);
    if (total > 0) sb.append('/').append(total);
    sb.append(' ').append(what);
    if (total > 0) sb.append("  ").append(done * 100 / total).append('%');
    double seconds = (now - firstTime) / 1e9;
    double rate = seconds >= 0.2 ? (done - firstDone) / seconds : 0;
    if (rate > 0) {
      sb.append("  ").append(rate >= 10 ? String.valueOf(Math.round(rate)) : String.format("%.1f", rate)).append("/s");
    }
    if (rate > 0 && total > 0 && done < total) {
      long left = Math.round((total - done) / rate);
      sb.append("  ETA ").append(left / 60).append(':').append(left % 60 < 10 ? "0" : "").append(left % 60);
    }
    int width = sb.length();
    if (width < drawnWidth) sb.repeat(' ', drawnWidth - width);
    drawnWidth = Math.max(drawnWidth, width);
    err.print('\r');
    err.print(sb);
    err.flush();
  }

  /** Erases the bar if it was drawn. */
  @Override
  public void close() {
    if (drawnWidth == 0) return;
    err.print('\r');
    err.print(" ".repeat(drawnWidth));
    err.print('\r');
    err.flush();
    drawnWidth = 0;
  }
}
