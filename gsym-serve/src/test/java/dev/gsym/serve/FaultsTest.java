package dev.gsym.serve;

import static dev.gsym.serve.ServeFixtures.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
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
