package dev.gsym.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.symbolize.Symbolizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up warm-up ({@link SymbolicationServer.Builder#warmUp}): its module has the varied
 * shapes it is there for, its requests are all answered, it leaves no files, and a warmed-up
 * server starts with nothing in its metrics or access log.
 */
class WarmUpTest {
  @TempDir Path tmp;

  @Test
  void theModuleHasLargeAndDeepFunctions() throws IOException {
    Path file = tmp.resolve("warm.gsym");
    WarmUp.module().save(file);
    try (GsymReader r = GsymReader.open(file)) {
      assertEquals(WarmUp.FUNCTIONS, r.numFunctions());
      int deepest = 0;
      Set<String> names = new HashSet<>();
      for (int i = 0; i < r.numFunctions(); i++) {
        long start = r.functionAddress(i);
        for (long a = start; a < start + 0x40; a += 3) {
          LookupResult l = r.lookup(a);
          deepest = Math.max(deepest, l.locations().size());
          names.add(l.locations().getLast().name());
        }
      }
      assertTrue(deepest >= 4, "inline depth " + deepest);
      assertTrue(names.size() > WarmUp.FUNCTIONS / 2, "distinct function names: " + names.size());
    }
    // a large function: more line rows than the readers' initial row buffer
    assertTrue(WarmUp.module().functionInfos().stream().anyMatch(f -> f.lineTable().size() > 256));
    assertTrue(WarmUp.module().functionInfos().stream().anyMatch(f -> f.inlineInfo() != null
        && f.inlineInfo().children().size() > 64));
  }

  @Test
  void everyRequestIsAnsweredAndNothingIsLeftBehind() throws IOException {
    Path tempRoot = Path.of(System.getProperty("java.io.tmpdir"));
    Set<Path> before = warmUpDirectories(tempRoot);
    long frames = WarmUp.run();
    assertTrue(frames >= (long) WarmUp.REQUESTS * WarmUp.FRAMES, "frames answered: " + frames);
    assertEquals(before, warmUpDirectories(tempRoot));
  }

  private static Set<Path> warmUpDirectories(Path root) throws IOException {
    try (Stream<Path> s = Files.list(root)) {
      return new HashSet<>(s.filter(p -> p.getFileName().toString().startsWith("gsym-serve-warm-up")).toList());
    }
  }

  @Test
  void aWarmedUpServerStartsWithEmptyMetricsAndAccessLog() throws Exception {
    try (AccessLogCapture capture = new AccessLogCapture();
        TestServer server = new TestServer(Symbolizer.builder().store(tmp.resolve("store")).build(),
            b -> b.warmUp(true))) {
      assertEquals(List.of(), capture.lines(), "no access log lines from the warm-up");
      String text = server.get("/metrics").body();
      assertEquals(0.0, SymbolicationServerTest.metric(text, "gsym_serve_frames_total"), text);
      assertEquals(0.0, SymbolicationServerTest.metric(text, "gsym_symbolize_lookups_total"), text);
      assertEquals(0.0, SymbolicationServerTest.metric(text, "gsym_symbolize_open_modules"), text);
      assertEquals(200, server.get("/healthz").statusCode());
    }
  }
}
