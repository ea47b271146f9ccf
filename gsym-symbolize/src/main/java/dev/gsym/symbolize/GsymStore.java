package dev.gsym.symbolize;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A directory of GSYM files keyed by module identity, shared by threads, processes and hosts
 * (docs/symbolize.md, "Store layout"):
 *
 * <pre>
 * &lt;root&gt;/&lt;key&gt;.gsym      the module's GSYM; appears complete (renamed into place), never changes;
 *                        its modification time is the module's last use
 * &lt;root&gt;/&lt;key&gt;.lock      locked (fcntl, FileChannel.lock) by the process searching or converting
 * &lt;root&gt;/&lt;key&gt;.missing   negative-cache marker ({@link NegativeMarker})
 * &lt;root&gt;/&lt;dir&gt;/.gsym-*.tmp  a conversion or download in progress; never read; removed on failure,
 *                        and by eviction once older than an hour (left by a killed process)
 * </pre>
 *
 * where {@code <key>} is a {@link ModuleKey}.
 */
final class GsymStore {
  static final String GSYM = ".gsym";
  static final String LOCK = ".lock";
  static final String MARKER = ".missing";
  static final String TEMP_PREFIX = ".gsym-";
  static final String TEMP_SUFFIX = ".tmp";
  /** Temporary files older than this were left by a process that died. */
  static final Duration STALE_TEMP = Duration.ofHours(1);

  private final Path root;
  private final long maxBytes;
  private final AtomicBoolean evicting = new AtomicBoolean();
  private final AtomicBoolean evictAgain = new AtomicBoolean();

  /**
   * @param maxBytes the store's size bound (GSYM files only), {@link Long#MAX_VALUE} for none
   */
  GsymStore(Path root, long maxBytes) {
    this.root = root;
    this.maxBytes = maxBytes;
  }

  Path root() {
    return root;
  }

  /**
   * Creates the store directory {@code store} and its parents if missing.
   *
   * @throws IllegalArgumentException naming the file in the way when it cannot be created
   */
  static void createRoot(Path store) {
    try {
      Files.createDirectories(store);
    } catch (IOException e) {
      // name the file that is in the way, not only the directory that could not be made
      Path p = store.toAbsolutePath();
      while (p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) p = p.getParent();
      String why = p != null && !Files.isDirectory(p)
          ? (p.equals(store.toAbsolutePath()) ? "it" : p.toString()) + " exists and is not a directory"
          : Texts.message(e);
      throw new IllegalArgumentException("cannot create the store directory " + store + ": " + why, e);
    }
  }

  Path gsym(ModuleKey k) {
    return root.resolve(k.path() + GSYM);
  }

  Path lockFile(ModuleKey k) {
    return root.resolve(k.path() + LOCK);
  }

  Path marker(ModuleKey k) {
    return root.resolve(k.path() + MARKER);
  }

  /** A new empty temporary file in the module's directory (created with it). */
  Path createTemp(ModuleKey k) throws IOException {
    Path dir = root.resolve(k.directory());
    Files.createDirectories(dir);
    for (int attempt = 0; ; attempt++) {
      Path p = dir.resolve(TEMP_PREFIX + k.name() + "-" + ProcessHandle.current().pid() + "-"
          + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + TEMP_SUFFIX);
      try {
        Files.createFile(p);
        return p;
      } catch (java.nio.file.FileAlreadyExistsException e) {
        if (attempt > 100) throw e;
      }
    }
  }

  /** An exclusive lock on one module, across processes (fcntl) and across threads of this process. */
  static final class Lock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;
    private final Path path;

    private Lock(FileChannel channel, FileLock lock, Path path) {
      this.channel = channel;
      this.lock = lock;
      this.path = path;
    }

    /** Removes the lock file while holding it (eviction); a waiter then locks a new file. */
    void deleteFile() {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        // a leftover lock file is harmless
      }
    }

    @Override
    public void close() throws IOException {
      try {
        lock.release();
      } finally {
        channel.close();
      }
    }
  }

  /**
   * Locks module {@code k}, waiting up to {@code timeout}.
   *
   * @throws TimeoutException if another process or thread held it all that time
   */
  Lock lock(ModuleKey k, Duration timeout) throws IOException, TimeoutException {
    Lock l = lock(k, timeout.toNanos(), true);
    if (l == null) throw new TimeoutException("timed out after " + timeout.toSeconds() + " s waiting for " + lockFile(k));
    return l;
  }

  /** Locks module {@code k} if nobody holds it, else returns null. */
  Lock tryLock(ModuleKey k) throws IOException {
    return lock(k, 0, false);
  }

  private Lock lock(ModuleKey k, long timeoutNanos, boolean wait) throws IOException {
    Path p = lockFile(k);
    long deadline = System.nanoTime() + timeoutNanos;
    long sleepMillis = 2;
    while (true) {
      Files.createDirectories(p.getParent());
      FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      Object opened = fileKey(p);
      FileLock fl;
      try {
        fl = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        fl = null; // another thread of this process (another Symbolizer on the same store) holds it
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
      if (fl != null) {
        // eviction may have deleted the file we opened: then our lock excludes nobody (file
        // systems without file keys cannot tell; a duplicate conversion is the worst outcome)
        if (opened == null || opened.equals(fileKey(p))) return new Lock(ch, fl, p);
        fl.release();
        ch.close();
        continue;
      }
      ch.close();
      if (!wait || System.nanoTime() - deadline > 0) return null;
      try {
        Thread.sleep(sleepMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for " + p);
      }
      sleepMillis = Math.min(200, sleepMillis * 2);
    }
  }

  /** The identity of file {@code p} ({@code BasicFileAttributes.fileKey()}), or null if unknown or gone. */
  static Object fileKey(Path p) {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Publishes a complete temporary file (already forced to disk) as module {@code k}'s GSYM: an
   * atomic rename, so readers see the whole file or none. Clears the module's negative marker.
   */
  void publish(Path temp, ModuleKey k) throws IOException {
    Path target = gsym(k);
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    try (FileChannel dir = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
      dir.force(true); // the rename survives a crash of the host
    } catch (IOException e) {
      // not every file system lets a directory be synced; the rename itself is atomic anyway
    }
    Files.deleteIfExists(marker(k));
  }

  /** Writes module {@code k}'s negative marker atomically (the caller holds the module's lock). */
  void writeMarker(ModuleKey k, List<NegativeMarker.Entry> entries) throws IOException {
    Path temp = createTemp(k);
    try {
      Files.write(temp, NegativeMarker.encode(entries));
      Files.move(temp, marker(k), StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  List<NegativeMarker.Entry> readMarker(ModuleKey k) throws IOException {
    return NegativeMarker.read(marker(k));
  }

  /** Records a use of a store file (its modification time; see the class comment). */
  void touch(Path gsym) {
    try {
      Files.setLastModifiedTime(gsym, FileTime.fromMillis(System.currentTimeMillis()));
    } catch (IOException e) {
      // another user's file, or evicted meanwhile: the use is just not recorded
    }
  }

  /** Removes a GSYM file that cannot be read (the caller holds the module's lock). */
  void discard(ModuleKey k) throws IOException {
    Files.deleteIfExists(gsym(k));
  }

  /**
   * Removes module {@code k}'s GSYM file if it is still the file whose identity is {@code fileKey}
   * (another process may have replaced it meanwhile), or if identities are unknown (null). The
   * caller holds the module's lock.
   *
   * @return true if a file was removed
   */
  boolean discardIfSame(ModuleKey k, Object fileKey) throws IOException {
    Path p = gsym(k);
    Object now = fileKey(p);
    if (fileKey != null && now != null && !fileKey.equals(now)) return false;
    return Files.deleteIfExists(p);
  }

  /** What one eviction pass did. */
  record Eviction(long bytesBefore, long bytesAfter, int filesRemoved, int tempsRemoved) {}

  /**
   * If the store holds more than its bound, removes the least recently used GSYM files (by
   * modification time) until it fits, skipping files {@code inUse} and modules another process
   * holds locked; also removes temporary files older than {@link #STALE_TEMP}. Runs in one thread
   * at a time: a call during a pass makes that pass run again instead.
   *
   * @return what was done, or null if another thread is evicting or there is no bound
   */
  Eviction evict(Predicate<Path> inUse) throws IOException {
    if (maxBytes == Long.MAX_VALUE) return null;
    evictAgain.set(true);
    if (!evicting.compareAndSet(false, true)) return null;
    Eviction last = null;
    try {
      while (evictAgain.getAndSet(false)) last = evictOnce(inUse);
    } finally {
      evicting.set(false);
    }
    return last;
  }

  private record Stored(Path path, ModuleKey key, long size, long mtime) {}

  private Eviction evictOnce(Predicate<Path> inUse) throws IOException {
    List<Stored> files = new ArrayList<>();
    int[] temps = {0};
    long now = System.currentTimeMillis();
    scan(root, "", 0, files, temps, now);
    long total = 0;
    for (Stored s : files) total += s.size;
    long before = total;
    int removed = 0;
    if (total > maxBytes) {
      files.sort(Comparator.comparingLong(Stored::mtime));
      for (Stored s : files) {
        if (total <= maxBytes) break;
        if (inUse.test(s.path)) continue;
        Lock l = tryLock(s.key);
        if (l == null) continue; // being converted or re-checked by another process
        try {
          BasicFileAttributes a;
          try {
            a = Files.readAttributes(s.path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          } catch (NoSuchFileException e) {
            total -= s.size;
            continue;
          }
          if (a.lastModifiedTime().toMillis() != s.mtime) continue; // used since the scan
          Files.deleteIfExists(s.path);
          l.deleteFile();
          total -= s.size;
          removed++;
        } finally {
          l.close();
        }
      }
    }
    return new Eviction(before, total, removed, temps[0]);
  }

  /** Collects GSYM files below {@code dir} (the layout is at most 3 levels deep); removes stale temporaries. */
  private void scan(Path dir, String rel, int depth, List<Stored> out, int[] temps, long now) throws IOException {
    if (depth > 2) return;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        String name = p.getFileName().toString();
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue;
        }
        String relName = rel.isEmpty() ? name : rel + "/" + name;
        if (a.isDirectory()) {
          scan(p, relName, depth + 1, out, temps, now);
        } else if (a.isRegularFile() && depth > 0) {
          if (name.endsWith(GSYM)) {
            out.add(new Stored(p, new ModuleKey(relName.substring(0, relName.length() - GSYM.length())), a.size(),
                a.lastModifiedTime().toMillis()));
          } else if (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)
              && now - a.lastModifiedTime().toMillis() > STALE_TEMP.toMillis()) {
            Files.deleteIfExists(p);
            temps[0]++;
          }
        }
      }
    } catch (NoSuchFileException e) {
      // removed meanwhile
    }
  }
}
