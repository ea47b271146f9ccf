package dev.gsym.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file all-or-nothing: the content goes to a new temporary file beside the target, which
 * is renamed over the target only when writing succeeded, so a failure never leaves a partial or
 * damaged file. The temporary file is created with the default permissions (subject to the umask,
 * like any file a tool writes), not the owner-only permissions of {@code Files.createTempFile}.
 */
public final class AtomicFile {
  private AtomicFile() {}

  /** Produces the content through an open, empty channel. */
  @FunctionalInterface
  public interface Content<T> {
    T write(FileChannel ch) throws IOException;
  }

  /** Writes {@code target} from {@code content} and returns what {@code content} returned. */
  public static <T> T write(Path target, Content<T> content) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Path tmp = null;
    FileChannel ch = null;
    for (int attempt = 0; ch == null; attempt++) {
      tmp = dir.resolve("." + target.getFileName() + "."
          + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + ".tmp");
      try {
        ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException e) {
        if (attempt > 100) throw e;
      }
    }
    try {
      T result;
      try (FileChannel c = ch) {
        result = content.write(c);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      return result;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
