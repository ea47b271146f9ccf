package dev.gsym.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.dwarf.read.DwarfFile;
import dev.gsym.dwarf.read.DwarfSections;
import dev.gsym.elf.ElfFile;
import dev.gsym.GsymFormatException;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * No thread outlives a conversion, successful or failed: with the conversion's own pool every
 * thread it started has ended when {@code convert} returns; with the caller's executor the work
 * runs there and none of it is still running. Inputs with compressed sections and several units,
 * so that inflation, pre-parsing and unit workers all take part.
 */
class ConversionThreadsTest {
  private static final List<String> BINS = List.of("c-clang-O2-gz-zlib", "c-gcc-O2-gz-zstd", "cpp-gcc-O2", "rust-O2");

  private static Set<Thread> live() {
    Set<Thread> s = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive()) s.add(t);
    }
    return s;
  }

  /** {@code name} with the abbreviation code of its last unit's first DIE made invalid. */
  private static byte[] brokenLastUnit(String name) throws Exception {
    byte[] b = Files.readAllBytes(TestData.path("bin", name));
    long at;
    try (ElfFile elf = ElfFile.open(TestData.path("bin", name)); DwarfFile dwarf = new DwarfFile(DwarfSections.of(elf))) {
      assertThat(dwarf.units()).as(name).hasSizeGreaterThan(1);
      assertThat(elf.section(".debug_info").flags() & ElfFile.SHF_COMPRESSED).as(name).isZero();
      at = elf.section(".debug_info").offset() + dwarf.units().getLast().unitDie().offset();
    }
    b[(int) at] = 0x7f;
    return b;
  }

  private static DwarfConverter.Summary convert(ElfFile elf, DwarfConverter.Options o) {
    GsymCreator c = new GsymCreator();
    return DwarfConverter.convert(elf, c, Diagnostics.silent(), o);
  }

  @Test
  void ownPoolThreadsHaveEndedWhenConvertReturnsOrThrows() throws Exception {
    Set<Thread> before = live();
    for (String bin : BINS) {
      for (int threads : new int[] {1, 2, 4}) {
        try (ElfFile elf = ElfFile.open(TestData.path("bin", bin))) {
          assertThat(convert(elf, DwarfConverter.Options.builder().threads(threads).build()).dwarfFunctions()).isPositive();
        }
        Set<Thread> after = live();
        after.removeAll(before);
        assertThat(after).as("%s, %d threads: threads left running", bin, threads).isEmpty();
      }
    }
    byte[] broken = brokenLastUnit("cpp-gcc-O2");
    for (int threads : new int[] {1, 2, 4}) {
      assertThatThrownBy(() -> convert(ElfFile.of(broken, "broken"), DwarfConverter.Options.builder().threads(threads).build()))
          .isInstanceOf(GsymFormatException.class).hasMessageContaining("invalid abbreviation code 127");
      Set<Thread> after = live();
      after.removeAll(before);
      assertThat(after).as("failed conversion, %d threads: threads left running", threads).isEmpty();
    }
  }

  @Test
  void callersExecutorRunsTheWorkAndNoneOfItIsLeftRunning() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      AtomicInteger ran = new AtomicInteger();
      AtomicInteger running = new AtomicInteger();
      // A task the pool starts after convert returned finds its work dropped and returns at once:
      // only tasks started before the return count as running.
      java.util.concurrent.atomic.AtomicBoolean returned = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.Executor counting = r -> pool.execute(() -> {
        if (returned.get()) {
          r.run();
          return;
        }
        running.incrementAndGet();
        try {
          r.run();
        } finally {
          running.decrementAndGet();
          ran.incrementAndGet();
        }
      });
      DwarfConverter.Options o = DwarfConverter.Options.builder().threads(4).executor(counting).build();
      byte[] ok = Files.readAllBytes(TestData.path("bin", "c-clang-O2-gz-zlib"));
      assertThat(convert(ElfFile.of(ok, "ok"), o).dwarfFunctions()).isPositive();
      returned.set(true);
      assertThat(settled(running)).as("tasks still running after convert returned").isZero();
      if (Runtime.getRuntime().availableProcessors() >= 2) assertThat(ran.get()).as("tasks run on the executor").isPositive();
      byte[] broken = brokenLastUnit("cpp-gcc-O2");
      returned.set(false);
      assertThatThrownBy(() -> convert(ElfFile.of(broken, "broken"), o)).isInstanceOf(GsymFormatException.class);
      returned.set(true);
      assertThat(settled(running)).as("tasks still running after convert threw").isZero();
      assertThat(pool.isShutdown()).as("the caller's executor is not shut down").isFalse();
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * The count once the tasks' wrappers have unwound: a task signals its completion inside its run(),
   * so the conversion may return while a wrapper is still between that signal and its decrement
   * (microseconds). A task still doing work has no such bound: 5 s is far beyond the epilogue.
   */
  private static int settled(AtomicInteger running) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (running.get() != 0 && System.nanoTime() < deadline) Thread.sleep(1);
    return running.get();
  }

  @Test
  void optionsAreCheckedAndImmutable() {
    assertThatThrownBy(() -> DwarfConverter.Options.builder().threads(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DwarfConverter.Options.builder().listener(null)).isInstanceOf(NullPointerException.class);
    DwarfConverter.Options.Builder b = DwarfConverter.Options.builder().quiet(true).threads(3);
    DwarfConverter.Options o = b.build();
    b.quiet(false).threads(5).mergedFunctions(true);
    assertThat(o.quiet()).isTrue();
    assertThat(o.threads()).isEqualTo(3);
    assertThat(o.mergedFunctions()).isFalse();
    assertThat(o.executor()).isNull();
    assertThat(DwarfConverter.Options.defaults().threads()).isZero();
  }
}
