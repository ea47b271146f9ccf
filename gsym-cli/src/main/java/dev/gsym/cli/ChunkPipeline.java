package dev.gsym.cli;

import dev.gsym.internal.concurrent.OrderedPipeline;
import dev.gsym.internal.concurrent.ScopedPool;
import java.util.ArrayDeque;

/**
 * Chunks of a batch worked on by {@code threads} workers (or on the calling thread for one) and
 * written strictly in submission order by the thread that reads the input, which does not work on
 * chunks ahead of the workers. At most {@code 2 * threads} chunks are in flight, so memory stays
 * flat for any input size; a chunk is reused once written.
 *
 * @param <C> a chunk: its input, and the output computed from it
 */
public abstract class ChunkPipeline<C extends ChunkPipeline.Chunk> implements AutoCloseable {
  /** A chunk's input and output, cleared for reuse. */
  public interface Chunk {
    void reset();
  }

  /** The worker threads; null for one thread (everything on the caller). */
  private final ScopedPool pool;
  private final OrderedPipeline<C, C> pipeline;
  private final ArrayDeque<C> free = new ArrayDeque<>();

  protected ChunkPipeline(String threadName, int threads) {
    this.pool = threads <= 1 ? null : new ScopedPool(threads, threadName);
    this.pipeline = new OrderedPipeline<>(pool, pool == null ? 0 : threads, Math.max(1, 2 * threads), false,
        new OrderedPipeline.Stage<>() {
          @Override
          public C compute(C c) {
            return ChunkPipeline.this.compute(c);
          }

          @Override
          public void consume(C c, C done) {
            try {
              write(done);
            } finally {
              free.add(done);
            }
          }
        });
  }

  /** A new, empty chunk. */
  protected abstract C newChunk();

  /** Works on a chunk; runs on any thread, concurrently with other chunks. */
  protected abstract C compute(C c);

  /** Writes a computed chunk, on the calling thread in submission order; the chunk is reused after. */
  protected abstract void write(C c);

  /** An empty chunk to fill (recycled once written). */
  public final C chunk() {
    C c = free.poll();
    if (c == null) return newChunk();
    c.reset();
    return c;
  }

  /** Works on {@code c} (in the background with threads) and writes every chunk whose turn it is. */
  public final void submit(C c) {
    pipeline.submit(c);
  }

  /** Waits for and writes every submitted chunk. */
  public final void drain() {
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
