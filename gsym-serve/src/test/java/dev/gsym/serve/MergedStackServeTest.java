package dev.gsym.serve;

import static dev.gsym.serve.ServeFixtures.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Stack-aware resolution of merged (identical-code-folded) functions through the service, against
 * llvm-gsymutil-22's manual two-pass answers (src-test-data/stack: {@code expected/stacks.llvm.txt}
 * holds, per stack and merged frame, the names llvm's {@code --merged-functions-filter} keeps for
 * the caller's call-site regexes), across modules, over the checked-in GSYMs and over the binaries
 * converted by the service's own store.
 */
@Slow
class MergedStackServeTest {
  private static final Path STACK = TestData.path("stack");

  @TempDir Path tmp;

  /** One frame of stacks.txt: a GSYM path relative to src-test-data/stack and an address. */
  private record Frame(String module, String address) {}

  private static List<List<Frame>> stacks() throws IOException {
    List<List<Frame>> stacks = new ArrayList<>();
    List<Frame> cur = new ArrayList<>();
    for (String line : Files.readAllLines(STACK.resolve("stacks.txt"))) {
      if (line.startsWith("#")) continue;
      if (line.isBlank()) {
        if (!cur.isEmpty()) stacks.add(cur);
        cur = new ArrayList<>();
        continue;
      }
      String[] f = line.trim().split(" ");
      cur.add(new Frame(f[0], f[1]));
    }
    if (!cur.isEmpty()) stacks.add(cur);
    return stacks;
  }

  /** "stack frame" to llvm's names, from expected/stacks.llvm.txt. */
  private static Map<String, List<String>> llvm() throws IOException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String line : Files.readAllLines(STACK.resolve("expected").resolve("stacks.llvm.txt"))) {
      String[] f = line.split(" ", 3);
      out.put(f[0] + " " + f[1], List.of(f[2].split(",")));
    }
    return out;
  }

  /** Posts the stacks (modules as {@code module(path)}) and gives each merged frame's chosen names. */
  private static Map<String, List<String>> chosen(TestServer server, List<List<Frame>> stacks,
      UnaryOperator<String> module) throws Exception {
    List<String> modules = new ArrayList<>();
    StringBuilder body = new StringBuilder("{\"options\": {\"demangle\": false}, \"stacks\": [");
    for (int s = 0; s < stacks.size(); s++) {
      body.append(s == 0 ? "" : ",").append("{\"frames\": [");
      for (int i = 0; i < stacks.get(s).size(); i++) {
        Frame f = stacks.get(s).get(i);
        String path = module.apply(f.module());
        if (!modules.contains(path)) modules.add(path);
        body.append(i == 0 ? "" : ",").append("{\"module\": ").append(modules.indexOf(path)).append(", \"address\": ")
            .append(str(f.address())).append('}');
      }
      body.append("]}");
    }
    body.append("], \"modules\": [");
    for (int m = 0; m < modules.size(); m++) body.append(m == 0 ? "" : ",").append("{\"path\": ").append(str(modules.get(m))).append('}');
    body.append("]}");
    HttpResponse<String> r = server.post(body.toString());
    assertEquals(200, r.statusCode(), r.body());
    JsonNode json = TestServer.json(r);
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (int s = 0; s < stacks.size(); s++) {
      for (JsonNode f : json.get("stacks").get(s).get("frames")) {
        assertEquals("ok", f.get("status").asString(), f.toString());
        JsonNode m = f.get("merged");
        if (m == null) continue;
        List<String> names = new ArrayList<>();
        m.get("chosen").forEach(n -> names.add(n.asString()));
        String resolution = m.get("resolution").asString();
        if (resolution.equals("call_site")) {
          // the frame names the one function chosen, and the caller that chose it is a later frame
          assertEquals(List.of(f.get("function").asString()), names, f.toString());
          assertTrue(m.get("caller_frame").asInt() > f.get("index").asInt(), f.toString());
        } else {
          assertEquals("ambiguous", resolution, f.toString());
        }
        assertTrue(m.get("candidates").size() >= 2, f.toString());
        out.put(s + " " + f.get("index").asInt(), names);
      }
    }
    return out;
  }

  @Test
  void checkedInGsymsAnswerAsLlvmsTwoPass() throws Exception {
    try (TestServer server = new TestServer(Symbolizer.builder().build(), b -> b)) {
      Map<String, List<String>> got = chosen(server, stacks(), p -> STACK.resolve(p).toString());
      assertEquals(llvm(), got);
    }
  }

  @Test
  void storeConversionsWithMergedFunctionsAnswerAsLlvmsTwoPass() throws Exception {
    // stacks over stack-main and libstackcallee.so only, whose checked-in GSYMs are plain
    // --merged-functions --dwarf-callsites conversions: give the service the binaries instead
    List<List<Frame>> stacks = new ArrayList<>();
    Map<String, List<String>> expected = new LinkedHashMap<>();
    Map<String, List<String>> llvm = llvm();
    List<List<Frame>> all = stacks();
    for (int s = 0; s < all.size(); s++) {
      if (!all.get(s).stream().allMatch(f -> f.module().equals("gsym/stack-main.gsym")
          || f.module().equals("gsym/libstackcallee.so.gsym"))) {
        continue;
      }
      for (var e : llvm.entrySet()) {
        if (e.getKey().startsWith(s + " ")) expected.put(stacks.size() + e.getKey().substring(e.getKey().indexOf(' ')), e.getValue());
      }
      stacks.add(all.get(s));
    }
    assertTrue(stacks.size() >= 4, "stacks over the two binaries: " + stacks.size());
    UnaryOperator<String> binary = p -> STACK.resolve("bin").resolve(Path.of(p).getFileName().toString()
        .replace(".gsym", "")).toString();
    try (TestServer server = new TestServer(Symbolizer.builder().store(tmp.resolve("store")).mergedFunctions(true).build(),
        b -> b)) {
      assertEquals(expected, chosen(server, stacks, binary));
      assertTrue(Files.isDirectory(tmp.resolve("store").resolve("merged")), "merged GSYMs in their own part of the store");
    }
    // without merged functions the service's conversions know nothing of the folding
    try (TestServer server = new TestServer(Symbolizer.builder().store(tmp.resolve("store")).build(), b -> b)) {
      assertEquals(Map.of(), chosen(server, stacks, binary));
    }
    assertFalse(expected.isEmpty());
  }
}
