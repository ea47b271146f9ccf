package dev.gsym.symbolize;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open GSYM modules, shared by all threads: a bounded least-recently-used map. A module
 * evicted while lookups are in flight on it is closed when the last of them releases it, so a
 * lookup never sees an unmapped file.
 */
final class ReaderCache implements AutoCloseable {
  /** One open module. */
  static final class Entry {
    final String key;
    final GsymCoreAdapter module;
    /** The store file it maps, or null (a file outside the store, or private scratch). */
    final Path storeFile;
    /**
     * The identity ({@code BasicFileAttributes.fileKey()}) of the store file it maps, so that a
     * store file found corrupt is removed only if it is still that file; null if unknown.
     */
    final Object storeFileKey;
    /** Where its symbols came from: see {@link Symbolized.Found#source()}. */
    final Origin origin;
    private int refs;
    private boolean evicted;
    private boolean closed;
    private final AtomicLong lastTouch = new AtomicLong(System.nanoTime());

    Entry(String key, GsymCoreAdapter module, Path storeFile, Object storeFileKey, Origin origin) {
      this.key = key;
      this.module = module;
      this.storeFile = storeFile;
      this.storeFileKey = storeFileKey;
      this.origin = origin;
    }

    /** True once per {@code intervalNanos} per entry: the caller then records a use in the store. */
    boolean touchDue(long intervalNanos) {
      long now = System.nanoTime();
      long last = lastTouch.get();
      return now - last >= intervalNanos && lastTouch.compareAndSet(last, now);
    }
  }

  /** A use of an entry; release it once. */
  final class Handle implements AutoCloseable {
    final Entry entry;
    private boolean released;

    private Handle(Entry entry) {
      this.entry = entry;
    }

    GsymCoreAdapter module() {
      return entry.module;
    }

    @Override
    public void close() {
      synchronized (ReaderCache.this) {
        if (released) return;
        released = true;
        if (--entry.refs == 0 && entry.evicted) closeEntry(entry);
      }
    }
  }

  private final int capacity;
  private final LinkedHashMap<String, Entry> lru = new LinkedHashMap<>(16, 0.75f, true);
  /** Store files mapped by a module not yet closed (evicted ones included). */
  private final Map<Path, Integer> mapped = new HashMap<>();
  private boolean shut;

  ReaderCache(int capacity) {
    if (capacity < 1) throw new IllegalArgumentException("capacity must be at least 1");
    this.capacity = capacity;
  }

  /** A use of the module cached under {@code key}, or null. */
  synchronized Handle acquire(String key) {
    Entry e = lru.get(key);
    if (e == null) return null;
    e.refs++;
    return new Handle(e);
  }

  /** Another use of {@code e}, or null if it was closed meanwhile. */
  synchronized Handle retain(Entry e) {
    if (e.closed) return null;
    e.refs++;
    return new Handle(e);
  }

  /** {@link #add(String, GsymCoreAdapter, Path, Object, Origin)} for a module that maps no store file. */
  Handle add(String key, GsymCoreAdapter module, Origin origin) {
    return add(key, module, null, null, origin);
  }

  /**
   * Caches {@code module} under {@code key} and returns a use of it. If the key is cached already
   * (loaded twice by a race), the new module is closed and the cached one used.
   */
  Handle add(String key, GsymCoreAdapter module, Path storeFile, Object storeFileKey, Origin origin) {
    List<Entry> toClose = new ArrayList<>();
    Handle h;
    synchronized (this) {
      if (shut) {
        module.close();
        throw new IllegalStateException("symbolizer is closed");
      }
      Entry e = lru.get(key);
      if (e != null) {
        toClose.add(new Entry(key, module, null, null, origin));
      } else {
        e = new Entry(key, module, storeFile, storeFileKey, origin);
        lru.put(key, e);
        if (storeFile != null) mapped.merge(storeFile, 1, Integer::sum);
        Iterator<Entry> it = lru.values().iterator();
        while (lru.size() > capacity && it.hasNext()) {
          Entry old = it.next();
          if (old == e) continue;
          it.remove();
          old.evicted = true;
          if (old.refs == 0) closeEntry(old);
        }
      }
      e.refs++;
      h = new Handle(e);
    }
    for (Entry x : toClose) x.module.close();
    return h;
  }

  /**
   * Removes {@code e} if it is still cached (its file was found corrupt); closed once no lookup
   * uses it. A module cached under the same key since then stays.
   */
  synchronized void remove(Entry e) {
    if (!lru.remove(e.key, e)) return;
    e.evicted = true;
    if (e.refs == 0) closeEntry(e);
  }

  /** True while a module maps this store file (so eviction from the store must keep it). */
  synchronized boolean maps(Path storeFile) {
    return mapped.containsKey(storeFile);
  }

  synchronized int size() {
    return lru.size();
  }

  private void closeEntry(Entry e) {
    if (e.closed) return;
    e.closed = true;
    if (e.storeFile != null) mapped.computeIfPresent(e.storeFile, (p, n) -> n == 1 ? null : n - 1);
    e.module.close();
  }

  /** Closes every module; later uses fail. */
  @Override
  public synchronized void close() {
    shut = true;
    for (Entry e : lru.values()) closeEntry(e);
    lru.clear();
  }
}
