package dev.gsym.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.demangle.Demangler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;

/**
 * Symbolizes (module, address) pairs. Built once with {@link #builder()} and shared by any number
 * of threads: modules are found in the GSYM store or the configured sources, converted to GSYM
 * once (also across processes sharing the store), kept open in a bounded cache, and looked up
 * without locks. Function names are demangled as llvm-symbolizer shows them unless the builder
 * says otherwise ({@link Frame#rawName()} keeps the module's). A miss is an answer, never an
 * exception. See docs/symbolize.md.
 *
 * <pre>{@code
 * try (Symbolizer s = Symbolizer.builder()
 *     .store(Path.of("/var/cache/gsym"))
 *     .addSource(Source.DebugDirectories.defaults())
 *     .addSource(Source.Debuginfod.of(List.of(URI.create("https://debuginfod.debian.net"))))
 *     .build()) {
 *   switch (s.symbolize(ModuleRef.buildId("1d296d52..."), 0x1184)) {
 *     case Symbolized.Found f -> f.frames().forEach(System.out::println);
 *     case Symbolized.ModuleNotFound m -> System.err.println(m.message());
 *     case Symbolized.AddressNotCovered a -> System.err.println(a.message());
 *     case Symbolized.ModuleUnreadable u -> System.err.println(u.message());
 *   }
 * }
 * }</pre>
 */
public final class Symbolizer implements AutoCloseable {
  /** One (module, address) pair of a batch. */
  public record Request(ModuleRef module, long address) {
    /** Checks that the module is not null. */
    public Request {
      Objects.requireNonNull(module, "module");
    }

    /** The components, with the address in hex. */
    @Override
    public String toString() {
      return "Request[module=" + module + ", address=0x" + Long.toHexString(address) + "]";
    }
  }

  /**
   * What a symbolizer has done since it was built.
   *
   * @param lookups addresses looked up in an open module
   * @param storeHits modules opened from the store without converting
   * @param conversions modules converted to GSYM (by this process)
   * @param downloads files downloaded (debuginfod, Breakpad symbol servers)
   * @param moduleFailures module resolutions that ended without symbols (answered {@link
   *     Symbolized.ModuleNotFound} or {@link Symbolized.ModuleUnreadable}): one per call and distinct
   *     module, remembered answers included
   * @param openModules modules open now
   */
  public record Stats(long lookups, long storeHits, long conversions, long downloads, long moduleFailures, int openModules) {}

  /** Requests per batch task: large enough that scheduling costs nothing next to the lookups. */
  private static final int CHUNK = 2048;

  /** The store subdirectory of GSYMs converted with merged functions and call sites. */
  static final String MERGED_STORE = "merged";

  /** The store subdirectory of GSYMs converted with unwind information. */
  static final String UNWIND_STORE = "unwind";

  /** Compiled call-site regexes kept (a module's call sites name a few thousand functions at most). */
  private static final int REGEX_CACHE_SIZE = 8192;

  private final AddressMode addressMode;
  private final GsymStore store;
  private final ReaderCache readers;
  private final ModuleLoader loader;
  private final ExecutorService executor;
  private final boolean ownsExecutor;
  private final int parallelism;
  private final LongAdder lookups = new LongAdder();
  private final StackResolver resolver;
  private volatile boolean closed;
  private final ModuleLoader.Counters counters = new ModuleLoader.Counters();

  private Symbolizer(Builder b) {
    this.addressMode = b.addressMode;
    this.resolver = new StackResolver(new RegexCache(REGEX_CACHE_SIZE), b.demangler == null ? FunctionNames.RAW : new FunctionNames(b.demangler));
    // GSYMs with merged functions and call sites differ from plain ones: they have their own part
    // of the store, so symbolizers of both kinds can share one directory
    this.store = b.store == null ? null : new GsymStore(storeDirectory(b.store, b.mergedFunctions, b.unwind), b.maxStoreSize);
    this.readers = new ReaderCache(b.maxOpenModules);
    this.loader = new ModuleLoader(store, readers, b.sources, b.transientFailureTtl, b.storeLockTimeout,
        b.maxConcurrentConversions, counters, b.mergedFunctions,
        b.conversionJvmOptions == null ? null : new ConversionProcess(b.conversionJvmOptions), b.unwind);
    if (b.executor != null) {
      this.executor = b.executor;
      this.ownsExecutor = false;
      this.parallelism = b.threads;
    } else {
      this.parallelism = b.threads;
      this.ownsExecutor = b.threads > 1;
      this.executor = b.threads > 1 ? Executors.newFixedThreadPool(b.threads - 1, r -> {
        Thread t = new Thread(r, "gsym-symbolize");
        t.setDaemon(true);
        return t;
      }) : null;
    }
  }

  /** A builder with the defaults: no store, no sources, absolute addresses, names demangled. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The part of the store a symbolizer's GSYMs live in: plain ones at the top, those with merged
   * functions and call sites in {@code merged}, those with unwind information in {@code unwind}
   * (or {@code merged-unwind}), so that symbolizers of every kind can share one directory.
   */
  private static Path storeDirectory(Path store, boolean merged, boolean unwind) {
    if (unwind) return store.resolve(merged ? MERGED_STORE + "-" + UNWIND_STORE : UNWIND_STORE);
    return merged ? store.resolve(MERGED_STORE) : store;
  }

  /**
   * A module's GSYM opened through the symbolizer (the store, then the sources, as {@link
   * #symbolize(ModuleRef, long)} finds it), for callers that read the GSYM themselves, such as a
   * stack walker reading its unwind information ({@link Builder#unwind}). Close it when done: the
   * reader stays valid until then, however many modules the symbolizer opens meanwhile.
   */
  public static final class OpenModule implements AutoCloseable {
    private final ReaderCache.Handle handle;
    private final String problem;

    private OpenModule(ReaderCache.Handle handle, String problem) {
      this.handle = handle;
      this.problem = problem;
    }

    /** Whether the module was found and opened. */
    public boolean found() {
      return handle != null;
    }

    /** The module's GSYM, or null when it was not found. */
    public dev.gsym.read.GsymReader reader() {
      return handle == null ? null : handle.module().reader();
    }

    /** Where its symbols came from (as {@link Symbolized.Found#source()}), or null when not found. */
    public Origin source() {
      return handle == null ? null : handle.entry.origin;
    }

    /** Why the module was not found or could not be read, or "" when it was found. */
    public String problem() {
      return problem;
    }

    @Override
    public void close() {
      if (handle != null) handle.close();
    }
  }

  /**
   * Finds and opens {@code module}'s GSYM: see {@link OpenModule}. Never throws for a module
   * problem: a module without symbols answers with {@link OpenModule#problem()}.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public OpenModule openModule(ModuleRef module) {
    Objects.requireNonNull(module, "module");
    checkOpen();
    return switch (obtain(loader.target(module))) {
      case Outcome.Loaded l -> new OpenModule(l.handle(), "");
      case Outcome.Missed m -> new OpenModule(null, m.message());
    };
  }

  /**
   * {@link #openModule} for each of {@code modules}, found, converted and opened in parallel as a
   * batch's modules are ({@link #symbolize(List)}); the answer has one {@link OpenModule} per
   * element, in order. For callers that look many addresses up themselves in the modules' GSYMs
   * ({@link dev.gsym.read.GsymReader#lookup(long, dev.gsym.read.LookupFrames)}). Close each when done.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public List<OpenModule> openModules(List<ModuleRef> modules) {
    checkOpen();
    List<ModuleRef> refs = List.copyOf(modules);
    OpenModule[] out = new OpenModule[refs.size()];
    try {
      parallel(refs.size(), i -> out[i] = openModule(refs.get(i)));
    } catch (RuntimeException e) {
      for (OpenModule m : out) {
        if (m != null) m.close();
      }
      throw e;
    }
    return List.of(out);
  }

  /**
   * Symbolizes one address. Never throws for a module or address problem: those are answers. An
   * address with merged functions answers with their {@link Merged} information, resolved without a
   * stack ({@link Merged.Resolution#UNIQUE} or {@link Merged.Resolution#AMBIGUOUS}).
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public Symbolized symbolize(ModuleRef module, long address) {
    Objects.requireNonNull(module, "module");
    checkOpen();
    Target t = loader.target(module);
    Outcome o = obtain(t);
    try {
      return lookup(t, o, address, addressMode);
    } finally {
      if (o instanceof Outcome.Loaded l) l.handle().close();
    }
  }

  /**
   * Symbolizes many pairs with the symbolizer's {@link AddressMode}; the answers are in the order
   * of {@code requests}. Each distinct module is resolved once (modules in parallel), then the
   * lookups run in parallel chunks. A module or address that cannot be resolved gives that pair's
   * answer and does not affect the others.
   */
  public List<Symbolized> symbolize(List<Request> requests) {
    return symbolize(requests, addressMode);
  }

  /** {@link #symbolize(List)} with the addresses read as {@code mode} says. */
  public List<Symbolized> symbolize(List<Request> requests, AddressMode mode) {
    Objects.requireNonNull(mode, "mode");
    checkOpen();
    int n = requests.size();
    try (Modules modules = new Modules(requests, false)) {
      Symbolized[] out = new Symbolized[n];
      int chunks = (n + CHUNK - 1) / CHUNK;
      parallel(chunks, c -> {
        for (int i = c * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
          int m = modules.moduleOf[i];
          out[i] = lookup(modules.targets[m], modules.outcomes[m], requests.get(i).address(), mode);
        }
      });
      return List.of(out);
    }
  }

  /**
   * Symbolizes call stacks with the symbolizer's {@link AddressMode}: see {@link
   * #symbolizeStacks(List, AddressMode)}.
   */
  public List<List<Symbolized>> symbolizeStacks(List<List<Request>> stacks) {
    return symbolizeStacks(stacks, addressMode, AddressAdjustment.ALL_BUT_FIRST);
  }

  /**
   * Symbolizes call stacks with the symbolizer's {@link AddressMode}: see {@link
   * #symbolizeStacks(List, AddressMode, AddressAdjustment)}.
   */
  public List<List<Symbolized>> symbolizeStacks(List<List<Request>> stacks, AddressAdjustment adjustment) {
    return symbolizeStacks(stacks, addressMode, adjustment);
  }

  /**
   * Symbolizes call stacks whose callers hold return addresses: see {@link #symbolizeStacks(List,
   * AddressMode, AddressAdjustment)}.
   */
  public List<List<Symbolized>> symbolizeStacks(List<List<Request>> stacks, AddressMode mode) {
    return symbolizeStacks(stacks, mode, AddressAdjustment.ALL_BUT_FIRST);
  }

  /**
   * Symbolizes call stacks, choosing among merged (identical-code-folded) functions with the
   * callers' call-site information (docs/symbolize.md, "Merged functions"). In each stack, element
   * 0 is the innermost frame (the address where the thread was) and each following element its
   * caller, whose address is a return address, as unwinders list them: {@code adjustment} says
   * which frames are looked up inside their call instruction (docs/symbolize.md, "Return
   * addresses"). A null element is a frame the caller has no request for (its module could not be
   * named): it keeps its place, so frame indexes ({@link Merged#callerFrame()}) and the adjustment
   * count it, the search for a call site passes over it, and its answer is null. The answer has one {@link
   * Symbolized} per frame, in the same order; a frame whose address has merged functions answers
   * a {@link Symbolized.Found} with its {@link Merged} information. The modules of all stacks are
   * resolved once per call, in parallel, as {@link #symbolize(List)} resolves them; stacks are
   * resolved in parallel.
   *
   * @param mode how the addresses of this call are read
   * @param adjustment which frames hold return addresses
   * @throws IllegalStateException after {@link #close()}
   */
  public List<List<Symbolized>> symbolizeStacks(List<List<Request>> stacks, AddressMode mode,
      AddressAdjustment adjustment) {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(adjustment, "adjustment");
    checkOpen();
    List<Request> all = new ArrayList<>();
    int[] first = new int[stacks.size()]; // index in all of each stack's frame 0
    for (int k = 0; k < stacks.size(); k++) {
      first[k] = all.size();
      all.addAll(Objects.requireNonNull(stacks.get(k), "stack"));
    }
    try (Modules modules = new Modules(all, true)) {
      @SuppressWarnings("unchecked")
      List<Symbolized>[] out = new List[stacks.size()];
      parallel(stacks.size(), k -> {
        List<Request> stack = stacks.get(k);
        StackResolver.Place[] frames = new StackResolver.Place[stack.size()];
        for (int i = 0; i < frames.length; i++) {
          int m = modules.moduleOf[first[k] + i];
          if (m < 0) {
            frames[i] = StackResolver.PLACEHOLDER;
            continue;
          }
          boolean returnAddress = adjustment == AddressAdjustment.ALL
              || adjustment == AddressAdjustment.ALL_BUT_FIRST && i > 0;
          frames[i] = locate(modules.targets[m], modules.outcomes[m], stack.get(i).address(), mode, returnAddress);
        }
        out[k] = Collections.unmodifiableList(Arrays.asList(resolver.resolve(frames)));
      });
      return List.of(out);
    }
  }

  /** Counters since the symbolizer was built. */
  public Stats stats() {
    return new Stats(lookups.sum(), counters.storeHits.sum(), counters.conversions.sum(), counters.downloads.sum(),
        counters.failures.sum(), readers.size());
  }

  /**
   * Closes every open module and the HTTP clients; the symbolizer cannot be used afterwards. Call it
   * when no symbolize call is in flight.
   */
  @Override
  public void close() {
    closed = true;
    readers.close();
    loader.close();
    if (ownsExecutor) executor.shutdownNow();
  }

  private void checkOpen() {
    if (closed) throw new IllegalStateException("symbolizer is closed");
  }

  private Outcome obtain(Target t) {
    try {
      return loader.obtain(t);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome.Missed(Miss.UNAVAILABLE, t.ref() + ": interrupted");
    }
  }

  /**
   * The distinct modules of one call's requests, resolved once each (in parallel); closing releases
   * their handles. Both batch forms use it.
   */
  private final class Modules implements AutoCloseable {
    /** Per request, its module's index in {@link #targets} and {@link #outcomes}; -1 for a null request. */
    final int[] moduleOf;
    final Target[] targets;
    final Outcome[] outcomes;

    Modules(List<Request> requests, boolean nullsAllowed) {
      Map<ModuleRef, Integer> distinct = new LinkedHashMap<>();
      moduleOf = new int[requests.size()];
      for (int i = 0; i < moduleOf.length; i++) {
        Request r = requests.get(i);
        if (r == null && nullsAllowed) {
          moduleOf[i] = -1;
          continue;
        }
        Objects.requireNonNull(r, "request");
        moduleOf[i] = distinct.computeIfAbsent(r.module(), m -> distinct.size());
      }
      List<ModuleRef> refs = new ArrayList<>(distinct.keySet());
      targets = new Target[refs.size()];
      outcomes = new Outcome[refs.size()];
      try {
        parallel(refs.size(), i -> {
          targets[i] = loader.target(refs.get(i));
          outcomes[i] = obtain(targets[i]);
        });
      } catch (RuntimeException e) {
        close(); // the modules obtained before the failure
        throw e;
      }
    }

    @Override
    public void close() {
      for (Outcome o : outcomes) {
        if (o instanceof Outcome.Loaded l) l.handle().close();
      }
    }
  }

  /** One address without its stack: merged functions are listed, not chosen. */
  private Symbolized lookup(Target t, Outcome o, long address, AddressMode mode) {
    return switch (locate(t, o, address, mode, false)) {
      case StackResolver.Located l -> resolver.resolve(new StackResolver.Place[] {l})[0];
      case StackResolver.Answered a -> a.answer();
    };
  }

  /**
   * The functions at {@code address}, or the answer that says why there are none. A {@code
   * returnAddress} is looked up one byte before, inside its call instruction, with its call sites
   * taken at the address itself.
   */
  private StackResolver.Place locate(Target t, Outcome o, long address, AddressMode mode, boolean returnAddress) {
    return locate(t, o, address, mode, returnAddress, true);
  }

  /**
   * As {@link #locate(Target, Outcome, long, AddressMode, boolean)}; a malformed record in a store
   * entry has the entry replaced ({@link ModuleLoader#replaceCorrupt}) and, if {@code recover},
   * the address looked up again in the replacement.
   */
  private StackResolver.Place locate(Target t, Outcome o, long address, AddressMode mode, boolean returnAddress,
      boolean recover) {
    ModuleRef ref = t.ref();
    return switch (o) {
      case Outcome.Missed m -> new StackResolver.Answered(m.reason() == Miss.UNREADABLE
          ? new Symbolized.ModuleUnreadable(ref, address, m.message())
          : new Symbolized.ModuleNotFound(ref, address, m.message(), m.reason() == Miss.UNAVAILABLE));
      case Outcome.Loaded l -> {
        GsymCoreAdapter m = l.handle().module();
        long base = m.baseAddress();
        long fileAddress = address;
        if (mode == AddressMode.RELATIVE) {
          fileAddress = address + base;
          if (Long.compareUnsigned(fileAddress, address) < 0) {
            yield new StackResolver.Answered(new Symbolized.AddressNotCovered(ref, address, fileAddress, "address 0x"
                + Long.toHexString(address) + " plus the module base 0x" + Long.toHexString(base) + " wraps past 2^64"));
          }
        }
        lookups.increment();
        // a return address of 0 has no call before it: looked up as given
        long at = returnAddress && fileAddress != 0 ? fileAddress - 1 : fileAddress;
        try {
          yield new StackResolver.Located(ref, address, fileAddress, base, l.handle().entry.key,
              m.candidates(at, fileAddress), l.handle().entry.origin);
        } catch (GsymCoreAdapter.NotCovered e) {
          String why = at == fileAddress ? e.getMessage()
              : "return address 0x" + Long.toHexString(fileAddress) + " (looked up at its call, 0x"
                  + Long.toHexString(at) + "): " + e.getMessage();
          yield new StackResolver.Answered(new Symbolized.AddressNotCovered(ref, address, fileAddress, why));
        } catch (GsymFormatException e) {
          yield corrupt(t, l, address, mode, returnAddress, recover, e);
        }
      }
    };
  }

  /**
   * The answer for an address whose record in the module {@code l} is malformed: corruption,
   * {@link Symbolized.ModuleUnreadable} naming the file and the offset, unless the module was a
   * store entry that could be converted again, in which case the replacement answers.
   */
  private StackResolver.Place corrupt(Target t, Outcome.Loaded l, long address, AddressMode mode, boolean returnAddress,
      boolean recover, GsymFormatException e) {
    if (!recover) return new StackResolver.Answered(new Symbolized.ModuleUnreadable(t.ref(), address, e.getMessage()));
    Outcome again;
    try {
      again = loader.replaceCorrupt(t, l.handle(), e);
    } catch (InterruptedException x) {
      Thread.currentThread().interrupt();
      again = new Outcome.Missed(Miss.UNAVAILABLE, t.ref() + ": interrupted");
    }
    String message = e.getMessage();
    switch (again) {
      case null -> { }
      case Outcome.Loaded fresh -> {
        try {
          return locate(t, fresh, address, mode, returnAddress, false);
        } finally {
          fresh.handle().close();
        }
      }
      case Outcome.Missed m -> message += "; removed from the store; converting it again: " + m.message();
    }
    return new StackResolver.Answered(new Symbolized.ModuleUnreadable(t.ref(), address, message));
  }

  /**
   * Runs {@code task(0..n-1)} on the executor and the calling thread: the caller takes items too,
   * so a saturated (or shared) executor slows a batch down but cannot deadlock it.
   */
  private void parallel(int n, IntConsumer task) {
    if (n == 0) return;
    AtomicInteger next = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(n);
    RuntimeException[] failure = new RuntimeException[1];
    Runnable worker = () -> {
      for (int i; (i = next.getAndIncrement()) < n; ) {
        try {
          task.accept(i);
        } catch (RuntimeException e) {
          synchronized (failure) {
            if (failure[0] == null) failure[0] = e;
          }
        } finally {
          done.countDown();
        }
      }
    };
    int helpers = executor == null ? 0 : Math.min(n, parallelism) - 1;
    for (int h = 0; h < helpers; h++) {
      try {
        executor.execute(worker);
      } catch (RejectedExecutionException e) {
        break; // the caller does the rest
      }
    }
    worker.run();
    try {
      done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while symbolizing", e);
    }
    if (failure[0] != null) throw failure[0];
  }

  /** Configures a {@link Symbolizer}. */
  public static final class Builder {
    private Path store;
    private long maxStoreSize = Long.MAX_VALUE;
    private final List<Source> sources = new ArrayList<>();
    private AddressMode addressMode = AddressMode.ABSOLUTE;
    private int maxOpenModules = 256;
    private int threads = Runtime.getRuntime().availableProcessors();
    private ExecutorService executor;
    private Duration transientFailureTtl = Duration.ofSeconds(30);
    private Duration storeLockTimeout = Duration.ofMinutes(10);
    private int maxConcurrentConversions = 2;
    private boolean mergedFunctions;
    private List<String> conversionJvmOptions;
    private Demangler demangler = Demangler.llvm();
    private boolean unwind;

    private Builder() {}

    /**
     * Converts modules with their call frame information attached as unwind information (InfoType
     * UnwindInfo, docs/unwind.md), as a stack walker needs ({@link Symbolizer#openModule}): an ELF
     * file's CFI tables (a debug file found for a binary given by path takes them from that binary,
     * debug files keeping no {@code .eh_frame}), a Breakpad symbol file's STACK records; an ELF
     * file with neither DWARF nor {@code .symtab} is named from its {@code .dynsym} as Breakpad
     * names it ({@code DwarfConverter.Options#dynamicSymbols}). Default false. Such GSYMs are
     * kept in the store's {@code unwind} subdirectory, and converted in this process even with
     * {@link #conversionProcess}.
     */
    public Builder unwind(boolean on) {
      this.unwind = on;
      return this;
    }

    /**
     * The GSYM store directory (created if missing), shared with other processes and hosts. Without
     * a store, conversions are kept in this process only, in unlinked temporary files.
     */
    public Builder store(Path directory) {
      this.store = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /**
     * The store's size bound in bytes of GSYM files (default: none). When a conversion makes it
     * larger, the least recently used modules are removed (see docs/symbolize.md, "Eviction").
     */
    public Builder maxStoreSize(long bytes) {
      if (bytes <= 0) throw new IllegalArgumentException("maxStoreSize must be positive");
      this.maxStoreSize = bytes;
      return this;
    }

    /** Adds a source, asked after those added before it. */
    public Builder addSource(Source source) {
      sources.add(Objects.requireNonNull(source, "source"));
      return this;
    }

    /** Replaces the sources by {@code list}, in order. */
    public Builder sources(List<Source> list) {
      sources.clear();
      list.forEach(this::addSource);
      return this;
    }

    /** How addresses are read (default {@link AddressMode#ABSOLUTE}). */
    public Builder addressMode(AddressMode mode) {
      this.addressMode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** Modules kept open (memory-mapped) at once (default 256); least recently used ones are closed. */
    public Builder maxOpenModules(int n) {
      if (n < 1) throw new IllegalArgumentException("maxOpenModules must be at least 1");
      this.maxOpenModules = n;
      return this;
    }

    /**
     * Threads a batch uses, the calling thread included (default: the number of processors); 1 runs
     * batches on the calling thread only.
     */
    public Builder threads(int n) {
      if (n < 1) throw new IllegalArgumentException("threads must be at least 1");
      this.threads = n;
      return this;
    }

    /**
     * Runs batch work on {@code executor} (not shut down by {@link Symbolizer#close()}), with up to
     * {@link #threads(int)} - 1 tasks per batch next to the calling thread.
     */
    public Builder executor(ExecutorService executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * How long a source that could not be asked (connection refused, timeout, truncated transfer,
     * 5xx) is left alone for a module (default 30 s; in memory only).
     */
    public Builder transientFailureTtl(Duration ttl) {
      if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("ttl must be positive");
      this.transientFailureTtl = ttl;
      return this;
    }

    /** The longest wait for another process's search or conversion of a module (default 10 min). */
    public Builder storeLockTimeout(Duration timeout) {
      if (timeout.isNegative()) throw new IllegalArgumentException("negative timeout");
      this.storeLockTimeout = timeout;
      return this;
    }

    /** Conversions run at once in this process (default 2; each uses every core). */
    public Builder maxConcurrentConversions(int n) {
      if (n < 1) throw new IllegalArgumentException("maxConcurrentConversions must be at least 1");
      this.maxConcurrentConversions = n;
      return this;
    }

    /**
     * Converts DWARF as {@code llvm-gsymutil --merged-functions --dwarf-callsites} does, so that
     * {@link #symbolizeStacks} can choose among identical-code-folded functions by their callers'
     * call sites (default false: llvm-gsymutil's plain conversion). Such GSYMs are kept in the
     * store's {@code merged} subdirectory, apart from plain ones.
     */
    public Builder mergedFunctions(boolean on) {
      this.mergedFunctions = on;
      return this;
    }

    /**
     * Runs each conversion into the store in a child JVM (this JVM's {@code java}, class or module
     * path) started with {@code jvmOptions}, instead of in this process: a conversion can have
     * other JIT and heap settings than a long-running server, and its memory (up to about the size
     * of the debug file's DWARF) never becomes this process's heap. Same bytes, same errors.
     * Conversions kept out of the store (symbol tables only, no store) run in this process.
     */
    public Builder conversionProcess(List<String> jvmOptions) {
      this.conversionJvmOptions = List.copyOf(jvmOptions);
      return this;
    }

    /**
     * Whether frames name functions demangled (default true: as llvm-symbolizer and blazesym show
     * them, C++, Rust and D names through {@link Demangler#llvm()}) or as the module stores them.
     * {@link Frame#rawName()} has the module's name either way; {@link Merged}'s names are always
     * the module's (call sites match those).
     */
    public Builder demangle(boolean on) {
      this.demangler = on ? Demangler.llvm() : null;
      return this;
    }

    /** Demangles frames' function names with {@code demangler} (e.g. {@link Demangler#gnu()}'s). */
    public Builder demangle(Demangler demangler) {
      this.demangler = Objects.requireNonNull(demangler, "demangler");
      return this;
    }

    /**
     * The symbolizer.
     *
     * @throws IllegalArgumentException if the store directory cannot be created, or two sources
     *     have the same identity
     */
    public Symbolizer build() {
      if (store != null) GsymStore.createRoot(store);
      List<String> ids = new ArrayList<>();
      for (Source s : sources) {
        if (ids.contains(s.id())) throw new IllegalArgumentException("source added twice: " + s.id());
        ids.add(s.id());
      }
      return new Symbolizer(this);
    }
  }
}
