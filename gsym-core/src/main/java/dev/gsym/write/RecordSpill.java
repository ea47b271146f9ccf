package dev.gsym.write;

import dev.gsym.io.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Encoded records a {@link GsymCreator} keeps on disk instead of in its heap once it holds more
 * than its threshold (a Breakpad file of hundreds of MB makes records of about a third of its size,
 * which would otherwise wait in the heap for the final layout). An unlinked temporary file: nothing
 * is left behind, also when the process is killed, and its pages are the kernel's cache to keep or
 * write out, not the process's memory. Appends and reads are positional, so any thread may use it.
 */
final class RecordSpill {
  private final FileChannel ch;
  private final AtomicLong end = new AtomicLong();

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
  long append(byte[] record) throws IOException {
    long at = end.getAndAdd(record.length);
    ByteBuffer b = ByteBuffer.wrap(record);
    for (long p = at; b.hasRemaining(); ) p += ch.write(b, p);
    return at;
  }

  /** The {@code length} bytes at {@code at}. */
  byte[] read(long at, int length) {
    byte[] out = new byte[length];
    ByteBuffer b = ByteBuffer.wrap(out);
    try {
      for (long p = at; b.hasRemaining(); ) {
        int n = ch.read(b, p);
        if (n < 0) throw new IOException("record spill file ends at " + p + ", before " + (at + length));
        p += n;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading back a record from the creator's spill file: " + e.getMessage(), e);
    }
    return out;
  }

  long size() {
    return end.get();
  }
}
