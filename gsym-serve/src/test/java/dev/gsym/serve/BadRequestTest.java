package dev.gsym.serve;

import static dev.gsym.serve.ServeFixtures.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.Slow;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a client can send wrong: each gets a 4xx with {@code {"error": {"kind", "message"}}} and no
 * stack trace, reading stops at the limits, and the server keeps answering afterwards.
 */
@Slow
class BadRequestTest {
  static TestServer server;
  static final String ELF = ServeFixtures.bin("c-clang-O2").toAbsolutePath().toString();

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer(Symbolizer.builder().build(),
        b -> b.maxRequestBytes(64 * 1024).maxFrames(1000).maxModules(50).idleTimeout(Duration.ofSeconds(1)));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** One module, the frames given. */
  static String body(String frames) {
    return "{\"modules\": [{\"path\": " + str(ELF) + "}], \"stacks\": [{\"frames\": [" + frames + "]}]}";
  }

  /** Asserts the status and error kind, a message, and nothing of a stack trace. */
  static JsonNode refused(HttpResponse<String> r, int status, String kind) {
    assertEquals(status, r.statusCode(), r.body());
    assertEquals("application/json", r.headers().firstValue("content-type").orElse(null), r.body());
    JsonNode e = TestServer.json(r).get("error");
    assertEquals(kind, e.get("kind").asString(), r.body());
    assertFalse(e.get("message").asString().isEmpty());
    assertFalse(r.body().contains("Exception") || r.body().contains("\tat ") || r.body().contains(".java:"), r.body());
    return e;
  }

  @Test
  void malformedJson() throws Exception {
    for (String b : List.of("", "{", "{\"modules\": [}", "[1, 2]x", "{\"modules\": [], \"stacks\": []} {}", "nul",
        "{\"modules\": [], \"stacks\": [{\"frames\": [{\"module\": 0, \"address\": \"0x1\"}")) {
      JsonNode e = refused(server.post(b), 400, b.equals("[1, 2]x") ? "wrong_type" : "malformed_json");
      assertTrue(!e.get("message").asString().contains("\n"), e.toString());
    }
  }

  /** Words of the JSON library (its classes, features, location syntax) that must never reach a client. */
  static void ownWords(JsonNode e) {
    ownWords(e.get("message").asString());
  }

  static void ownWords(String m) {
    assertFalse(m.isEmpty());
    for (String internal : List.of("Source:", "REDACTED", "StreamRead", "JsonReadFeature", "Constraints", "`", "#UNKNOWN",
        "code ", "jackson", "Jackson", "VALUE_", "\n")) {
      assertFalse(m.contains(internal), "message with \"" + internal + "\": " + m);
    }
  }

  /**
   * Each way JSON can be malformed is answered in our words with where: line, column, byte offset
   * and the JSON pointer of the value being read; Jackson's own messages named its classes and
   * features ("[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)...").
   */
  @Test
  void malformedJsonIsDescribedWithItsPlace() throws Exception {
    record Case(String body, String kind, String message) {}
    for (Case c : List.of(
        new Case("{", "malformed_json", "malformed JSON: the body ends inside an object at line 1, column 2 (byte 1)"),
        new Case("{\"modules\": [}", "malformed_json",
            "malformed JSON: unexpected '}' after '{\"modules\": [' at line 1, column 14 (byte 13), in /modules"),
        new Case("{\"modules\": [{\"path\": \"/x", "malformed_json",
            "malformed JSON: the body ends inside a string at line 1, column 26 (byte 25), in /modules/0/path"),
        new Case("{\"modules\": [], \"stacks\": [{\"frames\": [{\"module\": 0, \"address\": \"0x1\"}", "malformed_json",
            "malformed JSON: the body ends inside an array at line 1, column 71 (byte 70), in /stacks/0/frames/0"),
        new Case("nul", "malformed_json", "malformed JSON: unexpected 'nul' at line 1, column 1 (byte 0)"),
        new Case("{\"modules\": tru}", "malformed_json",
            "malformed JSON: unexpected 'tru}' after '{\"modules\": ' at line 1, column 13 (byte 12), in /modules"),
        // Jackson points after a token it refuses: the text before shows it
        new Case("{\"modules\": [],\n \"stacks\": NaN}", "malformed_json",
            "malformed JSON: unexpected '}' after ' \"stacks\": NaN' at line 2, column 15 (byte 30), in /stacks"),
        new Case("{\"modules\": [{\"path\": \"\\q\"}]}", "malformed_json", "malformed JSON: unexpected 'q\"}]}' after"
            + " 's\": [{\"path\": \"\\' at line 1, column 25 (byte 24), in /modules/0/path"),
        new Case("{\"modules\": [{\"path\": \"\u0001\"}]}", "malformed_json", "malformed JSON: unexpected '\\x01\"}]}' after"
            + " 'es\": [{\"path\": \"' at line 1, column 24 (byte 23), in /modules/0/path"),
        new Case("{\"modules\" []}", "malformed_json",
            "malformed JSON: unexpected '[]}' after '{\"modules\" ' at line 1, column 12 (byte 11), in /modules"),
        new Case("{\"modules\": [], \"stacks\": [], }", "malformed_json",
            "malformed JSON: unexpected '}' after ', \"stacks\": [], ' at line 1, column 31 (byte 30), in /stacks"),
        new Case("{\"modules\": [], \"stacks\": []} {}", "malformed_json",
            "malformed JSON: content after the request object at line 1, column 31 (byte 30)"),
        new Case("{\"modules\": [], \"x\": 01}", "malformed_json",
            "malformed JSON: unexpected '1}' after 'les\": [], \"x\": 0' at line 1, column 23 (byte 22), in /x"),
        new Case("{\"modules\": [], \"x\": [1 2]}", "malformed_json",
            "malformed JSON: unexpected '2]}' after 's\": [], \"x\": [1 ' at line 1, column 25 (byte 24), in /x/1"),
        new Case("{\"modules\": [\u00ff]}", "malformed_json", "malformed JSON: unexpected '\\xbf]}' after"
            + " '{\"modules\": [\\xc3' at line 1, column 15 (byte 14), in /modules/0"),
        new Case("\n\n   {\"modules\": [\n  x", "malformed_json",
            "malformed JSON: unexpected 'x' after '  ' at line 4, column 3 (byte 21), in /modules/0"),
        // past the first reads of the body (the text shown is kept from the last 8 KiB read)
        new Case(" ".repeat(20_000) + "{\"modules\": [}", "malformed_json", "malformed JSON: unexpected '}' after"
            + " '   {\"modules\": [' at line 1, column 20014 (byte 20013), in /modules"))) {
      JsonNode e = refused(server.post(c.body), 400, c.kind);
      ownWords(e);
      assertEquals(c.message, e.get("message").asString(), c.body.strip());
    }
  }

  /**
   * The parser's limits, in our words, with where the parser reached the limit (after the string,
   * name or number, at the bracket too many) and the value's JSON pointer.
   */
  @Test
  void jsonLimitsAreDescribedWithTheirPlace() throws Exception {
    String longString = "{\"modules\": [{\"path\": \"/" + "x".repeat(20_000) + "\"}], \"stacks\": []}";
    String longName = "{\"modules\": [{\"" + "n".repeat(300) + "\": 1}], \"stacks\": []}";
    String longNumber = "{\"modules\": [], \"stacks\": [{\"frames\": [{\"module\": 0, \"address\": " + "1".repeat(70)
        + "}]}]}";
    String deep = "{\"modules\": [], \"stacks\": [], \"x\": " + "[".repeat(20) + "]".repeat(20) + "}";
    for (String[] c : new String[][] {
        {longString, "request exceeds a JSON limit: a string longer than 16384 characters at line 1, column 20026"
            + " (byte 20025), in /modules/0/path"},
        {longName, "request exceeds a JSON limit: a property name longer than 256 characters at line 1, column 317"
            + " (byte 316), in /modules/0"},
        {longNumber, "request exceeds a JSON limit: a number longer than 64 characters at line 1, column 135 (byte 134),"
            + " in /stacks/0/frames/0/address"},
        {deep, "request exceeds a JSON limit: arrays and objects nested deeper than 16 levels at line 1, column 52"
            + " (byte 51), in /x" + "/0".repeat(15)}}) {
      JsonNode e = refused(server.post(c[0]), 400, "limit_exceeded");
      ownWords(e);
      assertEquals(c[1], e.get("message").asString());
    }
  }

  /** Our own refusals of types and values say where too: the field, line, column and byte offset. */
  @Test
  void wrongTypesSayWhere() throws Exception {
    JsonNode e = refused(server.post("{\"modules\": [], \"stacks\": [{\"frames\": [{\"module\": 0, \"address\": true}]}]}"),
        400, "wrong_type");
    ownWords(e);
    assertEquals("stacks[0].frames[0].address must be a \"0x...\" hex string or a non-negative integer (found a boolean"
        + " at line 1, column 65 (byte 64))", e.get("message").asString());
    JsonNode n = refused(server.post(body("{\"module\": 1e400, \"address\": 1}")), 400, "wrong_type");
    ownWords(n);
    assertTrue(n.get("message").asString().startsWith("stacks[0].frames[0].module must be a module index (an integer)"
        + " (found a number at line 1, column "), n.toString());
  }

  /**
   * A body that is not text in the encoding its first bytes suggest (here UTF-32LE, from a fuzzing
   * finding) is malformed JSON, answered 400; it was taken for a failed read and the connection
   * dropped without an answer.
   */
  @Test
  void badCharacterEncoding() throws Exception {
    for (String b : List.of("{\0\0\0\0w5\u0094\0\n  \"modules\": []", "\0\0\0{\u00ff\u00ff\u00ff\u00ff", "\u00fe\u00ff\ud800")) {
      JsonNode e = refused(server.post(b), 400, "malformed_json");
      ownWords(e);
      if (b.startsWith("\u00fe")) continue; // UTF-8 that is not JSON (no byte order mark): an unexpected byte
      assertEquals("malformed JSON: the body is not text in UTF-8, UTF-16 or UTF-32", e.get("message").asString());
    }
  }

  @Test
  void wrongTypesAndMissingFields() throws Exception {
    refused(server.post("[]"), 400, "wrong_type");
    refused(server.post("{\"modules\": {}, \"stacks\": []}"), 400, "wrong_type");
    refused(server.post("{\"modules\": [1], \"stacks\": []}"), 400, "wrong_type");
    refused(server.post("{\"modules\": [{\"path\": 7}], \"stacks\": []}"), 400, "wrong_type");
    refused(server.post(body("{\"module\": \"0\", \"address\": \"0x1\"}")), 400, "wrong_type");
    refused(server.post(body("{\"module\": 0, \"address\": true}")), 400, "wrong_type");
    refused(server.post(body("{\"module\": 0, \"address\": 1.5}")), 400, "wrong_type");
    refused(server.post(body("{\"module\": 0}")), 400, "missing_field");
    refused(server.post(body("{\"address\": 1}")), 400, "missing_field");
    refused(server.post("{\"stacks\": []}"), 400, "missing_field");
    refused(server.post("{\"modules\": []}"), 400, "missing_field");
    refused(server.post("{\"modules\": [], \"stacks\": [{}]}"), 400, "missing_field");
    refused(server.post(body("") .replace("}]}", "}], \"options\": {\"inlines\": 1}}")), 400, "wrong_type");
  }

  @Test
  void unknownModuleIndexes() throws Exception {
    JsonNode e = refused(server.post(body("{\"module\": 0, \"address\": 1}, {\"module\": 1, \"address\": 1}")), 400,
        "unknown_module");
    assertTrue(e.get("message").asString().contains("stacks[0].frames[1]"), e.toString());
    refused(server.post(body("{\"module\": -1, \"address\": 1}")), 400, "unknown_module");
    refused(server.post(body("{\"module\": 99999999999, \"address\": 1}")), 400, "unknown_module");
  }

  @Test
  void badAddresses() throws Exception {
    for (String a : List.of("\"0xZZ\"", "\"1234\"", "\"0x\"", "\"-0x1\"", "\"0x1ffffffffffffffff\"", "-1",
        "18446744073709551616", "\"0x 1\"", "\"\"")) {
      refused(server.post(body("{\"module\": 0, \"address\": " + a + "}")), 400, "invalid_address");
    }
    // the extremes that are addresses
    for (String a : List.of("\"0xffffffffffffffff\"", "18446744073709551615", "\"0x0000000000000000001179\"", "0")) {
      HttpResponse<String> r = server.post(body("{\"module\": 0, \"address\": " + a + "}"));
      assertEquals(200, r.statusCode(), a + ": " + r.body());
    }
  }

  @Test
  void unknownFieldsAreSkippedUnknownOptionsRefused() throws Exception {
    String extra = "{\"modules\": [{\"path\": " + str(ELF) + ", \"name\": \"c\", \"x\": {\"deep\": [1, 2]}}],"
        + " \"stacks\": [{\"frames\": [{\"module\": 0, \"address\": \"0x1179\", \"trust\": \"cfi\"}], \"thread\": 3}],"
        + " \"client\": {\"v\": [true]}}";
    HttpResponse<String> r = server.post(extra);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(TestServer.json(server.post(body("{\"module\": 0, \"address\": \"0x1179\"}"))), TestServer.json(r));
    refused(server.post(body("").replace("}]}", "}], \"options\": {\"demangel\": false}}")), 400, "unknown_option");
    refused(server.post(body("").replace("}]}", "}], \"options\": {\"adjust_addresses\": \"first\"}}")), 400,
        "invalid_option");
    refused(server.post(body("").replace("}]}", "}], \"options\": {\"adjust_addresses\": true}}")), 400, "wrong_type");
  }

  @Test
  void notFoundAndMethodNotAllowed() throws Exception {
    refused(server.get("/"), 404, "not_found");
    refused(server.get("/symbolicate/x"), 404, "not_found");
    HttpResponse<String> r = server.get("/symbolicate");
    refused(r, 405, "method_not_allowed");
    assertEquals("POST", r.headers().firstValue("allow").orElse(null));
    refused(server.send(HttpRequest.newBuilder(server.uri("/healthz")).POST(HttpRequest.BodyPublishers.ofString("x"))),
        405, "method_not_allowed");
  }

  @Test
  void bodyOverTheLimit() throws Exception {
    String big = body("{\"module\": 0, \"address\": 1}").replace("}]}]}", "}]}], \"pad\": ["
        + "1,".repeat(40_000) + "1]}");
    assertTrue(big.length() > 64 * 1024);
    // with a Content-Length: refused before reading
    refused(server.post(big), 413, "body_too_large");
    // chunked, no length: refused when the limit is reached
    HttpResponse<String> r = server.send(HttpRequest.newBuilder(server.uri("/symbolicate"))
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes()))));
    refused(r, 413, "body_too_large");
    assertEquals(200, server.get("/healthz").statusCode());
  }

  @Test
  void tooManyFramesAndModules() throws Exception {
    refused(server.post(body("{\"module\": 0, \"address\": 1},".repeat(1000) + "{\"module\": 0, \"address\": 1}")), 413,
        "too_many_frames");
    assertEquals(200, server.post(body("{\"module\": 0, \"address\": 1},".repeat(999) + "{\"module\": 0, \"address\": 1}"))
        .statusCode());
    String modules = ("{\"path\": " + str(ELF) + "},").repeat(50) + "{\"path\": " + str(ELF) + "}";
    refused(server.post("{\"modules\": [" + modules + "], \"stacks\": []}"), 413, "too_many_modules");
  }

  /**
   * A million frames (about 40 MB) streamed to a server with the default limits but a large body
   * limit: refused at frame 100,001 without reading the rest or growing the heap by the body.
   */
  @Test
  void aMillionFramesStopAtTheFrameLimit() throws Exception {
    try (TestServer big = new TestServer(Symbolizer.builder().build(), b -> b.maxRequestBytes(1L << 30))) {
      byte[] head = ("{\"modules\": [{\"path\": " + str(ELF) + "}], \"stacks\": [{\"frames\": [").getBytes();
      byte[] frame = "{\"module\": 0, \"address\": \"0x1179\"},".getBytes();
      Iterator<byte[]> chunks = new Iterator<>() {
        int n = -1;

        @Override
        public boolean hasNext() {
          return n <= 1000;
        }

        @Override
        public byte[] next() {
          if (!hasNext()) throw new NoSuchElementException();
          if (n++ < 0) return head;
          if (n == 1001) return "{\"module\": 0, \"address\": 1}]}]}".getBytes();
          byte[] b = new byte[frame.length * 1000];
          for (int i = 0; i < 1000; i++) System.arraycopy(frame, 0, b, i * frame.length, frame.length);
          return b;
        }
      };
      HttpResponse<String> r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        try {
          return big.send(HttpRequest.newBuilder(big.uri("/symbolicate")).POST(HttpRequest.BodyPublishers.fromPublisher(
              HttpRequest.BodyPublishers.ofByteArrays(() -> chunks))));
        } catch (java.io.IOException closed) {
          // the server answers and closes while the client is still sending: a client that does not
          // read before it has sent everything (the JDK's) may see the close and not the answer
          return null;
        }
      });
      if (r != null) {
        refused(r, 413, "too_many_frames");
        assertTrue(TestServer.json(r).get("error").get("message").asString().contains("100000"), r.body());
      }
      assertTrue(chunks.hasNext(), "the server stopped reading before the end of the body");
      String metrics = big.get("/metrics").body();
      assertEquals(1, SymbolicationServerTest.metric(metrics, "gsym_serve_errors_total{kind=\"too_many_frames\"}"),
          metrics);
    }
  }

  /**
   * A client that sends half a body and then nothing: the idle timeout (1 s here) closes the
   * connection, and the server keeps serving others meanwhile and afterwards.
   */
  @Test
  void slowClientIsTimedOut() throws Exception {
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      try (Socket s = new Socket("127.0.0.1", server.server.port())) {
        OutputStream out = s.getOutputStream();
        out.write(("POST /symbolicate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            + "{\"modules\": [").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertEquals(200, server.get("/healthz").statusCode(), "others are served meanwhile");
        long t0 = System.nanoTime();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        StringBuilder got = new StringBuilder();
        try {
          for (int n; (n = in.read(buf)) > 0; ) got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        } catch (java.net.SocketException reset) {
          // a reset is a closed connection too
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 15, "closed after " + seconds + " s");
        assertFalse(got.toString().contains("Exception"), got.toString());
      }
      assertEquals(200, server.get("/healthz").statusCode());
      String metrics = server.get("/metrics").body();
      assertTrue(SymbolicationServerTest.metric(metrics, "gsym_serve_errors_total{kind=\"timeout\"}") >= 1, metrics);
    });
  }

  /**
   * A client that keeps the connection alive with a byte every 300 ms (under the idle timeout) but
   * sends far slower than the minimum data rate (1 KiB/s) is cut off all the same.
   */
  @Test
  void dribblingClientIsCutOff() throws Exception {
    assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
      try (Socket s = new Socket("127.0.0.1", server.server.port())) {
        OutputStream out = s.getOutputStream();
        out.write(("POST /symbolicate HTTP/1.1\r\nHost: x\r\nContent-Length: 30000\r\n\r\n{\"modules\": [")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        long t0 = System.nanoTime();
        String answer = null;
        try {
          for (int i = 0; i < 100 && answer == null; i++) {
            Thread.sleep(300);
            out.write(' ');
            out.flush();
            if (s.getInputStream().available() > 0) {
              byte[] buf = new byte[4096];
              int n = s.getInputStream().read(buf);
              answer = new String(buf, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1);
            }
          }
        } catch (java.io.IOException closed) {
          answer = "closed: " + closed;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(answer != null, "still sending after " + seconds + " s");
        assertTrue(seconds < 25, "cut off after " + seconds + " s");
        assertTrue(answer.startsWith("HTTP/1.1 408 ") && answer.contains("\"kind\":\"timeout\""), answer);
      }
      assertEquals(200, server.get("/healthz").statusCode());
    });
  }

  @Test
  void garbageHttpGetsJsonOrClose() throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.server.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write("BLAH\0 / HTTP/9\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      byte[] all = s.getInputStream().readAllBytes();
      String text = new String(all, StandardCharsets.ISO_8859_1);
      assertTrue(text.isEmpty() || text.startsWith("HTTP/1.1 4"), text);
      assertFalse(text.contains("Exception") || text.contains("<html"), text);
    }
    assertEquals(200, server.get("/healthz").statusCode());
  }
}
