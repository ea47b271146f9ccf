package dev.gsym.internal.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A pool of up to {@code size} platform threads, started as tasks arrive, for one job: {@link
 * #close} waits for the tasks already running, drops those not started and returns only once every
 * thread it started has ended, so none outlives the job. Daemon threads, so that a JVM exit is
 * never held up by one.
 */
public final class ScopedPool implements Executor, AutoCloseable {
  private final ThreadPoolExecutor pool;
  private final List<Thread> threads = new ArrayList<>();

  /** @param name the threads' name */
  public ScopedPool(int size, String name) {
    if (size < 1) throw new IllegalArgumentException("pool size must be at least 1: " + size);
    pool = new ThreadPoolExecutor(size, size, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = Thread.ofPlatform().daemon().name(name).unstarted(r);
      synchronized (threads) {
        threads.add(t);
      }
      return t;
    });
  }

  @Override
  public void execute(Runnable task) {
    pool.execute(task);
  }

  /**
   * Drops the tasks not started, waits for the running ones and joins every thread. An interrupt
   * does not cut the wait short (it is restored afterwards): a task still running may use what the
   * caller releases next.
   */
  @Override
  public void close() {
    pool.shutdownNow().clear();
    boolean interrupted = false;
    List<Thread> started;
    synchronized (threads) {
      started = List.copyOf(threads);
    }
    for (Thread t : started) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }
}
