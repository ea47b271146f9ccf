package dev.gsym.spark;

import java.net.URI;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under another scheme ({@code gsymtest:}), so that the jobs treat its files
 * as remote (as on HDFS or S3): read through the Hadoop API and copied to local disk before being
 * mapped. Registered with {@code fs.gsymtest.impl}.
 */
public final class RemoteLikeFileSystem extends RawLocalFileSystem {
  static final String SCHEME = "gsymtest";

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  /** {@code path} (absolute, local) as a URI of this file system. */
  static String uri(java.nio.file.Path path) {
    return SCHEME + "://" + path.toAbsolutePath();
  }
}
