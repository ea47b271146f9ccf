package dev.gsym.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gsym.testing.StartsProcesses;
import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code gsymutil serve} as separate processes (the CLI's main on the test class path) sharing one
 * store: two replicas asked concurrently for a module that needs converting convert it once and
 * both answer right; a replica killed (SIGKILL) in the middle of a conversion leaves nothing a
 * restarted one would serve, and the restarted one converts and answers.
 */
@StartsProcesses
class ServeProcessTest {
  static final String ID = "0123456789ABCDEF0123456789ABCDEF0";
  static final long FIRST = 0x1000;
  static final long SPACING = 0x40;
  static final int FUNCTIONS = 150_000;

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  final List<Process> processes = new ArrayList<>();
  final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @AfterEach
  void killAll() {
    for (Process p : processes) p.destroyForcibly();
    client.close();
  }

  /**
   * A Breakpad symbol store holding one large module ({@code big}, {@value #FUNCTIONS} functions,
   * function i at FIRST + i * SPACING): its conversion takes long enough to be caught midway.
   */
  Path symbolStore() throws IOException {
    Path dir = tmp.resolve("symbols/big/" + ID);
    Files.createDirectories(dir);
    try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("big.sym"))) {
      w.write("MODULE Linux x86_64 " + ID + " big\n");
      for (int f = 0; f < 64; f++) w.write("FILE " + f + " /src/dir" + (f % 7) + "/file" + f + ".c\n");
      for (int i = 0; i < FUNCTIONS; i++) {
        long a = FIRST + i * SPACING;
        w.write("FUNC " + Long.toHexString(a) + " " + Long.toHexString(SPACING) + " 0 function_" + i + "\n");
        for (int k = 0; k < 4; k++) {
          w.write(Long.toHexString(a + k * 0x10) + " 10 " + (1 + (i * 7 + k) % 5000) + " " + (i % 64) + "\n");
        }
      }
    }
    return tmp.resolve("symbols");
  }

  /** A server process; returns its port once it listens. */
  int serve(Path store, Path symbols, String name, String... options) throws Exception {
    Path log = tmp.resolve(name + ".log");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), GsymUtil.class.getName(),
        "serve", "--store", store.toString(), "--listen", "127.0.0.1:0", "--no-debuginfod",
        "--debug-file-directory", tmp.resolve("no-debug").toString(), "--breakpad-symbols", symbols.toString(),
        "--threads", "2"));
    cmd.addAll(List.of(options));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    processes.add(p);
    Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher m = listening.matcher(Files.readString(log));
      if (m.find()) return Integer.parseInt(m.group(1));
      if (!p.isAlive()) fail(name + " exited: " + Files.readString(log));
      Thread.sleep(20);
    }
    throw new AssertionError(name + " did not listen within a minute: " + Files.readString(log));
  }

  static String request(long... functions) {
    StringBuilder b = new StringBuilder("{\"modules\": [{\"debug_file\": \"big\", \"debug_id\": \"" + ID
        + "\"}], \"stacks\": [{\"frames\": [");
    for (int i = 0; i < functions.length; i++) {
      b.append(i > 0 ? "," : "").append("{\"module\": 0, \"address\": \"0x")
          .append(Long.toHexString(FIRST + functions[i] * SPACING + 0x15)).append("\"}");
    }
    return b.append("]}]}").toString();
  }

  CompletableFuture<HttpResponse<String>> post(int port, String body) {
    return client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/symbolicate"))
        .timeout(Duration.ofMinutes(3)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The answer names function_i for each i, with a line (the line records of the generated file). */
  static void assertFunctions(HttpResponse<String> r, long... functions) {
    assertEquals(200, r.statusCode(), r.body());
    JsonNode v = JSON.readTree(r.body());
    assertEquals("found", v.get("modules").get(0).get("status").asString(), r.body());
    JsonNode frames = v.get("stacks").get(0).get("frames");
    assertEquals(functions.length, frames.size(), r.body());
    for (int i = 0; i < functions.length; i++) {
      JsonNode f = frames.get(i);
      assertEquals("ok", f.get("status").asString(), r.body());
      assertEquals("function_" + functions[i], f.get("function").asString(), r.body());
      assertEquals("0x" + Long.toHexString(FIRST + functions[i] * SPACING), f.get("function_start").asString());
      long line = 1 + (functions[i] * 7 + 1) % 5000; // the second line record (+0x10) covers +0x15
      assertEquals(line, f.get("line").asLong(), r.body());
    }
  }

  double conversions(int port) throws Exception {
    String text = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    for (String line : text.split("\n")) {
      if (line.startsWith("gsym_symbolize_conversions_total ")) return Double.parseDouble(line.split(" ")[1]);
    }
    throw new AssertionError(text);
  }

  static List<Path> files(Path store, String glob) throws IOException {
    if (!Files.exists(store)) return List.of();
    var m = store.getFileSystem().getPathMatcher("glob:" + glob);
    try (Stream<Path> s = Files.walk(store)) {
      return s.filter(p -> Files.isRegularFile(p) && m.matches(p.getFileName())).toList();
    }
  }

  @Test
  void twoReplicasOnOneStoreConvertOnce() throws Exception {
    Path symbols = symbolStore();
    Path store = tmp.resolve("store");
    int a = serve(store, symbols, "a");
    int b = serve(store, symbols, "b", "--no-warm-up"); // a replica without the warm-up answers alike
    long[] fs = {0, 123, 4567, FUNCTIONS - 1};
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      answers.add(post(a, request(fs)));
      answers.add(post(b, request(fs)));
    }
    for (var f : answers) assertFunctions(f.get(3, TimeUnit.MINUTES), fs);
    assertEquals(1, conversions(a) + conversions(b), "one conversion between the two processes");
    List<Path> gsyms = files(store, "*.gsym");
    assertEquals(1, gsyms.size(), "one store entry: " + gsyms);
    assertEquals(List.of(), files(store, ".gsym-*"), "no temporary file left");
    try (var r = dev.gsym.read.GsymReader.open(gsyms.getFirst())) {
      assertEquals(FUNCTIONS, r.numFunctions(), "a complete, valid GSYM");
    }
  }

  @Test
  void killedDuringAConversionThenRestarted() throws Exception {
    Path symbols = symbolStore();
    Path store = tmp.resolve("store");
    int a = serve(store, symbols, "a");
    Process first = processes.getLast();
    CompletableFuture<HttpResponse<String>> lost = post(a, request(1));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (files(store, ".gsym-*").isEmpty()) {
      if (lost.isDone()) fail("answered before it was seen converting: " + lost.get().body());
      if (System.nanoTime() > deadline) fail("no conversion seen within a minute");
      Thread.sleep(2);
    }
    List<ProcessHandle> converters = List.of();
    while (converters.isEmpty() && !lost.isDone() && System.nanoTime() < deadline) {
      converters = first.descendants().toList(); // the conversion's child JVM
      Thread.sleep(2);
    }
    assertFalse(converters.isEmpty(), "a child JVM converts");
    first.destroyForcibly(); // SIGKILL mid-conversion: no shutdown hook, no cleanup
    assertTrue(first.waitFor(30, TimeUnit.SECONDS));
    for (ProcessHandle c : converters) {
      // it stops when its parent dies, not when its conversion ends
      c.onExit().get(30, TimeUnit.SECONDS);
    }
    assertEquals(List.of(), files(store, "*.gsym"), "no store entry from the killed conversion");
    assertFalse(files(store, ".gsym-*").isEmpty(), "the killed process's temporary file is left, never read");

    int b = serve(store, symbols, "b");
    long[] fs = {1, 77, FUNCTIONS - 2};
    assertFunctions(post(b, request(fs)).get(3, TimeUnit.MINUTES), fs);
    assertEquals(1, conversions(b));
    assertEquals(1, files(store, "*.gsym").size());
  }
}
