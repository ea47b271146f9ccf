package dev.gsym.bench;

import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.dwarf.read.DwarfFile;
import dev.gsym.dwarf.read.DwarfSections;
import dev.gsym.dwarf.transform.DwarfTransformer;
import dev.gsym.dwarf.transform.ObjectFileTransformer;
import dev.gsym.elf.ElfFile;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The phases of {@code gsymutil --dwarf} (what {@link DwarfConverter#convert} does), one thread,
 * each measured alone:
 *
 * <ol>
 *   <li>{@link #openElf}: map the ELF, read section and program headers, bind the DWARF sections
 *       (inflating {@code SHF_COMPRESSED} ones);
 *   <li>{@link #parseUnits}: unit headers, abbreviations and every unit's DIE index
 *       ({@code new DwarfFile});
 *   <li>{@link #transform}: DWARF and {@code .symtab} to FunctionInfos in a fresh creator
 *       ({@code DwarfTransformer}, {@code ObjectFileTransformer}) over a freshly parsed DwarfFile
 *       (its line-table cache starts empty);
 *   <li>{@link #finalizeAndEncode}: {@code GsymCreator.finalize} (sort, duplicates, overlaps) and
 *       the encoding of the whole file;
 *   <li>{@link #convertAll}: all of it, as the command does, plus the encoding.
 * </ol>
 *
 * <p>{@code binary}: an ELF path, relative to the repository root or absolute, default the largest
 * golden binary ({@code src-test-data/bin/cpp-gcc-O2}, 30 KB). For {@code /tmp/jvmdbg/libjvm.debug}
 * (156 MB) use single-shot mode ({@code -bm ss -wi 1 -i 3}): each operation takes seconds and the
 * per-invocation setups of {@link #transform} and {@link #finalizeAndEncode} as long again.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow") // JMH uses sun.misc.Unsafe
public class DwarfConversionBenchmark {
  @Param({"src-test-data/bin/cpp-gcc-O2"})
  public String binary;

  Path path;
  ElfFile elf;
  DwarfSections sections;

  @Setup(Level.Trial)
  public void open() throws IOException {
    Path p = Path.of(binary);
    path = p.isAbsolute() ? p : TestData.repoRoot().resolve(p);
    elf = ElfFile.open(path);
    sections = DwarfSections.of(elf);
  }

  @TearDown(Level.Trial)
  public void close() {
    if (elf != null) elf.close();
  }

  /** A creator set up as DwarfConverter does before the transformers run. */
  static GsymCreator newCreator(ElfFile elf) {
    GsymCreator c = new GsymCreator();
    Long base = elf.baseAddress();
    if (base != null) c.setBaseAddress(base);
    if (!elf.textRanges().isEmpty()) c.setValidTextRanges(elf.textRanges());
    return c;
  }

  /** Runs both transformers into {@code c}; returns the number of FunctionInfos added. */
  static int transform(ElfFile elf, DwarfFile dwarf, GsymCreator c) {
    int n = new DwarfTransformer(dwarf, c, Diagnostics.silent(), true).convert();
    return n + ObjectFileTransformer.convert(elf, c, Diagnostics.silent());
  }

  /** A freshly parsed DwarfFile for each {@link #transform} call. */
  @State(Scope.Thread)
  public static class Parsed {
    DwarfFile dwarf;

    @Setup(Level.Invocation)
    public void parse(DwarfConversionBenchmark b) {
      dwarf = new DwarfFile(b.sections);
    }
  }

  /** A creator filled by the transformers, not yet finalized, for each {@link #finalizeAndEncode} call. */
  @State(Scope.Thread)
  public static class Filled {
    GsymCreator creator;

    @Setup(Level.Invocation)
    public void fill(DwarfConversionBenchmark b) {
      creator = newCreator(b.elf);
      transform(b.elf, new DwarfFile(b.sections), creator);
    }
  }

  @Benchmark
  public DwarfSections openElf() throws IOException {
    try (ElfFile e = ElfFile.open(path)) {
      return DwarfSections.of(e);
    }
  }

  @Benchmark
  public int parseUnits() {
    return new DwarfFile(sections).units().size();
  }

  @Benchmark
  public int transform(Parsed p) {
    return transform(elf, p.dwarf, newCreator(elf));
  }

  @Benchmark
  public byte[] finalizeAndEncode(Filled f) {
    f.creator.finish(Diagnostics.silent());
    return f.creator.encode(elf.byteOrder());
  }

  @Benchmark
  public byte[] convertAll() throws IOException {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(path, c, Diagnostics.silent(),
        DwarfConverter.Options.builder().quiet(true).threads(1).build());
    return c.encode(s.byteOrder());
  }
}
