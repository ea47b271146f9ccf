package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Source configuration as the debuginfod client reads its environment, and URL building. */
class SourceTest {
  @TempDir Path tmp;

  @Test
  void debuginfodFromEnvironment() {
    assertTrue(Source.Debuginfod.fromEnvironment(Map.of()).isEmpty());
    assertTrue(Source.Debuginfod.fromEnvironment(Map.of("DEBUGINFOD_URLS", "  ")).isEmpty());
    Source.Debuginfod d = Source.Debuginfod.fromEnvironment(Map.of(
        "DEBUGINFOD_URLS", "https://a.example/ http://b.example:8002 https://a.example/",
        "DEBUGINFOD_CACHE_PATH", "/var/cache/dbg", "DEBUGINFOD_TIMEOUT", "5", "DEBUGINFOD_RETRY_LIMIT", "0",
        "DEBUGINFOD_MAXSIZE", "1000", "DEBUGINFOD_MAXTIME", "60")).orElseThrow();
    assertEquals(List.of(URI.create("https://a.example/"), URI.create("http://b.example:8002")), d.servers());
    assertEquals(Path.of("/var/cache/dbg"), d.cacheDirectory());
    assertEquals(Duration.ofSeconds(5), d.timeout());
    assertEquals(0, d.retries());
    assertEquals(1000, d.maxDownloadSize());
    assertEquals(Duration.ofSeconds(60), d.maxTime());
    Source.Debuginfod defaults = Source.Debuginfod.fromEnvironment(Map.of("DEBUGINFOD_URLS", "http://x", "HOME", "/h"))
        .orElseThrow();
    assertEquals(Duration.ofSeconds(90), defaults.timeout());
    assertEquals(2, defaults.retries());
    assertEquals(Duration.ofMinutes(10), defaults.negativeTtl());
    assertThrows(IllegalArgumentException.class, () -> Source.Debuginfod.fromEnvironment(Map.of("DEBUGINFOD_URLS", "ftp://x")));
    assertThrows(IllegalArgumentException.class,
        () -> Source.Debuginfod.fromEnvironment(Map.of("DEBUGINFOD_URLS", "http://x", "DEBUGINFOD_TIMEOUT", "soon")));
  }

  @Test
  void debuginfodCacheDirectoryAsTheClientChoosesIt() throws Exception {
    assertEquals(Path.of("/c"), Source.Debuginfod.defaultCacheDirectory(Map.of("DEBUGINFOD_CACHE_PATH", "/c", "HOME", "/h")));
    Path home = Files.createDirectories(tmp.resolve("home"));
    assertEquals(home.resolve(".cache/debuginfod_client"), Source.Debuginfod.defaultCacheDirectory(Map.of("HOME", home.toString())));
    assertEquals(Path.of("/xdg/debuginfod_client"),
        Source.Debuginfod.defaultCacheDirectory(Map.of("HOME", home.toString(), "XDG_CACHE_HOME", "/xdg")));
    Files.createDirectories(home.resolve(".debuginfod_client_cache"));
    assertEquals(home.resolve(".debuginfod_client_cache"),
        Source.Debuginfod.defaultCacheDirectory(Map.of("HOME", home.toString(), "XDG_CACHE_HOME", "/xdg")), "the old default wins if it exists");
  }

  @Test
  void urls() {
    assertEquals(URI.create("http://h:1/buildid/ab/debuginfo"), DebuginfodFetcher.url(URI.create("http://h:1"), "ab", "debuginfo"));
    assertEquals(URI.create("http://h/p/buildid/ab/executable"), DebuginfodFetcher.url(URI.create("http://h/p/"), "ab", "executable"));
    assertEquals("my%20app%2Fx%C3%A9", BreakpadFetcher.encodeSegment("my app/x\u00e9"));
    assertEquals("a-b_c.d~e", BreakpadFetcher.encodeSegment("a-b_c.d~e"));
    assertTrue(Source.BreakpadSymbols.parse("https://symbols.example/x").location().getScheme().equals("https"));
    assertTrue(Source.BreakpadSymbols.parse("relative/dir").isDirectory());
  }

  @Test
  void builderRejectsDuplicates() {
    assertThrows(IllegalArgumentException.class, () -> Symbolizer.builder().addSource(Source.DebugDirectories.defaults())
        .addSource(Source.DebugDirectories.defaults()).build());
  }
}
