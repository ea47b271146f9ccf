package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Store conversions in a child JVM ({@link Symbolizer.Builder#conversionProcess}): the same store
 * bytes and the same answers and messages as conversions in this process, for DWARF, merged
 * functions and Breakpad; a malformed module's error crosses the process boundary unchanged; a
 * child that dies publishes nothing.
 */
@StartsProcesses
class ConversionProcessTest {
  @TempDir Path tmp;

  private static final List<String> CHILD = List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC");

  private record Run(Symbolized answer, List<byte[]> storeFiles, long conversions) {}

  private Run run(String name, boolean child, boolean merged, ModuleRef ref, long address) throws IOException {
    Path store = tmp.resolve(name + (child ? "-child" : "-in"));
    Symbolizer.Builder b = Symbolizer.builder().store(store).mergedFunctions(merged);
    if (child) b.conversionProcess(CHILD);
    try (Symbolizer s = b.build()) {
      Symbolized answer = s.symbolize(ref, address);
      List<byte[]> files = new ArrayList<>();
      try (Stream<Path> w = Files.walk(store)) {
        for (Path p : w.filter(p -> p.toString().endsWith(".gsym")).sorted().toList()) files.add(Files.readAllBytes(p));
      }
      try (Stream<Path> w = Files.walk(store)) {
        assertEquals(List.of(), w.filter(p -> p.getFileName().toString().startsWith(GsymStore.TEMP_PREFIX)).toList(),
            "no temporary file left");
      }
      return new Run(answer, files, s.stats().conversions());
    }
  }

  private void assertSame(String name, boolean merged, ModuleRef ref, long address) throws IOException {
    Run in = run(name, false, merged, ref, address);
    Run child = run(name, true, merged, ref, address);
    assertEquals(1, in.conversions(), name);
    assertEquals(1, child.conversions(), name);
    assertInstanceOf(Symbolized.Found.class, child.answer(), name);
    assertEquals(in.answer(), child.answer(), name);
    assertEquals(1, child.storeFiles().size(), name);
    assertArrayEquals(in.storeFiles().getFirst(), child.storeFiles().getFirst(), name + ": store bytes");
  }

  @Test
  void dwarfMergedAndBreakpadConversionsGiveTheSameStoreBytes() throws Exception {
    Path elf = Fixtures.bin("cpp-clang-O2");
    long addr = Fixtures.functionAddressOf("cpp-clang-O2");
    assertSame("dwarf", false, ModuleRef.file(elf), addr);
    assertSame("merged", true, ModuleRef.file(elf), addr);
    Path sym = StoreConcurrencyTest.bigSym(tmp, "bp", 2_000);
    assertSame("breakpad", false, ModuleRef.file(sym), StoreConcurrencyTest.FIRST + 7 * StoreConcurrencyTest.SPACING);
  }

  @Test
  void malformedModulesGiveTheSameMessage() throws Exception {
    byte[] elf = Files.readAllBytes(Fixtures.bin("c-gcc-O2"));
    // an ELF whose section headers point past the end of the file, and a Breakpad file with no FUNC
    Path cut = Files.write(tmp.resolve("cut"), Arrays.copyOf(elf, elf.length / 2));
    Path noFunc = Files.writeString(tmp.resolve("nofunc.sym"), "MODULE Linux x86_64 " + StoreConcurrencyTest.ID + " nofunc\nFILE 0 a.c\n");
    for (Path p : List.of(cut, noFunc)) {
      Run in = run(p.getFileName().toString(), false, false, ModuleRef.file(p), 0x1000);
      Run child = run(p.getFileName().toString(), true, false, ModuleRef.file(p), 0x1000);
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class, child.answer());
      assertTrue(u.message().startsWith(p.toString()), u.message());
      assertEquals(in.answer(), child.answer());
      assertEquals(List.of(), child.storeFiles(), "nothing published");
    }
  }

  @Test
  void aChildThatDiesPublishesNothing() throws Exception {
    Path sym = StoreConcurrencyTest.bigSym(tmp, "dies", 100);
    Path store = tmp.resolve("store");
    // a JVM that cannot start: its own error, no result line
    try (Symbolizer s = Symbolizer.builder().store(store).conversionProcess(List.of("-XX:NoSuchJvmOption=1")).build()) {
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class,
          s.symbolize(ModuleRef.file(sym), StoreConcurrencyTest.FIRST));
      assertTrue(u.message().contains("the conversion process ended with status 1"), u.message());
      assertTrue(u.message().contains("Unrecognized VM option 'NoSuchJvmOption=1'"), u.message());
      assertEquals(0, s.stats().conversions());
    }
    try (Stream<Path> w = Files.walk(store)) {
      assertEquals(List.of(), w.filter(p -> p.toString().endsWith(".gsym") || p.getFileName().toString().startsWith(GsymStore.TEMP_PREFIX))
          .toList());
    }
  }

  @Test
  void resultFieldsSurviveEscaping() {
    for (String s : List.of("", "plain", "tab\there", "line\nbreak\r\n", "back\\slash\\t", "\\", "ü \u0001")) {
      String e = ConversionProcess.escape(s);
      assertTrue(e.indexOf('\t') < 0 && e.indexOf('\n') < 0 && e.indexOf('\r') < 0, e);
      assertEquals(s, ConversionProcess.unescape(e));
    }
  }

  /**
   * One child waits ahead (started with the symbolizer), takes the first job, and is replaced after
   * it; the symbolizer's close stops the waiting one. The job names a file with a tab and a line
   * break in its name: the job line's escaping carries it.
   */
  @Test
  void aSpareChildTakesTheJobIsReplacedAndStopsWithTheSymbolizer() throws Exception {
    Path sym = Files.move(StoreConcurrencyTest.bigSym(tmp, "spare", 100), tmp.resolve("odd\tname\n.sym"));
    ProcessHandle second;
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("spare-store")).conversionProcess(CHILD).build()) {
      ProcessHandle first = child(null);
      Symbolized answer = s.symbolize(ModuleRef.file(sym), StoreConcurrencyTest.FIRST);
      assertInstanceOf(Symbolized.Found.class, answer, answer.toString());
      assertEquals(1, s.stats().conversions());
      // the spare did the job, so it has ended; another starts after the conversion
      first.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
      second = child(first);
    }
    second.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
  }

  /** The ConversionProcess child of this JVM other than {@code not}, waiting up to 30 s for it. */
  private static ProcessHandle child(ProcessHandle not) throws InterruptedException {
    for (int i = 0; i < 600; i++) {
      var found = ProcessHandle.current().children()
          .filter(p -> p.info().commandLine().orElse("").contains(ConversionProcess.class.getName()))
          .filter(p -> not == null || p.pid() != not.pid()).findFirst();
      if (found.isPresent()) return found.get();
      Thread.sleep(50);
    }
    throw new AssertionError("no conversion child started");
  }

  /** An interrupt ends the wait at once and kills the child (here stuck opening a FIFO nobody writes). */
  @Test
  void anInterruptKillsTheChild() throws Exception {
    Path fifo = tmp.resolve("fifo.sym");
    Process mk = new ProcessBuilder(Tools.require("mkfifo").toString(), fifo.toString()).start();
    assertEquals(0, mk.waitFor(), "mkfifo");
    Path out = Files.createFile(tmp.resolve("out.gsym"));
    ConversionProcess c = new ConversionProcess(CHILD);
    java.util.concurrent.CompletableFuture<Throwable> thrown = new java.util.concurrent.CompletableFuture<>();
    Thread t = Thread.ofPlatform().start(() -> {
      try {
        c.convert(fifo, ConverterAdapter.Kind.BREAKPAD, false, out);
        thrown.complete(null);
      } catch (Throwable e) {
        thrown.complete(e);
      }
    });
    child(null);
    Thread.sleep(1000); // the child has the job and is stuck opening the FIFO
    t.interrupt();
    assertInstanceOf(InterruptedException.class, thrown.get(10, java.util.concurrent.TimeUnit.SECONDS));
    c.close(); // stops a spare; the stuck child must be gone already
    for (ProcessHandle h : ProcessHandle.current().children()
        .filter(p -> p.info().commandLine().orElse("").contains(ConversionProcess.class.getName())).toList()) {
      h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }
}
