package dev.gsym.symbolize;

import dev.gsym.GsymFormatException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns module references into open modules: the store first, then the sources in order, each
 * find converted once and published into the store; one search per module at a time in this
 * process (later callers wait for its outcome) and across processes sharing the store (the
 * module's file lock); failures remembered per source (docs/symbolize.md).
 */
final class ModuleLoader implements AutoCloseable {
  /** Entries of the in-memory negative cache before expired ones are purged. */
  private static final int MAX_FAILURE_KEYS = 100_000;
  /** Resolved file references kept (path → identity and target). */
  private static final int MAX_FILE_TARGETS = 4096;
  /** A store file's modification time is updated at most this often per process. */
  private static final long TOUCH_INTERVAL_NANOS = Duration.ofMinutes(1).toNanos();

  /** Counters shared with {@link Symbolizer#stats()}. */
  static final class Counters {
    final LongAdder storeHits = new LongAdder();
    final LongAdder conversions = new LongAdder();
    final LongAdder downloads = new LongAdder();
    final LongAdder failures = new LongAdder();
  }

  private final GsymStore store;
  private final ReaderCache readers;
  private final List<Source> sources;
  private final List<AutoCloseable> fetchers = new ArrayList<>();
  private final Duration transientTtl;
  private final Duration lockTimeout;
  private final Semaphore conversionSlots;
  private final Counters counters;
  private final ConcurrentHashMap<String, CompletableFuture<Outcome>> inFlight = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Map<String, Failure>> failures = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Path, FileTarget> fileTargets = new ConcurrentHashMap<>();
  private final AtomicBoolean evictionDue = new AtomicBoolean();

  private record FileTarget(long size, long mtime, Target target) {}

  /** DWARF conversions record merged functions and call sites ({@link Symbolizer.Builder#mergedFunctions}). */
  private final boolean mergedFunctions;
  /** Runs store conversions in child JVMs; null: in this process. */
  private final ConversionProcess conversionProcess;
  /** Conversions attach the module's CFI as unwind information ({@link Symbolizer.Builder#unwind}). */
  private final boolean unwind;

  ModuleLoader(GsymStore store, ReaderCache readers, List<Source> sources, Duration transientTtl, Duration lockTimeout,
      int maxConversions, Counters counters, boolean mergedFunctions, ConversionProcess conversionProcess, boolean unwind) {
    this.mergedFunctions = mergedFunctions;
    this.unwind = unwind;
    this.conversionProcess = conversionProcess;
    this.store = store;
    this.readers = readers;
    this.sources = List.copyOf(sources);
    this.transientTtl = transientTtl;
    this.lockTimeout = lockTimeout;
    this.conversionSlots = new Semaphore(maxConversions);
    this.counters = counters;
    for (Source s : this.sources) {
      fetchers.add(switch (s) {
        case Source.DebugDirectories d -> () -> { };
        case Source.Debuginfod d -> new DebuginfodFetcher(d, counters.downloads);
        case Source.BreakpadSymbols b -> new BreakpadFetcher(b, counters.downloads);
      });
    }
  }

  // ------------------------------------------------------------------ references → targets

  /** What the search needs to know about {@code ref} (reads a file's first bytes for a path). */
  Target target(ModuleRef ref) {
    return switch (ref) {
      case ModuleRef.BuildId b -> new Target(ref, "b:" + b.hex(), ModuleKey.ofBuildId(b.hex()), b.hex(), b.debugFile(),
          b.debugFile() == null ? null : ConverterAdapter.breakpadIdOfBuildId(b.hex()), null, null, null, null);
      case ModuleRef.Breakpad p -> new Target(ref, "p:" + p.debugFile() + "/" + p.debugId(),
          ModuleKey.ofBreakpad(p.debugFile(), p.debugId()), null, p.debugFile(), p.debugId(), null, null, null, null);
      case ModuleRef.FilePath f -> fileTarget(f);
    };
  }

  private Target fileTarget(ModuleRef.FilePath ref) {
    Path path = ref.path();
    Path abs = path.toAbsolutePath();
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return errorTarget(ref, new Outcome.NotFound(path + ": No such file or directory", false));
    } catch (IOException e) {
      return errorTarget(ref, new Outcome.Unreadable(path + ": " + Texts.message(e)));
    }
    if (!a.isRegularFile()) return errorTarget(ref, new Outcome.Unreadable(path + ": not a regular file"));
    long size = a.size();
    long mtime = a.lastModifiedTime().toMillis();
    FileTarget known = fileTargets.get(abs);
    if (known != null && known.size == size && known.mtime == mtime && known.target.ref().equals(ref)) return known.target;
    Target t = probeFile(ref, abs, size, mtime);
    if (fileTargets.size() >= MAX_FILE_TARGETS) fileTargets.clear();
    fileTargets.put(abs, new FileTarget(size, mtime, t));
    return t;
  }

  private static Target probeFile(ModuleRef.FilePath ref, Path abs, long size, long mtime) {
    Path path = ref.path();
    String key = "f:" + abs + "#" + size + "#" + mtime;
    try {
      ConverterAdapter.Kind kind = ConverterAdapter.sniff(path);
      switch (kind) {
        case GSYM -> {
          return new Target(ref, key, null, null, null, null, path, kind, null, null);
        }
        case OBJECT -> {
          ConverterAdapter.ObjectFacts facts = ConverterAdapter.probe(path);
          String id = facts.buildId();
          ModuleRef.Breakpad bp = null;
          if (facts.breakpadName() != null) {
            try {
              bp = ModuleRef.breakpad(facts.breakpadName(), facts.breakpadId());
            } catch (IllegalArgumentException e) {
              // a SONAME that is no usable file name: no Breakpad lookup
            }
          }
          return new Target(ref, key, id == null ? null : ModuleKey.ofBuildId(id), id,
              bp == null ? null : bp.debugFile(), bp == null ? null : bp.debugId(), path, kind, facts, null);
        }
        case BREAKPAD -> {
          ConverterAdapter.BreakpadModule m = ConverterAdapter.breakpadModule(path);
          ModuleRef.Breakpad id = null;
          if (m != null) {
            try {
              id = ModuleRef.breakpad(m.name(), m.debugId());
            } catch (IllegalArgumentException e) {
              // a MODULE record without a usable identity: converted privately
            }
          }
          return new Target(ref, key, id == null ? null : ModuleKey.ofBreakpad(id.debugFile(), id.debugId()), null,
              id == null ? null : id.debugFile(), id == null ? null : id.debugId(), path, kind, null, null);
        }
        default -> {
          return errorTarget(ref, new Outcome.Unreadable(path + ": not an ELF, Mach-O, GSYM or Breakpad symbol file"));
        }
      }
    } catch (GsymFormatException e) {
      return errorTarget(ref, new Outcome.Unreadable(e.getMessage()));
    } catch (IOException | RuntimeException e) {
      return errorTarget(ref, new Outcome.Unreadable(path + ": " + Texts.message(e)));
    }
  }

  private static Target errorTarget(ModuleRef ref, Outcome error) {
    return new Target(ref, null, null, null, null, null, null, null, null, error);
  }

  // ------------------------------------------------------------------ obtaining a module

  /**
   * An open module for {@code t}, or why there is none. A {@link Outcome.Loaded} handle must be
   * closed by the caller.
   */
  Outcome obtain(Target t) throws InterruptedException {
    if (t.error() != null) return t.error();
    try {
      for (int attempt = 0; ; attempt++) {
        ReaderCache.Handle h = readers.acquire(t.cacheKey());
        if (h != null) {
          touch(h);
          return new Outcome.Loaded(h);
        }
        Outcome remembered = rememberedFailure(t);
        if (remembered != null) return remembered;
        CompletableFuture<Outcome> mine = new CompletableFuture<>();
        CompletableFuture<Outcome> running = inFlight.putIfAbsent(t.cacheKey(), mine);
        if (running == null) {
          Outcome o = null;
          try {
            o = load(t);
          } catch (InterruptedException e) {
            o = new Outcome.NotFound(t.ref() + ": interrupted", true);
            throw e;
          } catch (IOException | RuntimeException e) {
            o = new Outcome.Unreadable(t.ref() + ": " + Texts.message(e));
          } catch (Error e) {
            mine.completeExceptionally(e);
            throw e;
          } finally {
            if (o != null) mine.complete(o); // before leaving the map: a newcomer then finds the module cached
            inFlight.remove(t.cacheKey(), mine);
          }
          if (!(o instanceof Outcome.Loaded)) counters.failures.increment();
          return o;
        }
        Outcome o;
        try {
          o = running.get();
        } catch (ExecutionException e) {
          o = new Outcome.Unreadable(t.ref() + ": " + Texts.message(e.getCause()));
        }
        if (!(o instanceof Outcome.Loaded l)) return o;
        ReaderCache.Handle mineToo = readers.retain(l.handle().entry);
        if (mineToo != null) return new Outcome.Loaded(mineToo);
        if (attempt > 3) return new Outcome.NotFound(t.ref() + ": evicted while loading; too many open modules", true);
      }
    } finally {
      if (store != null && evictionDue.getAndSet(false)) {
        try {
          store.evict(readers::maps);
        } catch (IOException e) {
          // eviction is retried after the next publication
        }
      }
    }
  }

  private void touch(ReaderCache.Handle h) {
    if (store != null && h.entry.storeFile != null && h.entry.touchDue(TOUCH_INTERVAL_NANOS)) store.touch(h.entry.storeFile);
  }

  /** The remembered failure if every applicable source failed recently and nothing else can answer. */
  private Outcome rememberedFailure(Target t) {
    if (t.hasOwnSymbols() || t.kind() == ConverterAdapter.Kind.GSYM) return null;
    boolean anySource = false;
    for (Source s : sources) anySource |= applicable(s, t);
    if (!anySource && t.file() == null) {
      // only the store can have it: no need to lock anything to say so
      if (store != null && t.storeKey() != null && Files.exists(store.gsym(t.storeKey()))) return null;
      return failure(t, List.of(), false, false);
    }
    Map<String, Failure> known = failures.get(negativeKey(t));
    if (known == null) return null;
    long now = System.currentTimeMillis();
    List<String> notes = new ArrayList<>();
    boolean transientFailure = false;
    boolean unreadable = false;
    int applicable = 0;
    synchronized (known) {
      for (Source s : sources) {
        if (!applicable(s, t)) continue;
        applicable++;
        Failure f = known.get(s.id());
        if (f == null || f.expired(now)) return null;
        notes.add(s.id() + ": " + f.message());
        transientFailure |= f.kind() == Failure.Kind.TRANSIENT;
        unreadable |= f.kind() == Failure.Kind.UNREADABLE;
      }
    }
    if (applicable == 0) return null;
    if (store != null && t.storeKey() != null && Files.exists(store.gsym(t.storeKey()))) return null;
    return failure(t, notes, transientFailure, unreadable);
  }

  private static Outcome failure(Target t, List<String> notes, boolean transientFailure, boolean unreadable) {
    String msg = t.ref() + ": " + (notes.isEmpty() ? "no configured source can look it up" : String.join("; ", notes));
    return unreadable ? new Outcome.Unreadable(msg) : new Outcome.NotFound(msg, transientFailure);
  }

  private String negativeKey(Target t) {
    return t.storeKey() != null ? t.storeKey().path() : t.cacheKey();
  }

  private static boolean applicable(Source s, Target t) {
    return switch (s) {
      case Source.DebugDirectories d -> t.buildId() != null || t.facts() != null && t.facts().debuglink() != null;
      case Source.Debuginfod d -> t.buildId() != null;
      case Source.BreakpadSymbols b -> t.debugFile() != null && t.debugId() != null;
    };
  }

  private Outcome load(Target t) throws IOException, InterruptedException {
    if (t.kind() == ConverterAdapter.Kind.GSYM) {
      try {
        return new Outcome.Loaded(readers.add(t.cacheKey(), GsymCoreAdapter.open(t.file()), null, ORIGIN_FILE));
      } catch (GsymFormatException e) {
        return new Outcome.Unreadable(e.getMessage());
      }
    }
    if (store == null || t.storeKey() == null) return search(t, false);
    Outcome o = fromStore(t, false);
    if (o != null) return o;
    GsymStore.Lock lock;
    try {
      lock = store.lock(t.storeKey(), lockTimeout);
    } catch (TimeoutException e) {
      return new Outcome.NotFound(t.ref() + ": " + e.getMessage() + " (held by another process)", true);
    } catch (java.nio.file.FileSystemException e) {
      // a store this process may not write (read-only mount, another user's): used read-only
      mergeMarker(t);
      return search(t, false);
    }
    try (lock) {
      o = fromStore(t, true); // another process may have converted it while we waited
      if (o != null) return o;
      mergeMarker(t);
      return search(t, true);
    }
  }

  /** The module's store file opened, or null if there is none (an unreadable one is removed when locked). */
  private Outcome fromStore(Target t, boolean locked) throws IOException {
    Path p = store.gsym(t.storeKey());
    if (!Files.exists(p)) return null;
    GsymCoreAdapter m;
    try {
      m = GsymCoreAdapter.open(p);
    } catch (NoSuchFileException e) {
      return null; // evicted meanwhile
    } catch (GsymFormatException e) {
      if (locked) store.discard(t.storeKey());
      return null;
    }
    try {
      m.checkComplete();
    } catch (GsymFormatException e) {
      // cut short on disk after it was published: converted again, never served
      m.close();
      if (locked) store.discard(t.storeKey());
      return null;
    }
    counters.storeHits.increment();
    store.touch(p);
    return new Outcome.Loaded(readers.add(t.cacheKey(), m, p, ORIGIN_STORE));
  }

  /**
   * Asks the sources in order and converts the first usable find, into the store if {@code
   * publish} (the caller holds the module's lock).
   */
  private Outcome search(Target t, boolean publish) throws InterruptedException {
    List<String> notes = new ArrayList<>();
    boolean transientFailure = false;
    boolean unreadable = false;
    if (t.hasOwnSymbols()) {
      try {
        return convert(t, t.file(), t.kind(), publish, ORIGIN_FILE);
      } catch (ConverterAdapter.OutputFailed e) {
        return outputFailed(t, e);
      } catch (GsymFormatException e) {
        notes.add(e.getMessage());
        unreadable = true;
      } catch (IOException | RuntimeException e) {
        notes.add(t.file() + ": " + Texts.message(e));
        unreadable = true;
      }
    }
    // a stripped binary's symbol table is the last resort; never published: a debug file may come later
    Path symbolsOnly = t.file() != null && t.kind() == ConverterAdapter.Kind.OBJECT && !t.facts().hasDebugInfo() ? t.file() : null;
    String symbolsOnlyOrigin = ORIGIN_FILE;
    Map<String, Failure> known = failures.computeIfAbsent(negativeKey(t), k -> new HashMap<>());
    for (int i = 0; i < sources.size(); i++) {
      Source s = sources.get(i);
      if (!applicable(s, t)) continue;
      long now = System.currentTimeMillis();
      Failure f;
      synchronized (known) {
        f = known.get(s.id());
      }
      if (f != null && !f.expired(now)) {
        notes.add(s.id() + ": " + f.message());
        transientFailure |= f.kind() == Failure.Kind.TRANSIENT;
        unreadable |= f.kind() == Failure.Kind.UNREADABLE;
        continue;
      }
      Fetched r = fetch(i, t);
      switch (r) {
        case Fetched.Found found -> {
          try {
            ConverterAdapter.Kind kind = ConverterAdapter.sniff(found.file());
            String problem = null;
            if (kind == ConverterAdapter.Kind.OBJECT) {
              ConverterAdapter.ObjectFacts facts = ConverterAdapter.probe(found.file());
              if (t.buildId() != null && facts.buildId() != null && !facts.buildId().equals(t.buildId())) {
                problem = found.origin() + ": has build-id " + facts.buildId() + ", not " + t.buildId();
              } else if (!facts.hasDebugInfo()) {
                if (symbolsOnly == null) {
                  symbolsOnly = found.file();
                  symbolsOnlyOrigin = origin(s);
                }
                notes.add(s.id() + ": " + found.origin() + " has no DWARF (symbol table only)");
                continue;
              } else {
                return convert(t, found.file(), kind, publish, origin(s));
              }
            } else if (kind == ConverterAdapter.Kind.BREAKPAD) {
              return convert(t, found.file(), kind, publish, origin(s));
            } else {
              problem = found.origin() + ": not an ELF, Mach-O or Breakpad symbol file";
            }
            remember(t, s, Failure.Kind.UNREADABLE, problem, notes);
            unreadable = true;
          } catch (ConverterAdapter.OutputFailed e) {
            return outputFailed(t, e);
          } catch (GsymFormatException e) {
            remember(t, s, Failure.Kind.UNREADABLE, found.origin().equals(e.source()) ? e.getMessage()
                : found.origin() + ": " + e.getMessage(), notes);
            unreadable = true;
          } catch (IOException | RuntimeException e) {
            // a converter's own bug on hostile input must not end the search or fail the batch
            remember(t, s, Failure.Kind.UNREADABLE, found.origin() + ": " + Texts.message(e), notes);
            unreadable = true;
          } finally {
            if (found.temporary()) deleteQuietly(found.file());
          }
        }
        case Fetched.Missing m -> remember(t, s, Failure.Kind.NOT_FOUND, m.message(), notes);
        case Fetched.Failed fl -> {
          remember(t, s, fl.transientFailure() ? Failure.Kind.TRANSIENT : Failure.Kind.UNREADABLE, fl.message(), notes);
          transientFailure |= fl.transientFailure();
          unreadable |= !fl.transientFailure();
        }
      }
    }
    if (publish) persistMarker(t);
    if (symbolsOnly != null) {
      try {
        return convert(t, symbolsOnly, ConverterAdapter.Kind.OBJECT, false, symbolsOnlyOrigin);
      } catch (ConverterAdapter.OutputFailed e) {
        return outputFailed(t, e);
      } catch (GsymFormatException e) {
        notes.add(e.getMessage());
        unreadable = true;
      } catch (IOException | RuntimeException e) {
        notes.add(symbolsOnly + ": " + Texts.message(e));
        unreadable = true;
      }
    }
    return failure(t, notes, transientFailure, unreadable);
  }

  private Fetched fetch(int i, Target t) throws InterruptedException {
    return switch (sources.get(i)) {
      case Source.DebugDirectories d -> new LocalDebugFiles(d).find(t);
      case Source.Debuginfod d -> ((DebuginfodFetcher) fetchers.get(i)).fetch(t.buildId());
      case Source.BreakpadSymbols b -> ((BreakpadFetcher) fetchers.get(i)).fetch(t.debugFile(), t.debugId(),
          () -> store != null && t.storeKey() != null ? store.createTemp(t.storeKey())
              : Files.createTempFile(GsymStore.TEMP_PREFIX, GsymStore.TEMP_SUFFIX));
    };
  }

  private void remember(Target t, Source s, Failure.Kind kind, String message, List<String> notes) {
    notes.add(s.id() + ": " + message);
    long now = System.currentTimeMillis();
    Duration ttl = kind == Failure.Kind.TRANSIENT ? transientTtl : s.negativeTtl();
    Map<String, Failure> known = failures.computeIfAbsent(negativeKey(t), k -> new HashMap<>());
    synchronized (known) {
      known.put(s.id(), new Failure(s.id(), kind, message, now, now + ttl.toMillis()));
    }
    if (failures.size() > MAX_FAILURE_KEYS) purgeFailures(now);
  }

  private void purgeFailures(long now) {
    failures.values().removeIf(m -> {
      synchronized (m) {
        m.values().removeIf(f -> f.expired(now));
        return m.isEmpty();
      }
    });
    if (failures.size() > MAX_FAILURE_KEYS) failures.clear();
  }

  /** Adopts the store marker's answers of sources configured here (as this process times them). */
  private void mergeMarker(Target t) {
    List<NegativeMarker.Entry> entries;
    try {
      entries = store.readMarker(t.storeKey());
    } catch (IOException e) {
      return;
    }
    if (entries.isEmpty()) return;
    Map<String, Failure> known = failures.computeIfAbsent(negativeKey(t), k -> new HashMap<>());
    long now = System.currentTimeMillis();
    synchronized (known) {
      for (NegativeMarker.Entry e : entries) {
        for (Source s : sources) {
          if (!s.id().equals(e.sourceId())) continue;
          long expires = e.at() + s.negativeTtl().toMillis();
          Failure mine = known.get(s.id());
          if (expires > now && (mine == null || mine.at() < e.at())) {
            known.put(s.id(), new Failure(s.id(), e.kind(), e.message(), e.at(), expires));
          }
        }
      }
    }
  }

  /** Writes the module's remembered not-found and unreadable answers to the store marker. */
  private void persistMarker(Target t) {
    if (store == null || t.storeKey() == null) return;
    Map<String, Failure> known = failures.get(negativeKey(t));
    if (known == null) return;
    List<NegativeMarker.Entry> entries = new ArrayList<>();
    long now = System.currentTimeMillis();
    synchronized (known) {
      for (Failure f : known.values()) {
        if (f.kind() != Failure.Kind.TRANSIENT && !f.expired(now)) {
          entries.add(new NegativeMarker.Entry(f.at(), f.kind(), f.sourceId(), f.message()));
        }
      }
    }
    if (entries.isEmpty()) return;
    try {
      store.writeMarker(t.storeKey(), entries);
    } catch (IOException e) {
      // the marker only saves other processes a search
    }
  }

  /**
   * Converts {@code input} to GSYM and opens it: into the store (a temporary file, validated by
   * opening it, then renamed into place) when {@code publish}, else into an unlinked scratch file.
   */
  private Outcome convert(Target t, Path input, ConverterAdapter.Kind kind, boolean publish, String origin)
      throws IOException, InterruptedException {
    conversionSlots.acquire();
    try {
      if (!publish) {
        GsymCoreAdapter m;
        try (FileChannel ch = GsymCoreAdapter.scratch()) {
          write(t, input, kind, ch);
          m = GsymCoreAdapter.open(ch, input + " (converted)");
        }
        counters.conversions.increment();
        return new Outcome.Loaded(readers.add(t.cacheKey(), m, null, origin));
      }
      Path target = store.gsym(t.storeKey());
      Path temp;
      try {
        temp = store.createTemp(t.storeKey());
      } catch (IOException e) {
        throw new ConverterAdapter.OutputFailed(e);
      }
      try {
        GsymCoreAdapter m;
        // (the child JVM's conversions have no unwind information: those run here)
        boolean inChild = conversionProcess != null && !unwind;
        if (inChild) conversionProcess.convert(input, kind, mergedFunctions, temp);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          if (!inChild) write(t, input, kind, ch);
          try {
            ch.force(true);
          } catch (IOException e) {
            throw new ConverterAdapter.OutputFailed(e);
          }
          m = GsymCoreAdapter.open(ch, target.toString()); // the mapping stays valid across the rename
        }
        try {
          store.publish(temp, t.storeKey());
        } catch (IOException e) {
          m.close();
          throw new ConverterAdapter.OutputFailed(e);
        }
        counters.conversions.increment();
        evictionDue.set(true);
        return new Outcome.Loaded(readers.add(t.cacheKey(), m, target, origin));
      } finally {
        deleteQuietly(temp);
      }
    } finally {
      conversionSlots.release();
    }
  }

  /** The values of {@link Symbolized.Found#source()}. */
  static final String ORIGIN_STORE = "store";
  static final String ORIGIN_FILE = "file";

  private static String origin(Source s) {
    return switch (s) {
      case Source.DebugDirectories d -> "debug-dir";
      case Source.Debuginfod d -> "debuginfod";
      case Source.BreakpadSymbols b -> "breakpad";
    };
  }

  /**
   * The output of a conversion could not be written (store full, I/O error): retryable, and not
   * remembered against the module or its sources, so the next request converts once there is room.
   */
  private static Outcome outputFailed(Target t, ConverterAdapter.OutputFailed e) {
    return new Outcome.NotFound(t.ref() + ": " + e.getMessage(), true);
  }

  /**
   * Converts {@code input}, found for {@code t}; with unwind information, a debug file found for a
   * binary given by path takes the CFI the debug file lacks from that binary.
   */
  private void write(Target t, Path input, ConverterAdapter.Kind kind, FileChannel out) throws IOException {
    if (kind == ConverterAdapter.Kind.BREAKPAD) {
      ConverterAdapter.convertBreakpad(input, out, unwind);
    } else if (unwind) {
      Path binary = t.file() != null && t.kind() == ConverterAdapter.Kind.OBJECT ? t.file() : null;
      ConverterAdapter.convertObject(input, out, mergedFunctions, 0, true, binary);
    } else {
      ConverterAdapter.convertObject(input, out, mergedFunctions);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // a leftover temporary file is removed by eviction later
    }
  }

  @Override
  public void close() {
    if (conversionProcess != null) conversionProcess.close();
    for (AutoCloseable c : fetchers) {
      try {
        c.close();
      } catch (Exception e) {
        // closing HTTP clients does not fail in a way we could act on
      }
    }
  }
}
