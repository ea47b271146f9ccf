package dev.gsym.serve;

import dev.gsym.profile.PprofProfile;
import dev.gsym.symbolize.Symbolizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An HTTP symbolication service on a {@link Symbolizer}: {@code POST /symbolicate} (modules and
 * stacks in, frames out, as JSON), {@code POST /symbolicate/pprof} (a pprof profile in, the profile
 * symbolized out), {@code POST /minidump} (a minidump in, its walked threads out as rust-minidump's
 * JSON report), {@code GET /healthz} and {@code GET /metrics} (Prometheus text).
 * The API, its errors and limits are described in docs/serve.md.
 *
 * <pre>{@code
 * try (Symbolizer s = Symbolizer.builder().store(Path.of("/var/cache/gsym")).demangle(false).build();
 *      SymbolicationServer server = SymbolicationServer.builder(s).listen("127.0.0.1", 0).build().start()) {
 *   System.out.println("listening on port " + server.port());
 *   server.join();
 * }
 * }</pre>
 *
 * The server does not own the symbolizer: close the server first, then the symbolizer. The server
 * demangles names itself, as each request's {@code demangle} option says (from the frames' {@code
 * rawName}): a symbolizer built with {@code demangle(false)} saves it demangling them once more.
 */
public final class SymbolicationServer implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SymbolicationServer.class);
  /** Default {@link Builder#maxRequestBytes}: 16 MiB. */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 16L << 20;
  /** Default {@link Builder#maxMinidumpBytes}: 64 MiB. */
  public static final long DEFAULT_MAX_MINIDUMP_BYTES = 64L << 20;
  /** Default {@link Builder#maxFrames}. */
  public static final int DEFAULT_MAX_FRAMES = 100_000;
  /** Default {@link Builder#maxModules}. */
  public static final int DEFAULT_MAX_MODULES = 10_000;
  /** Default bound of a profile of {@code POST /symbolicate/pprof} once decompressed: 256 MiB. */
  public static final long DEFAULT_MAX_PROFILE_BYTES = 256L << 20;
  /** Default {@link Builder#idleTimeout}. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

  private final Server server;
  private final ServerConnector connector;
  private final boolean warmUp;

  private SymbolicationServer(Builder b) {
    QueuedThreadPool pool = new QueuedThreadPool(b.maxThreads);
    pool.setName("gsym-serve");
    // handlers block (body reads, symbolization): each runs on a virtual thread of its own
    pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("gsym-serve-request"));
    server = new Server(pool);
    warmUp = b.warmUp;
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendDateHeader(false);
    // HTTP/1.1, and HTTP/2 without TLS (h2c: by an Upgrade header or with prior knowledge)
    connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http),
        new HTTP2CServerConnectionFactory(http));
    connector.setHost(b.host);
    connector.setPort(b.port);
    connector.setIdleTimeout(b.idleTimeout.toMillis());
    server.addConnector(connector);
    ServeMetrics metrics = new ServeMetrics(b.symbolizer::stats);
    // Jetty's MinimumDataRateHandler is not used: it divides the bytes read by all requests since the
    // start by one request's time, so a busy server never cuts a slow client off; the body stream
    // checks each request's own rate instead (LimitedInputStream)
    // GracefulHandler: on stop, the requests in progress are waited for (up to the stop timeout);
    // without it, stopping the connector would cut them off. Meanwhile Jetty closes connections
    // silent for a second (the connector's shutdown idle timeout): idle keep-alive connections, and
    // a request whose client stopped sending its body
    server.setHandler(new GracefulHandler(new ApiHandler(b.symbolizer, metrics, b.maxRequestBytes, b.minRequestDataRate,
        b.maxFrames, b.maxModules, new MinidumpEndpoint(b.minidumpSymbols, b.maxMinidumpBytes),
        b.accessLog ? ApiHandler.ACCESS : org.slf4j.helpers.NOPLogger.NOP_LOGGER,
        b.profileDebugDirectories, b.profileNames, b.maxProfileBytes)));
    server.setErrorHandler(new JsonErrorHandler(metrics));
    server.setStopTimeout(b.stopTimeout.toMillis());
  }

  /** A builder of a server that answers with {@code symbolizer} (which the server does not close). */
  public static Builder builder(Symbolizer symbolizer) {
    return new Builder(symbolizer);
  }

  /**
   * Binds the address and starts serving.
   *
   * @throws IOException if the address cannot be bound; its message says which address and why
   *     ("cannot listen on 127.0.0.1:8080: address already in use")
   */
  public SymbolicationServer start() throws IOException {
    if (warmUp) warmUp();
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly();
      String host = connector.getHost() == null ? "0.0.0.0" : connector.getHost();
      throw new IOException("cannot listen on " + (host.contains(":") ? "[" + host + "]" : host) + ":"
          + connector.getPort() + ": " + bindFailure(e), e);
    }
    return this;
  }

  /** Why binding failed, in the system's words (Jetty's own say "Failed to bind to /127.0.0.1:8080"). */
  private static String bindFailure(Throwable e) {
    Throwable why = e;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.nio.channels.UnresolvedAddressException) return "unknown host";
      why = t; // the deepest cause: the system's BindException or SocketException
    }
    String m = why.getMessage();
    if (m == null || m.isEmpty()) return why.getClass().getSimpleName();
    // "Address already in use" -> "address already in use"
    return m.length() > 1 && Character.isUpperCase(m.charAt(0)) && Character.isLowerCase(m.charAt(1))
        ? Character.toLowerCase(m.charAt(0)) + m.substring(1) : m;
  }

  private static void warmUp() {
    try {
      long frames = WarmUp.run();
      LOG.debug("warm-up: {} frames answered", frames);
    } catch (IOException | RuntimeException e) {
      // only speed is lost: the first requests run colder
      LOG.warn("warm-up failed, the first requests will be slower: {}", e.toString());
    }
  }

  /** The port the server listens on (the one chosen by the system for port 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /** The address the server listens on. */
  public InetSocketAddress address() {
    return new InetSocketAddress(connector.getHost() == null ? "0.0.0.0" : connector.getHost(), port());
  }

  /** Waits until the server is stopped. */
  public void join() throws InterruptedException {
    server.join();
  }

  /**
   * Stops accepting connections, lets requests in progress finish (up to the stop timeout), and stops.
   *
   * @throws UncheckedIOException if requests were still in progress at the stop timeout (they are cut
   *     off), or stopping failed otherwise
   */
  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof java.util.concurrent.TimeoutException) {
          throw new UncheckedIOException(new IOException("requests were still in progress after "
              + Duration.ofMillis(server.getStopTimeout()).toString().substring(2).toLowerCase(java.util.Locale.ROOT)
              + ": they were cut off", e));
        }
      }
      throw new UncheckedIOException(new IOException("stopping the server: " + e.getMessage(), e));
    }
  }

  private void stopQuietly() {
    try {
      server.stop();
    } catch (Exception ignored) {
      // already failing
    }
  }

  /**
   * Errors Jetty answers itself (a request it cannot parse, headers too large, a handler failure
   * before anything was sent): the service's JSON error body, never a stack trace.
   */
  private static final class JsonErrorHandler extends ErrorHandler {
    private final ServeMetrics metrics;

    JsonErrorHandler(ServeMetrics metrics) {
      this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      int status = response.getStatus() > 0 ? response.getStatus() : 500;
      Object s = request.getAttribute(ERROR_STATUS);
      if (s instanceof Integer i) status = i;
      // 503: a request that arrives while the server stops (GracefulHandler refuses it)
      String kind = status == 503 ? "unavailable" : status >= 500 ? "internal" : status == 408 ? "timeout" : "bad_http";
      metrics.error(kind);
      var buf = new java.io.ByteArrayOutputStream(128);
      ResponseWriter.error(buf, kind, status == 503 ? "the server is stopping" : status >= 500 ? "internal error"
          : "bad HTTP request (status " + status + ")");
      buf.write('\n');
      byte[] body = buf.toByteArray();
      response.setStatus(status);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, ResponseWriter.JSON);
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
      response.write(true, java.nio.ByteBuffer.wrap(body), callback);
      return true;
    }

    // deprecated in Jetty 12.1 but still what answers a request Jetty cannot parse (else an HTML page)
    @Override
    @SuppressWarnings("removal")
    public java.nio.ByteBuffer badMessageError(int status, String reason, org.eclipse.jetty.http.HttpFields.Mutable fields) {
      fields.put(HttpHeader.CONTENT_TYPE, ResponseWriter.JSON);
      var buf = new java.io.ByteArrayOutputStream(128);
      ResponseWriter.error(buf, "bad_http", "bad HTTP request (status " + status + ")");
      return java.nio.ByteBuffer.wrap(buf.toByteArray());
    }
  }

  /** Configures a {@link SymbolicationServer}. */
  public static final class Builder {
    private final Symbolizer symbolizer;
    private String host = "127.0.0.1";
    private int port = 8080;
    private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private int maxFrames = DEFAULT_MAX_FRAMES;
    private int maxModules = DEFAULT_MAX_MODULES;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private long minRequestDataRate = 1024;
    private int maxThreads = 64;
    private Duration stopTimeout = Duration.ofSeconds(5);
    private boolean warmUp;
    private boolean accessLog = true;
    private long maxMinidumpBytes = DEFAULT_MAX_MINIDUMP_BYTES;
    private dev.gsym.stackwalk.SymbolSource minidumpSymbols;
    private java.util.List<java.nio.file.Path> profileDebugDirectories =
        java.util.List.of(java.nio.file.Path.of("/usr/lib/debug"));
    private long maxProfileBytes = DEFAULT_MAX_PROFILE_BYTES;
    private dev.gsym.profile.ProfileSymbolizer.SymbolTableNames profileNames;

    private Builder(Symbolizer symbolizer) {
      this.symbolizer = Objects.requireNonNull(symbolizer, "symbolizer");
    }

    /** The address to listen on (default 127.0.0.1:8080; port 0: any free port, see {@link #port()}). */
    public Builder listen(String host, int port) {
      if (port < 0 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    /** Largest request body (default {@value #DEFAULT_MAX_REQUEST_BYTES}); a larger one gets 413. */
    public Builder maxRequestBytes(long bytes) {
      if (bytes < 1) throw new IllegalArgumentException("max request bytes must be positive: " + bytes);
      this.maxRequestBytes = bytes;
      return this;
    }

    /**
     * Largest minidump upload of {@code POST /minidump} (default {@value #DEFAULT_MAX_MINIDUMP_BYTES};
     * the body as sent and as decoded); a larger one gets 413.
     */
    public Builder maxMinidumpBytes(long bytes) {
      if (bytes < 1) throw new IllegalArgumentException("max minidump bytes must be positive: " + bytes);
      this.maxMinidumpBytes = bytes;
      return this;
    }

    /**
     * Where {@code POST /minidump} finds the modules' symbols and CFI (e.g. {@link
     * dev.gsym.stackwalk.BreakpadSymbolDirectories}; it must be thread-safe); without one (the default)
     * dumps are walked without symbols, as minidump_stackwalk without symbol paths. The server does
     * not own it: close it after the server.
     */
    public Builder minidumpSymbols(dev.gsym.stackwalk.SymbolSource source) {
      this.minidumpSymbols = source;
      return this;
    }

    /** Most frames in one request, all stacks together (default {@value #DEFAULT_MAX_FRAMES}); more get 413. */
    public Builder maxFrames(int n) {
      if (n < 1) throw new IllegalArgumentException("max frames must be positive: " + n);
      this.maxFrames = n;
      return this;
    }

    /** Most modules in one request (default {@value #DEFAULT_MAX_MODULES}); more get 413. */
    public Builder maxModules(int n) {
      if (n < 1) throw new IllegalArgumentException("max modules must be positive: " + n);
      this.maxModules = n;
      return this;
    }

    /** How long a connection may stay silent, also in the middle of a request body (default 30 s). */
    public Builder idleTimeout(Duration t) {
      if (t.isNegative() || t.isZero()) throw new IllegalArgumentException("idle timeout must be positive: " + t);
      this.idleTimeout = t;
      return this;
    }

    /** Slowest accepted request body, bytes per second (default 1024; 0: no minimum). */
    public Builder minRequestDataRate(long bytesPerSecond) {
      if (bytesPerSecond < 0) throw new IllegalArgumentException("rate must not be negative: " + bytesPerSecond);
      this.minRequestDataRate = bytesPerSecond;
      return this;
    }

    /** Platform threads of the connector (selector, acceptor); requests run on virtual threads. */
    public Builder maxThreads(int n) {
      if (n < 8) throw new IllegalArgumentException("at least 8 threads: " + n);
      this.maxThreads = n;
      return this;
    }

    /** How long {@link #close()} waits for requests in progress (default 5 s). */
    public Builder stopTimeout(Duration t) {
      this.stopTimeout = Objects.requireNonNull(t, "stopTimeout");
      return this;
    }

    /**
     * Whether {@link #start()} first runs the request path on a private server over a generated
     * module (default off), so that the first requests, and a cold module's first answer, do not
     * wait for the JIT. It takes a few hundred milliseconds of CPU; a failure only logs a warning.
     */
    public Builder warmUp(boolean on) {
      this.warmUp = on;
      return this;
    }

    /**
     * Where {@code POST /symbolicate/pprof} looks for a module's ELF file by build-id, to place a
     * profile's mappings in it (default {@code /usr/lib/debug}; see ProfileSymbolizer).
     */
    public Builder profileDebugDirectories(java.util.List<java.nio.file.Path> dirs) {
      this.profileDebugDirectories = java.util.List.copyOf(dirs);
      return this;
    }

    /**
     * How {@code POST /symbolicate/pprof} names the outermost frames from the modules' symbol tables
     * (default none: GSYM's names; see ProfileSymbolizer.Builder.symbolTableNames).
     */
    public Builder profileSymbolTableNames(dev.gsym.profile.ProfileSymbolizer.SymbolTableNames names) {
      this.profileNames = names;
      return this;
    }

    /** Bound of a profile once decompressed, for {@code POST /symbolicate/pprof} (default 256 MiB). */
    public Builder maxProfileBytes(long bytes) {
      if (bytes <= 0 || bytes > PprofProfile.MAX_BYTES) throw new IllegalArgumentException("maxProfileBytes out of range");
      this.maxProfileBytes = bytes;
      return this;
    }

    /** Off for the warm-up's private server, whose requests are nobody's. */
    Builder accessLog(boolean on) {
      this.accessLog = on;
      return this;
    }

    /** The server, not started yet ({@link SymbolicationServer#start()}). */
    public SymbolicationServer build() {
      return new SymbolicationServer(this);
    }
  }
}
