package dev.gsym.elf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.Slow;
import dev.gsym.unwind.MemoryReader;
import dev.gsym.unwind.Registers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for core files (docs/reliability.md, target {@code core}): the input
 * is read by {@link ElfCore}, and everything a stack walker asks of it is asked: each thread's
 * registers, the words at its stack pointer, the signal, the auxiliary vector and AT_EXECFN, the
 * mapped files, the modules with their build-ids, the module of each pc, reads at the edges of
 * every segment. Only GsymFormatException may escape; a read that {@code readable} allowed must
 * succeed; anything else, and an input slower than {@link #LIMIT}, is a finding. Seeds: six corpus cores
 * (x86-64, i386, gdb's, qemu's AArch64) whole and cut after their notes (src-test-data/crash), and hostile cores (counts near 2^32,
 * a note past its segment, a 64 KB path).
 */
@Slow
class ElfCoreFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);

  static Stream<Arguments> seeds() {
    List<Arguments> out = new ArrayList<>();
    for (String name : List.of("null-i386-fp", "null-x86_64-fp", "threads-x86_64-nofp", "abort-i386-nofp", "null-x86_64-fp.gdb",
        "fault-aarch64-fp")) {
      byte[] core = CrashCorpus.coreBytes(name);
      out.add(Arguments.argumentSet("crash/" + name, (Object) core));
      // the headers and notes only (the kernel writes them first): the segments are cut short
      out.add(Arguments.argumentSet("crash/" + name + " (first 16 KB)", (Object) Arrays.copyOf(core, 16 << 10)));
    }
    CoreBuilder b = CoreBuilder.x86_64();
    out.add(Arguments.argumentSet("NT_FILE count 2^32-1", (Object) b.note(ElfCore.NT_FILE, b.words(0xffff_ffffL, 4096)).build()));
    CoreBuilder c = CoreBuilder.x86_64();
    byte[] path = new byte[64 << 10];
    Arrays.fill(path, (byte) 'p');
    out.add(Arguments.argumentSet("64 KB path", (Object) c.note(ElfCore.NT_FILE,
        ElfCoreHostileTest.concat(c.words(1, 4096, 0x10000, 0x11000, 0), path, new byte[1])).load(0x10000, 0x1000, new byte[64]).build()));
    CoreBuilder d = CoreBuilder.x86_64();
    byte[] lie = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(5).putInt(0xffff_fff0).putInt(ElfCore.NT_PRSTATUS)
        .put("CORE\0\0\0\0".getBytes()).array();
    out.add(Arguments.argumentSet("note past its segment", (Object) d.rawNote(lie).build()));
    return out.stream();
  }

  @MethodSource("seeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void coreFile(byte[] input) {
    FuzzLimits.within(LIMIT, "core", "reading a core file of " + input.length + " bytes", () -> {
      try (ElfCore core = ElfCore.of(input, "fuzz.core")) {
        exercise(core);
      } catch (GsymFormatException expected) {
        // malformed input, reported with its offset
      }
    });
  }

  private static void exercise(ElfCore core) {
    MemoryReader memory = core.memory();
    Registers regs = new Registers();
    int w = core.elf().is64() ? 8 : 4;
    boolean bigEndian = core.elf().byteOrder() == ByteOrder.BIG_ENDIAN;
    for (ElfCore.CoreThread t : core.threads().subList(0, Math.min(64, core.threads().size()))) {
      core.registers(t, regs);
      core.generalRegisters(t);
      if (core.arch() != null && regs.has(core.arch().stackPointer())) {
        long sp = regs.get(core.arch().stackPointer());
        for (int i = 0; i < 8; i++) check(memory, sp + (long) i * w, w, bigEndian);
      }
      if (regs.hasPc()) core.moduleAt(regs.pc());
    }
    core.signal();
    core.process();
    core.auxv();
    core.execFn();
    core.files();
    for (ElfCore.CoreModule m : core.modules()) {
      assertThat(Long.compareUnsigned(m.base(), m.end())).as("module %s", m).isLessThanOrEqualTo(0);
      m.buildIdHex();
    }
    core.mainExecutable();
    for (ElfCore.Segment s : core.segments().subList(0, Math.min(256, core.segments().size()))) {
      for (long a : new long[] {s.address(), s.address() + s.fileSize() - 1, s.address() + s.fileSize() - 4, s.address() + s.memorySize() - 8}) {
        check(memory, a, 1, bigEndian);
        check(memory, a, 4, bigEndian);
        check(memory, a, 8, bigEndian);
      }
    }
  }

  /** A read that {@code readable} allows must succeed and agree with its bytes in the core's byte order. */
  private static void check(MemoryReader memory, long address, int size, boolean bigEndian) {
    if (!memory.readable(address, size)) return;
    long v = memory.read(address, size);
    for (int i = 0; i < size; i++) {
      assertThat(memory.readable(address + i, 1)).isTrue();
      int shift = 8 * (bigEndian ? size - 1 - i : i);
      assertThat(memory.read(address + i, 1)).as("byte %d of the %d at 0x%x", i, size, address).isEqualTo((v >>> shift) & 0xff);
    }
  }
}
