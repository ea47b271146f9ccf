package dev.gsym.internal.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A computation handed to an executor that the thread which forked it can take back: {@link #join}
 * runs it on the calling thread if the executor has not started it yet, else waits for it, and
 * {@link #cancelOrAwait} makes sure it is not running and will not run. Used for work that merely
 * overlaps with the caller's (inflating sections, pre-parsing tables), so a busy or single-threaded
 * executor costs time, never a deadlock.
 *
 * @param <V> the result
 */
public final class Forked<V> {
  private static final int NEW = 0, RUNNING = 1, DONE = 2, CANCELLED = 3;

  private final Callable<V> body;
  private int state = NEW;
  private V value;
  private Throwable failure;

  private Forked(Callable<V> body) {
    this.body = body;
  }

  /** Hands {@code body} to {@code executor} (if it refuses, the body runs at {@link #join}). */
  public static <V> Forked<V> fork(Executor executor, Callable<V> body) {
    Forked<V> f = new Forked<>(body);
    try {
      executor.execute(f::runIfNew);
    } catch (RejectedExecutionException e) {
      // left NEW: join runs it
    }
    return f;
  }

  private void runIfNew() {
    synchronized (this) {
      if (state != NEW) return;
      state = RUNNING;
    }
    run();
  }

  private void run() {
    V v = null;
    Throwable t = null;
    try {
      v = body.call();
    } catch (Throwable e) {
      t = e;
    }
    synchronized (this) {
      value = v;
      failure = t;
      state = DONE;
      notifyAll();
    }
  }

  /**
   * The result: computed here if the executor has not started it, else waited for; what the body
   * threw is rethrown (a checked exception wrapped in an {@link IllegalStateException}).
   *
   * @throws IllegalStateException after {@link #cancelOrAwait} took it before it ran
   */
  public V join() {
    boolean here;
    synchronized (this) {
      here = state == NEW;
      if (here) state = RUNNING;
    }
    if (here) run();
    synchronized (this) {
      awaitEnd();
      if (state == CANCELLED) throw new IllegalStateException("cancelled");
      if (failure instanceof RuntimeException r) throw r;
      if (failure instanceof Error e) throw e;
      if (failure != null) throw new IllegalStateException(failure);
      return value;
    }
  }

  /**
   * Makes sure the body is not running and never will: cancels it if it has not started, else waits
   * until it has finished (whatever it threw is ignored). Returns true if the body ran.
   */
  public boolean cancelOrAwait() {
    synchronized (this) {
      if (state == NEW) {
        state = CANCELLED;
        return false;
      }
      awaitEnd();
      return state == DONE;
    }
  }

  /** Waits, holding the monitor, until the state is DONE or CANCELLED; an interrupt is kept for later. */
  private void awaitEnd() {
    boolean interrupted = false;
    while (state == RUNNING) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }
}
