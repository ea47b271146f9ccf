package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gsym.testing.StartsProcesses;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One conversion per module: several threads (through one symbolizer and through two sharing a
 * store), and two processes (a second JVM on the test class path) asking for the same new module;
 * and a conversion killed midway (SIGKILL of the second JVM) leaves nothing a later request reads.
 * The module is a generated Breakpad file large enough that its conversion takes a while.
 */
@StartsProcesses
class StoreConcurrencyTest {
  static final String ID = "0123456789ABCDEF0123456789ABCDEF0";
  static final long FIRST = 0x1000;
  static final long SPACING = 0x40;

  @TempDir Path tmp;

  /** A .sym with {@code functions} FUNCs of 4 line records each; function i starts at FIRST + i * SPACING. */
  static Path bigSym(Path dir, String name, int functions) throws IOException {
    Path p = dir.resolve(name + ".sym");
    try (BufferedWriter w = Files.newBufferedWriter(p)) {
      w.write("MODULE Linux x86_64 " + ID + " " + name + "\n");
      for (int f = 0; f < 64; f++) w.write("FILE " + f + " /src/dir" + (f % 7) + "/file" + f + ".c\n");
      for (int i = 0; i < functions; i++) {
        long a = FIRST + i * SPACING;
        w.write("FUNC " + Long.toHexString(a) + " " + Long.toHexString(SPACING) + " 0 function_" + i + "\n");
        for (int k = 0; k < 4; k++) {
          w.write(Long.toHexString(a + k * 0x10) + " 10 " + (1 + (i * 7 + k) % 5000) + " " + (i % 64) + "\n");
        }
      }
    }
    return p;
  }

  private static ModuleKey key(String name) {
    return ModuleKey.ofBreakpad(name, ID);
  }

  private static void assertFunction(Symbolized r, int index) {
    Symbolized.Found f = assertInstanceOf(Symbolized.Found.class, r);
    assertEquals("function_" + index, f.function().function());
  }

  @Test
  void threadsConvertOnce() throws Exception {
    Path sym = bigSym(tmp, "threads", 50_000);
    Path store = tmp.resolve("store");
    int n = 8;
    CyclicBarrier start = new CyclicBarrier(n);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try (Symbolizer a = Symbolizer.builder().store(store).build(); Symbolizer b = Symbolizer.builder().store(store).build()) {
      List<Future<Symbolized>> answers = new ArrayList<>();
      for (int t = 0; t < n; t++) {
        Symbolizer s = t % 2 == 0 ? a : b; // two symbolizers: the file lock also orders threads of one process
        int index = 1000 + t;
        answers.add(pool.submit(() -> {
          start.await();
          return s.symbolize(ModuleRef.file(sym), FIRST + index * SPACING + 5);
        }));
      }
      for (int t = 0; t < n; t++) assertFunction(answers.get(t).get(2, TimeUnit.MINUTES), 1000 + t);
      assertEquals(1, a.stats().conversions() + b.stats().conversions(), "converted once");
      assertEquals(1, a.stats().conversions() == 1 ? b.stats().storeHits() : a.stats().storeHits(),
          "the other symbolizer opened the store file");
    } finally {
      pool.shutdownNow();
    }
  }

  private Process worker(Path store, Path module, long address) throws IOException {
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), StoreWorker.class.getName(),
        store.toString(), module.toString(), "0x" + Long.toHexString(address));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("worker.log").toFile()).start();
  }

  /** Waits until another process holds the module's lock (and, if {@code temp}, has begun its output file). */
  private static void awaitConversion(Process p, GsymStore store, ModuleKey k, boolean temp, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      if (!p.isAlive()) fail("the worker finished before it was seen converting: " + Files.readString(log));
      if (System.nanoTime() > deadline) fail("the worker did not start converting within a minute");
      GsymStore.Lock mine = store.tryLock(k);
      if (mine != null) {
        mine.close();
      } else if (!temp || !tempFiles(store.root()).isEmpty()) {
        return;
      }
      Thread.sleep(5);
    }
  }

  private static List<Path> tempFiles(Path root) throws IOException {
    if (!Files.exists(root)) return List.of();
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.getFileName().toString().startsWith(GsymStore.TEMP_PREFIX)).toList();
    }
  }

  @Test
  void twoProcessesConvertOnce() throws Exception {
    Path sym = bigSym(tmp, "procs", 250_000);
    Path storeDir = tmp.resolve("store");
    GsymStore store = new GsymStore(storeDir, Long.MAX_VALUE);
    Process other = worker(storeDir, sym, FIRST + 123 * SPACING);
    try {
      awaitConversion(other, store, key("procs"), false, tmp.resolve("worker.log"));
      // the other process is converting: this one waits for it and reads its store file
      try (Symbolizer s = Symbolizer.builder().store(storeDir).build()) {
        assertFunction(s.symbolize(ModuleRef.file(sym), FIRST + 4567 * SPACING), 4567);
        assertEquals(0, s.stats().conversions());
        assertEquals(1, s.stats().storeHits());
      }
      assertTrue(other.waitFor(2, TimeUnit.MINUTES));
      String log = Files.readString(tmp.resolve("worker.log"));
      assertEquals(0, other.exitValue(), log);
      assertTrue(log.contains("result=function_123"), log);
      assertTrue(log.contains("conversions=1 storeHits=0"), log);
    } finally {
      other.destroyForcibly();
    }
  }

  @Test
  void conversionKilledMidwayLeavesNothingReadable() throws Exception {
    Path sym = bigSym(tmp, "killed", 250_000);
    Path storeDir = tmp.resolve("store");
    GsymStore store = new GsymStore(storeDir, Long.MAX_VALUE);
    ModuleKey k = key("killed");
    Process other = worker(storeDir, sym, FIRST);
    try {
      awaitConversion(other, store, k, true, tmp.resolve("worker.log"));
      other.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
      assertTrue(other.waitFor(30, TimeUnit.SECONDS));
    } finally {
      other.destroyForcibly();
    }
    assertFalse(Files.exists(store.gsym(k)), "no store file from the killed conversion");
    List<Path> leftovers = tempFiles(storeDir);
    assertEquals(1, leftovers.size(), "the killed process's temporary file: " + leftovers);
    GsymStore.Lock free = store.tryLock(k);
    assertNotNull(free, "the kernel released the dead process's lock");
    free.close();

    try (Symbolizer s = Symbolizer.builder().store(storeDir).build()) {
      assertFunction(s.symbolize(ModuleRef.file(sym), FIRST + 249_999 * SPACING), 249_999);
      assertFunction(s.symbolize(ModuleRef.breakpad("killed", ID), FIRST + 7 * SPACING), 7);
      assertEquals(1, s.stats().conversions());
    }
    // the leftover is never read; once stale, eviction removes it
    Files.setLastModifiedTime(leftovers.getFirst(), FileTime.fromMillis(System.currentTimeMillis() - 2 * 3600_000L));
    GsymStore.Eviction e = new GsymStore(storeDir, 1L << 40).evict(p -> false);
    assertNotNull(e);
    assertEquals(1, e.tempsRemoved());
    assertEquals(0, e.filesRemoved());
    assertTrue(tempFiles(storeDir).isEmpty());
    assertTrue(Files.exists(store.gsym(k)));
  }
}
