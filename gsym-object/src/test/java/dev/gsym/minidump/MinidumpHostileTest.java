package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile input: each break of a rule Breakpad checks is one GsymFormatException naming the
 * absolute file offset, from the accessor of the broken stream only, with nothing allocated from
 * the hostile sizes; every variant of {@link HostileDumps} reads without any other exception.
 */
class MinidumpHostileTest {
  private static byte[] base;
  private static Map<String, byte[]> variants;

  @BeforeAll
  static void load() throws IOException {
    base = Files.readAllBytes(MinidumpDumpTest.dir().resolve("dumps").resolve("x86_64-fp-thread.dmp"));
    variants = HostileDumps.of(base);
  }

  private static GsymFormatException opening(String variant) {
    try {
      Minidump.of(variants.get(variant), variant);
    } catch (GsymFormatException e) {
      return e;
    }
    throw new AssertionError(variant + " opened");
  }

  @Test
  void headerAndDirectoryFailTheOpen() {
    GsymFormatException e = opening("stream-count-4294967295");
    assertThat(e.offset()).isEqualTo(8);
    assertThat(e.detail()).contains("stream count 4294967295 exceeds the maximum of 128");
    assertThat(opening("stream-count-129").offset()).isEqualTo(8);
    assertThat(opening("version").offset()).isEqualTo(4);
    e = opening("directory-past-end");
    assertThat(e.offset()).isEqualTo(12);
    assertThat(e.detail()).contains("extends past the end of the file");
    assertThat(opening("truncated-header").detail()).contains("shorter than the 32-byte header");
    assertThat(opening("thread-list-twice").detail()).contains("a second stream of type MD_THREAD_LIST_STREAM");
    assertThatThrownBy(() -> Minidump.of("not a minidump at all, not even close".getBytes(), "text"))
        .isInstanceOf(GsymFormatException.class).hasMessageContaining("not a minidump");
  }

  @Test
  void aOneMebibyteModuleNameFailsTheModuleListOnly() {
    byte[] b = variants.get("module-name-1MiB");
    Minidump d = Minidump.of(b, "big-name");
    GsymFormatException e = catching(d::moduleList);
    assertThat(e.offset()).isEqualTo(base.length); // the string, appended at the old end
    assertThat(e.detail()).contains("string of 524288 UTF-16 units, more than the maximum of 1024");
    // the same exception each time, and the other streams unaffected
    assertThat(catching(d::moduleList)).isSameAs(e);
    assertThat(d.threadList().threads()).hasSize(5);
    assertThat(d.memoryList().descriptors()).isNotEmpty();
    assertThat(d.systemInfo().cpu()).isEqualTo("x86-64");
  }

  @Test
  void overlappingMemoryFailsTheMemoryListAndTheMemory() {
    Minidump d = Minidump.of(variants.get("memory-overlapping"), "overlap");
    DirectoryEntry e = d.stream(StreamType.MEMORY_LIST);
    GsymFormatException x = catching(d::memoryList);
    assertThat(x.offset()).isEqualTo(e.location().rva());
    assertThat(x.detail()).contains("overlap");
    assertThatThrownBy(d::memory).isSameAs(x);
    assertThat(d.threadList().threads()).hasSize(5);
  }

  @Test
  void hugeCountsFailWithoutAllocating() {
    Minidump d = Minidump.of(variants.get("thread-count-4294967295"), "threads");
    assertThat(catching(d::threadList).detail()).contains("thread list of 4294967295 entries needs");
    d = Minidump.of(variants.get("memory-count-4294967295"), "memory");
    assertThat(catching(d::memoryList).detail()).contains("memory list of 4294967295 entries needs");
    // a Memory64List claiming 2^62 ranges, in place of the auxv stream
    byte[] b = Arrays.copyOf(base, base.length + 32);
    Minidump m = Minidump.of(base, "base");
    DirectoryEntry auxv = m.stream(StreamType.LINUX_AUXV);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    bb.putInt((int) auxv.offset(), StreamType.MEMORY_64_LIST);
    bb.putInt((int) auxv.offset() + 4, 32);
    bb.putInt((int) auxv.offset() + 8, base.length);
    bb.putLong(base.length, 1L << 62);
    bb.putLong(base.length + 8, 0);
    d = Minidump.of(b, "memory64");
    GsymFormatException x = catching(d::memory64List);
    assertThat(x.offset()).isEqualTo(base.length);
    assertThat(x.detail()).contains("memory64 list of 4611686018427387904 ranges does not fit its 32-byte stream");
  }

  @Test
  void memory64ListReadsAsFullMemory() {
    // two adjacent ranges, whose bytes follow each other in the file: 0x10000+4 and 0x10004+8
    byte[] b = Arrays.copyOf(base, base.length + 48 + 12);
    Minidump m = Minidump.of(base, "base");
    DirectoryEntry auxv = m.stream(StreamType.LINUX_AUXV);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    bb.putInt((int) auxv.offset(), StreamType.MEMORY_64_LIST);
    bb.putInt((int) auxv.offset() + 4, 48);
    bb.putInt((int) auxv.offset() + 8, base.length);
    int at = base.length;
    bb.putLong(at, 2).putLong(at + 8, base.length + 48);
    bb.putLong(at + 16, 0x10000).putLong(at + 24, 4);
    bb.putLong(at + 32, 0x10004).putLong(at + 40, 8);
    for (int i = 0; i < 12; i++) b[at + 48 + i] = (byte) (0x10 + i);
    Minidump d = Minidump.of(b, "memory64");
    Memory64List list = d.memory64List();
    assertThat(list.descriptors()).extracting(MemoryDescriptor::start).containsExactly(0x10000L, 0x10004L);
    assertThat(list.descriptors().get(1).memory().rva()).isEqualTo(base.length + 48 + 4);
    MinidumpMemory full = d.fullMemory();
    assertThat(full.read(0x10002, 4)).as("spans both ranges").isEqualTo(0x15141312L);
    assertThat(full.readable(0x1000a, 4)).as("past the second range").isFalse();
    assertThat(d.memory().readable(0x10000, 1)).as("Breakpad's memory has no Memory64List").isFalse();
  }

  @Test
  void memory64RangesOverlappingTheMemoryListFailTheFullMemory() {
    Minidump m = Minidump.of(base, "base");
    MemoryDescriptor first = m.memoryList().descriptors().getFirst();
    byte[] b = Arrays.copyOf(base, base.length + 32 + 8);
    DirectoryEntry auxv = m.stream(StreamType.LINUX_AUXV);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    bb.putInt((int) auxv.offset(), StreamType.MEMORY_64_LIST);
    bb.putInt((int) auxv.offset() + 4, 32);
    bb.putInt((int) auxv.offset() + 8, base.length);
    bb.putLong(base.length, 1).putLong(base.length + 8, base.length + 32);
    bb.putLong(base.length + 16, first.start() + 4).putLong(base.length + 24, 8);
    Minidump d = Minidump.of(b, "overlap64");
    assertThat(d.memory64List().regions()).hasSize(1);
    GsymFormatException e = catching(d::fullMemory);
    assertThat(e.offset()).isEqualTo(base.length);
    assertThat(e.detail()).contains("memory list and memory64 list").contains("overlap");
    assertThat(d.memory().readable(first.start() + 4, 8)).isTrue();
  }

  @Test
  void everyVariantReadsWithFormatErrorsOnly() {
    assertThat(variants).hasSizeGreaterThan(30);
    for (Map.Entry<String, byte[]> v : variants.entrySet()) {
      Minidump d;
      try {
        d = Minidump.of(v.getValue(), v.getKey());
      } catch (GsymFormatException refused) {
        continue;
      }
      MinidumpFuzzTest.readEverything(d);
      MinidumpDumpText.of(d);
    }
  }

  private static GsymFormatException catching(Runnable r) {
    try {
      r.run();
    } catch (GsymFormatException e) {
      return e;
    }
    throw new AssertionError("no format error");
  }
}
