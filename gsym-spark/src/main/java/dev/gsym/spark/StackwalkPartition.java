package dev.gsym.spark;

import dev.gsym.GsymFormatException;
import dev.gsym.minidump.Minidump;
import dev.gsym.stackwalk.ProcessState;
import dev.gsym.stackwalk.Stackwalker;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.util.LongAccumulator;

/**
 * The executor side of the stack walking job: dump paths in, one {@link StackwalkColumns} row per
 * dump out, each walked on the task's thread with the executor's {@link ExecutorSymbols}. A dump
 * that cannot be read or walked (missing, truncated, not a minidump, no thread list; an error
 * nothing foresaw) is that row's {@code failed} status and error, never a failed task.
 */
final class StackwalkPartition implements MapPartitionsFunction<String, Row> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<byte[]> hadoopConf;
  private final ExecutorSymbols.Key key;
  private final LongAccumulator walked;
  private final LongAccumulator failed;

  StackwalkPartition(Broadcast<byte[]> hadoopConf, ExecutorSymbols.Key key, LongAccumulator walked, LongAccumulator failed) {
    this.hadoopConf = hadoopConf;
    this.key = key;
    this.walked = walked;
    this.failed = failed;
  }

  @Override
  public Iterator<Row> call(Iterator<String> paths) {
    byte[] confBytes = hadoopConf.value();
    ExecutorSymbols symbols = ExecutorSymbols.get(key, confBytes);
    Configuration conf = HadoopFiles.deserialize(confBytes);
    Stackwalker walker = Stackwalker.builder().symbols(symbols).build();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return paths.hasNext();
      }

      @Override
      public Row next() {
        Row r = walk(paths.next(), conf, walker);
        if (StackwalkColumns.OK.equals(r.getString(1))) walked.add(1);
        else failed.add(1);
        return r;
      }
    };
  }

  /** The row of the dump at {@code input} (a path or URI). */
  static Row walk(String input, Configuration conf, Stackwalker walker) {
    long t0 = System.nanoTime();
    java.nio.file.Path local = null;
    java.nio.file.Path temp = null;
    try {
      Path p = new Path(input);
      FileSystem fs = HadoopFiles.fileSystem(p, conf);
      local = HadoopFiles.localPath(p, fs);
      if (local == null) {
        // mapped by the reader: a dump on another file system is copied to local scratch first
        temp = Files.createTempFile("gsym-spark-dump-", ".dmp");
        HadoopFiles.download(fs, p, temp);
        local = temp;
      }
      try (Minidump d = Minidump.open(local)) {
        ProcessState s = walker.walk(d);
        return StackwalkColumns.ok(input, s, millis(t0));
      }
    } catch (GsymFormatException e) {
      return StackwalkColumns.failed(input, named(e.getMessage(), local, input), millis(t0));
    } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
      return StackwalkColumns.failed(input, input + ": no such file", millis(t0));
    } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
      String m = e.getMessage() == null ? e.toString() : e.getMessage();
      return StackwalkColumns.failed(input, named(input + ": " + m, local, input), millis(t0));
    } finally {
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException e) {
          // scratch space: the executor's temporary directory is removed with it
        }
      }
    }
  }

  /** {@code message} naming the dump as the input listed it, not as its local copy. */
  private static String named(String message, java.nio.file.Path local, String input) {
    if (message == null) return input;
    return local == null || local.toString().equals(input) ? message : message.replace(local.toString(), input);
  }

  private static long millis(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }
}
