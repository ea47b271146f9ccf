package dev.gsym.symbolize;

import dev.gsym.testing.Tools;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real debuginfod (elfutils, Debian's {@code debuginfod} package) serving a directory on a free
 * port: {@code debuginfod -F -p PORT -d DB -t 0 -g 0 -c 1 DIR}. debuginfod 0.188 has no option to
 * bind one interface: it listens on all of them, and the tests talk to it on 127.0.0.1.
 */
final class DebuginfodServer implements AutoCloseable {
  static final String EXECUTABLE = "debuginfod";

  private final Process process;
  private final int port;
  private final Path log;

  private DebuginfodServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** debuginfod on the PATH, or null (the caller skips, saying why). */
  static Path find() {
    return Tools.require(Tools.find(EXECUTABLE), EXECUTABLE + " (Debian package debuginfod)");
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * Starts the server over {@code dir} and waits (up to a minute) until it serves {@code type} of
   * each build-id in {@code ready} (its scan is asynchronous).
   */
  static DebuginfodServer start(Path exe, Path dir, Path work, List<String> ready, String type) throws Exception {
    int port = freePort();
    Path log = work.resolve("debuginfod.log");
    Process p = new ProcessBuilder(exe.toString(), "-F", "-p", Integer.toString(port), "-d",
        work.resolve("debuginfod.sqlite").toString(), "-t", "0", "-g", "0", "-c", "1", dir.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    DebuginfodServer s = new DebuginfodServer(p, port, log);
    try (HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2)).build()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      for (String id : ready) {
        while (true) {
          if (!p.isAlive()) throw new AssertionError("debuginfod exited: " + Files.readString(log));
          int status;
          try {
            status = c.send(HttpRequest.newBuilder(DebuginfodFetcher.url(s.url(), id, type)).GET().build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
          } catch (IOException e) {
            status = -1;
          }
          if (status == 200) break;
          if (System.nanoTime() > deadline) {
            s.close();
            throw new AssertionError("debuginfod did not serve " + id + " within a minute: " + Files.readString(log));
          }
          Thread.sleep(100);
        }
      }
    } catch (Exception | AssertionError e) {
      s.close();
      throw e;
    }
    return s;
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + port);
  }

  int port() {
    return port;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
