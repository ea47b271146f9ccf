package dev.gsym.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The Hadoop file system side of the jobs: the configuration shipped to executors, file systems
 * without checksum side files, copies to and from local disk and atomic publication.
 */
final class HadoopFiles {
  private HadoopFiles() {}

  /** The driver's Hadoop configuration as bytes (Configuration is Writable, not Serializable). */
  static byte[] serialize(Configuration conf) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      conf.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static Configuration deserialize(byte[] bytes) {
    Configuration conf = new Configuration(false);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      conf.readFields(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return conf;
  }

  /**
   * The file system of {@code p}; for {@code file:} the raw one, so that no {@code .crc} side files
   * appear in the store (the checksumming LocalFileSystem writes one beside every file).
   */
  static FileSystem fileSystem(Path p, Configuration conf) throws IOException {
    FileSystem fs = p.getFileSystem(conf);
    return fs instanceof ChecksumFileSystem c ? c.getRawFileSystem() : fs;
  }

  /** The local file behind {@code p} if it is on the local file system, else null. */
  static java.nio.file.Path localPath(Path p, FileSystem fs) {
    URI u = fs.makeQualified(p).toUri();
    return "file".equals(u.getScheme()) ? java.nio.file.Path.of(u) : null;
  }

  /** Length of {@code p}, or -1 if it does not exist. */
  static long length(FileSystem fs, Path p) throws IOException {
    try {
      FileStatus s = fs.getFileStatus(p);
      return s.isFile() ? s.getLen() : -1;
    } catch (FileNotFoundException e) {
      return -1;
    }
  }

  /** Copies {@code src} to the local file {@code dst} (replaced). */
  static void download(FileSystem fs, Path src, java.nio.file.Path dst) throws IOException {
    try (var in = fs.open(src)) {
      Files.copy(in, dst, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** What {@link #publish} did. */
  enum Published { PUBLISHED, ALREADY_THERE }

  /**
   * Publishes the local file {@code src} as {@code target}: written to a temporary name in the
   * target's directory ({@code .gsym-<name>-<random>.tmp}, never read by symbolizers), then renamed
   * into place, so readers see the whole file or none. Without {@code replace}, a target that
   * another task published meanwhile is kept (same module, same bytes) and the copy dropped.
   */
  static Published publish(FileSystem fs, java.nio.file.Path src, Path target, boolean replace) throws IOException {
    if (!replace && length(fs, target) >= 0) return Published.ALREADY_THERE;
    Path dir = target.getParent();
    fs.mkdirs(dir);
    Path temp = new Path(dir, ".gsym-" + target.getName().replaceFirst("\\.gsym$", "") + "-"
        + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + ".tmp");
    try {
      try (FSDataOutputStream out = fs.create(temp, false)) {
        copy(src, out);
        out.hsync();
      }
      if (fs.rename(temp, target)) return Published.PUBLISHED;
      // rename does not replace an existing file on HDFS and object stores
      if (length(fs, target) < 0) throw new IOException("cannot rename " + temp + " to " + target);
      if (!replace) return Published.ALREADY_THERE;
      fs.delete(target, false);
      if (fs.rename(temp, target)) return Published.PUBLISHED;
      throw new IOException("cannot rename " + temp + " to " + target);
    } finally {
      try {
        fs.delete(temp, false);
      } catch (IOException e) {
        // a leftover temporary file is never read; the store's eviction removes old ones
      }
    }
  }

  private static void copy(java.nio.file.Path src, OutputStream out) throws IOException {
    Files.copy(src, out);
  }
}
