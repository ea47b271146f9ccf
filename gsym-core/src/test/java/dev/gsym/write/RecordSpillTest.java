package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Records spilled to disk ({@link RecordSpill}, past a creator's threshold) give the same file as
 * records kept in memory: for every GSYM in the test data, for duplicates and equal ranges that
 * {@code finish} compares record by record, and for producers adding from several threads. The
 * spill file leaves nothing in the temporary directory.
 */
class RecordSpillTest {
  private static GsymCreator creator(long threshold) {
    GsymCreator c = new GsymCreator();
    c.spillThreshold = threshold;
    return c;
  }

  @Test
  void everyTestFileIsCopiedAlikeWithRecordsSpilled() throws IOException {
    int files = 0;
    for (Path p : TestData.gsymFiles()) {
      byte[] kept;
      byte[] spilled;
      try (GsymReader r = GsymReader.open(p)) {
        GsymCreator a = GsymCreator.from(r);
        a.finish(Diagnostics.silent());
        kept = a.encode(ByteOrder.LITTLE_ENDIAN);
      } catch (dev.gsym.GsymFormatException | dev.gsym.read.LookupException | IllegalStateException e) {
        continue; // files the copy refuses are other tests' business
      }
      try (GsymReader r = GsymReader.open(p)) {
        GsymCreator b = fromSpilling(r);
        b.finish(Diagnostics.silent());
        spilled = b.encode(ByteOrder.LITTLE_ENDIAN);
      }
      assertThat(spilled).as(p.toString()).isEqualTo(kept);
      files++;
    }
    assertThat(files).isGreaterThan(20);
  }

  /** {@link GsymCreator#from} into a creator that spills every record after the first. */
  private static GsymCreator fromSpilling(GsymReader r) {
    return GsymCreator.from(r, fi -> fi, 1);
  }

  @Test
  void duplicatesAndEqualRangesAreResolvedAlike() {
    byte[] kept = build(creator(Long.MAX_VALUE));
    byte[] spilled = build(creator(0));
    assertThat(spilled).isEqualTo(kept);
  }

  private static byte[] build(GsymCreator c) {
    int file = c.insertFile("/src/a.c");
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 400; i++) {
      long start = 0x1000 + (i / 3) * 0x40L; // three functions per range
      int variant = r.nextInt(3);
      List<LineEntry> rows = new ArrayList<>();
      for (int k = 0; k < 1 + variant; k++) rows.add(new LineEntry(start + k * 4, file, 10 + k + variant));
      InlineInfo inline = variant == 2 ? new InlineInfo(List.of(new AddressRange(start, start + 0x20)),
          c.insertString("outer" + i % 5), 0, 0, List.of()) : null;
      c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 0x20), c.insertString("f" + i % 7),
          new LineTable(rows), inline, null, null));
    }
    c.finish(Diagnostics.silent());
    return c.encode(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void producersOnSeveralThreadsSpillAlike() throws Exception {
    byte[] kept = parallel(creator(Long.MAX_VALUE));
    byte[] spilled = parallel(creator(4096));
    assertThat(spilled).isEqualTo(kept);
  }

  private static byte[] parallel(GsymCreator c) throws Exception {
    int file = c.insertFile("/src/b.c");
    int[] names = new int[20_000];
    for (int i = 0; i < names.length; i++) names[i] = c.insertString("g" + i); // one string order for both
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int from = t * 5000;
        done.add(pool.submit(() -> {
          for (int i = from; i < from + 5000; i++) {
            long start = 0x10000 + i * 0x10L;
            c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 0x10), names[i],
                new LineTable(List.of(new LineEntry(start, file, 1 + i % 100), new LineEntry(start + 8, file, 2 + i % 50))),
                null, null, null));
          }
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdown();
    }
    c.finish(Diagnostics.silent());
    return c.encode(ByteOrder.LITTLE_ENDIAN);
  }

  /** Reads of records still in the write buffer, across window borders and larger than a window. */
  @Test
  void readsSeeEveryAppendedRecord() throws IOException {
    RecordSpill s = RecordSpill.create();
    SplittableRandom r = new SplittableRandom(3);
    List<byte[]> records = new ArrayList<>();
    List<Long> at = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      byte[] b = new byte[i % 500 == 7 ? (1 << 20) + 5 + r.nextInt(1000) : 1 + r.nextInt(3000)];
      r.nextBytes(b);
      records.add(b);
      at.add(s.append(b));
      if (i % 97 == 0) { // read back while appending: some still buffered
        int k = r.nextInt(i + 1);
        assertThat(s.read(at.get(k), records.get(k).length)).isEqualTo(records.get(k));
      }
    }
    for (int k = 0; k < records.size(); k++) assertThat(s.read(at.get(k), records.get(k).length)).isEqualTo(records.get(k));
    for (int n = 0; n < 2000; n++) { // and in random order
      int k = r.nextInt(records.size());
      assertThat(s.read(at.get(k), records.get(k).length)).isEqualTo(records.get(k));
    }
  }

  @Test
  void theSpillFileLeavesNothingBehind() throws IOException {
    Path tmp = dev.gsym.io.AtomicFile.systemTemporaryDirectory();
    List<Path> before = spillFiles(tmp);
    RecordSpill s = RecordSpill.create();
    long at = s.append(new byte[] {1, 2, 3});
    assertThat(s.read(at, 3)).containsExactly(1, 2, 3);
    assertThat(spillFiles(tmp)).isEqualTo(before);
  }

  /**
   * close() gives the unlinked file back at once (no descriptor of this process still points at a
   * deleted spill file), and a closed creator that spilled refuses to encode.
   */
  @Test
  void closeReleasesTheSpillFile() throws IOException {
    Path fds = Path.of("/proc/self/fd");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(fds), "no /proc/self/fd on this system");
    long before = openSpillFiles(fds);
    GsymCreator c = creator(0);
    int name = c.insertString("f");
    for (int i = 0; i < 100; i++) c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000 + 16 * i, 0x1010 + 16 * i), name));
    assertThat(openSpillFiles(fds)).isEqualTo(before + 1);
    c.finish(Diagnostics.silent());
    byte[] first = c.encode(ByteOrder.LITTLE_ENDIAN);
    assertThat(c.encode(ByteOrder.LITTLE_ENDIAN)).isEqualTo(first); // encoding twice reads the spill twice
    c.close();
    assertThat(openSpillFiles(fds)).isEqualTo(before);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.encode(ByteOrder.LITTLE_ENDIAN))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    c.close(); // twice is harmless
  }

  /**
   * Records read back in spill order, in random order (small reads), and in random order mixed
   * with runs in spill order (small reads followed by read-ahead windows), across the 1 MiB window
   * and across records larger than it: every read gives the bytes appended.
   */
  @Test
  void readsInAnyOrderGiveTheAppendedBytes() throws IOException {
    RecordSpill spill = RecordSpill.create();
    try {
      SplittableRandom r = new SplittableRandom(11);
      List<byte[]> records = new ArrayList<>();
      List<Long> at = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        int len = i % 997 == 5 ? (1 << 20) + 3 + r.nextInt(5000) : 1 + r.nextInt(i % 3 == 0 ? 9000 : 300);
        byte[] b = new byte[len];
        r.nextBytes(b);
        records.add(b);
        at.add(spill.append(b));
      }
      for (int i = 0; i < records.size(); i++) {
        assertThat(spill.read(at.get(i), records.get(i).length)).as("in order, record " + i).isEqualTo(records.get(i));
      }
      for (int k = 0; k < 20_000; k++) {
        int i = r.nextInt(records.size());
        int run = r.nextInt(4) == 0 ? 1 + r.nextInt(40) : 1; // sometimes read on in spill order
        for (int j = i; j < Math.min(records.size(), i + run); j += 1 + r.nextInt(2)) {
          assertThat(spill.read(at.get(j), records.get(j).length)).as("record " + j).isEqualTo(records.get(j));
        }
      }
    } finally {
      spill.close();
    }
  }

  /** Descriptors of this process open on a spill file. */
  private static long openSpillFiles(Path fds) throws IOException {
    try (Stream<Path> s = Files.list(fds)) {
      return s.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().contains(".gsym-records-");
        } catch (IOException e) {
          return false; // closed while listing
        }
      }).count();
    }
  }

  private static List<Path> spillFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(".gsym-records-")).sorted().toList();
    }
  }
}
