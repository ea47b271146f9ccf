package dev.gsym.symbolize;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The debuginfod client's download cache (elfutils {@code debuginfod-client.c}), read and written
 * compatibly so that gdb, elfutils tools, llvm and we share downloads:
 *
 * <pre>
 * &lt;cache&gt;/&lt;build-id hex&gt;/debuginfo      a downloaded debug file (mode 0400), or
 * &lt;cache&gt;/&lt;build-id hex&gt;/executable     the same for the executable
 * &lt;cache&gt;/&lt;build-id hex&gt;/&lt;type&gt;.XXXXXX  a download in progress, renamed into place when complete
 * &lt;cache&gt;/cache_miss_s                 seconds an empty file means "not found" (default 600)
 * </pre>
 *
 * An empty target file records that no server had it: it is believed while younger than {@code
 * cache_miss_s} (and, here, than the source's negative time), then removed and asked again. The
 * client's cleaning of old files ({@code cache_clean_interval_s}, {@code max_unused_age_s}) is
 * left to the client.
 */
final class DebuginfodCache {
  static final long DEFAULT_CACHE_MISS_S = 600;
  private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private final Path dir;

  DebuginfodCache(Path dir) {
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  Path target(String hex, String type) {
    return dir.resolve(hex).resolve(type);
  }

  /** A cache lookup's answer. */
  sealed interface Lookup {
    record Hit(Path file) implements Lookup {}

    /** A fresh "not found" record. */
    record Negative(long ageSeconds) implements Lookup {}

    record Miss() implements Lookup {}
  }

  /**
   * Looks {@code type} of build-id {@code hex} up; an empty file counts as "not found" while
   * younger than {@code cache_miss_s} and {@code negativeSeconds}, and is removed once older.
   */
  Lookup lookup(String hex, String type, long negativeSeconds) {
    Path t = target(hex, type);
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(t, BasicFileAttributes.class);
    } catch (IOException e) {
      return new Lookup.Miss();
    }
    if (!a.isRegularFile()) return new Lookup.Miss();
    if (a.size() > 0) {
      if (Files.isReadable(t)) return new Lookup.Hit(t);
      deleteQuietly(t); // an old 000-mode file, as the client removes them
      return new Lookup.Miss();
    }
    long age = (System.currentTimeMillis() - a.lastModifiedTime().toMillis()) / 1000;
    if (age <= Math.min(cacheMissSeconds(), negativeSeconds)) return new Lookup.Negative(age);
    deleteQuietly(t);
    return new Lookup.Miss();
  }

  /** {@code <cache>/cache_miss_s}, or the client's default. */
  long cacheMissSeconds() {
    try {
      String s = Files.readString(dir.resolve("cache_miss_s")).trim();
      return s.isEmpty() ? DEFAULT_CACHE_MISS_S : Long.parseLong(s.split("\\s+")[0]);
    } catch (IOException | NumberFormatException e) {
      return DEFAULT_CACHE_MISS_S;
    }
  }

  /** A new empty download file {@code <cache>/<hex>/<type>.XXXXXX} (directories created 0700). */
  Path newDownload(String hex, String type) throws IOException {
    Path d = dir.resolve(hex);
    createPrivateDirectories(d);
    for (int attempt = 0; ; attempt++) {
      StringBuilder sb = new StringBuilder(type).append('.');
      for (int i = 0; i < 6; i++) sb.append(ALNUM.charAt(ThreadLocalRandom.current().nextInt(ALNUM.length())));
      Path p = d.resolve(sb.toString());
      try {
        return Files.createFile(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException e) {
        return Files.createFile(p);
      } catch (FileAlreadyExistsException e) {
        if (attempt > 100) throw e;
      }
    }
  }

  /** Makes a complete download the cached file (mode 0400, renamed into place). */
  Path commit(Path download, String hex, String type) throws IOException {
    try {
      Files.setPosixFilePermissions(download, PosixFilePermissions.fromString("r--------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system
    }
    Path t = target(hex, type);
    Files.move(download, t, StandardCopyOption.ATOMIC_MOVE);
    return t;
  }

  /** Removes a failed download, and the build-id directory if that leaves it empty. */
  void discard(Path download, String hex) {
    deleteQuietly(download);
    try {
      Files.delete(dir.resolve(hex));
    } catch (IOException e) {
      // not empty, or gone
    }
  }

  /** Records that no server has {@code type} of {@code hex}: an empty file, as the client writes. */
  void recordMiss(String hex, String type) {
    try {
      createPrivateDirectories(dir.resolve(hex));
      Files.createFile(target(hex, type));
    } catch (FileAlreadyExistsException e) {
      // another client recorded it, or downloaded it meanwhile
    } catch (IOException e) {
      // the record is an optimisation
    }
  }

  /** Removes a cached file that turned out unusable. */
  void remove(String hex, String type) {
    deleteQuietly(target(hex, type));
  }

  private void createPrivateDirectories(Path d) throws IOException {
    if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) return;
    Files.createDirectories(dir);
    try {
      Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      // made by another client meanwhile
    } catch (UnsupportedOperationException e) {
      Files.createDirectories(d);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (AccessDeniedException | NoSuchFileException e) {
      // not ours to remove
    } catch (IOException e) {
      // best effort
    }
  }
}
