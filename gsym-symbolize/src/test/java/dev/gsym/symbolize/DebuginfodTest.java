package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.Tools;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbolization through a real debuginfod server (elfutils' {@code debuginfod}, started on a free
 * port over a directory of test binaries), and the download cache shared with elfutils' own client
 * ({@code debuginfod-find}). A reported skip (a failure under -Dgsym.requireTools=true) when {@code debuginfod} is not installed (Debian
 * package {@code debuginfod}; {@code .ci/run} installs it).
 */
@StartsProcesses
class DebuginfodTest {
  static final List<String> SERVED = List.of("c-clang-O2", "cpp-gcc-O2", "rust-O2");

  @TempDir static Path tmp;
  static DebuginfodServer server;

  @BeforeAll
  static void startServer() throws Exception {
    Path exe = DebuginfodServer.find();
    Path dir = Files.createDirectories(tmp.resolve("served"));
    for (String b : SERVED) Files.copy(Fixtures.bin(b), dir.resolve(b));
    List<String> ids = new java.util.ArrayList<>();
    for (String b : SERVED) ids.add(Fixtures.buildId(Fixtures.bin(b)));
    server = DebuginfodServer.start(exe, dir, Files.createDirectories(tmp.resolve("server")), ids, "debuginfo");
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) server.close();
  }

  private Source.Debuginfod source(Path cache, URI url) {
    return Source.Debuginfod.of(List.of(url)).withCacheDirectory(cache).withTimeout(java.time.Duration.ofSeconds(10));
  }

  @Test
  void symbolizesByBuildIdThroughTheServer() throws Exception {
    Path cache = tmp.resolve("cache1");
    Path store = tmp.resolve("store1");
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(source(cache, server.url())).build()) {
      for (String b : SERVED) {
        String id = Fixtures.buildId(Fixtures.bin(b));
        try (GsymReader llvm = GsymReader.open(Fixtures.llvmGsym(b))) {
          List<Long> addrs = Fixtures.functionAddresses(llvm);
          List<Symbolizer.Request> batch = addrs.stream().map(a -> new Symbolizer.Request(ModuleRef.buildId(id), a)).toList();
          List<Symbolized> answers = s.symbolize(batch);
          for (int i = 0; i < addrs.size(); i++) Fixtures.assertSameAnswer(llvm, addrs.get(i), answers.get(i), b);
        }
        Path cached = cache.resolve(id).resolve("debuginfo");
        assertTrue(Files.isRegularFile(cached), cached + " in the client's layout");
        assertEquals("r--------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cached)));
        assertTrue(Files.exists(store.resolve(id.substring(0, 2)).resolve(id.substring(2) + ".gsym")));
      }
      assertEquals(SERVED.size(), s.stats().downloads());
      assertEquals(SERVED.size(), s.stats().conversions());
    }
    // a second symbolizer with another store finds the download in the cache: no new download
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store1b")).addSource(source(cache, server.url())).build()) {
      String id = Fixtures.buildId(Fixtures.bin("c-clang-O2"));
      assertInstanceOf(Symbolized.Found.class, s.symbolize(ModuleRef.buildId(id), Fixtures.functionAddressOf("c-clang-O2")));
      assertEquals(0, s.stats().downloads());
    }
  }

  @Test
  void unknownBuildIdIsNotFoundAndRecordedAsTheClientDoes() throws Exception {
    Path cache = tmp.resolve("cache2");
    Path store = tmp.resolve("store2");
    String id = "0123456789abcdef0123456789abcdef01234567";
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(source(cache, server.url())).build()) {
      Symbolized r = s.symbolize(ModuleRef.buildId(id), 0x1000);
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, r);
      assertFalse(nf.retryable(), nf.message());
      assertTrue(nf.message().contains("HTTP 404"), nf.message());
    }
    // the elfutils client's negative records: empty files
    for (String type : DebuginfodFetcher.TYPES) assertEquals(0, Files.size(cache.resolve(id).resolve(type)), type);
    assertFalse(Files.exists(store.resolve("01/23456789abcdef0123456789abcdef01234567.gsym")));
    assertTrue(Files.readString(store.resolve("01/23456789abcdef0123456789abcdef01234567.missing")).contains("debuginfod"));
  }

  @Test
  void cacheIsSharedWithTheElfutilsClient() throws Exception {
    Path find = Fixtures.tool("debuginfod-find");
    int dead = DebuginfodServer.freePort();
    // ours downloads; the elfutils client then answers from the cache with the server unreachable
    Path cache = tmp.resolve("cache3");
    String id = Fixtures.buildId(Fixtures.bin("cpp-gcc-O2"));
    try (Symbolizer s = Symbolizer.builder().addSource(source(cache, server.url())).build()) {
      assertInstanceOf(Symbolized.Found.class, s.symbolize(ModuleRef.buildId(id), Fixtures.functionAddressOf("cpp-gcc-O2")));
    }
    assertEquals(cache.resolve(id).resolve("debuginfo").toString(), debuginfodFind(find, cache, dead, id));
    // the elfutils client downloads; ours answers from the cache with the server unreachable
    Path cache2 = tmp.resolve("cache4");
    String id2 = Fixtures.buildId(Fixtures.bin("rust-O2"));
    assertEquals(cache2.resolve(id2).resolve("debuginfo").toString(), debuginfodFind(find, cache2, server.port(), id2));
    try (Symbolizer s = Symbolizer.builder()
        .addSource(source(cache2, URI.create("http://127.0.0.1:" + dead)).withRetries(0)).build();
        GsymReader llvm = GsymReader.open(Fixtures.llvmGsym("rust-O2"))) {
      for (long a : Fixtures.functionAddresses(llvm)) Fixtures.assertSameAnswer(llvm, a, s.symbolize(ModuleRef.buildId(id2), a), "rust");
      assertEquals(0, s.stats().downloads());
    }
  }

  private static String debuginfodFind(Path find, Path cache, int port, String id) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(find.toString(), "debuginfo", id);
    pb.environment().put("DEBUGINFOD_URLS", "http://127.0.0.1:" + port);
    pb.environment().put("DEBUGINFOD_CACHE_PATH", cache.toString());
    pb.environment().remove("DEBUGINFOD_PROGRESS");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), "debuginfod-find " + id + ": " + out);
    return out;
  }
}
