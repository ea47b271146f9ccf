package dev.gsym.symbolize;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Downloads one URL into a file with the JDK's HTTP client, as the debuginfod client does with
 * curl: redirects followed (never from https to http), a connect and response-header timeout, a
 * low-speed limit (less than {@link #LOW_SPEED_BYTES} in any timeout period aborts), an optional
 * limit on the whole transfer, a size cap checked against Content-Length and while bytes arrive,
 * and retries after failures other than an HTTP answer that the file does not exist.
 */
final class HttpFetch implements AutoCloseable {
  /** curl's CURLOPT_LOW_SPEED_LIMIT as the debuginfod client sets it: 100 KiB per timeout. */
  static final long LOW_SPEED_BYTES = 100 * 1024;
  private static final long POLL_MILLIS = 50;

  /** The outcome of a download. */
  sealed interface Result {
    /** The file was written completely. */
    record Ok(long bytes) implements Result {}

    /** The server answered that it does not have the file (404, 410, other 4xx). */
    record NotFound(String message) implements Result {}

    /**
     * The file could not be fetched: no connection, a timeout, a 5xx answer, a truncated transfer
     * ({@code transientFailure}), or it is larger than allowed (not transient).
     */
    record Failed(String message, boolean transientFailure) implements Result {}
  }

  /** Limits for one source's downloads. */
  record Limits(Duration timeout, Duration maxTime, int retries, long maxBytes) {}

  private final HttpClient client;
  private final Limits limits;

  HttpFetch(Limits limits) {
    this.limits = limits;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .followRedirects(HttpClient.Redirect.NORMAL)
        .connectTimeout(limits.timeout())
        .build();
  }

  /**
   * GETs {@code uri} into {@code target} (an existing empty file, overwritten on each attempt),
   * retrying transient failures up to the configured number of times.
   */
  Result get(URI uri, Path target, Map<String, String> headers) throws InterruptedException {
    Result r = null;
    for (int attempt = 0; attempt <= limits.retries(); attempt++) {
      if (attempt > 0) Thread.sleep(Math.min(2000, 100L << (attempt - 1)));
      r = once(uri, target, headers);
      if (!(r instanceof Result.Failed f) || !f.transientFailure()) return r;
    }
    return r;
  }

  private Result once(URI uri, Path target, Map<String, String> headers) throws InterruptedException {
    HttpRequest.Builder rb = HttpRequest.newBuilder(uri).GET().timeout(limits.timeout())
        .header("User-Agent", "gsym-symbolize");
    headers.forEach(rb::header);
    ToFile body;
    try {
      body = new ToFile(FileChannel.open(target, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
          limits.maxBytes());
    } catch (IOException e) {
      return new Result.Failed(target + ": " + Texts.message(e), false);
    }
    try {
      CompletableFuture<HttpResponse<Long>> f = client.sendAsync(rb.build(), info -> body.forResponse(info));
      long start = System.nanoTime();
      long windowStart = start;
      long windowBytes = 0;
      long timeoutNanos = limits.timeout().toNanos();
      while (true) {
        try {
          HttpResponse<Long> resp = f.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
          return finish(uri, resp, body);
        } catch (TimeoutException e) {
          long now = System.nanoTime();
          if (!limits.maxTime().isZero() && now - start > limits.maxTime().toNanos()) {
            body.cancel();
            f.cancel(true);
            return new Result.Failed(uri + ": no complete answer within " + limits.maxTime().toSeconds() + " s", true);
          }
          if (body.started() && now - windowStart >= timeoutNanos) {
            long got = body.bytes() - windowBytes;
            if (got < LOW_SPEED_BYTES) {
              body.cancel();
              f.cancel(true);
              return new Result.Failed(uri + ": transfer too slow (" + got + " bytes in " + limits.timeout().toSeconds()
                  + " s, after " + body.bytes() + " bytes)", true);
            }
            windowStart = now;
            windowBytes = body.bytes();
          }
        } catch (ExecutionException e) {
          return failure(uri, e.getCause(), body);
        } catch (CancellationException e) {
          return new Result.Failed(uri + ": cancelled", true);
        }
      }
    } finally {
      body.closeChannel();
    }
  }

  private static Result finish(URI uri, HttpResponse<Long> resp, ToFile body) {
    int status = resp.statusCode();
    if (body.tooLarge() != null) return new Result.Failed(uri + ": " + body.tooLarge(), false);
    if (status == 200) {
      OptionalLong len = resp.headers().firstValueAsLong("Content-Length");
      if (len.isPresent() && len.getAsLong() != body.bytes()) {
        return new Result.Failed(uri + ": truncated: " + body.bytes() + " of " + len.getAsLong() + " bytes", true);
      }
      return new Result.Ok(body.bytes());
    }
    String what = uri + ": HTTP " + status;
    if (status == 406) return new Result.Failed(what + " (larger than the size limit, the server says)", false);
    if (status == 404 || status == 410) return new Result.NotFound(what);
    if (status >= 300 && status < 400) return new Result.Failed(what + " (too many redirects, or a redirect to http)", false);
    if (status == 408 || status == 429 || status >= 500) return new Result.Failed(what, true);
    return new Result.NotFound(what);
  }

  private static Result failure(URI uri, Throwable t, ToFile body) {
    if (body.tooLarge() != null) return new Result.Failed(uri + ": " + body.tooLarge(), false);
    if (t instanceof HttpTimeoutException) return new Result.Failed(uri + ": timed out: " + Texts.message(t), true);
    if (t instanceof java.net.ConnectException) {
      return new Result.Failed(uri + ": cannot connect: " + Texts.message(t), true);
    }
    if (body.started()) {
      String what = body.expected() >= 0 && body.bytes() < body.expected()
          ? "truncated: " + body.bytes() + " of " + body.expected() + " bytes"
          : "transfer failed after " + body.bytes() + " bytes";
      return new Result.Failed(uri + ": " + what + " (" + Texts.message(t) + ")", true);
    }
    return new Result.Failed(uri + ": " + Texts.message(t), true);
  }

  /** Writes a 200 answer's body to the file, refusing more than the cap; discards other bodies. */
  private static final class ToFile implements HttpResponse.BodySubscriber<Long> {
    private final FileChannel out;
    private final long max;
    private final CompletableFuture<Long> result = new CompletableFuture<>();
    private final AtomicLong bytes = new AtomicLong();
    private volatile Flow.Subscription subscription;
    private volatile boolean cancelled;
    private volatile boolean started;
    private volatile boolean write;
    private volatile String tooLarge;
    private volatile long expected = -1;

    ToFile(FileChannel out, long max) {
      this.out = out;
      this.max = max;
    }

    HttpResponse.BodySubscriber<Long> forResponse(HttpResponse.ResponseInfo info) {
      write = info.statusCode() == 200;
      started = write;
      if (write) {
        OptionalLong len = info.headers().firstValueAsLong("Content-Length");
        if (len.isPresent()) expected = len.getAsLong();
        if (len.isPresent() && len.getAsLong() > max) {
          tooLarge = "Content-Length " + len.getAsLong() + " is over the limit of " + max + " bytes";
          write = false;
        }
      }
      return this;
    }

    long bytes() {
      return bytes.get();
    }

    boolean started() {
      return started;
    }

    String tooLarge() {
      return tooLarge;
    }

    /** The Content-Length of a 200 answer, or -1. */
    long expected() {
      return expected;
    }

    void cancel() {
      cancelled = true;
      Flow.Subscription s = subscription;
      if (s != null) s.cancel();
      result.cancel(false);
    }

    void closeChannel() {
      try {
        out.close();
      } catch (IOException e) {
        // nothing was promised about this file
      }
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      if (cancelled || tooLarge != null) {
        s.cancel();
        result.complete(0L);
      } else if (!write) {
        s.cancel(); // an error page: nothing to read
        result.complete(0L);
      } else {
        s.request(1);
      }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      try {
        for (ByteBuffer b : items) {
          long n = bytes.addAndGet(b.remaining());
          if (n > max) {
            tooLarge = "more than the limit of " + max + " bytes";
            subscription.cancel();
            result.complete(n);
            return;
          }
          while (b.hasRemaining()) out.write(b);
        }
      } catch (IOException e) {
        subscription.cancel();
        result.completeExceptionally(e);
        return;
      }
      subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
      result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      result.complete(bytes.get());
    }

    @Override
    public CompletionStage<Long> getBody() {
      return result;
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
