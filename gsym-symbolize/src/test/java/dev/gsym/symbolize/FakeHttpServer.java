package dev.gsym.symbolize;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A scripted HTTP peer on loopback (the JDK's com.sun.net.httpserver) for the answers a real
 * server does not give on demand: slow, truncated, corrupt, redirected, too large, failing.
 */
final class FakeHttpServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fake-http");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, HttpHandler> routes = new ConcurrentHashMap<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  FakeHttpServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(pool);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Answers requests for exactly {@code path} with {@code h}; others get 404. */
  FakeHttpServer route(String path, HttpHandler h) {
    routes.put(path, h);
    return this;
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Paths requested so far, in order. */
  List<String> requests() {
    return List.copyOf(requests);
  }

  long count(String pathPrefix) {
    return requests.stream().filter(p -> p.startsWith(pathPrefix)).count();
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getRawPath();
    requests.add(path);
    HttpHandler h = routes.get(path);
    try (ex) {
      if (h == null) {
        ex.sendResponseHeaders(404, -1);
      } else {
        h.handle(ex);
      }
    }
  }

  /** A handler answering 200 with {@code body}. */
  static HttpHandler bytes(byte[] body) {
    return ex -> {
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
    };
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
