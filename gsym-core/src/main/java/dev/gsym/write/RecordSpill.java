package dev.gsym.write;

import dev.gsym.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Encoded records a {@link GsymCreator} keeps on disk instead of in its heap once it holds more
 * than its threshold (a Breakpad file of hundreds of MB makes records of about a third of its size,
 * which would otherwise wait in the heap for the final layout). An unlinked temporary file: nothing
 * is left behind, also when the process is killed, and its pages are the kernel's cache to keep or
 * write out, not the process's memory. Appends are buffered, and reads read ahead as far as they
 * go on in spill order: a read elsewhere (sorting compares equal ranges of functions spilled far
 * apart) reads a few KiB, and each read that goes on from there doubles that, up to 1 MiB, so
 * that a few hundred thousand records read in order cost a few hundred system calls, and records
 * read here and there do not each cost a window they would not use. Any thread may use it.
 */
final class RecordSpill {
  /** The most bytes read ahead. */
  private static final int WINDOW = 1 << 20;
  /**
   * Bytes read for a record outside the window and not just past it: sorting libjvm's DWARF
   * functions reads ~20,000 records scattered over the spill, and a whole window each cost seconds
   * of copying.
   */
  static final int SMALL_READ = 4096;
  /**
   * A miss up to this far past the window's end counts as reading on in spill order (what writing
   * the file does, skipping the records finish dropped); further, or before the window, is a
   * sort's comparison.
   */
  private static final int SEQUENTIAL_GAP = SMALL_READ;

  private final FileChannel ch;
  /** Appended bytes not written yet: they go to the file at pendingStart. */
  private final byte[] pending = new byte[WINDOW];
  private int pendingLength;
  private long pendingStart;
  /**
   * The read-ahead window: file bytes [windowStart, windowStart + windowLength). Direct, so that
   * the channel reads into it without the JDK's own copy through a temporary direct buffer.
   */
  private ByteBuffer window;
  private long windowStart;
  private int windowLength;
  /** Bytes the next read that goes on past the window reads. */
  private int readAhead = SMALL_READ;

  private RecordSpill(FileChannel ch) {
    this.ch = ch;
  }

  /** A new spill file in the system temporary directory. */
  static RecordSpill create() throws IOException {
    Path p = Files.createTempFile(AtomicFile.systemTemporaryDirectory(), ".gsym-records-", ".tmp");
    FileChannel ch;
    try {
      ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
    } catch (IOException e) {
      Files.deleteIfExists(p);
      throw e;
    }
    try {
      Files.deleteIfExists(p); // unlinked while open (where the system allows it)
    } catch (IOException e) {
      // removed on close instead
    }
    return new RecordSpill(ch);
  }

  /** Appends {@code record}; returns its position. */
  synchronized long append(byte[] record) throws IOException {
    if (record.length > pending.length - pendingLength) flush();
    long at = pendingStart + pendingLength;
    if (record.length > pending.length) {
      write(record, record.length, at);
      pendingStart += record.length;
    } else {
      System.arraycopy(record, 0, pending, pendingLength, record.length);
      pendingLength += record.length;
    }
    return at;
  }

  private void flush() throws IOException {
    write(pending, pendingLength, pendingStart);
    pendingStart += pendingLength;
    pendingLength = 0;
  }

  private void write(byte[] bytes, int length, long at) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes, 0, length);
    for (long p = at; b.hasRemaining(); ) p += ch.write(b, p);
  }

  /** The {@code length} bytes at {@code at}. */
  synchronized byte[] read(long at, int length) {
    if (!ch.isOpen()) throw new IllegalStateException("GsymCreator closed: its spilled records are gone");
    byte[] out = new byte[length];
    try {
      if (at + length > pendingStart) flush(); // not in the file yet
      if (length > WINDOW) {
        fill(ByteBuffer.wrap(out), at);
        return out;
      }
      if (window == null || at < windowStart || at + length > windowStart + windowLength) {
        boolean onward = window != null && at >= windowStart && at <= windowStart + windowLength + SEQUENTIAL_GAP;
        if (window == null) window = ByteBuffer.allocateDirect(WINDOW);
        windowStart = at;
        readAhead = onward ? Math.min(WINDOW, 2 * readAhead) : SMALL_READ;
        windowLength = (int) Math.min(Math.max(length, readAhead), pendingStart - at);
        if (windowLength < length) throw new IOException("record spill file ends before " + (at + length));
        fill(window.clear().limit(windowLength), at);
      }
      window.get((int) (at - windowStart), out, 0, length);
    } catch (IOException e) {
      throw new UncheckedIOException("reading back a record from the creator's spill file: " + e.getMessage(), e);
    }
    return out;
  }

  /** Fills {@code b} (position to limit) with the file's bytes from {@code at}. */
  private void fill(ByteBuffer b, long at) throws IOException {
    long end = at + b.remaining();
    for (long p = at; b.hasRemaining(); ) {
      int n = ch.read(b, p);
      if (n < 0) throw new IOException("record spill file ends at " + p + ", before " + end);
      p += n;
    }
  }

  /** Closes the file, which gives its disk space back (it has no name left). */
  synchronized void close() {
    try {
      ch.close();
    } catch (IOException e) {
      // nothing to keep: the file is unlinked, and closing released it or never will
    }
  }

  synchronized long size() {
    return pendingStart + pendingLength;
  }
}
