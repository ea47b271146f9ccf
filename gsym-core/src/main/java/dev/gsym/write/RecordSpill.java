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
 * write out, not the process's memory. Appends are buffered and reads in spill order read ahead
 * (1 MiB each), so that a few hundred thousand records cost a few hundred system calls; a read
 * elsewhere (sorting compares equal ranges of functions spilled far apart) reads a few KiB only,
 * not a whole window it would not use. Any thread may use it.
 */
final class RecordSpill {
  /** Bytes read ahead: records are read back mostly in the order they were spilled. */
  private static final int WINDOW = 1 << 20;
  /**
   * Bytes read for a record outside the window and not just past it: the libjvm DWARF conversion
   * reads ~100,000 such records while sorting, and a whole window each cost seconds of copying.
   */
  static final int SMALL_READ = 4096;
  /** A miss up to this far past the window's end counts as reading on in spill order. */
  private static final int SEQUENTIAL_GAP = 64 << 10;

  private final FileChannel ch;
  /** Appended bytes not written yet: they go to the file at pendingStart. */
  private final byte[] pending = new byte[WINDOW];
  private int pendingLength;
  private long pendingStart;
  /** The read-ahead window: file bytes [windowStart, windowStart + windowLength). */
  private byte[] window;
  private long windowStart;
  private int windowLength;

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
        fill(out, at, length);
        return out;
      }
      if (window == null || at < windowStart || at + length > windowStart + windowLength) {
        boolean onward = window != null && at >= windowStart && at <= windowStart + windowLength + SEQUENTIAL_GAP;
        if (window == null) window = new byte[WINDOW];
        windowStart = at;
        windowLength = (int) Math.min(onward ? WINDOW : Math.max(length, SMALL_READ), pendingStart - at);
        if (windowLength < length) throw new IOException("record spill file ends before " + (at + length));
        fill(window, at, windowLength);
      }
      System.arraycopy(window, (int) (at - windowStart), out, 0, length);
    } catch (IOException e) {
      throw new UncheckedIOException("reading back a record from the creator's spill file: " + e.getMessage(), e);
    }
    return out;
  }

  private void fill(byte[] into, long at, int length) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(into, 0, length);
    for (long p = at; b.hasRemaining(); ) {
      int n = ch.read(b, p);
      if (n < 0) throw new IOException("record spill file ends at " + p + ", before " + (at + length));
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
