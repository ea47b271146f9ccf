package dev.gsym.spark;

import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.symbolize.StoreConversion;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;

/**
 * The executor side of the conversion job: each input path of a partition becomes one manifest row.
 * Whatever goes wrong with one input (unreadable, malformed, no functions, an I/O error on it) is
 * that row's {@code failed} status; the task itself fails only if the store cannot be reached at
 * all, which Spark then retries.
 */
final class ConvertPartition implements MapPartitionsFunction<String, Row> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<byte[]> hadoopConf;
  private final ConvertOptions options;

  ConvertPartition(Broadcast<byte[]> hadoopConf, ConvertOptions options) {
    this.hadoopConf = hadoopConf;
    this.options = options;
  }

  @Override
  public Iterator<Row> call(Iterator<String> inputs) throws IOException {
    Configuration conf = HadoopFiles.deserialize(hadoopConf.value());
    Path storeRoot = new Path(options.store());
    FileSystem storeFs = HadoopFiles.fileSystem(storeRoot, conf);
    if (options.mergedFunctions()) storeRoot = new Path(storeRoot, StoreConversion.MERGED_SUBDIRECTORY);
    Path root = storeRoot;
    java.nio.file.Path scratch = Files.createTempDirectory("gsym-spark-convert");
    return new Iterator<>() {
      private boolean cleaned;

      @Override
      public boolean hasNext() {
        boolean more = inputs.hasNext();
        if (!more && !cleaned) {
          cleaned = true;
          deleteTree(scratch);
        }
        return more;
      }

      @Override
      public Row next() {
        return convertOne(inputs.next(), conf, storeFs, root, scratch).toRow();
      }
    };
  }

  private ManifestRow convertOne(String input, Configuration conf, FileSystem storeFs, Path storeRoot,
      java.nio.file.Path scratch) {
    long t0 = System.nanoTime();
    Attempt a = new Attempt(input);
    java.nio.file.Path copied = null;
    java.nio.file.Path out = null;
    try {
      Path in = new Path(input);
      FileSystem fs = HadoopFiles.fileSystem(in, conf);
      a.inputBytes = HadoopFiles.length(fs, in);
      if (a.inputBytes < 0) return a.fail(input + ": no such file", t0);
      java.nio.file.Path local = HadoopFiles.localPath(in, fs);
      if (local == null) {
        // converters read files by random access: a copy on local disk, with the split-DWARF
        // package the DWARF converter looks for beside it
        copied = Files.createTempDirectory(scratch, "in");
        local = copied.resolve(in.getName());
        HadoopFiles.download(fs, in, local);
        Path dwp = new Path(in.getParent(), in.getName() + ".dwp");
        if (HadoopFiles.length(fs, dwp) >= 0) HadoopFiles.download(fs, dwp, copied.resolve(dwp.getName()));
      }
      StoreConversion.Module m = StoreConversion.identify(local);
      a.format = m.format().name().toLowerCase(Locale.ROOT);
      a.buildId = m.buildId();
      a.debugFile = m.debugFile();
      a.debugId = m.debugId();
      a.storePath = m.storePath();
      if (m.storePath() == null) {
        return a.skip(switch (m.format()) {
          case ELF -> input + ": no build-id: the store keys ELF modules by build-id";
          case MACH_O -> input + ": no LC_UUID: the store keys Mach-O modules by their UUID";
          case BREAKPAD -> input + ": no usable MODULE record: the store keys Breakpad modules by it";
        }, t0);
      }
      if (!m.hasDebugInfo()) {
        return a.skip(input + ": a symbol table only (no DWARF): not published, so that a debug file found later is used", t0);
      }
      Path target = new Path(storeRoot, m.storePath());
      long existing = HadoopFiles.length(storeFs, target);
      if (existing >= 0 && !options.force()) {
        a.outputBytes = existing;
        return a.done(ManifestRow.EXISTS, t0);
      }
      out = Files.createTempFile(scratch, "out", ".gsym");
      try (FileChannel ch = FileChannel.open(out, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        StoreConversion.convert(local, m.format(), ch, options.mergedFunctions(), options.threadsPerTask());
      }
      try (GsymReader r = GsymReader.open(out)) { // published only once a reader accepts it
        a.functions = r.numFunctions();
      }
      a.outputBytes = Files.size(out);
      HadoopFiles.Published p = HadoopFiles.publish(storeFs, out, target, options.force());
      return a.done(p == HadoopFiles.Published.PUBLISHED ? ManifestRow.CONVERTED : ManifestRow.EXISTS, t0);
    } catch (GsymFormatException e) {
      return a.fail(e.getMessage(), t0);
    } catch (IOException | RuntimeException e) {
      return a.fail(input + ": " + message(e), t0);
    } catch (StackOverflowError | OutOfMemoryError e) {
      // hostile input must cost its row, not the executor
      return a.fail(input + ": " + e, t0);
    } finally {
      if (out != null) deleteTree(out);
      if (copied != null) deleteTree(copied);
    }
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  /** A manifest row being filled in. */
  private static final class Attempt {
    final String input;
    String format;
    String buildId;
    String debugFile;
    String debugId;
    String storePath;
    long inputBytes = -1;
    long outputBytes = -1;
    int functions = -1;

    Attempt(String input) {
      this.input = input;
    }

    ManifestRow done(String status, long t0) {
      return row(status, null, t0);
    }

    ManifestRow skip(String why, long t0) {
      return row(ManifestRow.SKIPPED, why, t0);
    }

    ManifestRow fail(String why, long t0) {
      functions = -1;
      outputBytes = -1;
      return row(ManifestRow.FAILED, why, t0);
    }

    private ManifestRow row(String status, String error, long t0) {
      return new ManifestRow(input, format, buildId, debugFile, debugId, storePath, status, error, inputBytes, outputBytes,
          functions, (System.nanoTime() - t0) / 1_000_000);
    }
  }

  static void deleteTree(java.nio.file.Path p) {
    try (var walk = Files.walk(p)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(x -> {
        try {
          Files.deleteIfExists(x);
        } catch (IOException e) {
          // scratch space: the OS's temporary directory cleanup takes what is left
        }
      });
    } catch (IOException e) {
      // already gone
    }
  }
}
