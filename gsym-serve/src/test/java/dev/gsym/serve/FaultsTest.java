package dev.gsym.serve;

import static dev.gsym.serve.ServeFixtures.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Store faults seen through the service: a store entry replaced on disk while the server has it
 * mapped (the mapping stays: same answers), an entry truncated on disk (a server that opens it
 * anew does not serve it: it converts again).
 */
@StartsProcesses
class FaultsTest {
  @TempDir Path tmp;

  static final String BIN = "cpp-gcc-O2";

  String request(String buildId) throws IOException {
    StringBuilder b = new StringBuilder("{\"modules\": [{\"build_id\": " + str(buildId) + "}], \"stacks\": [{\"frames\": [");
    List<Long> a = ServeFixtures.functionAddresses(ServeFixtures.gsym(BIN));
    for (int i = 0; i < a.size(); i++) b.append(i > 0 ? "," : "").append("{\"module\": 0, \"address\": ").append(a.get(i)).append("}");
    return b.append("]}]}").toString();
  }

  TestServer server(Path store, Path debug) throws IOException {
    return new TestServer(Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debug)).build(), b -> b);
  }

  static List<Path> gsyms(Path store) throws IOException {
    try (Stream<Path> s = Files.walk(store)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".gsym") && !p.getFileName().toString().startsWith("."))
          .toList();
    }
  }

  @Test
  void storeEntryReplacedWhileMappedKeepsAnswering() throws Exception {
    Path debug = ServeFixtures.debugDirectory(tmp.resolve("debug"), ServeFixtures.bin(BIN));
    String id = ServeFixtures.buildId(ServeFixtures.bin(BIN));
    Path store = tmp.resolve("store");
    try (TestServer s = server(store, debug)) {
      JsonNode before = TestServer.json(s.post(request(id)));
      assertEquals("found", before.get("modules").get(0).get("status").asString(), before.toString());
      Path entry = gsyms(store).getFirst();
      // another GSYM renamed over the entry, as a publication does
      Path other = tmp.resolve("other.gsym");
      Files.copy(ServeFixtures.gsym("c-clang-O2"), other);
      Files.move(other, entry, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      assertEquals(before, TestServer.json(s.post(request(id))), "the mapping of the old file answers");
      // and removed altogether
      Files.delete(entry);
      assertEquals(before, TestServer.json(s.post(request(id))));
    }
  }

  /**
   * The store's file system full during a conversion (a real ENOSPC: the store on a small tmpfs,
   * filled up; needs root to mount, skipped otherwise): the module's answer says so, nothing is
   * left in the store, the server keeps serving, and once there is room the module converts.
   */
  @Test
  void diskFullDuringConversion() throws Exception {
    Path mount = tmp.resolve("small");
    Files.createDirectories(mount);
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mount.toString())
        .redirectErrorStream(true).start();
    String why = new String(p.getInputStream().readAllBytes()).trim();
    Tools.check(p.waitFor() == 0, "mounting a tmpfs (root; " + why + ")");
    try {
      Path symbols = tmp.resolve("symbols");
      String id = "0123456789ABCDEF0123456789ABCDEF0";
      Path dir = symbols.resolve("big/" + id);
      Files.createDirectories(dir);
      try (var w = Files.newBufferedWriter(dir.resolve("big.sym"))) {
        w.write("MODULE Linux x86_64 " + id + " big\nFILE 0 /src/big.c\n");
        for (int i = 0; i < 100_000; i++) {
          w.write("FUNC " + Long.toHexString(0x1000 + i * 0x40L) + " 40 0 function_" + i + "\n");
          w.write(Long.toHexString(0x1000 + i * 0x40L) + " 40 " + (i + 1) + " 0\n");
        }
      }
      Path store = mount.resolve("store");
      Path filler = mount.resolve("filler");
      Files.createDirectories(store);
      // leave 256 KiB: less than the GSYM of 100,000 functions
      try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.allocate((16 << 20) - (256 << 10)));
      }
      String body = "{\"modules\": [{\"debug_file\": \"big\", \"debug_id\": \"" + id + "\"}], \"stacks\": [{\"frames\":"
          + " [{\"module\": 0, \"address\": \"0x1005\"}]}]}";
      try (TestServer s = new TestServer(Symbolizer.builder().store(store)
          .addSource(Source.BreakpadSymbols.directory(symbols)).build(), b -> b)) {
        var r = s.post(body);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode a = TestServer.json(r);
        JsonNode m = a.get("modules").get(0);
        assertTrue(m.get("error").asString().contains("No space left on device"), a.toString());
        assertEquals(List.of(), gsyms(store), "nothing published");
        try (Stream<Path> left = Files.list(store)) {
          assertEquals(List.of(), left.filter(x -> x.getFileName().toString().startsWith(".gsym-")).toList(),
              "no temporary file left");
        }
        assertEquals(200, s.get("/healthz").statusCode());
        Files.delete(filler);
        r = s.post(body);
        a = TestServer.json(r);
        assertEquals("found", a.get("modules").get(0).get("status").asString(), a.toString());
        assertEquals("function_0", a.get("stacks").get(0).get("frames").get(0).get("function").asString());
        assertEquals(1, gsyms(store).size());
      }
    } finally {
      new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor();
    }
  }

  @Test
  void truncatedStoreEntryIsConvertedAgainNotServed() throws Exception {
    Path debug = ServeFixtures.debugDirectory(tmp.resolve("debug"), ServeFixtures.bin(BIN));
    String id = ServeFixtures.buildId(ServeFixtures.bin(BIN));
    Path store = tmp.resolve("store");
    JsonNode before;
    try (TestServer s = server(store, debug)) {
      before = TestServer.json(s.post(request(id)));
    }
    Path entry = gsyms(store).getFirst();
    for (long keep : new long[] {Files.size(entry) / 2, 10, 0}) {
      try (FileChannel ch = FileChannel.open(entry, StandardOpenOption.WRITE)) {
        ch.truncate(keep);
      }
      try (TestServer s = server(store, debug)) {
        assertEquals(before, TestServer.json(s.post(request(id))), "truncated to " + keep);
        assertEquals(1, s.symbolizer.stats().conversions(), "converted again");
      }
      assertTrue(Files.size(entry) > keep, "a whole entry again");
    }
  }
}
