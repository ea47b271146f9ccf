package dev.gsym.write;

import static dev.gsym.write.GsymCreatorTest.fi;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** save(), saveSegments() and concurrent producers. */
class GsymCreatorSaveTest {
  @TempDir Path dir;

  private List<String> listing() throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** A creator holding t2.gsym's content with identical string offsets and file indexes. */
  static GsymCreator fromT2() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "t2.gsym"))) {
      return GsymCreator.from(r);
    }
  }

  @Test
  void t2RoundTripsThroughTheCreator() throws Exception {
    GsymCreator c = fromT2();
    c.finish(Diagnostics.silent());
    assertThat(c.encode(ByteOrder.LITTLE_ENDIAN)).isEqualTo(Files.readAllBytes(TestData.path("vectors", "t2.gsym")));
  }

  @Test
  void segmentsMatchLlvm() throws Exception {
    GsymCreator c = fromT2();
    c.finish(Diagnostics.silent());
    Path out = dir.resolve("t2seg.gsym");
    List<Path> written = c.saveSegments(out, ByteOrder.LITTLE_ENDIAN, 200);
    assertThat(written).extracting(p -> p.getFileName().toString())
        .containsExactly("t2seg.gsym-0x1000", "t2seg.gsym-0x1140", "t2seg.gsym-0x1190");
    for (Path p : written) {
      assertThat(Files.readAllBytes(p)).as(p.getFileName().toString())
          .isEqualTo(Files.readAllBytes(TestData.path("vectors", p.getFileName().toString())));
    }
    assertThat(listing()).containsExactly("t2seg.gsym-0x1000", "t2seg.gsym-0x1140", "t2seg.gsym-0x1190");
  }

  @Test
  void segmentTooSmall() throws Exception {
    GsymCreator c = fromT2();
    c.finish(Diagnostics.silent());
    assertThatThrownBy(() -> c.saveSegments(dir.resolve("x"), ByteOrder.LITTLE_ENDIAN, 50))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("to small to fit any function infos");
    assertThat(listing()).isEmpty();
  }

  @Test
  void saveWritesTheEncodedBytes() throws Exception {
    GsymCreator c = new GsymCreator();
    c.addFunctionInfo(fi(c, 0x1000, 0x10, "f"));
    c.finish(Diagnostics.silent());
    Path p = dir.resolve("out.gsym");
    c.save(p, ByteOrder.BIG_ENDIAN);
    assertThat(Files.readAllBytes(p)).isEqualTo(c.encode(ByteOrder.BIG_ENDIAN));
    assertThat(listing()).containsExactly("out.gsym");
    // overwriting an existing file on success is fine
    c.save(p, ByteOrder.LITTLE_ENDIAN);
    assertThat(Files.readAllBytes(p)).isEqualTo(c.encode(ByteOrder.LITTLE_ENDIAN));
    assertThat(listing()).containsExactly("out.gsym");
  }

  @Test
  void failedSaveLeavesNothingBehind() throws Exception {
    GsymCreator empty = new GsymCreator();
    empty.finish(Diagnostics.silent());
    Path p = dir.resolve("out.gsym");
    assertThatThrownBy(() -> empty.save(p, ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("no functions to encode");
    assertThat(listing()).isEmpty();
    GsymCreator notFinal = new GsymCreator();
    notFinal.addFunctionInfo(fi(notFinal, 0, 4, "f"));
    assertThatThrownBy(() -> notFinal.save(p, ByteOrder.LITTLE_ENDIAN)).isInstanceOf(IllegalStateException.class);
    assertThat(listing()).isEmpty();
  }

  @Test
  void failedSaveNeverOverwritesTheTarget() throws Exception {
    Path p = dir.resolve("keep.gsym");
    Files.writeString(p, "precious");
    GsymCreator empty = new GsymCreator();
    empty.finish(Diagnostics.silent());
    assertThatThrownBy(() -> empty.save(p, ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class);
    // a failure while the records are being written (Name 0 cannot be encoded)
    GsymCreator bad = new GsymCreator();
    bad.addFunctionInfo(fi(bad, 0x10, 4, "ok"));
    bad.addFunctionInfo(new FunctionInfo(GsymCreatorTest.r(0x20, 4), 0));
    bad.finish(Diagnostics.silent());
    assertThatThrownBy(() -> bad.save(p, ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("attempted to encode invalid FunctionInfo object");
    GsymCreator uuid = new GsymCreator();
    uuid.addFunctionInfo(fi(uuid, 0x10, 4, "ok"));
    uuid.setUUID(new byte[32]);
    uuid.finish(Diagnostics.silent());
    assertThatThrownBy(() -> uuid.save(p, ByteOrder.LITTLE_ENDIAN)).isInstanceOf(GsymFormatException.class);
    assertThat(Files.readString(p)).isEqualTo("precious");
    assertThat(listing()).containsExactly("keep.gsym");
  }

  @Test
  void concurrentProducersBuildAConsistentTable() throws Exception {
    GsymCreator c = new GsymCreator();
    int threads = 6;
    int perThread = 2000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Map<String, Integer>>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      futures.add(pool.submit(() -> {
        start.await();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < perThread; i++) {
          String shared = "shared_" + (i % 300);
          seen.put(shared, c.insertString(shared));
          int file = c.insertFile("/dir" + (i % 7) + "/file" + (i % 50) + ".c");
          seen.put("#file:/dir" + (i % 7) + "/file" + (i % 50) + ".c", file);
          String name = "fn_" + id + "_" + i;
          int strp = c.insertString(name);
          seen.put(name, strp);
          long addr = 0x10000L + ((long) id * perThread + i) * 0x10;
          c.addFunctionInfo(new FunctionInfo(GsymCreatorTest.r(addr, 0x10), strp,
              new LineTable(List.of(new LineEntry(addr, file, i + 1))), null, null, null));
        }
        return seen;
      }));
    }
    start.countDown();
    Map<String, Integer> all = new HashMap<>();
    for (Future<Map<String, Integer>> f : futures) {
      for (Map.Entry<String, Integer> e : f.get().entrySet()) {
        Integer prev = all.putIfAbsent(e.getKey(), e.getValue());
        if (prev != null) assertThat(e.getValue()).as(e.getKey()).isEqualTo(prev);
      }
    }
    pool.shutdown();
    // every string has one offset, and the offsets are distinct
    Map<Integer, String> byOffset = new HashMap<>();
    for (Map.Entry<String, Integer> e : all.entrySet()) {
      if (e.getKey().startsWith("#file:")) continue;
      assertThat(c.getString(e.getValue())).isEqualTo(e.getKey());
      assertThat(byOffset.put(e.getValue(), e.getKey())).isNull();
    }
    assertThat(byOffset).hasSize(300 + threads * perThread);
    assertThat(c.numFunctionInfos()).isEqualTo(threads * perThread);
    c.finish(Diagnostics.silent());
    byte[] bytes = c.encode(ByteOrder.LITTLE_ENDIAN);
    try (GsymReader r = GsymReader.of(bytes, "concurrent")) {
      assertThat(r.numFunctions()).isEqualTo(threads * perThread);
      assertThat(r.numFiles()).isEqualTo(1 + 350); // (i % 7, i % 50) takes lcm(7, 50) = 350 values
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < perThread; i += 97) {
          long addr = 0x10000L + ((long) t * perThread + i) * 0x10;
          LookupResult res = r.lookup(addr + 3);
          assertThat(res.functionName()).isEqualTo("fn_" + t + "_" + i);
          assertThat(res.locations().getFirst().line()).isEqualTo(i + 1);
          assertThat(res.locations().getFirst().base()).isEqualTo("file" + (i % 50) + ".c");
          assertThat(res.locations().getFirst().dir()).isEqualTo("/dir" + (i % 7));
        }
      }
    }
  }
}
