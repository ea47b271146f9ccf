package dev.gsym.spark;

import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.stackwalk.BreakpadSymbolDirectories;
import dev.gsym.stackwalk.CodeModule;
import dev.gsym.stackwalk.ModuleSymbols;
import dev.gsym.stackwalk.SourceInfo;
import dev.gsym.stackwalk.SymbolSource;
import dev.gsym.stackwalk.SystemDescription;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.StoreConversion;
import dev.gsym.unwind.UnwindState;
import dev.gsym.unwind.WindowsFrameInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One executor's symbols for the stack walker ({@link StackwalkOptions}): modules of a GSYM store,
 * copied to the executor-local cache (unless the store is local) and mapped once for all tasks of
 * the executor; then Breakpad symbol directories, each {@code .sym} file copied to the cache (unless
 * local) and converted once, with its STACK records as unwind information, by {@link
 * BreakpadSymbolDirectories} into the cache (where the executors of a host find it converted).
 *
 * <p>Held per executor JVM, keyed by configuration, as {@link ExecutorModules} is; thread-safe.
 */
final class ExecutorSymbols implements SymbolSource {
  /** The identity of a configuration. */
  record Key(String store, List<String> breakpadSymbols, String cacheDir) implements java.io.Serializable {
    Key {
      breakpadSymbols = List.copyOf(breakpadSymbols);
    }
  }

  private static final ConcurrentHashMap<Key, ExecutorSymbols> INSTANCES = new ConcurrentHashMap<>();
  /** The store subdirectory of modules converted from Breakpad symbol files. */
  private static final String BREAKPAD_PREFIX = "breakpad/";
  /**
   * The store subdirectory of modules converted with their unwind information, laid out as the
   * store (docs/symbolize.md, "Store layout": {@code Symbolizer.Builder.unwind(true)}, as {@code
   * gsymutil stackwalk --store} converts).
   */
  private static final String UNWIND_PREFIX = "unwind/";

  private final java.nio.file.Path cache;
  private final FileSystem storeFs;
  private final Path storeRoot;
  private final java.nio.file.Path localStore;
  /** store path -> the module's symbols, or empty when the store lacks it or it cannot be read. */
  private final ConcurrentHashMap<String, Optional<ModuleSymbols>> storeModules = new ConcurrentHashMap<>();
  private final List<SymbolRoot> roots = new ArrayList<>();
  private final BreakpadSymbolDirectories breakpad;
  /** "root index / NAME/ID/NAME.sym" -> whether that root has it (copied to its mirror when not local). */
  private final ConcurrentHashMap<String, Boolean> mirrored = new ConcurrentHashMap<>();

  /** A Breakpad symbol directory and the local directory the walker reads it from (itself, or a mirror). */
  private record SymbolRoot(FileSystem fs, Path root, java.nio.file.Path local, boolean isLocal) {}

  private ExecutorSymbols(Key k, Configuration conf) throws IOException {
    this.cache = java.nio.file.Path.of(k.cacheDir() != null ? k.cacheDir()
        : System.getProperty("java.io.tmpdir") + "/gsym-spark-cache");
    Files.createDirectories(cache);
    if (k.store() != null) {
      storeRoot = new Path(k.store());
      storeFs = HadoopFiles.fileSystem(storeRoot, conf);
      localStore = HadoopFiles.localPath(storeRoot, storeFs);
    } else {
      storeRoot = null;
      storeFs = null;
      localStore = null;
    }
    List<java.nio.file.Path> locals = new ArrayList<>();
    for (String r : k.breakpadSymbols()) {
      Path root = new Path(r);
      FileSystem fs = HadoopFiles.fileSystem(root, conf);
      java.nio.file.Path local = HadoopFiles.localPath(root, fs);
      boolean isLocal = local != null;
      if (!isLocal) local = cache.resolve("breakpad-mirror").resolve(digest(fs.makeQualified(root).toString()));
      roots.add(new SymbolRoot(fs, root, local, isLocal));
      locals.add(local);
    }
    breakpad = locals.isEmpty() ? null : new BreakpadSymbolDirectories(locals, cache.resolve("breakpad-gsym"));
  }

  static ExecutorSymbols get(Key k, byte[] hadoopConf) {
    return INSTANCES.computeIfAbsent(k, key -> {
      try {
        return new ExecutorSymbols(key, HadoopFiles.deserialize(hadoopConf));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot set up the symbols of " + key, e);
      }
    });
  }

  /** How many {@code .sym} files this executor converted (not found converted in its cache). */
  int conversions() {
    return breakpad == null ? 0 : breakpad.conversions();
  }

  @Override
  public ModuleSymbols find(CodeModule module, SystemDescription system) {
    if (storeRoot != null) {
      for (String rel : storePaths(module, system)) {
        ModuleSymbols s = storeModules.computeIfAbsent(rel, this::openFromStore).orElse(null);
        if (s != null) return s;
      }
    }
    if (breakpad == null) return null;
    mirror(module);
    return breakpad.find(module, system);
  }

  /**
   * Where the store may keep {@code module}: by its Breakpad identity, then (Linux, Android) by its
   * build-id; first in the store's {@code unwind/} part (with CFI), then in the store itself.
   */
  static List<String> storePaths(CodeModule module, SystemDescription system) {
    List<String> keys = keys(module, system);
    List<String> out = new ArrayList<>(2 * keys.size());
    for (String k : keys) out.add(UNWIND_PREFIX + k);
    out.addAll(keys);
    return out;
  }

  private static List<String> keys(CodeModule module, SystemDescription system) {
    List<String> out = new ArrayList<>(2);
    String debugFile = CodeModule.fileName(module.debugFile());
    if (!debugFile.isEmpty() && !module.debugIdentifier().isEmpty()) {
      try {
        out.add(StoreConversion.storePath(ModuleRef.breakpad(debugFile, module.debugIdentifier())));
      } catch (IllegalArgumentException e) {
        // a name or identifier no store file can have
      }
    }
    String id = module.codeIdentifier();
    if ((system.osShort().equals("linux") || system.osShort().equals("android")) && id.length() >= 2
        && id.length() % 2 == 0 && id.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      try {
        out.add(StoreConversion.storePath(ModuleRef.buildId(id)));
      } catch (IllegalArgumentException e) {
        // not a build-id the store keys by
      }
    }
    return out;
  }

  private Optional<ModuleSymbols> openFromStore(String rel) {
    try {
      java.nio.file.Path local = localStore != null ? localStore.resolve(rel) : copyFromStore(rel);
      if (local == null || !Files.isRegularFile(local)) return Optional.empty();
      GsymReader reader = GsymReader.open(local);
      ModuleSymbols s = ModuleSymbols.of(reader);
      // the walker asks by offset from the module's base: a Breakpad file's addresses are those
      // offsets already (whatever BaseAddress its producer wrote); a debug file's are the module's
      // own, and its store file carries the module's base as BaseAddress (docs/symbolize.md, "Relocation")
      String key = rel.startsWith(UNWIND_PREFIX) ? rel.substring(UNWIND_PREFIX.length()) : rel;
      long base = key.startsWith(BREAKPAD_PREFIX) ? 0 : reader.header().baseAddress();
      return Optional.of(base == 0 ? s : new Relocated(s, base));
    } catch (IOException | GsymFormatException | UncheckedIOException e) {
      return Optional.empty(); // unreadable: as if the store lacked it (the Breakpad directories are tried)
    }
  }

  /** The local copy of store file {@code rel} (copied once), or null when the store lacks it. */
  private java.nio.file.Path copyFromStore(String rel) throws IOException {
    java.nio.file.Path local = cache.resolve("store").resolve(digest(storeFs.makeQualified(storeRoot).toString())).resolve(rel);
    if (Files.isRegularFile(local)) return local;
    Path remote = new Path(storeRoot, rel);
    if (HadoopFiles.length(storeFs, remote) < 0) return null;
    download(storeFs, remote, local);
    return local;
  }

  /** Copies {@code module}'s symbol file from the first non-local root that has it (before any local root that has it) to its mirror. */
  private void mirror(CodeModule module) {
    for (int i = 0; i < roots.size(); i++) {
      SymbolRoot r = roots.get(i);
      java.nio.file.Path local = BreakpadSymbolDirectories.symbolPath(r.local(), module);
      if (local == null) return;
      if (r.isLocal()) {
        if (Files.exists(local)) return;
        continue;
      }
      String rel = r.local().relativize(local).toString().replace(java.io.File.separatorChar, '/');
      boolean present = mirrored.computeIfAbsent(i + "/" + rel, x -> {
        try {
          if (Files.isRegularFile(local)) return true;
          Path remote = new Path(r.root(), rel);
          if (HadoopFiles.length(r.fs(), remote) < 0) return false;
          download(r.fs(), remote, local);
          return true;
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + new Path(r.root(), rel), e);
        }
      });
      if (present) return;
    }
  }

  /** Copies {@code remote} to {@code local} through a temporary file renamed into place (executors of a host share the cache). */
  private static void download(FileSystem fs, Path remote, java.nio.file.Path local) throws IOException {
    Files.createDirectories(local.getParent());
    java.nio.file.Path temp = Files.createTempFile(local.getParent(), ".gsym-spark-", ".tmp");
    try {
      HadoopFiles.download(fs, remote, temp);
      Files.move(temp, local, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** A short stable name for a URI (the cache directory of a remote store or symbol directory). */
  private static String digest(String uri) {
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(uri.getBytes(StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(d, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Symbols of a store file made from a debug file, whose addresses are the module's own (its
   * BaseAddress the first PT_LOAD's address): asked by offsets from the base, answering the same.
   */
  private record Relocated(ModuleSymbols symbols, long base) implements ModuleSymbols {
    @Override
    public boolean corrupt() {
      return symbols.corrupt();
    }

    @Override
    public SourceInfo lookup(long offset) {
      SourceInfo i = symbols.lookup(offset + base);
      if (i == null) return null;
      List<SourceInfo.Inlined> inlined = new ArrayList<>(i.inlined().size());
      for (SourceInfo.Inlined in : i.inlined()) inlined.add(new SourceInfo.Inlined(in.function(), in.base() - base, in.file(), in.line()));
      return new SourceInfo(i.function(), i.functionBase() - base, i.file(), i.line(), i.lineBase() - base, i.hasLine(), inlined);
    }

    @Override
    public boolean cfi(long offset, UnwindState state) {
      return symbols.cfi(offset + base, state);
    }

    @Override
    public WindowsFrameInfo windowsFrameInfo(long offset) {
      return symbols.windowsFrameInfo(offset + base);
    }

    @Override
    public long parameterSize(long offset) {
      return symbols.parameterSize(offset + base);
    }
  }
}
