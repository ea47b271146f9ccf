package dev.gsym.cli;

import dev.gsym.internal.concurrent.OrderedPipeline;
import dev.gsym.internal.concurrent.ScopedPool;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Chunks of a batch worked on by {@code threads} workers (or on the calling thread for one) and
 * written strictly in submission order by the thread that reads the input, which does not work on
 * chunks ahead of the workers. At most {@code 2 * threads} chunks are in flight, so memory stays
 * flat for any input size; a chunk is reused once written.
 *
 * @param <C> a chunk: its input, and the output computed from it
 */
final class ChunkPipeline<C> implements AutoCloseable {
  /** The worker threads; null for one thread (everything on the caller). */
  private final ScopedPool pool;
  private final OrderedPipeline<C, C> pipeline;
  private final ArrayDeque<C> free = new ArrayDeque<>();
  private final Supplier<C> create;

  /**
   * @param compute works on a chunk, on any thread
   * @param write writes a computed chunk, on the calling thread in submission order; the chunk is
   *     reused after it returns or throws
   */
  ChunkPipeline(String threadName, int threads, Supplier<C> create, UnaryOperator<C> compute, Consumer<C> write) {
    this.create = create;
    this.pool = threads <= 1 ? null : new ScopedPool(threads, threadName);
    this.pipeline = new OrderedPipeline<>(pool, pool == null ? 0 : threads, Math.max(1, 2 * threads), false,
        new OrderedPipeline.Stage<>() {
          @Override
          public C compute(C c) {
            return compute.apply(c);
          }

          @Override
          public void consume(C c, C done) {
            try {
              write.accept(done);
            } finally {
              free.add(done);
            }
          }
        });
  }

  /** A chunk to fill: a written one, or a new one. The caller clears it. */
  C chunk() {
    C c = free.poll();
    return c != null ? c : create.get();
  }

  /** Works on {@code c} (in the background with threads) and writes every chunk whose turn it is. */
  void submit(C c) {
    pipeline.submit(c);
  }

  /** Waits for and writes every submitted chunk. */
  void drain() {
    pipeline.drain();
  }

  /**
   * Drops the chunks not started, waits for those being worked on (their inputs may be closed next)
   * and ends the threads. May be called more than once.
   */
  @Override
  public void close() {
    try {
      pipeline.close();
    } finally {
      if (pool != null) pool.close();
    }
  }
}
