package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gsymutil serve} as a process stopped by SIGTERM ({@link Process#destroy}): it says that it
 * is stopping, lets a request in progress finish, and exits with status 0 (it was 143, the JVM's
 * status for SIGTERM, whatever the requests); a request that does not finish within the stop timeout
 * (5 s) is cut off and the status is 1.
 */
@StartsProcesses
class ServeSignalTest {
  @TempDir Path tmp;
  final List<Process> processes = new ArrayList<>();

  @AfterEach
  void killAll() {
    for (Process p : processes) p.destroyForcibly();
  }

  record Server(Process process, int port, Path log) {
    String output() throws IOException {
      return Files.readString(log);
    }
  }

  /** A server process (the CLI's main on the test class path) on a free loopback port. */
  Server serve(String name) throws Exception {
    Path log = tmp.resolve(name + ".log");
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), GsymUtil.class.getName(),
        "serve", "--store", tmp.resolve("store").toString(), "--listen", "127.0.0.1:0", "--no-debuginfod",
        "--debug-file-directory", tmp.resolve("no-debug").toString(), "--no-warm-up", "--threads", "2");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    processes.add(p);
    Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher m = listening.matcher(Files.readString(log));
      if (m.find()) return new Server(p, Integer.parseInt(m.group(1)), log);
      if (!p.isAlive()) fail(name + " exited: " + Files.readString(log));
      Thread.sleep(20);
    }
    throw new AssertionError(name + " did not listen within a minute: " + Files.readString(log));
  }

  /** Waits until the server's output contains {@code text}. */
  static void await(Server s, String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!s.output().contains(text)) {
      if (System.nanoTime() > deadline) fail("no \"" + text + "\" within 30 s: " + s.output());
      Thread.sleep(10);
    }
  }

  static int exit(Server s) throws Exception {
    assertThat(s.process.waitFor(30, TimeUnit.SECONDS)).as("exited within 30 s: %s", s.output()).isTrue();
    return s.process.exitValue();
  }

  /** A request for the GSYM file of src-test-data by path: one frame, in function main's inlined calls. */
  static byte[] body() {
    String gsym = TestData.path("gsym", "c-clang-O2.gsym").toAbsolutePath().toString();
    return ("{\"modules\": [{\"path\": \"" + gsym + "\"}], \"stacks\": [{\"frames\": [{\"module\": 0, \"address\": \"0x1179\"}]}]}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A request in progress for as long as the test wants: its body is {@code pieces} KiB of spaces
   * (whitespace before the JSON), sent a KiB every 20 ms (well over the server's minimum rate, and
   * never silent long enough for its idle timeouts), then {@link #body()}. {@link #finish} sends the
   * rest at once.
   */
  static final class SlowRequest implements AutoCloseable {
    final Socket socket;
    private final Thread sender;
    private final java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
    private volatile IOException failure;

    SlowRequest(int port, int pieces) throws IOException {
      byte[] json = body();
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setSoTimeout(60_000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST /symbolicate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
          + (pieces * 1024L + json.length) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      byte[] piece = " ".repeat(1024).getBytes(StandardCharsets.US_ASCII);
      sender = Thread.ofPlatform().daemon().start(() -> {
        try {
          for (int i = 0; i < pieces; i++) {
            out.write(piece);
            out.flush();
            if (finish.getCount() > 0) finish.await(20, TimeUnit.MILLISECONDS);
          }
          out.write(json);
          out.flush();
        } catch (IOException e) {
          failure = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }

    /** Sends the rest of the body at once; returns the whole answer. */
    String finish() throws Exception {
      finish.countDown();
      sender.join(60_000);
      if (failure != null) throw failure;
      return answer(socket);
    }

    @Override
    public void close() throws IOException {
      finish.countDown();
      socket.close();
    }
  }

  /**
   * GET /healthz every 20 ms on one keep-alive connection, until an answer other than 200 or the
   * connection's end: the connection is never silent, so Jetty's shutdown idle timeout leaves it
   * open, and a request on it after the stop began is answered.
   */
  static final class Pinger implements AutoCloseable {
    private final Socket socket;
    private final Thread thread;
    volatile String last = "";
    volatile int answered;

    Pinger(int port) throws IOException {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setSoTimeout(30_000);
      thread = Thread.ofPlatform().daemon().start(() -> {
        try {
          var in = new java.io.DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
          while (true) {
            socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
              int b = in.read();
              if (b < 0) return;
              head.append((char) b);
            }
            Matcher m = Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
            byte[] body = new byte[m.find() ? Integer.parseInt(m.group(1)) : 0];
            in.readFully(body);
            last = head.substring(0, head.indexOf("\r\n")) + "\n" + new String(body, StandardCharsets.UTF_8);
            answered++;
            if (!last.startsWith("HTTP/1.1 200 ")) return;
            Thread.sleep(20);
          }
        } catch (IOException | InterruptedException e) {
          // the connection ended
        }
      });
    }

    /** The last answer once the pinging ended (within 10 s). */
    String end() throws InterruptedException {
      thread.join(10_000);
      return last;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /** The whole answer on {@code c}, read until the server closes the connection. */
  static String answer(Socket c) throws IOException {
    InputStream in = c.getInputStream();
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try {
      in.transferTo(got);
    } catch (java.net.SocketException reset) {
      // a reset ends the answer too
    }
    return got.toString(StandardCharsets.UTF_8);
  }

  @Test
  void sigtermWhileIdleExitsZero() throws Exception {
    Server s = serve("idle");
    s.process.destroy(); // SIGTERM
    assertThat(exit(s)).as(s.output()).isZero();
    assertThat(s.output()).contains("gsymutil serve: stopping (SIGTERM): no new connections; the requests in progress"
        + " finish first\n").contains("gsymutil serve: stopped\n");
  }

  /**
   * A request whose body is still arriving when SIGTERM comes: the server stops listening, takes the
   * rest of the body, answers the request in full, and then exits 0. A new request on a connection
   * opened before gets 503 {@code unavailable} meanwhile.
   */
  @Test
  void sigtermLetsARequestInProgressFinish() throws Exception {
    Server s = serve("in-flight");
    try (SlowRequest r = new SlowRequest(s.port, 2000)) {
      awaitInProgress(s.port, 1); // before the pinger, whose requests would count too
      try (Pinger pinger = new Pinger(s.port)) {
        for (int i = 0; i < 3000 && pinger.answered == 0; i++) Thread.sleep(10);
        assertThat(pinger.last).as("the pinger's first answer").startsWith("HTTP/1.1 200 ");
        s.process.destroy();
        await(s, "gsymutil serve: stopping (SIGTERM)");
        assertThat(s.process.isAlive()).as("waiting for the request in progress").isTrue();
        assertThat(refusedSoon(s.port)).as("new connections refused while stopping").isTrue();
        assertThat(pinger.end()).as("a request on a connection opened before").startsWith("HTTP/1.1 503 ")
            .endsWith("\n{\"error\":{\"kind\":\"unavailable\",\"message\":\"the server is stopping\"}}\n");
      }
      assertThat(r.finish()).startsWith("HTTP/1.1 200 ").contains("\"function\":\"leaf\"")
          .contains("\"function\":\"outer\"").endsWith("]}]}");
    }
    assertThat(exit(s)).as(s.output()).isZero();
    String log = s.output();
    String post = "method=POST path=/symbolicate status=200";
    assertThat(log).contains(post).contains("gsymutil serve: stopped\n").doesNotContain("cut off");
    assertThat(log.indexOf("gsymutil serve: stopping")).isLessThan(log.indexOf(post));
  }

  /**
   * A request still arriving at the stop timeout (5 s) is cut off, and the exit status says so; a
   * client that merely went silent would be closed by Jetty's shutdown idle timeout instead.
   */
  @Test
  void aRequestThatDoesNotFinishIsCutOffAndTheStatusIsOne() throws Exception {
    Server s = serve("stuck");
    try (SlowRequest r = new SlowRequest(s.port, 2000)) { // 40 s of body
      awaitInProgress(s.port, 1);
      long t0 = System.nanoTime();
      s.process.destroy();
      assertThat(exit(s)).as(s.output()).isEqualTo(1);
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertThat(seconds).as("waited for the stop timeout").isBetween(4.5, 25.0);
      assertThat(s.output()).contains("gsymutil serve: requests were still in progress after 5s: they were cut off\n");
    }
  }

  /**
   * Waits until the server handles {@code n} requests besides the scrape that asks
   * (gsym_serve_requests_in_progress): a request is in progress once its handler runs, which in a
   * fresh JVM may take a second after its head arrived.
   */
  static void awaitInProgress(int port, int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String metrics = "";
    while (System.nanoTime() < deadline) {
      try (Socket c = new Socket(InetAddress.getLoopbackAddress(), port)) {
        c.setSoTimeout(30_000);
        c.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        metrics = answer(c);
      }
      Matcher m = Pattern.compile("\ngsym_serve_requests_in_progress (\\S+)").matcher(metrics);
      if (m.find() && Double.parseDouble(m.group(1)) >= n + 1) return;
      Thread.sleep(10);
    }
    fail("not " + n + " requests in progress within 30 s: " + metrics);
  }

  /** Whether connecting to {@code port} is refused within 5 s (the stop closes the listening socket soon after its message). */
  private static boolean refusedSoon(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline) {
      try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
        Thread.sleep(10);
      } catch (ConnectException refused) {
        return true;
      } catch (IOException other) {
        Thread.sleep(10);
      }
    }
    return false;
  }
}
