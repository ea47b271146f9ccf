package dev.gsym.serve;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeoutException;

/**
 * A request body read up to a limit: the read that would pass it fails with {@link TooLarge}, so a
 * client cannot make the server read (or buffer) more than {@code --max-request-bytes}. A body that
 * arrives slower than a minimum rate (after a one-second grace) fails with an IOException caused by
 * a {@link TimeoutException}, as Jetty's own timeouts do: a client dribbling bytes just often enough
 * to escape the idle timeout is cut off.
 */
final class LimitedInputStream extends FilterInputStream {
  /** The body is over the limit. */
  static final class TooLarge extends IOException {
    private final long limit;

    TooLarge(long limit) {
      super("request body over " + limit + " bytes", null);
      this.limit = limit;
    }

    BadRequest badRequest() {
      return tooLarge(limit);
    }
  }

  static BadRequest tooLarge(long limit) {
    return new BadRequest(413, "body_too_large", "the request body is over the limit of " + limit + " bytes");
  }

  /** Time before the rate is checked: a request's first bytes may come in one slow packet. */
  private static final long GRACE_NANOS = 1_000_000_000L;

  private final long limit;
  private final long minBytesPerSecond;
  private final long start = System.nanoTime();
  private long read;

  LimitedInputStream(InputStream in, long limit, long minBytesPerSecond) {
    super(in);
    this.limit = limit;
    this.minBytesPerSecond = minBytesPerSecond;
  }

  private void checkRate() throws IOException {
    if (minBytesPerSecond <= 0) return;
    long elapsed = System.nanoTime() - start;
    if (elapsed > GRACE_NANOS && read * 1e9 / elapsed < minBytesPerSecond) {
      throw new IOException("request body slower than " + minBytesPerSecond + " bytes/s",
          new TimeoutException("read rate is too low"));
    }
  }

  @Override
  public int read() throws IOException {
    if (read >= limit) return checkEnd();
    int b = super.read();
    if (b >= 0) read++;
    checkRate();
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) return 0;
    if (read >= limit) return checkEnd();
    int n = super.read(b, off, (int) Math.min(len, limit - read));
    if (n > 0) read += n;
    checkRate();
    return n;
  }

  /** At the limit: the end of the body is fine, one more byte is not. */
  private int checkEnd() throws IOException {
    if (super.read() < 0) return -1;
    throw new TooLarge(limit);
  }

  @Override
  public long skip(long n) throws IOException {
    byte[] buf = new byte[(int) Math.min(n, 8192)];
    int r = read(buf, 0, buf.length);
    return Math.max(r, 0);
  }
}
