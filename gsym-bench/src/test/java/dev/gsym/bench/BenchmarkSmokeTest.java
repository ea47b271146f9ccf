package dev.gsym.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.dwarf.read.DwarfFile;
import dev.gsym.read.LookupResult;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Every benchmark runs once outside JMH on small inputs (a 2,000-function synthetic GSYM, the
 * default golden binary), and JMH's annotation processor generated the benchmark list the
 * benchmarks jar runs from. Benchmarks themselves are run by bench/jmh.sh, not by the build.
 */
class BenchmarkSmokeTest {
  private static final Blackhole BH = new Blackhole(
      "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

  @Test
  void lookupBenchmarksAnswer() throws Exception {
    LookupBenchmark b = new LookupBenchmark();
    b.gsym = "synthetic:2000";
    b.setup();
    try {
      LookupBenchmark.Cursor c = new LookupBenchmark.Cursor();
      c.start();
      int at = c.next;
      long addr = b.addrs[at];
      LookupResult r = b.lookup(c);
      assertThat(r.lookupAddress()).isEqualTo(addr);
      assertThat(r.functionName()).startsWith("gen_function_");
      c.next = at;
      assertThat(b.reader.functionAddress(b.findFunction(c))).isEqualTo(r.functionRange().start());
      assertThat(b.lookupAll(c)).isNotEmpty();
      b.lookupAndFormat(c, BH);
      assertThat(b.decodeFunctionInfo(c).lineTable()).isNotNull();
      assertThat(b.findFunctionAllThreads(c)).isNotNegative();
      assertThat(b.lookupAllThreads(c)).isNotNull();
    } finally {
      b.tearDown();
    }
  }

  @Test
  void openBenchmarkAnswers() throws Exception {
    OpenBenchmark b = new OpenBenchmark();
    b.gsym = "synthetic:100";
    b.setup();
    try {
      assertThat(b.openLookupClose()).isPositive();
    } finally {
      b.tearDown();
    }
  }

  @Test
  void dwarfPhasesRunOnTheGoldenBinary() throws Exception {
    DwarfConversionBenchmark b = new DwarfConversionBenchmark();
    b.binary = "src-test-data/bin/cpp-gcc-O2";
    b.open();
    try {
      assertThat(b.openElf().info().size()).isPositive();
      assertThat(b.parseUnits()).isPositive();
      DwarfConversionBenchmark.Parsed p = new DwarfConversionBenchmark.Parsed();
      p.parse(b);
      assertThat(b.transform(p)).isPositive();
      DwarfConversionBenchmark.Filled f = new DwarfConversionBenchmark.Filled();
      f.fill(b);
      byte[] phased = b.finalizeAndEncode(f);
      assertThat(phased).isEqualTo(b.convertAll()); // the phases add up to the whole conversion
    } finally {
      b.close();
    }
  }

  @Test
  void unwindLookupBenchmarkAnswers(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path gsym = dir.resolve("u.gsym");
    try (dev.gsym.elf.ElfFile f = dev.gsym.elf.ElfFile.open(dev.gsym.testing.TestData.path("bin", "cpp-gcc-O2"))) {
      dev.gsym.write.GsymCreator c = new dev.gsym.write.GsymCreator();
      var s = dev.gsym.dwarf.DwarfConverter.convert(f, c, dev.gsym.write.Diagnostics.silent(),
          dev.gsym.dwarf.DwarfConverter.Options.builder().unwind(dev.gsym.dwarf.DwarfConverter.Unwind.ALL).build());
      c.save(gsym, s.byteOrder());
    }
    UnwindLookupBenchmark b = new UnwindLookupBenchmark();
    b.gsym = gsym.toString();
    b.setup();
    try {
      for (int i = 0; i < 100; i++) {
        long a = b.addrs[b.next & (UnwindLookupBenchmark.ADDRESSES - 1)];
        assertThat(b.unwindRow(BH)).as("0x%x", a).isTrue();
      }
      assertThat(b.state.cfaKind()).isNotEqualTo(dev.gsym.unwind.UnwindState.NONE);
    } finally {
      b.tearDown();
    }
  }

  @Test
  void jmhGeneratedTheBenchmarkList() throws Exception {
    try (InputStream in = DwarfFile.class.getClassLoader().getResourceAsStream("META-INF/BenchmarkList")) {
      assertThat(in).as("META-INF/BenchmarkList").isNotNull();
      String list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(list).contains("LookupBenchmark_lookupAllThreads_jmhTest")
          .contains("DwarfConversionBenchmark_finalizeAndEncode_jmhTest")
          .contains("OpenBenchmark_openLookupClose_jmhTest");
    }
  }
}
