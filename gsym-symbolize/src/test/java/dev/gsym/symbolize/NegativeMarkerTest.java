package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's negative-cache marker: round trip, escaping, and hostile files. */
class NegativeMarkerTest {
  @TempDir Path tmp;

  @Test
  void roundTrip() throws Exception {
    List<NegativeMarker.Entry> in = List.of(
        new NegativeMarker.Entry(1700000000000L, Miss.NOT_FOUND, "debuginfod [http://a]", "HTTP 404\tfrom\nthere"),
        new NegativeMarker.Entry(1700000000001L, Miss.UNREADABLE, "breakpad file:/s", "x.sym: line 3: bad"),
        new NegativeMarker.Entry(1700000000002L, Miss.UNAVAILABLE, "debuginfod [http://b]", "timeout"));
    Path f = tmp.resolve("m.missing");
    Files.write(f, NegativeMarker.encode(in));
    List<NegativeMarker.Entry> out = NegativeMarker.read(f);
    assertEquals(2, out.size(), "transient failures are not written");
    assertEquals(new NegativeMarker.Entry(1700000000000L, Miss.NOT_FOUND, "debuginfod [http://a]", "HTTP 404 from there"),
        out.get(0));
    assertEquals(in.get(1), out.get(1));
    assertTrue(NegativeMarker.read(tmp.resolve("absent")).isEmpty());
  }

  @Test
  void hostileFiles() throws Exception {
    Path f = tmp.resolve("bad.missing");
    Files.writeString(f, "not a marker\n1\tnot-found\ts\tm\n");
    assertTrue(NegativeMarker.read(f).isEmpty(), "wrong header");
    Files.writeString(f, NegativeMarker.HEADER + "\nxx\tnot-found\ts\tm\n1\tweird\ts\tm\n2\tnot-found\ts\n3\tunreadable\ts\tm\n");
    assertEquals(List.of(new NegativeMarker.Entry(3, Miss.UNREADABLE, "s", "m")), NegativeMarker.read(f));
    // a huge marker: only the first 64 KiB are read
    byte[] big = new byte[50 << 20];
    java.util.Arrays.fill(big, (byte) 'x');
    byte[] head = (NegativeMarker.HEADER + "\n5\tnot-found\ts\tm\n").getBytes();
    System.arraycopy(head, 0, big, 0, head.length);
    Files.write(f, big);
    assertEquals(1, NegativeMarker.read(f).size());
  }
}
