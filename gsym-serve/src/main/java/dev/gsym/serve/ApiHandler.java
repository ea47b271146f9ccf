package dev.gsym.serve;

import dev.gsym.GsymFormatException;
import dev.gsym.profile.PprofProfile;
import dev.gsym.profile.ProfileSymbolizer;
import dev.gsym.symbolize.AddressMode;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's endpoints on Jetty's core API (no servlets). Handlers block (reading the body,
 * symbolizing): Jetty runs them on virtual threads, so a slow client costs a parked virtual thread,
 * not a worker. Every answer is JSON or Prometheus text; failures are logged here and answered with
 * a kind and a message, never a stack trace.
 */
final class ApiHandler extends Handler.Abstract {
  static final Logger ACCESS = LoggerFactory.getLogger("dev.gsym.serve.access");
  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

  private final Symbolizer symbolizer;
  private final ServeMetrics metrics;
  /** {@link #ACCESS}, or a silent logger for a server that is not the user's (the warm-up's). */
  private final Logger access;
  private final RequestParser parser;
  private final ResponseWriter writer = new ResponseWriter();
  private final long maxRequestBytes;
  private final ProfileSymbolizer profiles;
  private final long maxProfileBytes;
  private final long minRequestDataRate;
  private final MinidumpEndpoint minidump;
  /**
   * Requests in their CPU part (symbolizing, writing the answer) at a time, taken in arrival order.
   * Request threads are virtual: without a bound, hundreds of them are runnable at once on the
   * few carrier threads, whose scheduler lets some wait for seconds; waiting here they are parked,
   * and the fair permit serves them first come, first served.
   */
  private final java.util.concurrent.Semaphore cpu =
      new java.util.concurrent.Semaphore(2 * Runtime.getRuntime().availableProcessors(), true);
  /** Answers of requests up to this many frames are made in memory inside the permit, then sent. */
  private static final int BUFFERED_FRAMES = 16_384;

  ApiHandler(Symbolizer symbolizer, ServeMetrics metrics, long maxRequestBytes, long minRequestDataRate, int maxFrames,
      int maxModules, MinidumpEndpoint minidump, Logger access, List<java.nio.file.Path> profileDebugDirectories,
      ProfileSymbolizer.SymbolTableNames profileNames, long maxProfileBytes) {
    this.minidump = minidump;
    this.symbolizer = symbolizer;
    this.profiles = ProfileSymbolizer.builder(symbolizer).debugDirectories(profileDebugDirectories)
        .symbolTableNames(profileNames).build();
    this.maxProfileBytes = maxProfileBytes;
    this.access = access;
    this.metrics = metrics;
    this.maxRequestBytes = maxRequestBytes;
    this.minRequestDataRate = minRequestDataRate;
    this.parser = new RequestParser(maxFrames, maxModules);
  }

  /** What one exchange did, for the access log and the metrics. */
  private static final class Exchange {
    final long start = System.nanoTime();
    String endpoint = "other";
    int status = 200;
    int frames;
    String error;
    long bytes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Exchange x = new Exchange();
    String path = Request.getPathInContext(request);
    String method = request.getMethod();
    metrics.started();
    try {
      switch (path) {
        case "/symbolicate" -> {
          x.endpoint = "symbolicate";
          if (allowed(method, "POST", response, callback, x)) symbolicate(request, response, callback, x);
        }
        case "/minidump" -> {
          x.endpoint = "minidump";
          if (allowed(method, "POST", response, callback, x)) minidump(request, response, callback, x);
        }
        case "/symbolicate/pprof" -> {
          x.endpoint = "symbolicate_pprof";
          if (allowed(method, "POST", response, callback, x)) symbolicatePprof(request, response, callback, x);
        }
        case "/healthz" -> {
          x.endpoint = "healthz";
          if (allowed(method, "GET", response, callback, x)) {
            send(response, callback, x, 200, ResponseWriter.JSON, "{\"status\":\"ok\"}\n".getBytes(StandardCharsets.UTF_8));
          }
        }
        case "/metrics" -> {
          x.endpoint = "metrics";
          if (allowed(method, "GET", response, callback, x)) metrics(response, callback, x);
        }
        default -> error(response, callback, x, new BadRequest(404, "not_found",
            "no such endpoint (POST /symbolicate, POST /symbolicate/pprof, POST /minidump, GET /healthz, GET /metrics)"));
      }
    } catch (IOException | RuntimeException e) {
      if (timedOut(e) && !response.isCommitted()) {
        // idle timeout or minimum data rate while reading the body: 408, and the connection closes
        try {
          error(response, callback, x, new BadRequest(408, "timeout",
              "the request body stopped or arrived too slowly (idle timeout or minimum data rate)"));
          return true;
        } catch (RuntimeException | IOException again) {
          // fall through: drop the connection
        }
      }
      // the client went away, or a bug: the connection is dropped
      x.status = 500;
      x.error = e instanceof RuntimeException ? "internal" : timedOut(e) ? "timeout" : "io";
      metrics.error(x.error);
      if (e instanceof RuntimeException) LOG.error("{} {}: internal error", method, path, e);
      else LOG.debug("{} {}: {}", method, path, e.toString());
      callback.failed(e);
    } finally {
      metrics.ended();
      long nanos = System.nanoTime() - x.start;
      metrics.request(x.endpoint, x.status, nanos);
      if (access.isInfoEnabled()) {
        access.info("method={} path={} status={} bytes={} frames={} latency_ms={}{}", method, quote(path), x.status,
            x.bytes, x.frames, String.format(java.util.Locale.ROOT, "%.3f", nanos / 1e6),
            x.error == null ? "" : " error=" + x.error);
      }
    }
    return true;
  }

  /** A read that ended by the idle timeout or the minimum data rate (Jetty reports a TimeoutException). */
  private static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.util.concurrent.TimeoutException) return true;
    }
    return false;
  }

  private boolean allowed(String method, String wanted, Response response, Callback callback, Exchange x)
      throws IOException {
    if (method.equals(wanted)) return true;
    response.getHeaders().put(HttpHeader.ALLOW, wanted);
    error(response, callback, x, new BadRequest(405, "method_not_allowed", "use " + wanted));
    return false;
  }

  private void symbolicate(Request request, Response response, Callback callback, Exchange x) throws IOException {
    SymbolicateRequest req;
    try {
      long length = request.getLength();
      if (length > maxRequestBytes) throw LimitedInputStream.tooLarge(maxRequestBytes);
      InputStream in = new LimitedInputStream(Content.Source.asInputStream(request), maxRequestBytes,
          minRequestDataRate);
      req = parser.parse(in);
    } catch (BadRequest e) {
      error(response, callback, x, e);
      return;
    }
    x.frames = req.frames();
    List<Symbolized> results;
    byte[] answer = null;
    try {
      cpu.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for a turn");
    }
    try {
      results = symbolize(req);
      if (req.frames() <= BUFFERED_FRAMES) {
        // made inside the permit, sent outside it: a client slow to read holds no permit
        var buf = new java.io.ByteArrayOutputStream(Math.max(256, req.frames() * 1024));
        writer.symbolicated(buf, req, results);
        answer = buf.toByteArray();
      }
    } finally {
      cpu.release();
    }
    metrics.frames(req.frames());
    if (answer != null) {
      send(response, callback, x, 200, ResponseWriter.JSON, answer);
      return;
    }
    // a large answer is streamed (bounded memory) outside the permit
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, ResponseWriter.JSON);
    try (Counting out = new Counting(Content.Sink.asOutputStream(response))) {
      writer.symbolicated(out, req, results); // closes out: the last chunk of the response
      x.bytes = out.count;
    }
    callback.succeeded();
  }

  private void minidump(Request request, Response response, Callback callback, Exchange x) throws IOException {
    byte[] dump;
    try {
      long length = request.getLength();
      if (length > minidump.maxBytes()) throw LimitedInputStream.tooLarge(minidump.maxBytes());
      InputStream in = new LimitedInputStream(Content.Source.asInputStream(request), minidump.maxBytes(), minRequestDataRate);
      dump = minidump.read(in, request.getHeaders().get(HttpHeader.CONTENT_ENCODING),
          request.getHeaders().get(HttpHeader.CONTENT_TYPE));
    } catch (BadRequest e) {
      error(response, callback, x, e);
      return;
    }
    MinidumpEndpoint.Walked walked;
    try {
      cpu.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for a turn");
    }
    long start = System.nanoTime();
    try {
      walked = minidump.walk(dump);
    } catch (BadRequest e) {
      error(response, callback, x, e);
      return;
    } finally {
      cpu.release();
    }
    metrics.minidump(walked.frames(), System.nanoTime() - start);
    x.frames = walked.frames();
    send(response, callback, x, 200, ResponseWriter.JSON, walked.json());
  }

  /** The media type of a pprof profile, as Go's net/http/pprof serves one. */
  static final String PPROF = "application/octet-stream";

  /**
   * A pprof profile (gzipped or not) in, the profile symbolized out (gzipped when it came gzipped),
   * with the summary's counts in {@code X-Gsym-*} headers. A body that is not a profile is a 400
   * {@code bad_profile}; over the request or the decompressed bound a 413.
   */
  private void symbolicatePprof(Request request, Response response, Callback callback, Exchange x) throws IOException {
    PprofProfile profile;
    try {
      long length = request.getLength();
      if (length > maxRequestBytes) throw LimitedInputStream.tooLarge(maxRequestBytes);
      InputStream in = new LimitedInputStream(Content.Source.asInputStream(request), maxRequestBytes,
          minRequestDataRate);
      try {
        profile = PprofProfile.read(in, "the profile", maxProfileBytes);
      } catch (LimitedInputStream.TooLarge t) {
        throw t.badRequest();
      } catch (GsymFormatException e) {
        throw e.detail().contains("more than " + maxProfileBytes + " bytes")
            ? new BadRequest(413, "profile_too_large", e.getMessage())
            : BadRequest.invalid("bad_profile", e.getMessage());
      }
    } catch (BadRequest e) {
      error(response, callback, x, e);
      return;
    }
    x.frames = profile.locations().size();
    byte[] answer;
    ProfileSymbolizer.Summary summary;
    try {
      cpu.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for a turn");
    }
    try {
      ProfileSymbolizer.Result r = profiles.symbolize(profile);
      summary = r.summary();
      answer = r.profile().toByteArray(profile.gzipped());
    } finally {
      cpu.release();
    }
    metrics.frames(x.frames);
    var h = response.getHeaders();
    h.put("X-Gsym-Locations", Long.toString(summary.locations()));
    h.put("X-Gsym-Symbolized", Long.toString(summary.symbolized()));
    h.put("X-Gsym-Missing-Module", Long.toString(summary.missingModule()));
    h.put("X-Gsym-Unknown-Address", Long.toString(summary.unknownAddress()));
    send(response, callback, x, 200, PPROF, answer);
  }

  /**
   * Every stack of the request in one call: the symbolizer resolves each module once (modules in
   * parallel), looks the addresses up and chooses among merged functions with the callers' call
   * sites. A frame whose module entry cannot be used is a placeholder in its stack (it keeps its
   * place) and gets null.
   */
  private List<Symbolized> symbolize(SymbolicateRequest req) {
    List<List<Symbolizer.Request>> stacks = new ArrayList<>(req.stacks());
    for (int s = 0; s < req.stacks(); s++) {
      List<Symbolizer.Request> stack = new ArrayList<>(req.stackStart()[s + 1] - req.stackStart()[s]);
      for (int i = req.stackStart()[s]; i < req.stackStart()[s + 1]; i++) {
        SymbolicateRequest.Module m = req.modules().get(req.frameModule()[i]);
        stack.add(m.ref() == null ? null : new Symbolizer.Request(m.ref(), req.frameAddress()[i]));
      }
      stacks.add(stack);
    }
    List<List<Symbolized>> answers = symbolizer.symbolizeStacks(stacks,
        req.options().relative() ? AddressMode.RELATIVE : AddressMode.ABSOLUTE, req.options().adjust());
    List<Symbolized> all = new ArrayList<>(req.frames());
    for (List<Symbolized> stack : answers) all.addAll(stack);
    return all;
  }

  private void metrics(Response response, Callback callback, Exchange x) throws IOException {
    var buf = new java.io.ByteArrayOutputStream(8192);
    metrics.write(buf);
    send(response, callback, x, 200, ServeMetrics.CONTENT_TYPE, buf.toByteArray());
  }

  private void error(Response response, Callback callback, Exchange x, BadRequest e) throws IOException {
    x.error = e.kind;
    metrics.error(e.kind);
    var buf = new java.io.ByteArrayOutputStream(256);
    ResponseWriter.error(buf, e.kind, e.getMessage());
    buf.write('\n');
    send(response, callback, x, e.status, ResponseWriter.JSON, buf.toByteArray());
  }

  private static void send(Response response, Callback callback, Exchange x, int status, String type, byte[] body) {
    x.status = status;
    x.bytes = body.length;
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, java.nio.ByteBuffer.wrap(body), callback);
  }

  /** A path as logged: at most 200 characters, control characters and spaces escaped. */
  private static String quote(String s) {
    if (s == null) return "-";
    StringBuilder b = new StringBuilder(Math.min(s.length(), 200) + 2);
    for (int i = 0; i < s.length() && i < 200; i++) {
      char c = s.charAt(i);
      if (c <= ' ' || c == 0x7f || c == '"' || c == '\\') b.append(String.format("\\x%02x", (int) c & 0xff));
      else b.append(c);
    }
    if (s.length() > 200) b.append("...");
    return b.toString();
  }

  /** Counts the bytes of a streamed response. */
  private static final class Counting extends FilterOutputStream {
    long count;
    private boolean closed;

    Counting(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void close() throws IOException {
      if (closed) return;
      closed = true;
      super.close();
    }
  }
}
