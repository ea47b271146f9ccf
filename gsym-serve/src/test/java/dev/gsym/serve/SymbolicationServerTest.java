package dev.gsym.serve;

import static dev.gsym.serve.ServeFixtures.hex;
import static dev.gsym.serve.ServeFixtures.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.demangle.Demangler;
import dev.gsym.symbolize.AddressMode;
import dev.gsym.symbolize.Frame;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /symbolicate}, {@code GET /healthz} and {@code GET /metrics} on a server started on a
 * loopback port, through the JDK's HTTP client. Every answer is compared with what the Symbolizer
 * itself answers for the same module and address (a second symbolizer, not the server's).
 */
class SymbolicationServerTest {
  @TempDir static Path tmp;
  static TestServer server;
  static Symbolizer reference;
  static final Demangler DEMANGLER = Demangler.llvm();
  static String buildId;

  @BeforeAll
  static void start() throws Exception {
    Path debug = ServeFixtures.debugDirectory(tmp.resolve("debug"), ServeFixtures.bin("cpp-gcc-O2"));
    buildId = ServeFixtures.buildId(ServeFixtures.bin("cpp-gcc-O2"));
    server = new TestServer(Symbolizer.builder().store(tmp.resolve("store"))
        .addSource(Source.DebugDirectories.of(debug)).threads(2).build(), b -> b);
    reference = Symbolizer.builder().addSource(Source.DebugDirectories.of(debug)).build();
  }

  @AfterAll
  static void stop() {
    server.close();
    reference.close();
  }

  /** The modules of the requests below, as JSON and as the reference asks for them. */
  record Module(String json, ModuleRef ref, List<Long> addresses) {}

  static List<Module> modules() throws Exception {
    Path elf = ServeFixtures.bin("c-clang-O2").toAbsolutePath();
    Path gsym = ServeFixtures.gsym("cpp-clang-O2").toAbsolutePath();
    return List.of(
        new Module("{\"path\": " + str(elf.toString()) + "}", ModuleRef.file(elf),
            ServeFixtures.functionAddresses(ServeFixtures.gsym("c-clang-O2"))),
        new Module("{\"path\": " + str(gsym.toString()) + "}", ModuleRef.file(gsym),
            ServeFixtures.functionAddresses(gsym)),
        new Module("{\"build_id\": " + str(buildId) + "}", ModuleRef.buildId(buildId),
            ServeFixtures.functionAddresses(ServeFixtures.gsym("cpp-gcc-O2"))));
  }

  /** A request with one stack per module over its addresses, plus the given extra frames. */
  static String request(List<Module> modules, String options, boolean numbers) {
    StringBuilder b = new StringBuilder("{\"modules\": [");
    for (int i = 0; i < modules.size(); i++) b.append(i > 0 ? "," : "").append(modules.get(i).json());
    b.append("], \"stacks\": [");
    for (int m = 0; m < modules.size(); m++) {
      b.append(m > 0 ? "," : "").append("{\"frames\": [");
      List<Long> a = modules.get(m).addresses();
      for (int i = 0; i < a.size(); i++) {
        b.append(i > 0 ? "," : "").append("{\"module\": ").append(m).append(", \"address\": ")
            .append(numbers ? Long.toUnsignedString(a.get(i)) : str(hex(a.get(i)))).append("}");
      }
      b.append("]}");
    }
    b.append("]");
    if (options != null) b.append(", \"options\": ").append(options);
    return b.append("}").toString();
  }

  @Test
  void answersAreTheSymbolizers() throws Exception {
    List<Module> modules = modules();
    HttpResponse<String> r = server.post(request(modules, "{\"adjust_addresses\": \"none\"}", false));
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
    JsonNode answer = TestServer.json(r);
    for (int m = 0; m < modules.size(); m++) {
      assertEquals("found", answer.get("modules").get(m).get("status").asString());
      checkStack(m, modules.get(m), answer.get("stacks").get(m).get("frames"), true, true);
    }
    List<String> sources = new ArrayList<>();
    for (JsonNode m : answer.get("modules")) sources.add(m.get("source").asString());
    // converted by this server from the files named / the debug directory
    assertEquals(List.of("file", "file", "debug-dir"), sources);
  }

  @Test
  void aSecondServerOnTheStoreFindsTheModuleThere() throws Exception {
    try (TestServer second = new TestServer(Symbolizer.builder().store(tmp.resolve("store")).build(), b -> b)) {
      List<Module> modules = modules();
      server.post(request(modules, null, false)); // the first server has converted it into the store
      JsonNode answer = TestServer.json(second.post(request(modules.subList(2, 3), null, false)));
      assertEquals("store", answer.get("modules").get(0).get("source").asString(), answer.toString());
      assertEquals(0, second.symbolizer.stats().conversions());
      assertEquals(TestServer.json(server.post(request(modules.subList(2, 3), null, false))).get("stacks"),
          answer.get("stacks"));
    }
  }

  /**
   * A store entry with a damaged FunctionInfo record: the frame in that function is a malformed
   * module (its error naming the store file and offset), not an unknown address; a server with the
   * debug file converts the entry again and answers.
   */
  @Test
  void aCorruptStoreEntryIsAMalformedModule() throws Exception {
    Path store = tmp.resolve("corrupt-store");
    Path debug = ServeFixtures.debugDirectory(tmp.resolve("corrupt-debug"), ServeFixtures.bin("c-clang-O2"));
    String id = ServeFixtures.buildId(ServeFixtures.bin("c-clang-O2"));
    String body = "{\"modules\": [{\"build_id\": \"" + id + "\"}], \"stacks\": [{\"frames\": "
        + "[{\"module\": 0, \"address\": \"0x1179\"}]}]}";
    try (TestServer s = new TestServer(Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debug)).build(),
        b -> b)) {
      assertEquals("ok", TestServer.json(s.post(body)).get("stacks").get(0).get("frames").get(0).get("status").asString());
    }
    Path entry = store.resolve(id.substring(0, 2)).resolve(id.substring(2) + ".gsym");
    byte[] bytes = java.nio.file.Files.readAllBytes(entry);
    try (dev.gsym.read.GsymReader r = dev.gsym.read.GsymReader.of(bytes, "entry")) {
      long record = r.functionInfoOffset(r.indexForAddress(0x1179));
      java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) record + 12, 0x7ffffff0);
    }
    java.nio.file.Files.write(entry, bytes);
    try (TestServer s = new TestServer(Symbolizer.builder().store(store).build(), b -> b)) {
      JsonNode a = TestServer.json(s.post(body));
      assertEquals("malformed", a.get("modules").get(0).get("status").asString(), a.toString());
      String error = a.get("modules").get(0).get("error").asString();
      assertTrue(error.startsWith(entry + ": offset 0x") && error.contains("FunctionInfo data is truncated"), error);
      assertEquals("malformed_module", a.get("stacks").get(0).get("frames").get(0).get("status").asString(), a.toString());
    }
    java.nio.file.Files.write(entry, bytes);
    try (TestServer s = new TestServer(Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debug)).build(),
        b -> b)) {
      JsonNode a = TestServer.json(s.post(body));
      assertEquals("ok", a.get("stacks").get(0).get("frames").get(0).get("status").asString(), a.toString());
      assertEquals("debug-dir", a.get("modules").get(0).get("source").asString(), a.toString());
    }
  }

  @Test
  void http2AnswersAsHttp1() throws Exception {
    List<Module> modules = modules();
    String body = request(modules, null, false);
    JsonNode http1 = TestServer.json(server.post(body));
    // the JDK client upgrades a cleartext connection (h2c) on its first request
    try (HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
      HttpResponse<String> health = h2.send(HttpRequest.newBuilder(server.uri("/healthz")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(HttpClient.Version.HTTP_2, health.version());
      HttpResponse<String> r = h2.send(HttpRequest.newBuilder(server.uri("/symbolicate"))
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(HttpClient.Version.HTTP_2, r.version());
      assertEquals(200, r.statusCode(), r.body());
      assertEquals(http1, TestServer.json(r));
      HttpResponse<String> bad = h2.send(HttpRequest.newBuilder(server.uri("/symbolicate"))
          .POST(HttpRequest.BodyPublishers.ofString("{\"modules\": 3}")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(HttpClient.Version.HTTP_2, bad.version());
      assertEquals(400, bad.statusCode());
      assertEquals("wrong_type", TestServer.json(bad).get("error").get("kind").asString());
    }
  }

  /**
   * GSYM version 2 (LLVM main): the version 2 rewrites of a golden, in both byte orders, answer
   * every frame exactly as the version 1 file does.
   */
  @Test
  void version2GsymsAnswerAsVersion1() throws Exception {
    Path v1 = ServeFixtures.gsym("cpp-clang-O2").toAbsolutePath();
    List<Module> modules = new ArrayList<>();
    List<Long> addresses = ServeFixtures.functionAddresses(v1);
    modules.add(new Module("{\"path\": " + str(v1.toString()) + "}", ModuleRef.file(v1), addresses));
    try (dev.gsym.read.GsymReader r = dev.gsym.read.GsymReader.open(v1)) {
      for (java.nio.ByteOrder order : List.of(java.nio.ByteOrder.LITTLE_ENDIAN, java.nio.ByteOrder.BIG_ENDIAN)) {
        dev.gsym.write.GsymCreator c = dev.gsym.write.GsymCreator.from(r);
        c.setOutputVersion(2);
        c.finish(dev.gsym.write.Diagnostics.silent());
        Path v2 = java.nio.file.Files.write(tmp.resolve("cpp-clang-O2.v2." + order + ".gsym"), c.encode(order));
        modules.add(new Module("{\"path\": " + str(v2.toString()) + "}", ModuleRef.file(v2), addresses));
      }
    }
    JsonNode answer = TestServer.json(server.post(request(modules, null, false)));
    for (int m = 0; m < modules.size(); m++) {
      assertEquals("found", answer.get("modules").get(m).get("status").asString(), answer.toString());
    }
    // the version 1 answers are the reference symbolizer's (callers at their call: the default options)
    checkStack(0, modules.get(0), answer.get("stacks").get(0).get("frames"), true, true, true);
    for (int m = 1; m < modules.size(); m++) {
      JsonNode frames = answer.get("stacks").get(m).get("frames");
      JsonNode reference = answer.get("stacks").get(0).get("frames");
      assertEquals(reference.size(), frames.size());
      for (int i = 0; i < frames.size(); i++) {
        // the same frame but for the module index it names
        assertEquals(reference.get(i).toString().replace("\"module\":0", "\"module\":" + m), frames.get(i).toString());
      }
    }
  }

  @Test
  void numberAddressesAreTheSameAsHexStrings() throws Exception {
    List<Module> modules = modules();
    JsonNode hexes = TestServer.json(server.post(request(modules, null, false)));
    JsonNode numbers = TestServer.json(server.post(request(modules, null, true)));
    assertEquals(hexes, numbers);
  }

  @Test
  void withoutInlinesOrDemangling() throws Exception {
    List<Module> modules = modules();
    HttpResponse<String> r = server.post(request(modules,
        "{\"inlines\": false, \"demangle\": false, \"adjust_addresses\": \"none\"}", false));
    assertEquals(200, r.statusCode(), r.body());
    JsonNode answer = TestServer.json(r);
    for (int m = 0; m < modules.size(); m++) {
      checkStack(m, modules.get(m), answer.get("stacks").get(m).get("frames"), false, false);
    }
  }

  @Test
  void callersAreAnsweredAtTheirCall() throws Exception {
    List<Module> modules = modules();
    JsonNode answer = TestServer.json(server.post(request(modules, null, false)));
    for (int m = 0; m < modules.size(); m++) {
      checkStack(m, modules.get(m), answer.get("stacks").get(m).get("frames"), true, true, true);
    }
    assertEquals(answer, TestServer.json(server.post(request(modules, "{\"adjust_addresses\": \"all_but_first\"}", false))));
  }

  /** Output frames of one stack against the reference: deepest inlined frame first, each input frame in order. */
  private static void checkStack(int m, Module module, JsonNode frames, boolean inlines, boolean demangle) {
    checkStack(m, module, frames, inlines, demangle, false);
  }

  /**
   * As above; with {@code returnAddresses}, every frame but the first is expected as the symbolizer
   * answers its address minus one (a frame there is where the call was, as return addresses are).
   */
  private static void checkStack(int m, Module module, JsonNode frames, boolean inlines, boolean demangle,
      boolean returnAddresses) {
    int k = 0;
    boolean sawInlined = false;
    boolean sawMangled = false;
    for (int i = 0; i < module.addresses().size(); i++) {
      long address = module.addresses().get(i);
      long lookupAt = returnAddresses && i > 0 ? address - 1 : address;
      Symbolized ref = reference.symbolize(module.ref(), lookupAt);
      if (lookupAt != address && !(ref instanceof Symbolized.Found)) {
        JsonNode o = frames.get(k++);
        assertEquals("unknown_address", o.get("status").asString(), o.toString());
        assertEquals(hex(address), o.get("address").asString(), o.toString());
        continue;
      }
      Symbolized.Found f = assertInstanceOf(Symbolized.Found.class, ref);
      List<Frame> expected = inlines ? f.frames() : List.of(f.function());
      for (int j = 0; j < expected.size(); j++, k++) {
        Frame e = expected.get(j);
        JsonNode o = frames.get(k);
        String at = module.ref() + " " + hex(address) + " frame " + j + ": " + o;
        assertEquals(i, o.get("index").asInt(), at);
        assertEquals("ok", o.get("status").asString(), at);
        assertEquals(m, o.get("module").asInt(), at);
        assertEquals(hex(address), o.get("address").asString(), at);
        String name = demangle ? DEMANGLER.demangle(e.rawName()) : e.rawName();
        sawMangled |= !name.equals(e.rawName());
        assertEquals(name, o.get("function").asString(), at);
        assertEquals(hex(e.startAddress()), o.get("function_start").asString(), at);
        // without inlines: the outermost function, at the address's own line (llvm-symbolizer --no-inlines)
        var loc = inlines ? e.location() : f.frames().getFirst().location();
        assertEquals(loc.hasFile() ? loc.path() : null, o.has("file") ? o.get("file").asString() : null, at);
        assertEquals(loc.line(), o.has("line") ? o.get("line").asLong() : 0, at);
        assertEquals(inlines && e.inlined(), o.get("inlined").asBoolean(), at);
        sawInlined |= e.inlined();
      }
    }
    assertEquals(k, frames.size());
    if (inlines && m > 0) assertTrue(sawInlined, "the test data has inlined frames");
    if (demangle && m > 0) assertTrue(sawMangled, "the test data has C++ names");
  }

  @Test
  void relativeAddressesAddTheModuleBase() throws Exception {
    Path elf = ServeFixtures.bin("fs-aarch64-O2-d5").toAbsolutePath();
    Symbolized.Found any = assertInstanceOf(Symbolized.Found.class,
        reference.symbolize(ModuleRef.file(elf), ServeFixtures.functionAddresses(ServeFixtures.gsym("fs-aarch64-O2-d5")).get(1)));
    long base = any.base();
    assertTrue(base != 0, "a module whose base is not 0");
    long relative = any.address() - base;
    String body = "{\"modules\": [{\"path\": " + str(elf.toString()) + "}], \"stacks\": [{\"frames\": [{\"module\": 0,"
        + " \"address\": " + str(hex(relative)) + "}]}], \"options\": {\"relative\": true}}";
    JsonNode frames = TestServer.json(server.post(body)).get("stacks").get(0).get("frames");
    Frame outer = any.function();
    JsonNode last = frames.get(frames.size() - 1);
    assertEquals("ok", last.get("status").asString(), frames.toString());
    assertEquals(DEMANGLER.demangle(outer.function()), last.get("function").asString());
    assertEquals(hex(outer.startAddress() - base), last.get("function_start").asString());
    assertEquals(hex(relative), last.get("address").asString());
    // and the same through the library's own relative mode
    Symbolized viaLibrary = reference.symbolize(List.of(new Symbolizer.Request(ModuleRef.file(elf), relative)),
        AddressMode.RELATIVE).getFirst();
    assertEquals(any.frames(), assertInstanceOf(Symbolized.Found.class, viaLibrary).frames());
  }

  @Test
  void missingModulesAndUnknownAddressesAreAnswersNotErrors() throws Exception {
    Path elf = ServeFixtures.bin("c-clang-O2").toAbsolutePath();
    String body = "{\"modules\": [{\"build_id\": \"00112233445566778899aabbccddeeff00112233\"}, {\"path\": "
        + str(elf.toString()) + "}, {\"path\": \"relative/path\"}, {\"debug_file\": \"x.pdb\"},"
        + " {\"path\": \"/nonexistent/lib.so\"}, {\"path\": " + str(elf.toString()) + "}],"
        + " \"stacks\": [{\"frames\": [{\"module\": 0, \"address\": \"0x1000\"}, {\"module\": 1, \"address\": \"0x1\"},"
        + " {\"module\": 2, \"address\": 16}, {\"module\": 3, \"address\": 16}, {\"module\": 4, \"address\": 16}]}, {\"frames\": []}]}";
    HttpResponse<String> r = server.post(body);
    assertEquals(200, r.statusCode(), r.body());
    JsonNode a = TestServer.json(r);
    List<String> statuses = new ArrayList<>();
    for (JsonNode m : a.get("modules")) statuses.add(m.get("status").asString());
    assertEquals(List.of("missing", "found", "malformed", "malformed", "missing", "unused"), statuses);
    assertTrue(a.get("modules").get(2).get("error").asString().contains("absolute"), a.toString());
    List<String> frames = new ArrayList<>();
    for (JsonNode f : a.get("stacks").get(0).get("frames")) frames.add(f.get("status").asString());
    assertEquals(List.of("missing_module", "unknown_address", "malformed_module", "malformed_module", "missing_module"),
        frames);
    assertEquals(0, a.get("stacks").get(1).get("frames").size());
    assertFalse(a.get("stacks").get(0).get("frames").get(1).has("function"));
  }

  @Test
  void healthzAndMetrics() throws Exception {
    HttpResponse<String> h = server.get("/healthz");
    assertEquals(200, h.statusCode());
    assertEquals("ok", TestServer.json(h).get("status").asString());
    List<Module> modules = modules();
    String duration = "gsym_serve_request_duration_seconds_count{endpoint=\"symbolicate\"}";
    String ok = "gsym_serve_requests_total{endpoint=\"symbolicate\",status=\"200\"}";
    String beforeText = server.get("/metrics").body();
    double before = metric(beforeText, "gsym_serve_frames_total");
    server.post(request(modules, null, false));
    int frames = modules.stream().mapToInt(m -> m.addresses().size()).sum();
    server.post("{\"modules\": []"); // an error by kind
    // a request is counted once its answer is sent, so the last one may not be counted yet: ask again
    HttpResponse<String> m = server.get("/metrics");
    for (int i = 0; i < 100 && metricOrZero(m.body(), duration) < metricOrZero(beforeText, duration) + 2; i++) {
      Thread.sleep(20);
      m = server.get("/metrics");
    }
    assertEquals(200, m.statusCode());
    assertTrue(m.headers().firstValue("content-type").orElseThrow().startsWith("text/plain"), m.headers().toString());
    String text = m.body();
    assertEquals(before + frames, metric(text, "gsym_serve_frames_total"), text);
    // at least: an earlier test's last request may be counted after beforeText was read
    assertTrue(metric(text, duration) >= metricOrZero(beforeText, duration) + 2, text);
    assertTrue(metric(text, ok) >= metricOrZero(beforeText, ok) + 1, text);
    assertTrue(metric(text, "gsym_serve_errors_total{kind=\"malformed_json\"}") >= 1, text);
    assertTrue(metric(text, "gsym_symbolize_lookups_total") >= frames, text);
    assertEquals(server.symbolizer.stats().conversions(), (long) metric(text, "gsym_symbolize_conversions_total"), text);
    assertTrue(metric(text, "gsym_symbolize_store_hits_total") >= 0, text);
    assertTrue(metric(text, "gsym_symbolize_open_modules") >= 1, text);
  }

  /**
   * gsym_serve_requests_in_progress counts the requests in the handler, the scrape's own included: a
   * request whose body is half sent is one until its body is complete and answered.
   */
  @Test
  void requestsInProgress() throws Exception {
    String gauge = "gsym_serve_requests_in_progress";
    byte[] body = request(modules().subList(0, 1), null, false).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int i = 0; i < 500 && metric(server.get("/metrics").body(), gauge) > 1; i++) Thread.sleep(10); // earlier tests'
    try (java.net.Socket c = new java.net.Socket("127.0.0.1", server.server.port())) {
      c.setSoTimeout(30_000);
      var out = c.getOutputStream();
      out.write(("POST /symbolicate HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: " + body.length
          + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.write(body, 0, body.length / 2);
      out.flush();
      double seen = 0;
      for (int i = 0; i < 500 && seen < 2; i++) {
        seen = metric(server.get("/metrics").body(), gauge);
        if (seen < 2) Thread.sleep(10);
      }
      assertEquals(2, seen, "the half-sent request and the scrape");
      out.write(body, body.length / 2, body.length - body.length / 2);
      out.flush();
      String answer = new String(c.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
    }
    double after = 2;
    for (int i = 0; i < 500 && after > 1; i++) {
      after = metric(server.get("/metrics").body(), gauge);
      if (after > 1) Thread.sleep(10);
    }
    assertEquals(1, after, "the scrape alone");
  }

  @Test
  void accessLogLines() throws Exception {
    try (AccessLogCapture capture = new AccessLogCapture()) {
      List<Module> modules = modules();
      HttpResponse<String> ok = server.post(request(modules.subList(0, 1), null, false));
      String nope = "/nope%20x" + System.nanoTime();
      server.get(nope);
      // A line is written after its response, so an earlier test's last line can arrive after the capture
      // began: find this test's two lines among what arrives, the 404 by its unique path.
      String post = "method=POST path=/symbolicate status=200 bytes=" + ok.body().getBytes(
          java.nio.charset.StandardCharsets.UTF_8).length + " frames=" + modules.getFirst().addresses().size()
          + " latency_ms=\\d+\\.\\d{3}";
      String missing = "method=GET path=" + nope + " status=404 bytes=\\d+ frames=0 latency_ms=\\S+ error=not_found";
      int postAt = -1;
      int missingAt = -1;
      for (int i = 0; i < 100 && missingAt < 0; i++) {
        Thread.sleep(20);
        List<String> seen = capture.lines();
        for (int j = 0; j < seen.size(); j++) {
          if (postAt < 0 && seen.get(j).matches(post)) postAt = j;
          if (seen.get(j).contains("path=" + nope + " ")) missingAt = j;
        }
      }
      List<String> seen = capture.lines();
      assertTrue(postAt >= 0, seen.toString());
      assertTrue(missingAt > postAt, seen.toString());
      assertTrue(seen.get(missingAt).matches(missing), seen.get(missingAt));
    }
  }

  /** The value of a sample line {@code name value} in Prometheus text, or 0 without one. */
  static double metricOrZero(String text, String name) {
    return text.contains("\n" + name + " ") || text.startsWith(name + " ") ? metric(text, name) : 0;
  }

  /** The value of a sample line {@code name value} in Prometheus text. */
  static double metric(String text, String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ")) return Double.parseDouble(line.substring(name.length() + 1).trim());
    }
    throw new AssertionError("no " + name + " in\n" + text);
  }
}
