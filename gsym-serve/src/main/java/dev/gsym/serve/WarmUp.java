package dev.gsym.serve;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.symbolize.AddressMode;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.StoreConversion;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Runs a server's request path before the server takes requests: a private server on loopback,
 * over a generated module in a private store, answers {@value #REQUESTS} requests of
 * {@value #FRAMES} frames. A fresh JVM otherwise interprets the first requests (parsing, the store
 * lookup, first decodes of functions, inline stacks, demangling, writing JSON): ~0.3 s for the first
 * 100-frame request and ~1 ms per function met for the first time after it, which a cold module's
 * first answer would wait for on top of its conversion (docs/performance.md, "Service").
 */
final class WarmUp {
  /** Functions of the generated module: enough that first decodes, not only cache hits, get compiled. */
  static final int FUNCTIONS = 1024;
  static final int REQUESTS = 20;
  static final int FRAMES = 100;
  /** The generated module's build-id (a private store, so any value does). */
  static final String BUILD_ID = "9a3e5f0c1d2b4a6978e8f7a6b5c4d3e2f1a0b9c8";
  private static final long BASE = 0x10000;
  private static final long SIZE = 0x400;

  private WarmUp() {}

  /** Warms up this JVM; returns the frames answered (a check that the requests got through). */
  static long run() throws IOException {
    Path dir = Files.createTempDirectory("gsym-serve-warm-up");
    try {
      Path store = dir.resolve("store");
      Path gsym = store.resolve(StoreConversion.storePath(new ModuleRef.BuildId(BUILD_ID, null)));
      Files.createDirectories(gsym.getParent());
      module().save(gsym);
      long frames = 0;
      try (Symbolizer s = Symbolizer.builder().store(store).addressMode(AddressMode.ABSOLUTE).demangle(false).build();
          SymbolicationServer server = SymbolicationServer.builder(s).listen("127.0.0.1", 0).accessLog(false).build().start()) {
        SplittableRandom random = new SplittableRandom(20261126);
        for (int i = 0; i < REQUESTS; i++) {
          frames += count(request(server.port(), "POST /symbolicate", body(random, i)), "\"index\":");
        }
        request(server.port(), "GET /metrics", null);
        request(server.port(), "GET /healthz", null);
      }
      return frames;
    } finally {
      deleteTree(dir);
    }
  }

  /**
   * C++ names of many shapes (templates, substitutions, operators, lambdas, local names, one that
   * does not demangle), so that demangling compiles for the names real modules have.
   */
  private static final String[] NAMES = {
      "_ZNSt6vectorIiSaIiEE17_M_realloc_insertIJRKiEEEvN9__gnu_cxx17__normal_iteratorIPiS1_EEDpOT_",
      "_ZNSt8_Rb_treeISsSt4pairIKSsiESt10_Select1stIS2_ESt4lessISsESaIS2_EE8_M_eraseEPSt13_Rb_tree_nodeIS2_E",
      "_ZNK3foo3BarIiE3bazEv",
      "_ZN7Handler7processERKSt10shared_ptrI7RequestEPFvP8ResponseE",
      "_ZN2js2gc9GCRuntime7collectEbN2JS11GCReasonEllRKNS_8SliceBudgetE",
      "_ZNSt10_HashtableISsSt4pairIKSsmESaIS2_ENSt8__detail10_Select1stESt8equal_toISsESt4hashISsENS4_18_Mod_range_hashingENS4_20_Default_ranged_hashENS4_20_Prime_rehash_policyENS4_17_Hashtable_traitsILb1ELb0ELb1EEEE9_M_rehashEmRKm",
      "_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv",
      "_ZZN4core4mainEvE5state",
      "_ZN5Outer5InnerC2ERKS0_",
      "_ZN5Outer5InnerD0Ev",
      "_ZNK6Matrix3getIdEET_ii",
      "_ZN3ns13ns23ns33ns43fooIJiidPKcEEEvDpT_",
      "_ZN8TaskPool6submitIZN6Worker3runEvEUlvE_EEvOT_",
      "_ZN6ObjectplERKS_",
      "_ZN6ObjectixEm",
      "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructIPKcEEvT_S8_St20forward_iterator_tag",
      "_ZN12_GLOBAL__N_16helperEPFiPvES0_"};

  /**
   * The module: functions of varied sizes with line tables of 1 to 48 rows over four files (lines
   * forward and back, small and large steps), and inline trees up to four calls deep with several
   * children and split ranges. The shapes vary because the JIT compiles for the shapes it has seen:
   * a warm-up on uniform functions leaves code that deoptimizes on the first real module.
   */
  static GsymCreator module() {
    GsymCreator c = new GsymCreator();
    SplittableRandom random = new SplittableRandom(1126);
    int[] files = {c.insertFile("/src/warm/up/request.cc"), c.insertFile("/src/warm/up/inline.h"),
        c.insertFile("/usr/include/c++/12/bits/stl_vector.h"), c.insertFile("src/relative/path.cpp")};
    int[] names = new int[NAMES.length];
    for (int n = 0; n < NAMES.length; n++) names[n] = c.insertString(NAMES[n]);
    for (int i = 0; i < FUNCTIONS; i++) {
      long start = BASE + i * SIZE;
      // one in eight is large: hundreds of rows, a root with many inlined calls
      boolean large = i % 8 == 5;
      long size = large ? SIZE - 0x10 : 0x40 + random.nextLong(SIZE - 0x40);
      int name = i % 3 == 0 ? names[i % names.length] : c.insertString(mangled("handler" + i, i % 2 == 0 ? "EiPKc" : "Ev"));
      List<LineEntry> rows = new ArrayList<>();
      int rowCount = large ? 257 + random.nextInt(200) : 1 + random.nextInt(48);
      long step = Math.max(1, size / rowCount);
      int line = 1 + random.nextInt(5000);
      int file = files[random.nextInt(files.length)];
      for (int r = 0; r < rowCount; r++) {
        rows.add(new LineEntry(start + r * step, file, line));
        line = Math.max(1, line + (random.nextInt(8) == 0 ? random.nextInt(-400, 400) : random.nextInt(-3, 12)));
        if (random.nextInt(6) == 0) file = files[random.nextInt(files.length)];
      }
      InlineInfo inline = i % 4 == 3 ? null
          : new InlineInfo(List.of(new AddressRange(start, start + size)), name, 0, 0, calls(random, names, files, start, start + size, 0, large ? 8 + random.nextInt(80) : 0));
      c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + size), name, new LineTable(rows), inline, null, null));
    }
    c.setBaseAddress(0);
    c.finish(Diagnostics.silent());
    return c;
  }

  /**
   * Inlined calls within [lo, hi): {@code width} of them, or up to three, each maybe split in two
   * ranges, up to four deep.
   */
  private static List<InlineInfo> calls(SplittableRandom random, int[] names, int[] files, long lo, long hi, int depth,
      int width) {
    if (depth == 4 || hi - lo < 8 || width == 0 && random.nextInt(4) == 0) return List.of();
    List<InlineInfo> out = new ArrayList<>();
    int n = (int) Math.min((hi - lo) / 8, width > 0 ? width : 1 + random.nextInt(3));
    long part = (hi - lo) / n;
    for (int k = 0; k < n; k++) {
      long a = lo + k * part;
      long b = a + Math.max(2, part / 2);
      boolean split = part >= 16 && random.nextInt(3) == 0;
      List<AddressRange> ranges = split
          ? List.of(new AddressRange(a, a + part / 4), new AddressRange(a + part / 2, a + part - 1))
          : List.of(new AddressRange(a, b));
      out.add(new InlineInfo(ranges, names[random.nextInt(names.length)], files[random.nextInt(files.length)],
          1 + random.nextInt(3000), calls(random, names, files, a, split ? a + part / 4 : b, depth + 1, 0)));
    }
    return out;
  }

  private static String mangled(String function, String params) {
    return "_ZN4warm2up" + function.length() + function + params;
  }

  /**
   * A request's JSON: random addresses in the module and a few outside it, as hex strings and
   * numbers, compact or spaced as different JSON writers put it, in one or several stacks.
   */
  private static byte[] body(SplittableRandom random, int request) {
    String colon = request % 2 == 0 ? ":" : ": ";
    String comma = request % 2 == 0 ? "," : ", ";
    StringBuilder b = new StringBuilder(FRAMES * 48).append("{\"modules\"").append(colon).append("[{\"build_id\"")
        .append(colon).append('"').append(BUILD_ID).append("\"}]").append(comma).append("\"stacks\"").append(colon)
        .append("[{\"frames\"").append(colon).append('[');
    for (int f = 0; f < FRAMES; f++) {
      long address = f % 25 == 24 ? 0x10 : BASE + random.nextLong(FUNCTIONS * SIZE);
      if (f > 0) b.append(f % 20 == 0 && request % 3 == 0 ? "]}" + comma + "{\"frames\"" + colon + "[" : comma);
      b.append("{\"module\"").append(colon).append('0').append(comma).append("\"address\"").append(colon);
      if (f % 2 == 0) b.append("\"0x").append(Long.toHexString(address)).append('"');
      else b.append(address);
      b.append('}');
    }
    b.append("]}]").append(comma).append("\"options\"").append(colon).append("{\"demangle\"").append(colon)
        .append(request % 5 != 4).append(comma).append("\"inlines\"").append(colon).append(request % 7 != 6).append("}}");
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** One request on a connection of its own; returns the response, headers and body. */
  private static String request(int port, String line, byte[] body) throws IOException {
    try (Socket c = new Socket(InetAddress.getLoopbackAddress(), port)) {
      c.setSoTimeout(60_000);
      String head = line + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
          + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n") + "\r\n";
      OutputStream out = c.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      if (body != null) out.write(body);
      out.flush();
      String response;
      try (InputStream in = c.getInputStream()) {
        response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (!response.startsWith("HTTP/1.1 200")) {
        int eol = response.indexOf("\r\n");
        throw new IOException("warm-up request " + line + " answered " + (eol < 0 ? response : response.substring(0, eol)));
      }
      return response;
    }
  }

  private static long count(String s, String what) {
    long n = 0;
    for (int at = s.indexOf(what); at >= 0; at = s.indexOf(what, at + what.length())) n++;
    return n;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }
}
