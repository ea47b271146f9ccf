package dev.gsym.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.minidump.Minidump;
import dev.gsym.stackwalk.BreakpadSymbolDirectories;
import dev.gsym.stackwalk.StackwalkJson;
import dev.gsym.stackwalk.Stackwalker;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /minidump} on a running server on loopback, with a real HTTP client: the raw body,
 * a multipart form as Breakpad's and Crashpad's uploaders send it (also from {@code curl -F}, also
 * gzip-encoded), the answer exactly {@link StackwalkJson}'s report of the dump walked with the same
 * symbols; bad dumps (400 naming the offset), bad forms, oversized uploads (413, also decoded and
 * chunked), the metrics; and a few seconds of load from {@code wrk}.
 */
@StartsProcesses
class MinidumpServeTest {
  @TempDir static Path tmp;

  static BreakpadSymbolDirectories symbols;
  static TestServer server;

  static Path corpus() {
    return TestData.repoRoot().resolve("src-test-data").resolve("minidump");
  }

  static Path dump(String name) {
    return corpus().resolve("dumps").resolve(name + ".dmp");
  }

  @BeforeAll
  static void start() throws IOException {
    // the corpus's own programs' symbols (crasher, libcrashlib.so) are plain .sym files
    symbols = new BreakpadSymbolDirectories(List.of(corpus().resolve("symbols")), null);
    server = new TestServer(Symbolizer.builder().build(), b -> b.minidumpSymbols(symbols).maxMinidumpBytes(200_000));
  }

  @AfterAll
  static void stop() {
    server.close();
    symbols.close();
  }

  /** The report of {@code dump} as StackwalkJson prints it with the server's symbols, and a newline. */
  static String expected(Path dump) throws IOException {
    try (Minidump d = Minidump.open(dump)) {
      return StackwalkJson.json(Stackwalker.builder().maxFrames(MinidumpEndpoint.MAX_FRAMES_PER_THREAD).symbols(symbols)
          .build().walk(d), StackwalkJson.DumpDetails.of(d), false) + "\n";
    }
  }

  static HttpResponse<String> post(HttpRequest.BodyPublisher body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(server.uri("/minidump")).POST(body);
    if (headers.length > 0) b.headers(headers);
    return server.send(b);
  }

  static byte[] multipart(String boundary, byte[] dump) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String head = "preamble, ignored\r\n"
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"prod\"\r\n\r\nCrasher\r\n"
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"ver\"\r\n\r\n1.0\r\n"
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"upload_file_minidump\"; filename=\"x.dmp\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n";
    out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
    out.writeBytes(dump);
    out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(b);
    }
    return out.toByteArray();
  }

  @Test
  void rawBodyAndFormsAnswerTheReport() throws Exception {
    Path d = dump("x86_64-fp-lib");
    byte[] bytes = Files.readAllBytes(d);
    String expected = expected(d);
    // the symbols were used: the crashing frame has a function name
    assertThat(TestServer.JSON.readTree(expected).get("crashing_thread").get("frames").get(0).get("function").asString())
        .isNotEmpty();

    HttpResponse<String> raw = post(HttpRequest.BodyPublishers.ofByteArray(bytes), "Content-Type", "application/octet-stream");
    assertThat(raw.statusCode()).isEqualTo(200);
    assertThat(raw.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(raw.body()).isEqualTo(expected);

    HttpResponse<String> form = post(HttpRequest.BodyPublishers.ofByteArray(multipart("b0undary", bytes)),
        "Content-Type", "multipart/form-data; boundary=\"b0undary\"");
    assertThat(form.statusCode()).as(form.body()).isEqualTo(200);
    assertThat(form.body()).isEqualTo(expected);

    // Crashpad: the whole form gzip-encoded
    HttpResponse<String> gz = post(HttpRequest.BodyPublishers.ofByteArray(gzip(multipart("crashpad-boundary", bytes))),
        "Content-Type", "multipart/form-data; boundary=crashpad-boundary", "Content-Encoding", "gzip");
    assertThat(gz.statusCode()).as(gz.body()).isEqualTo(200);
    assertThat(gz.body()).isEqualTo(expected);

    // chunked (no Content-Length)
    HttpResponse<String> chunked = post(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)));
    assertThat(chunked.body()).isEqualTo(expected);
  }

  @Test
  void curlUploadsAsBreakpadDoes() throws Exception {
    Path curl = Tools.require(Path.of("/usr/bin/curl"), "/usr/bin/curl (Debian package curl)");
    Path d = dump("i386-fp-thread");
    Process p = new ProcessBuilder(curl.toString(), "-sS", "-F", "prod=crasher", "-F", "ver=1",
        "-F", "upload_file_minidump=@" + d + ";type=application/octet-stream", server.uri("/minidump").toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    assertThat(new String(out, StandardCharsets.UTF_8)).isEqualTo(expected(d));
  }

  @Test
  void badInputIsA400NamingTheProblem() throws Exception {
    byte[] bytes = Files.readAllBytes(dump("x86_64-fp-null"));
    HttpResponse<String> truncated = post(HttpRequest.BodyPublishers.ofByteArray(Arrays.copyOf(bytes, 200)));
    assertError(truncated, 400, "bad_minidump");
    assertThat(TestServer.json(truncated).get("error").get("message").asString()).matches("minidump: offset 0x[0-9a-f]{8}: .+");

    assertError(post(HttpRequest.BodyPublishers.ofString("this is no minidump at all, just some text")), 400, "bad_minidump");
    assertError(post(HttpRequest.BodyPublishers.noBody()), 400, "bad_minidump");
    // a form without the dump's part, one without its closing boundary, one without a boundary
    String noPart = "--b\r\nContent-Disposition: form-data; name=\"prod\"\r\n\r\nx\r\n--b--\r\n";
    HttpResponse<String> r = post(HttpRequest.BodyPublishers.ofString(noPart), "Content-Type", "multipart/form-data; boundary=b");
    assertError(r, 400, "bad_multipart");
    assertThat(TestServer.json(r).get("error").get("message").asString()).contains("upload_file_minidump");
    String open = "--b\r\nContent-Disposition: form-data; name=\"upload_file_minidump\"\r\n\r\nMDMP....";
    assertError(post(HttpRequest.BodyPublishers.ofString(open), "Content-Type", "multipart/form-data; boundary=b"), 400,
        "bad_multipart");
    assertError(post(HttpRequest.BodyPublishers.ofString(noPart), "Content-Type", "multipart/form-data"), 400, "bad_multipart");
    // a body that is not gzip, and an encoding the server does not know
    assertError(post(HttpRequest.BodyPublishers.ofByteArray(bytes), "Content-Encoding", "gzip"), 400, "bad_encoding");
    assertError(post(HttpRequest.BodyPublishers.ofByteArray(bytes), "Content-Encoding", "br"), 415, "unsupported_encoding");
    // GET is not allowed
    HttpResponse<String> get = server.get("/minidump");
    assertError(get, 405, "method_not_allowed");
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
  }

  @Test
  void oversizedUploadsAre413() throws Exception {
    // a server of its own with a small limit (16 KiB): the whole refused body fits in the loopback
    // sockets' buffers, so the server closing the connection after its answer (it reads nothing of
    // a body whose Content-Length is over the limit) cannot reset it before the client reads the answer
    try (TestServer own = new TestServer(Symbolizer.builder().build(), b -> b.minidumpSymbols(symbols).maxMinidumpBytes(16_384))) {
      byte[] big = new byte[16_384 + 4096];
      System.arraycopy(Files.readAllBytes(dump("x86_64-fp-null")), 0, big, 0, 1000);
      assertError(own.send(HttpRequest.newBuilder(own.uri("/minidump")).POST(HttpRequest.BodyPublishers.ofByteArray(big))),
          413, "body_too_large");
      // chunked: the limit is found while reading
      assertError(own.send(HttpRequest.newBuilder(own.uri("/minidump"))
          .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))), 413, "body_too_large");
      // a small gzip body that decodes past the limit
      byte[] bomb = gzip(new byte[5_000_000]);
      assertThat(bomb.length).isLessThan(16_384);
      assertError(own.send(HttpRequest.newBuilder(own.uri("/minidump")).POST(HttpRequest.BodyPublishers.ofByteArray(bomb))
          .header("Content-Encoding", "gzip")), 413, "body_too_large");
    }
  }

  @Test
  void metricsCountDumpsFramesAndWalkTime() throws Exception {
    try (TestServer own = new TestServer(Symbolizer.builder().build(), b -> b.minidumpSymbols(symbols))) {
      Path d = dump("x86_64-nofp-thread");
      int frames = 0;
      for (JsonNode t : TestServer.JSON.readTree(expected(d)).get("threads")) {
        for (JsonNode f : t.get("frames")) frames += 1 + (f.get("inlines").isNull() ? 0 : f.get("inlines").size());
      }
      byte[] bytes = Files.readAllBytes(d);
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> r = own.send(HttpRequest.newBuilder(own.uri("/minidump")).POST(HttpRequest.BodyPublishers.ofByteArray(bytes)));
        assertThat(r.statusCode()).isEqualTo(200);
      }
      own.send(HttpRequest.newBuilder(own.uri("/minidump")).POST(HttpRequest.BodyPublishers.ofString("no dump")));
      String m = own.get("/metrics").body();
      assertThat(SymbolicationServerTest.metric(m, "gsym_serve_minidumps_total")).isEqualTo(3.0);
      assertThat(SymbolicationServerTest.metric(m, "gsym_serve_minidump_frames_total")).isEqualTo(3.0 * frames);
      assertThat(SymbolicationServerTest.metric(m, "gsym_serve_minidump_walk_seconds_count")).isEqualTo(3.0);
      assertThat(SymbolicationServerTest.metric(m, "gsym_serve_minidump_walk_seconds_sum")).isGreaterThan(0.0);
      assertThat(SymbolicationServerTest.metric(m, "gsym_serve_errors_total{kind=\"bad_minidump\"}")).isEqualTo(1.0);
      assertThat(SymbolicationServerTest.metric(m, "gsym_serve_requests_total{endpoint=\"minidump\",status=\"200\"}"))
          .isEqualTo(3.0);
    }
  }

  @Test
  void wrkGetsOnly2xxAnswers() throws Exception {
    Path wrk = Tools.require(Path.of("/usr/bin/wrk"), "/usr/bin/wrk (Debian package wrk)");
    try (TestServer own = new TestServer(Symbolizer.builder().build(), b -> b.minidumpSymbols(symbols))) {
      Path lua = TestData.repoRoot().resolve("bench/serve-load.lua");
      Path out = tmp.resolve("wrk-minidump.txt");
      int seconds = 3;
      ProcessBuilder pb = new ProcessBuilder(wrk.toString(), "-t2", "-c8", "-d" + seconds + "s", "--timeout", "10s",
          "-s", lua.toString(), own.uri("/minidump").toString()).redirectErrorStream(true).redirectOutput(out.toFile());
      pb.environment().put("GSYM_BODY", dump("x86_64-fp-lib").toString());
      pb.environment().put("GSYM_CONTENT_TYPE", "application/octet-stream");
      Process p = pb.start();
      if (!p.waitFor(seconds + 60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("wrk did not finish: " + Files.readString(out));
      }
      String text = Files.readString(out);
      assertThat(p.exitValue()).as(text).isZero();
      Matcher line = Pattern.compile("^GSYM (.*)$", Pattern.MULTILINE).matcher(text);
      assertThat(line.find()).as(text).isTrue();
      Map<String, Long> r = new HashMap<>();
      for (String kv : line.group(1).trim().split(" ")) r.put(kv.split("=")[0], Long.parseLong(kv.split("=")[1]));
      assertThat(r.get("requests")).as(text).isPositive();
      for (String e : List.of("errors_connect", "errors_read", "errors_write", "errors_status", "errors_timeout")) {
        assertThat(r.get(e)).as(e + " in " + text).isZero();
      }
      // every request walked its dump (wrk may count a request or two cut off at its end)
      double walked = SymbolicationServerTest.metric(own.get("/metrics").body(), "gsym_serve_minidumps_total");
      assertThat(walked).isGreaterThanOrEqualTo(r.get("requests"));
    }
  }

  /** The walk of a dump is bounded: 1,024 frames per thread, fewer when there are many threads. */
  @Test
  void framesPerThreadKeepsADumpsWalkBounded() {
    assertThat(MinidumpEndpoint.framesPerThread(1)).isEqualTo(1024);
    assertThat(MinidumpEndpoint.framesPerThread(128)).isEqualTo(1024);
    assertThat(MinidumpEndpoint.framesPerThread(512)).isEqualTo(256);
    // the reader's most threads (4,096): 64 each, 262,144 frames at most
    assertThat(MinidumpEndpoint.framesPerThread(4096)).isEqualTo(64);
    for (int t = 1; t <= 4096; t++) {
      assertThat((long) t * MinidumpEndpoint.framesPerThread(t)).isLessThanOrEqualTo(Math.max(MinidumpEndpoint.FRAME_BUDGET, 64L * t));
    }
  }

  private static void assertError(HttpResponse<String> r, int status, String kind) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(TestServer.json(r).get("error").get("kind").asString()).isEqualTo(kind);
  }
}
