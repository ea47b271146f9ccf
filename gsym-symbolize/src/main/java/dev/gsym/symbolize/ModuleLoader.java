package dev.gsym.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.convert.Converter;
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
 * Turns module references into open modules: the store first, then the file's own symbols and the
 * sources in order, each find converted once and published into the store; one search per module
 * at a time in this process (later callers wait for its outcome) and across processes sharing the
 * store (the module's file lock); failures remembered per source (docs/symbolize.md). A store
 * entry found corrupt by a lookup is removed and converted again ({@link #replaceCorrupt}).
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
  /** One per configured source, in the order they are asked. */
  private final List<Fetcher> fetchers;
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
    this.transientTtl = transientTtl;
    this.lockTimeout = lockTimeout;
    this.conversionSlots = new Semaphore(maxConversions);
    this.counters = counters;
    List<Fetcher> f = new ArrayList<>(sources.size());
    for (Source s : sources) f.add(Fetcher.of(s, counters.downloads));
    this.fetchers = List.copyOf(f);
  }

  // ------------------------------------------------------------------ references → targets

  /** What obtaining {@code ref} needs (reads a file's first bytes for a path). */
  Target target(ModuleRef ref) {
    return switch (ref) {
      case ModuleRef.BuildId b -> new Target.Search(ref, "b:" + b.hex(), ModuleKey.ofBuildId(b.hex()), b.hex(),
          b.debugFile() == null ? null : breakpadOrNull(b.debugFile(), ConverterAdapter.breakpadIdOfBuildId(b.hex())),
          null);
      case ModuleRef.Breakpad p -> new Target.Search(ref, "p:" + p.debugFile() + "/" + p.debugId(),
          ModuleKey.ofBreakpad(p.debugFile(), p.debugId()), null, p, null);
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
      return new Target.Answered(ref, new Outcome.Missed(Miss.NOT_FOUND, path + ": No such file or directory"));
    } catch (IOException e) {
      return new Target.Answered(ref, new Outcome.Missed(Miss.UNREADABLE, path + ": " + Texts.message(e)));
    }
    if (!a.isRegularFile()) return new Target.Answered(ref, new Outcome.Missed(Miss.UNREADABLE, path + ": not a regular file"));
    long size = a.size();
    long mtime = a.lastModifiedTime().toMillis();
    FileTarget known = fileTargets.get(abs);
    if (known != null && known.size == size && known.mtime == mtime && known.target.ref().equals(ref)) return known.target;
    Target t = probeFile(ref, abs, size, mtime);
    if (fileTargets.size() >= MAX_FILE_TARGETS) fileTargets.clear();
    fileTargets.put(abs, new FileTarget(size, mtime, t));
    return t;
  }

  /**
   * What a file is to the search and the store: its kind, the facts of a binary, its identity.
   *
   * @param storeKey where the store keeps its GSYM, or null (no identity: a binary without a
   *     build-id, a symbol file without a usable MODULE record, a GSYM file)
   */
  record FileIdentity(ConverterAdapter.Kind kind, ConverterAdapter.ObjectFacts facts, ModuleKey storeKey,
      ModuleRef.Breakpad breakpad) {}

  /**
   * Recognises {@code path} and finds its identity ({@link StoreConversion#identify} keys a store
   * with it, so bulk converters and symbolizers agree).
   *
   * @throws GsymFormatException if its headers are malformed
   */
  static FileIdentity identify(Path path) throws IOException {
    ConverterAdapter.Kind kind = ConverterAdapter.sniff(path);
    return switch (kind) {
      case GSYM, OTHER -> new FileIdentity(kind, null, null, null);
      case OBJECT -> {
        ConverterAdapter.ObjectFacts facts = ConverterAdapter.probe(path);
        // a SONAME that is no usable file name: no Breakpad lookup
        ModuleRef.Breakpad bp = facts.breakpadName() == null ? null : breakpadOrNull(facts.breakpadName(), facts.breakpadId());
        yield new FileIdentity(kind, facts, facts.buildId() == null ? null : ModuleKey.ofBuildId(facts.buildId()), bp);
      }
      case BREAKPAD -> {
        ConverterAdapter.BreakpadModule m = ConverterAdapter.breakpadModule(path);
        // a MODULE record without a usable identity: converted privately
        ModuleRef.Breakpad id = m == null ? null : breakpadOrNull(m.name(), m.debugId());
        yield new FileIdentity(kind, null, id == null ? null : ModuleKey.ofBreakpad(id.debugFile(), id.debugId()), id);
      }
    };
  }

  private static ModuleRef.Breakpad breakpadOrNull(String debugFile, String debugId) {
    try {
      return ModuleRef.breakpad(debugFile, debugId);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Target probeFile(ModuleRef.FilePath ref, Path abs, long size, long mtime) {
    Path path = ref.path();
    String key = "f:" + abs + "#" + size + "#" + mtime;
    try {
      FileIdentity id = identify(path);
      return switch (id.kind()) {
        case GSYM -> new Target.GsymFile(ref, key, path);
        case OBJECT -> new Target.Search(ref, key, id.storeKey(), id.facts().buildId(), id.breakpad(),
            new Target.Local.Binary(path, id.facts()));
        case BREAKPAD -> new Target.Search(ref, key, id.storeKey(), null, id.breakpad(), new Target.Local.SymbolFile(path));
        case OTHER -> new Target.Answered(ref,
            new Outcome.Missed(Miss.UNREADABLE, path + ": not an ELF, Mach-O, GSYM or Breakpad symbol file"));
      };
    } catch (GsymFormatException e) {
      return new Target.Answered(ref, new Outcome.Missed(Miss.UNREADABLE, e.getMessage()));
    } catch (IOException | RuntimeException e) {
      return new Target.Answered(ref, new Outcome.Missed(Miss.UNREADABLE, path + ": " + Texts.message(e)));
    }
  }

  // ------------------------------------------------------------------ obtaining a module

  /**
   * An open module for {@code t}, or why there is none (counted in {@link Counters#failures}). A
   * {@link Outcome.Loaded} handle must be closed by the caller.
   */
  Outcome obtain(Target t) throws InterruptedException {
    Outcome o = switch (t) {
      case Target.Answered a -> a.answer();
      case Target.GsymFile g -> single(g.cacheKey(), g.ref(), () -> openGsymFile(g));
      case Target.Search s -> {
        try {
          yield single(s.cacheKey(), s.ref(), () -> {
            Outcome remembered = rememberedFailure(s);
            return remembered != null ? remembered : load(s);
          });
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
    };
    if (!(o instanceof Outcome.Loaded)) counters.failures.increment();
    return o;
  }

  /** Loads a module once; {@link #single} runs one at a time per module. */
  @FunctionalInterface
  private interface Load {
    Outcome run() throws IOException, InterruptedException;
  }

  /**
   * The module cached under {@code cacheKey}, else the outcome of {@code load}, run by one caller
   * at a time: the others wait for its outcome and share the module it opened.
   */
  private Outcome single(String cacheKey, ModuleRef ref, Load load) throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      ReaderCache.Handle h = readers.acquire(cacheKey);
      if (h != null) {
        touch(h);
        return new Outcome.Loaded(h);
      }
      CompletableFuture<Outcome> mine = new CompletableFuture<>();
      CompletableFuture<Outcome> running = inFlight.putIfAbsent(cacheKey, mine);
      if (running == null) {
        Outcome o = null;
        try {
          o = load.run();
        } catch (InterruptedException e) {
          o = new Outcome.Missed(Miss.UNAVAILABLE, ref + ": interrupted");
          throw e;
        } catch (IOException | RuntimeException e) {
          o = new Outcome.Missed(Miss.UNREADABLE, ref + ": " + Texts.message(e));
        } catch (Error e) {
          mine.completeExceptionally(e);
          throw e;
        } finally {
          if (o != null) mine.complete(o); // before leaving the map: a newcomer then finds the module cached
          inFlight.remove(cacheKey, mine);
        }
        return o;
      }
      Outcome o;
      try {
        o = running.get();
      } catch (ExecutionException e) {
        o = new Outcome.Missed(Miss.UNREADABLE, ref + ": " + Texts.message(e.getCause()));
      }
      if (!(o instanceof Outcome.Loaded l)) return o;
      ReaderCache.Handle mineToo = readers.retain(l.handle().entry);
      if (mineToo != null) return new Outcome.Loaded(mineToo);
      if (attempt > 3) return new Outcome.Missed(Miss.UNAVAILABLE, ref + ": evicted while loading; too many open modules");
    }
  }

  private void touch(ReaderCache.Handle h) {
    if (store != null && h.entry.storeFile != null && h.entry.touchDue(TOUCH_INTERVAL_NANOS)) store.touch(h.entry.storeFile);
  }

  private Outcome openGsymFile(Target.GsymFile g) throws IOException {
    try {
      return new Outcome.Loaded(readers.add(g.cacheKey(), GsymCoreAdapter.open(g.file()), Origin.FILE));
    } catch (GsymFormatException e) {
      return new Outcome.Missed(Miss.UNREADABLE, e.getMessage());
    }
  }

  /**
   * A module whose lookup found a malformed record ({@code e}) in the module {@code h} holds: if
   * it is a store entry (opened from the store, converted earlier), the entry is removed from the
   * open modules and from the store (unless another process replaced it meanwhile), and the module
   * is obtained again, converted from its source if one has it. Returns null when the module is
   * not a store entry: its bytes are what the file given or this process's conversion holds, and
   * obtaining it again would give the same bytes.
   */
  Outcome replaceCorrupt(Target t, ReaderCache.Handle h, GsymFormatException e) throws InterruptedException {
    ReaderCache.Entry entry = h.entry;
    if (entry.origin != Origin.STORE || store == null || !(t instanceof Target.Search s) || s.storeKey() == null) {
      return null;
    }
    readers.remove(entry);
    try (GsymStore.Lock lock = store.lock(s.storeKey(), lockTimeout)) {
      store.discardIfSame(s.storeKey(), entry.storeFileKey);
    } catch (TimeoutException | IOException x) {
      return new Outcome.Missed(Miss.UNAVAILABLE, t.ref() + ": cannot remove the corrupt store file: " + Texts.message(x));
    }
    return obtain(t);
  }

  /** The remembered failure if every applicable source failed recently and nothing else can answer. */
  private Outcome rememberedFailure(Target.Search t) {
    if (t.hasOwnSymbols()) return null;
    boolean anySource = false;
    for (Fetcher f : fetchers) anySource |= f.applies(t);
    if (!anySource && t.local() == null) {
      // only the store can have it: no need to lock anything to say so
      if (store != null && t.storeKey() != null && Files.exists(store.gsym(t.storeKey()))) return null;
      return new Misses().outcome(t);
    }
    Map<String, Failure> known = failures.get(negativeKey(t));
    if (known == null) return null;
    long now = System.currentTimeMillis();
    Misses misses = new Misses();
    int applicable = 0;
    synchronized (known) {
      for (Fetcher f : fetchers) {
        if (!f.applies(t)) continue;
        applicable++;
        Failure remembered = known.get(f.source().id());
        if (remembered == null || remembered.expired(now)) return null;
        misses.add(remembered.reason(), f.source().id() + ": " + remembered.message());
      }
    }
    if (applicable == 0) return null;
    if (store != null && t.storeKey() != null && Files.exists(store.gsym(t.storeKey()))) return null;
    return misses.outcome(t);
  }

  /** What the places asked for a module answered: their messages and the worst miss. */
  private static final class Misses {
    private final List<String> notes = new ArrayList<>();
    private Miss worst = Miss.NOT_FOUND;

    void add(Miss reason, String note) {
      notes.add(note);
      worst = worst.worse(reason);
    }

    Outcome.Missed outcome(Target t) {
      return new Outcome.Missed(worst,
          t.ref() + ": " + (notes.isEmpty() ? "no configured source can look it up" : String.join("; ", notes)));
    }
  }

  private String negativeKey(Target.Search t) {
    return t.storeKey() != null ? t.storeKey().path() : t.cacheKey();
  }

  private Outcome load(Target.Search t) throws IOException, InterruptedException {
    if (store == null || t.storeKey() == null) return search(t, false);
    Outcome o = fromStore(t, false);
    if (o != null) return o;
    GsymStore.Lock lock;
    try {
      lock = store.lock(t.storeKey(), lockTimeout);
    } catch (TimeoutException e) {
      return new Outcome.Missed(Miss.UNAVAILABLE, t.ref() + ": " + e.getMessage() + " (held by another process)");
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
  private Outcome fromStore(Target.Search t, boolean locked) throws IOException {
    Path p = store.gsym(t.storeKey());
    if (!Files.exists(p)) return null;
    Object fileKey = GsymStore.fileKey(p);
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
    // a file replaced between reading its identity and opening it: identity unknown
    if (fileKey != null && !fileKey.equals(GsymStore.fileKey(p))) fileKey = null;
    counters.storeHits.increment();
    store.touch(p);
    return new Outcome.Loaded(readers.add(t.cacheKey(), m, p, fileKey, Origin.STORE));
  }

  /**
   * Converts the first usable find: the file's own symbols, then each applicable source in order,
   * then (never published: a debug file may come later) the symbol table of a binary without debug
   * information, the one given or the first a source found. Into the store if {@code publish} (the
   * caller holds the module's lock).
   */
  private Outcome search(Target.Search t, boolean publish) throws InterruptedException {
    Misses misses = new Misses();
    Path symbolsOnly = null;
    Origin symbolsOnlyOrigin = Origin.FILE;
    if (t.hasOwnSymbols()) {
      Outcome o = convertOrNote(t, t.local().file(), t.local().kind(), publish, Origin.FILE, null, misses::add);
      if (o != null) return o;
    } else if (t.local() instanceof Target.Local.Binary b) {
      symbolsOnly = b.file();
    }
    Map<String, Failure> known = failures.computeIfAbsent(negativeKey(t), k -> new HashMap<>());
    for (Fetcher fetcher : fetchers) {
      if (!fetcher.applies(t)) continue;
      String id = fetcher.source().id();
      Failure remembered;
      synchronized (known) {
        remembered = known.get(id);
      }
      if (remembered != null && !remembered.expired(System.currentTimeMillis())) {
        misses.add(remembered.reason(), id + ": " + remembered.message());
        continue;
      }
      switch (fetcher.fetch(t, () -> store != null && t.storeKey() != null ? store.createTemp(t.storeKey())
          : Files.createTempFile(GsymStore.TEMP_PREFIX, GsymStore.TEMP_SUFFIX))) {
        case Fetched.Found found -> {
          try {
            Candidate c;
            try {
              c = candidate(t, found);
            } catch (IOException | RuntimeException e) {
              remember(t, fetcher, Miss.UNREADABLE, describe(e, found.origin()), misses);
              continue;
            }
            switch (c) {
              case Candidate.Convertible cv -> {
                Outcome o = convertOrNote(t, found.file(), cv.kind(), publish, fetcher.origin(), found.origin(),
                    (reason, note) -> remember(t, fetcher, reason, note, misses));
                if (o != null) return o;
              }
              case Candidate.SymbolsOnly so -> {
                if (symbolsOnly == null) {
                  symbolsOnly = found.file();
                  symbolsOnlyOrigin = fetcher.origin();
                }
                misses.add(Miss.NOT_FOUND, id + ": " + found.origin() + " has no DWARF (symbol table only)");
              }
              case Candidate.Unusable u -> remember(t, fetcher, Miss.UNREADABLE, u.problem(), misses);
            }
          } finally {
            // downloads are Breakpad symbol files, never a symbol-table-only binary kept for later
            if (found.temporary()) deleteQuietly(found.file());
          }
        }
        case Fetched.Missed m -> remember(t, fetcher, m.reason(), m.message(), misses);
      }
    }
    if (publish) persistMarker(t);
    if (symbolsOnly != null) {
      Outcome o = convertOrNote(t, symbolsOnly, ConverterAdapter.Kind.OBJECT, false, symbolsOnlyOrigin, null, misses::add);
      if (o != null) return o;
    }
    return misses.outcome(t);
  }

  /** What a source's find is to the search. */
  private sealed interface Candidate {
    /** Symbols to convert. */
    record Convertible(ConverterAdapter.Kind kind) implements Candidate {}

    /** A binary with a symbol table only: the last resort. */
    record SymbolsOnly() implements Candidate {}

    /** Not this module's symbols, or not symbols. */
    record Unusable(String problem) implements Candidate {}
  }

  private static Candidate candidate(Target.Search t, Fetched.Found found) throws IOException {
    ConverterAdapter.Kind kind = ConverterAdapter.sniff(found.file());
    return switch (kind) {
      case OBJECT -> {
        ConverterAdapter.ObjectFacts facts = ConverterAdapter.probe(found.file());
        if (t.buildId() != null && facts.buildId() != null && !facts.buildId().equals(t.buildId())) {
          yield new Candidate.Unusable(found.origin() + ": has build-id " + facts.buildId() + ", not " + t.buildId());
        }
        yield facts.hasDebugInfo() ? new Candidate.Convertible(kind) : new Candidate.SymbolsOnly();
      }
      case BREAKPAD -> new Candidate.Convertible(kind);
      case GSYM, OTHER -> new Candidate.Unusable(found.origin() + ": not an ELF, Mach-O or Breakpad symbol file");
    };
  }

  /** Where {@link #convertOrNote} reports an input it could not convert. */
  @FunctionalInterface
  private interface Notes {
    void add(Miss reason, String note);
  }

  /**
   * Converts {@code input} ({@link #convert}); if it cannot be converted, reports why to {@code
   * notes} ({@link Miss#UNREADABLE}) and returns null. An output that cannot be written answers at
   * once: retryable, and not remembered against the module or its sources, so the next request
   * converts once there is room.
   *
   * @param found where a source found {@code input} (a path or URL), for messages; null for a
   *     file of this machine, which the messages name by its path
   */
  private Outcome convertOrNote(Target.Search t, Path input, ConverterAdapter.Kind kind, boolean publish, Origin origin,
      String found, Notes notes) throws InterruptedException {
    try {
      return convert(t, input, kind, publish, origin);
    } catch (Converter.OutputFailed e) {
      return new Outcome.Missed(Miss.UNAVAILABLE, t.ref() + ": " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      // a converter's own bug on hostile input must not end the search or fail the batch
      notes.add(Miss.UNREADABLE, found != null ? describe(e, found)
          : e instanceof GsymFormatException g ? g.getMessage() : input + ": " + Texts.message(e));
    }
    return null;
  }

  /** A message for a failure to read what a source found at {@code where} (a path or URL). */
  private static String describe(Exception e, String where) {
    if (e instanceof GsymFormatException g) return where.equals(g.source()) ? g.getMessage() : where + ": " + g.getMessage();
    return where + ": " + Texts.message(e);
  }

  private void remember(Target.Search t, Fetcher fetcher, Miss reason, String message, Misses misses) {
    Source s = fetcher.source();
    misses.add(reason, s.id() + ": " + message);
    long now = System.currentTimeMillis();
    Duration ttl = reason == Miss.UNAVAILABLE ? transientTtl : s.negativeTtl();
    Map<String, Failure> known = failures.computeIfAbsent(negativeKey(t), k -> new HashMap<>());
    synchronized (known) {
      known.put(s.id(), new Failure(s.id(), reason, message, now, now + ttl.toMillis()));
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
  private void mergeMarker(Target.Search t) {
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
        for (Fetcher f : fetchers) {
          Source s = f.source();
          if (!s.id().equals(e.sourceId())) continue;
          long expires = e.at() + s.negativeTtl().toMillis();
          Failure mine = known.get(s.id());
          if (expires > now && (mine == null || mine.at() < e.at())) {
            known.put(s.id(), new Failure(s.id(), e.reason(), e.message(), e.at(), expires));
          }
        }
      }
    }
  }

  /** Writes the module's remembered not-found and unreadable answers to the store marker. */
  private void persistMarker(Target.Search t) {
    if (store == null || t.storeKey() == null) return;
    Map<String, Failure> known = failures.get(negativeKey(t));
    if (known == null) return;
    List<NegativeMarker.Entry> entries = new ArrayList<>();
    long now = System.currentTimeMillis();
    synchronized (known) {
      for (Failure f : known.values()) {
        if (f.reason() != Miss.UNAVAILABLE && !f.expired(now)) {
          entries.add(new NegativeMarker.Entry(f.at(), f.reason(), f.sourceId(), f.message()));
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
   *
   * @throws Converter.OutputFailed if the output cannot be written
   */
  private Outcome convert(Target.Search t, Path input, ConverterAdapter.Kind kind, boolean publish, Origin origin)
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
        return new Outcome.Loaded(readers.add(t.cacheKey(), m, origin));
      }
      Path target = store.gsym(t.storeKey());
      Path temp;
      try {
        temp = store.createTemp(t.storeKey());
      } catch (IOException e) {
        throw new Converter.OutputFailed(e);
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
            throw new Converter.OutputFailed(e);
          }
          m = GsymCoreAdapter.open(ch, target.toString()); // the mapping stays valid across the rename
        }
        Object fileKey = GsymStore.fileKey(temp); // a rename keeps the file's identity
        try {
          store.publish(temp, t.storeKey());
        } catch (IOException e) {
          m.close();
          throw new Converter.OutputFailed(e);
        }
        counters.conversions.increment();
        evictionDue.set(true);
        return new Outcome.Loaded(readers.add(t.cacheKey(), m, target, fileKey, origin));
      } finally {
        deleteQuietly(temp);
      }
    } finally {
      conversionSlots.release();
    }
  }

  /**
   * Converts {@code input}, found for {@code t}; with unwind information, a debug file found for a
   * binary given by path takes the CFI the debug file lacks from that binary.
   */
  private void write(Target.Search t, Path input, ConverterAdapter.Kind kind, FileChannel out) throws IOException {
    Path binary = t.local() instanceof Target.Local.Binary b ? b.file() : null;
    ConverterAdapter.convert(kind, input, out, mergedFunctions, 0, unwind, binary);
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
    for (Fetcher f : fetchers) f.close();
  }
}
