package dev.gsym.serve;

import dev.gsym.symbolize.Symbolizer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** A server on a loopback port chosen by the system, with its symbolizer and an HTTP/1.1 client. */
final class TestServer implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final Symbolizer symbolizer;
  final SymbolicationServer server;
  final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();

  TestServer(Symbolizer symbolizer, UnaryOperator<SymbolicationServer.Builder> config) throws IOException {
    this.symbolizer = symbolizer;
    this.server = config.apply(SymbolicationServer.builder(symbolizer).listen("127.0.0.1", 0)).build().start();
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  HttpResponse<String> post(String body) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri("/symbolicate")).POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
    HttpRequest request = b.timeout(Duration.ofSeconds(60)).build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      // A kept-alive connection the server closed at its idle timeout (one second in some tests)
      // just as the request went out on it: HttpClient sends a GET again by itself, any other
      // method once here, on a new connection. A server that never answers fails the second time.
      if (e.getMessage() == null || !e.getMessage().contains("received no bytes")) throw e;
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
  }

  static JsonNode json(HttpResponse<String> r) {
    return JSON.readTree(r.body());
  }

  @Override
  public void close() {
    server.close();
    symbolizer.close();
    client.close();
  }
}
