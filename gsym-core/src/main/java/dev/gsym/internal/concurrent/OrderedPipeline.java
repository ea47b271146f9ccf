package dev.gsym.internal.concurrent;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Computes items on several threads and consumes the results strictly in submission order.
 *
 * <p>One thread, the owner, submits items, and every call but {@link #close} must come from it.
 * An item is computed exactly once: by one of at most {@code workers} tasks running on the
 * executor, or by the owner, who takes the oldest item itself when no worker has started it (then
 * {@link Stage#computeAndConsume} may write straight to its destination) and, if {@code helpAhead},
 * while the oldest item is still being computed elsewhere, computes a later one rather than wait. At most {@code window}
 * items are submitted and not yet consumed, so memory stays bounded for any number of items. The
 * results, and so the output, do not depend on {@code workers}; with 0 workers every item is
 * computed and consumed as it is submitted.
 *
 * <p>A compute that throws fails its item: the exception is rethrown to the owner, as it was
 * thrown, when that item's turn comes (the items before it are consumed first). {@link #close}
 * drops the items no thread has started and waits for those being computed, so none of this
 * pipeline's work runs after it returns, also when the owner leaves by an exception. Worker tasks
 * that the executor starts after that return at once.
 *
 * <p>Used by the DWARF conversion (units converted in parallel, merged into the creator in unit
 * order) and by the CLI's batch lookups (chunks of addresses symbolicated in parallel, written in
 * input order).
 *
 * @param <T> an item
 * @param <R> what computing an item produces
 */
public final class OrderedPipeline<T, R> implements AutoCloseable {
  /** What the pipeline does with each item. */
  public interface Stage<T, R> {
    /** Computes an item; runs on any thread, concurrently with other items. */
    R compute(T item);

    /** Consumes an item's result; runs on the owner, in submission order. */
    void consume(T item, R result);

    /**
     * Computes and consumes an item whose turn it is and that no other thread has started, on the
     * owner; by default {@code consume(item, compute(item))}.
     */
    default void computeAndConsume(T item) {
      consume(item, compute(item));
    }
  }

  private static final int WAITING = 0, RUNNING = 1, DONE = 2;

  /** One submitted item. Fields after {@code item} are guarded by the pipeline's monitor. */
  private static final class Slot<T, R> {
    final T item;
    int state = WAITING;
    R result;
    Throwable failure;

    Slot(T item) {
      this.item = item;
    }
  }

  private final Executor executor;
  private final int workers;
  private final int window;
  private final boolean helpAhead;
  private final Stage<T, R> stage;
  /** Submitted and not yet consumed, oldest first (owner only). */
  private final ArrayDeque<Slot<T, R>> inFlight = new ArrayDeque<>();
  /** Submitted and not yet started, oldest first. Guarded by {@code this}. */
  private final ArrayDeque<Slot<T, R>> waiting = new ArrayDeque<>();
  /** Worker tasks handed to the executor that have not finished. Guarded by {@code this}. */
  private int activeWorkers;
  /** Items being computed by workers. Guarded by {@code this}. */
  private int running;
  private boolean closed;

  /** A pipeline whose owner helps ahead ({@link #OrderedPipeline(Executor, int, int, boolean, Stage)}). */
  public OrderedPipeline(Executor executor, int workers, int window, Stage<T, R> stage) {
    this(executor, workers, window, true, stage);
  }

  /**
   * @param executor where worker tasks run (ignored when {@code workers} is 0)
   * @param workers at most this many items are computed off the owner at a time (0: none)
   * @param window at most this many items are submitted and not yet consumed (at least 1)
   * @param helpAhead whether the owner, while the oldest item is computed elsewhere, computes a
   *     later one (true: the owner is a full worker; false: it waits, for owners with other work of
   *     their own such as reading input, so that no more than {@code workers} threads compute)
   */
  public OrderedPipeline(Executor executor, int workers, int window, boolean helpAhead, Stage<T, R> stage) {
    if (workers < 0) throw new IllegalArgumentException("workers must not be negative: " + workers);
    if (window < 1) throw new IllegalArgumentException("window must be at least 1: " + window);
    if (workers > 0) Objects.requireNonNull(executor, "executor");
    this.executor = executor;
    this.workers = workers;
    this.window = window;
    this.helpAhead = helpAhead;
    this.stage = Objects.requireNonNull(stage, "stage");
  }

  /**
   * Submits the next item. With workers, first consumes the oldest items while the window is
   * full; without, computes and consumes this one now.
   *
   * @throws IllegalStateException after {@link #close}
   */
  public void submit(T item) {
    if (closed) throw new IllegalStateException("pipeline closed");
    if (workers == 0) {
      stage.computeAndConsume(item);
      return;
    }
    while (inFlight.size() >= window) consumeOldest();
    Slot<T, R> s = new Slot<>(item);
    inFlight.add(s);
    boolean start;
    synchronized (this) {
      waiting.add(s);
      start = activeWorkers < workers;
      if (start) activeWorkers++;
    }
    if (start) startWorker();
  }

  /** Consumes every submitted item, in order. */
  public void drain() {
    while (!inFlight.isEmpty()) consumeOldest();
  }

  private void startWorker() {
    try {
      executor.execute(this::work);
    } catch (RejectedExecutionException e) {
      synchronized (this) {
        activeWorkers--; // the owner computes what this worker would have
      }
    }
  }

  /** A worker task: computes waiting items, oldest first, until there are none. */
  private void work() {
    while (true) {
      Slot<T, R> s;
      synchronized (this) {
        s = closed ? null : waiting.poll();
        if (s == null) {
          activeWorkers--;
          return;
        }
        s.state = RUNNING;
        running++;
      }
      compute(s);
    }
  }

  /** Computes {@code s}, which the calling thread has taken from {@link #waiting}. */
  private void compute(Slot<T, R> s) {
    R r = null;
    Throwable failure = null;
    try {
      r = stage.compute(s.item);
    } catch (Throwable t) {
      failure = t;
    }
    synchronized (this) {
      s.result = r;
      s.failure = failure;
      s.state = DONE;
      running--;
      notifyAll();
    }
  }

  private void consumeOldest() {
    Slot<T, R> head = inFlight.peek();
    while (true) {
      Slot<T, R> ahead = null;
      synchronized (this) {
        if (head.state == WAITING) {
          waiting.remove(head); // the oldest waiting item is first: O(1)
          head.state = RUNNING;
        } else if (head.state == RUNNING) {
          ahead = helpAhead ? waiting.poll() : null;
          if (ahead == null) {
            while (head.state != DONE) waitUninterruptibly();
          } else {
            ahead.state = RUNNING;
            running++;
          }
        }
      }
      if (ahead != null) { // compute a later item rather than wait for the oldest
        compute(ahead);
        continue;
      }
      inFlight.poll();
      if (head.state == RUNNING) { // taken by the owner just now
        stage.computeAndConsume(head.item);
        return;
      }
      if (head.failure != null) throw rethrow(head.failure);
      R r = head.result;
      head.result = null;
      stage.consume(head.item, r);
      return;
    }
  }

  private void waitUninterruptibly() {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a pipeline item", e);
    }
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) throw r;
    if (t instanceof Error e) throw e;
    throw new IllegalStateException(t);
  }

  /**
   * Drops the items no thread has started and waits until no item is being computed. Items not
   * consumed are dropped; call {@link #drain} first to consume them. May be called more than once.
   */
  @Override
  public void close() {
    boolean interrupted = false;
    synchronized (this) {
      closed = true;
      waiting.clear();
      while (running > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // still wait: the items' state may be released by the caller next
        }
      }
    }
    inFlight.clear();
    if (interrupted) Thread.currentThread().interrupt();
  }
}
