package dev.gsym.serve;

import static dev.gsym.serve.ServeFixtures.hex;
import static dev.gsym.serve.ServeFixtures.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load with a real HTTP load generator, Debian's {@code wrk}, on loopback: 100-frame requests at 16
 * and at 256 connections for a few seconds each. Asserts that every request was answered with a 2xx
 * and no socket error, within a bounded time; throughput is measured by bench/serve-load.sh, not
 * here. A reported skip without wrk (a failure under -Dgsym.requireTools=true).
 */
@StartsProcesses
class LoadTest {
  @TempDir Path tmp;

  @Test
  void wrkGetsOnly2xxAnswers() throws Exception {
    Path wrk = Tools.require(Path.of("/usr/bin/wrk"), "/usr/bin/wrk (Debian package wrk)");
    Path gsym = ServeFixtures.gsym("cpp-clang-O2").toAbsolutePath();
    List<Long> addresses = ServeFixtures.functionAddresses(gsym);
    StringBuilder b = new StringBuilder("{\"modules\": [{\"path\": " + str(gsym.toString())
        + "}], \"stacks\": [{\"frames\": [");
    for (int i = 0; i < 100; i++) {
      b.append(i > 0 ? "," : "").append("{\"module\": 0, \"address\": \"").append(hex(addresses.get(i % addresses.size())))
          .append("\"}");
    }
    Path body = tmp.resolve("body.json");
    Files.writeString(body, b.append("]}]}").toString());
    try (TestServer server = new TestServer(Symbolizer.builder().build(), x -> x)) {
      assertEquals(200, server.post(Files.readString(body)).statusCode());
      for (int connections : new int[] {16, 256}) {
        Map<String, Long> r = wrk(wrk, body, server.server.port(), connections, 4);
        String at = connections + " connections: " + r;
        assertTrue(r.get("requests") > 0, at);
        for (String e : List.of("errors_connect", "errors_read", "errors_write", "errors_status", "errors_timeout")) {
          assertEquals(0, r.get(e), e + " at " + at);
        }
      }
      double frames = SymbolicationServerTest.metric(server.get("/metrics").body(), "gsym_serve_frames_total");
      assertTrue(frames >= 100, "frames counted: " + frames);
    }
  }

  /** Runs wrk for {@code seconds}; the summary line of bench/serve-load.lua as a map. */
  Map<String, Long> wrk(Path wrk, Path body, int port, int connections, int seconds) throws Exception {
    Path lua = TestData.repoRoot().resolve("bench/serve-load.lua");
    Path out = tmp.resolve("wrk-" + connections + ".txt");
    ProcessBuilder pb = new ProcessBuilder(wrk.toString(), "-t2", "-c" + connections, "-d" + seconds + "s",
        "--timeout", "10s", "-s", lua.toString(), "http://127.0.0.1:" + port + "/symbolicate")
        .redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().put("GSYM_BODY", body.toString());
    Process p = pb.start();
    if (!p.waitFor(seconds + 60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("wrk did not finish within " + (seconds + 60) + " s: " + Files.readString(out));
    }
    String text = Files.readString(out);
    assertEquals(0, p.exitValue(), text);
    Matcher m = Pattern.compile("^GSYM (.*)$", Pattern.MULTILINE).matcher(text);
    assertTrue(m.find(), text);
    Map<String, Long> r = new HashMap<>();
    for (String kv : m.group(1).trim().split(" ")) {
      String[] x = kv.split("=");
      r.put(x[0], Long.parseLong(x[1]));
    }
    System.err.println("LoadTest: " + connections + " connections, " + seconds + " s: " + m.group(1));
    return r;
  }
}
