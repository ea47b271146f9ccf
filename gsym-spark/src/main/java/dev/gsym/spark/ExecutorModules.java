package dev.gsym.spark;

import dev.gsym.symbolize.AddressMode;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.StoreConversion;
import dev.gsym.symbolize.Symbolizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One executor's view of a GSYM store: a {@link Symbolizer} over an executor-local copy of the
 * store files its tasks need (same layout), each copied once from the store through the Hadoop
 * file system API, then memory-mapped by the symbolizer once for all tasks of the executor.
 *
 * <p>Held per executor JVM, keyed by configuration: Spark runs many tasks (threads) in one executor,
 * possibly of several jobs, and the point is that they share the mapped modules; a per-task
 * symbolizer would map each module once per task.
 */
final class ExecutorModules {
  /** The identity of a configuration: same store, cache, address mode and bound, same instance. */
  record Key(String store, String cacheDir, AddressMode addressMode, int maxOpenModules) implements java.io.Serializable {}

  private static final ConcurrentHashMap<Key, ExecutorModules> INSTANCES = new ConcurrentHashMap<>();

  private final Symbolizer symbolizer;
  private final java.nio.file.Path cache;
  private final FileSystem storeFs;
  private final Path storeRoot;
  /** build-id → whether the store has it; looked up once per executor and job configuration. */
  private final ConcurrentHashMap<String, Boolean> present = new ConcurrentHashMap<>();

  private ExecutorModules(Key k, byte[] hadoopConf) throws IOException {
    this.storeRoot = new Path(k.store());
    this.storeFs = HadoopFiles.fileSystem(storeRoot, HadoopFiles.deserialize(hadoopConf));
    this.cache = java.nio.file.Path.of(k.cacheDir() != null ? k.cacheDir()
        : System.getProperty("java.io.tmpdir") + "/gsym-spark-cache");
    Files.createDirectories(cache);
    // no sources: every module comes from the store; one thread: the task's own
    this.symbolizer = Symbolizer.builder().store(cache).threads(1).demangle(false).addressMode(k.addressMode())
        .maxOpenModules(k.maxOpenModules()).build();
  }

  static ExecutorModules get(Key k, byte[] hadoopConf) {
    return INSTANCES.computeIfAbsent(k, key -> {
      try {
        return new ExecutorModules(key, hadoopConf);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot set up the GSYM cache for " + key.store(), e);
      }
    });
  }

  Symbolizer symbolizer() {
    return symbolizer;
  }

  /**
   * True if module {@code ref} is in the local cache, copying it from the store first if needed;
   * false if the store does not have it.
   *
   * @throws UncheckedIOException if the store cannot be read (the task fails and Spark retries it)
   */
  boolean fetch(ModuleRef.BuildId ref) {
    Boolean known = present.get(ref.hex());
    if (known != null) return known;
    return present.computeIfAbsent(ref.hex(), hex -> {
      try {
        return copy(StoreConversion.storePath(ref));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + new Path(storeRoot, StoreConversion.storePath(ref)), e);
      }
    });
  }

  private boolean copy(String rel) throws IOException {
    java.nio.file.Path local = cache.resolve(rel);
    if (Files.isRegularFile(local)) return true;
    Path remote = new Path(storeRoot, rel);
    if (HadoopFiles.length(storeFs, remote) < 0) return false;
    Files.createDirectories(local.getParent());
    // the symbolizer's store rules: never read a temporary file; a file appears whole by a rename
    java.nio.file.Path temp = Files.createTempFile(local.getParent(), ".gsym-spark-", ".tmp");
    try {
      HadoopFiles.download(storeFs, remote, temp);
      Files.move(temp, local, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
    return true;
  }
}
