package dev.gsym.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes an output file without ever damaging what the user pointed at:
 *
 * <ul>
 *   <li>A regular file (or a new one) is written all-or-nothing: the content goes to a new
 *       temporary file beside it, which is renamed over it only when writing succeeded, so a
 *       failure never leaves a partial or damaged file. A shutdown hook removes the temporary file
 *       when the JVM is stopped (SIGTERM, SIGINT) while writing. The temporary file is created with
 *       the default permissions (subject to the umask, like any file a tool writes), not the
 *       owner-only permissions of {@code Files.createTempFile}.
 *   <li>A symbolic link is followed (chains too) and the file it finally names is written as
 *       above, so the link stays a link; a dangling link creates the file it names.
 *   <li>An existing file that is neither a regular file nor a directory (character device such as
 *       {@code /dev/null}, FIFO, socket) is opened and written in place, never replaced or removed.
 *   <li>A directory is refused.
 * </ul>
 *
 * <p>Content that cannot go straight into its destination (a FIFO, a device, a stream; content
 * writers may seek) is first written to a temporary file in the system temporary directory that is
 * unlinked as soon as it is opened (nothing is left behind, whatever happens), then copied: a
 * failure while producing the content sends nothing.
 */
public final class AtomicFile {
  /** Links followed before giving up, as Linux's ELOOP limit. */
  private static final int MAX_LINKS = 40;

  private AtomicFile() {}

  /** Produces the content through an open, empty channel (which it may position freely). */
  @FunctionalInterface
  public interface Content<T> {
    T write(FileChannel ch) throws IOException;
  }

  /** Writes {@code target} from {@code content} and returns what {@code content} returned. */
  public static <T> T write(Path target, Content<T> content) throws IOException {
    return write(target, null, content);
  }

  /**
   * As {@link #write(Path, Content)}, and a regular file written gets {@code permissions} (when not
   * null and the file system has POSIX permissions) before it is renamed into place: a copy of an
   * executable is executable from its first moment.
   */
  public static <T> T write(Path target, Set<PosixFilePermission> permissions, Content<T> content) throws IOException {
    Path file = followLinks(target);
    BasicFileAttributes attrs = attributes(file);
    if (attrs == null || attrs.isRegularFile()) return replace(file, permissions, content);
    if (attrs.isDirectory()) throw new FileSystemException(target.toString(), null, "Is a directory");
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
      return spooled(out, content);
    }
  }

  /**
   * Writes the content to {@code out} (not closed) once it is complete: nothing is written if
   * {@code content} fails.
   */
  public static <T> T write(OutputStream out, Content<T> content) throws IOException {
    T result = spooled(Channels.newChannel(out), content);
    out.flush();
    return result;
  }

  /**
   * A new empty file in {@code dir}, open for reading and writing, for intermediate content: on
   * POSIX systems it is unlinked as soon as it is opened (DELETE_ON_CLOSE), so it never outlives the
   * process, whatever stops it; elsewhere it is deleted when closed.
   */
  public static FileChannel scratch(Path dir) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Path p = dir.resolve(".gsym-scratch-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + ".tmp");
      try {
        return FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
      } catch (FileAlreadyExistsException e) {
        if (attempt > 100) throw e;
      }
    }
  }

  /**
   * The directory in which {@link #write(Path, Content)} puts its temporary file for {@code
   * target}: the directory of the file its links finally name, or the system temporary directory
   * for a file written in place. Writers that need scratch files of their own put them there too.
   */
  public static Path temporaryDirectory(Path target) throws IOException {
    Path file = followLinks(target);
    BasicFileAttributes attrs = attributes(file);
    if (attrs == null || attrs.isRegularFile()) return file.toAbsolutePath().getParent();
    return systemTemporaryDirectory();
  }

  /**
   * The file {@code path} finally names: symbolic links are followed (relative targets against
   * the link's directory) until a path that is not a link, which may not exist.
   */
  static Path followLinks(Path path) throws IOException {
    Path p = path;
    for (int links = 0; Files.isSymbolicLink(p); links++) {
      if (links == MAX_LINKS) {
        throw new FileSystemException(path.toString(), null, "Too many levels of symbolic links");
      }
      Path parent = p.toAbsolutePath().getParent();
      p = parent.resolve(Files.readSymbolicLink(p));
    }
    return p;
  }

  private static BasicFileAttributes attributes(Path file) throws IOException {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Writes a temporary file beside {@code file} and renames it over {@code file}. */
  private static <T> T replace(Path file, Set<PosixFilePermission> permissions, Content<T> content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    AtomicReference<Path> tmp = new AtomicReference<>();
    // registered before the file exists so that no moment is left uncovered; removed after the rename
    Thread cleanup = new Thread(() -> {
      try {
        Path t = tmp.get();
        if (t != null) Files.deleteIfExists(t);
      } catch (IOException ignored) {
        // the JVM is stopping: nothing better to do
      }
    }, "gsym-temporary-file-cleanup");
    try {
      Runtime.getRuntime().addShutdownHook(cleanup);
    } catch (IllegalStateException e) {
      throw new IOException("not writing " + file + ": the JVM is shutting down", e);
    }
    try {
      FileChannel ch = null;
      for (int attempt = 0; ch == null; attempt++) {
        Path candidate = dir.resolve("." + file.getFileName() + "."
            + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + ".tmp");
        try {
          ch = FileChannel.open(candidate, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          tmp.set(candidate);
        } catch (FileAlreadyExistsException e) {
          if (attempt > 100) throw e;
        }
      }
      try {
        T result;
        try (FileChannel c = ch) {
          result = content.write(c);
        }
        if (permissions != null) {
          try {
            Files.setPosixFilePermissions(tmp.get(), permissions);
          } catch (UnsupportedOperationException e) {
            // no POSIX permissions here: the file keeps the default ones
          }
        }
        try {
          Files.move(tmp.get(), file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp.get(), file, StandardCopyOption.REPLACE_EXISTING);
        }
        return result;
      } finally {
        Files.deleteIfExists(tmp.get());
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException ignored) {
        // shutting down: the hook runs (and finds nothing to delete, or the file the rename missed)
      }
    }
  }

  /** Produces the content into an unlinked temporary file, then copies it to {@code out}. */
  private static <T> T spooled(WritableByteChannel out, Content<T> content) throws IOException {
    try (FileChannel spool = scratch(systemTemporaryDirectory())) {
      T result = content.write(spool);
      long size = spool.size();
      for (long at = 0; at < size; ) {
        long n = spool.transferTo(at, size - at, out);
        if (n <= 0) throw new IOException("could not copy the output (" + at + " of " + size + " bytes written)");
        at += n;
      }
      return result;
    }
  }

  /** {@code java.io.tmpdir}. */
  public static Path systemTemporaryDirectory() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }
}
