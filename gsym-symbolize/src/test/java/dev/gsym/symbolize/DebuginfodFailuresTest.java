package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.Slow;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * debuginfod answers a real server does not give on demand, from a scripted peer on loopback:
 * server down, slow headers, slow body, truncated body, corrupt bodies, 404, 500 (retried), a
 * redirect, a file over the size limit. Each is a per-module answer, a batch over all of them
 * answers every pair, and nothing broken is left in the store or the download cache.
 */
@Slow
class DebuginfodFailuresTest {
  static final String SLOW_HEADERS = "aa00000000000000000000000000000000000001";
  static final String SLOW_BODY = "aa00000000000000000000000000000000000002";
  static final String TRUNCATED = "aa00000000000000000000000000000000000003";
  static final String GARBAGE = "aa00000000000000000000000000000000000004";
  static final String NOT_FOUND = "aa00000000000000000000000000000000000005";
  static final String ERROR_500 = "aa00000000000000000000000000000000000006";
  static final String TOO_LARGE = "aa00000000000000000000000000000000000007";
  static final String BROKEN_ELF = "aa00000000000000000000000000000000000008";

  @TempDir Path tmp;
  FakeHttpServer server;
  byte[] binary;
  String realId;

  @BeforeEach
  void start() throws Exception {
    binary = Files.readAllBytes(Fixtures.bin("c-clang-O2"));
    realId = Fixtures.buildId(Fixtures.bin("c-clang-O2"));
    server = new FakeHttpServer();
    server.route(path(SLOW_HEADERS), ex -> sleep(10_000));
    server.route(path(SLOW_BODY), ex -> {
      ex.sendResponseHeaders(200, binary.length);
      OutputStream out = ex.getResponseBody();
      for (int i = 0; i < binary.length; i++) {
        out.write(binary[i]);
        out.flush();
        sleep(500);
      }
    });
    server.route(path(TRUNCATED), ex -> {
      ex.sendResponseHeaders(200, binary.length);
      ex.getResponseBody().write(binary, 0, binary.length / 2);
      ex.getResponseBody().flush(); // then the exchange is closed short: the connection drops
    });
    server.route(path(GARBAGE), FakeHttpServer.bytes(new byte[8192]));
    server.route(path(BROKEN_ELF), FakeHttpServer.bytes(Arrays.copyOf(binary, 3000)));
    server.route(path(ERROR_500), ex -> ex.sendResponseHeaders(500, -1));
    server.route(path(TOO_LARGE), FakeHttpServer.bytes(binary));
    // a redirect to where the file really is
    server.route(path(realId), ex -> {
      ex.getResponseHeaders().add("Location", "/files/c-clang-O2");
      ex.sendResponseHeaders(302, -1);
    });
    server.route("/files/c-clang-O2", FakeHttpServer.bytes(binary));
  }

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  private static String path(String id) {
    return "/buildid/" + id + "/debuginfo";
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Source.Debuginfod source(URI url) {
    return Source.Debuginfod.of(List.of(url)).withCacheDirectory(tmp.resolve("cache")).withTimeout(Duration.ofSeconds(1))
        .withRetries(1);
  }

  private Symbolizer symbolizer(URI url) {
    return Symbolizer.builder().store(tmp.resolve("store")).addSource(source(url)).build();
  }

  private static Symbolized symbolize(Symbolizer s, String id) {
    return s.symbolize(ModuleRef.buildId(id), 0x1000);
  }

  /** Nothing but empty "not found" records, negative markers and lock files may remain. */
  private void assertNothingBrokenLeft() throws IOException {
    for (Path root : List.of(tmp.resolve("store"), tmp.resolve("cache"))) {
      if (!Files.exists(root)) continue;
      try (Stream<Path> files = Files.walk(root)) {
        for (Path p : files.filter(Files::isRegularFile).toList()) {
          String n = p.getFileName().toString();
          boolean ok = n.endsWith(".lock") || n.endsWith(".missing") || n.equals(realId.substring(2) + ".gsym")
              || n.equals("debuginfo") && (Files.size(p) == 0 || p.getParent().getFileName().toString().equals(realId))
              || n.equals("executable") && Files.size(p) == 0;
          assertTrue(ok, "left behind: " + p);
        }
      }
    }
  }

  @Test
  void serverDown() throws Exception {
    URI dead = URI.create("http://127.0.0.1:" + DebuginfodServer.freePort());
    try (Symbolizer s = symbolizer(dead)) {
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, realId));
      assertTrue(nf.retryable(), nf.message());
      assertTrue(nf.message().contains("cannot connect"), nf.message());
    }
    assertNothingBrokenLeft();
    // nothing recorded as "not found" in the cache: the server was never asked
    assertFalse(Files.exists(tmp.resolve("cache").resolve(realId).resolve("debuginfo")));
  }

  @Test
  void slowHeadersTimeOut() throws Exception {
    try (Symbolizer s = symbolizer(server.url())) {
      long t0 = System.nanoTime();
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, SLOW_HEADERS));
      assertTrue(nf.retryable(), nf.message());
      assertTrue(nf.message().contains("timed out"), nf.message());
      assertTrue(System.nanoTime() - t0 < 9_000_000_000L, "gave up before the server answered");
    }
    assertNothingBrokenLeft();
  }

  @Test
  void slowBodyIsAbortedByTheLowSpeedLimit() throws Exception {
    try (Symbolizer s = symbolizer(server.url())) {
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, SLOW_BODY));
      assertTrue(nf.retryable(), nf.message());
      assertTrue(nf.message().contains("too slow"), nf.message());
      // remembered for the transient-failure time: no new request
      long before = server.count(path(SLOW_BODY));
      assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, SLOW_BODY));
      assertEquals(before, server.count(path(SLOW_BODY)));
    }
    assertNothingBrokenLeft();
  }

  @Test
  void truncatedBody() throws Exception {
    try (Symbolizer s = symbolizer(server.url())) {
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, TRUNCATED));
      assertTrue(nf.retryable(), nf.message());
      assertTrue(nf.message().contains("truncated"), nf.message());
      assertEquals(2, server.count(path(TRUNCATED)), "retried once");
    }
    assertNothingBrokenLeft();
  }

  @Test
  void corruptBodies() throws Exception {
    try (Symbolizer s = symbolizer(server.url())) {
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class, symbolize(s, GARBAGE));
      assertTrue(u.message().contains("not an ELF file"), u.message());
      Symbolized.ModuleUnreadable u2 = assertInstanceOf(Symbolized.ModuleUnreadable.class, symbolize(s, BROKEN_ELF));
      assertTrue(u2.message().contains(path(BROKEN_ELF)), u2.message());
    }
    assertNothingBrokenLeft();
  }

  @Test
  void notFoundIsRememberedWithoutAskingAgain() throws Exception {
    try (Symbolizer s = symbolizer(server.url())) {
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, NOT_FOUND));
      assertFalse(nf.retryable(), nf.message());
      assertEquals(1, server.count(path(NOT_FOUND)), "404 is not retried");
      assertEquals(1, server.count("/buildid/" + NOT_FOUND + "/executable"));
      assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, NOT_FOUND));
      assertEquals(2, server.count("/buildid/" + NOT_FOUND + "/"), "asked once");
    }
    // another symbolizer sharing the store and the cache does not ask either
    try (Symbolizer s = symbolizer(server.url())) {
      assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, NOT_FOUND));
      assertEquals(2, server.count("/buildid/" + NOT_FOUND + "/"));
    }
    assertNothingBrokenLeft();
  }

  @Test
  void serverErrorsAreRetried() throws Exception {
    try (Symbolizer s = symbolizer(server.url())) {
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, symbolize(s, ERROR_500));
      assertTrue(nf.retryable(), nf.message());
      assertTrue(nf.message().contains("HTTP 500"), nf.message());
      assertEquals(2, server.count(path(ERROR_500)), "one retry");
    }
    assertNothingBrokenLeft();
  }

  @Test
  void sizeLimit() throws Exception {
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store"))
        .addSource(source(server.url()).withMaxDownloadSize(16 * 1024)).build()) {
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class, symbolize(s, TOO_LARGE));
      assertTrue(u.message().contains("over the limit"), u.message());
    }
    assertNothingBrokenLeft();
  }

  @Test
  void redirectIsFollowed() throws Exception {
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store"))
        .addSource(source(server.url())).build();
        GsymReader llvm = GsymReader.open(Fixtures.llvmGsym("c-clang-O2"))) {
      for (long a : Fixtures.functionAddresses(llvm)) Fixtures.assertSameAnswer(llvm, a, s.symbolize(ModuleRef.buildId(realId), a), "");
      assertEquals(1, s.stats().downloads());
    }
    assertNothingBrokenLeft();
  }

  @Test
  void aBatchAnswersEveryPair() throws Exception {
    long good = Fixtures.functionAddressOf("c-clang-O2");
    List<String> ids = List.of(realId, GARBAGE, NOT_FOUND, TRUNCATED, realId, ERROR_500);
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store"))
        .addSource(source(server.url())).build()) {
      List<Symbolized> r = s.symbolize(ids.stream().map(id -> new Symbolizer.Request(ModuleRef.buildId(id), good)).toList());
      assertInstanceOf(Symbolized.Found.class, r.get(0));
      assertInstanceOf(Symbolized.ModuleUnreadable.class, r.get(1));
      assertInstanceOf(Symbolized.ModuleNotFound.class, r.get(2));
      assertInstanceOf(Symbolized.ModuleNotFound.class, r.get(3));
      assertInstanceOf(Symbolized.Found.class, r.get(4));
      assertInstanceOf(Symbolized.ModuleNotFound.class, r.get(5));
    }
    assertNothingBrokenLeft();
  }
}
