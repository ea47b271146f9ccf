package dev.gsym.cli.gsymutil;

import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.cli.ChunkPipeline;
import dev.gsym.cli.Session;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupFrames;

/**
 * Batch lookups: addresses are gathered into {@link Chunk}s of up to {@value #CHUNK_SIZE}, each
 * chunk is symbolicated into its own byte buffer by a {@link ChunkPipeline} (on {@code threads}
 * workers, or on the calling thread for one), and the buffers are written to stdout strictly in
 * submission order. At most {@code 2 * threads} chunks are in flight, so memory stays flat for any
 * input size; the output is the same for any number of threads.
 *
 * <p>Only the calling thread submits, writes and recycles chunks. A lookup that fails with a
 * {@link GsymFormatException} and an error found while gathering input ({@link Chunk#endError})
 * end the chunk: its output before that point is written, then the error is thrown from
 * {@link #submit} or {@link #drain}.
 */
final class Batches extends ChunkPipeline<Batches.Chunk> {
  static final int CHUNK_SIZE = 2048;

  private final Session session;
  private final Symbolicator sym;
  private final boolean stdinStyle;

  /** @param stdinStyle --addresses-from-stdin: an empty line after each result; a failed lookup prints nothing */
  Batches(Session session, Symbolicator sym, boolean stdinStyle, int threads) {
    super("gsymutil-lookup", threads);
    this.session = session;
    this.sym = sym;
    this.stdinStyle = stdinStyle;
  }

  @Override
  protected Chunk newChunk() {
    return new Chunk();
  }

  @Override
  protected Chunk compute(Chunk c) {
    return c.process(sym, stdinStyle);
  }

  @Override
  protected void write(Chunk c) {
    session.write(c.out);
    if (c.error != null) throw c.error;
  }

  /** Up to {@value #CHUNK_SIZE} addresses with their readers, and the text they produce. */
  static final class Chunk implements ChunkPipeline.Chunk {
    final GsymReader[] readers = new GsymReader[CHUNK_SIZE];
    final String[] paths = new String[CHUNK_SIZE];
    final long[] addrs = new long[CHUNK_SIZE];
    int size;
    /** Thrown once the items before it have been written (an input error found by the producer). */
    RuntimeException endError;
    final TextBuffer out = new TextBuffer(1 << 16);
    private final LookupFrames frames = new LookupFrames();
    private final StringBuilder scratch = new StringBuilder(256);
    private RuntimeException error;

    @Override
    public void reset() {
      java.util.Arrays.fill(readers, 0, size, null);
      java.util.Arrays.fill(paths, 0, size, null);
      size = 0;
      endError = null;
      error = null;
      out.clear();
    }

    boolean isFull() {
      return size == CHUNK_SIZE;
    }

    boolean isEmpty() {
      return size == 0 && endError == null;
    }

    void add(GsymReader r, String path, long addr) {
      readers[size] = r;
      paths[size] = path;
      addrs[size] = addr;
      size++;
    }

    Chunk process(Symbolicator sym, boolean stdinStyle) {
      TextBuffer o = out;
      for (int i = 0; i < size; i++) {
        int mark = o.length();
        try {
          sym.lookup(readers[i], addrs[i], o, frames, scratch);
        } catch (GsymFormatException e) {
          if (stdinStyle) o.setLength(mark);
          error = Session.fileError(paths[i], e.detail(), e);
          return this;
        }
        if (stdinStyle) o.append('\n');
      }
      error = endError;
      return this;
    }
  }
}
