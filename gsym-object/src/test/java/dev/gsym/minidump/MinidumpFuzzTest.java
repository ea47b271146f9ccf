package dev.gsym.minidump;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import dev.gsym.unwind.Registers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for the minidump reader (docs/reliability.md): the input is a whole
 * minidump, opened, every stream read, every thread's and the exception's context read and turned
 * into registers, the stacks read, and every readable word of the memory list read through the
 * memory reader (at most 4096), also as minidump_dump prints it ({@link MinidumpDumpText}). Only
 * GsymFormatException may escape; anything else, and an input slower than {@link #LIMIT}, is a
 * finding. Seeds: the corpus (src-test-data/minidump/dumps and external) and the hostile variants
 * of three of its dumps ({@link HostileDumps}: a stream count of 2^32 - 1, RVAs past the end, a
 * 1 MiB module name, overlapping memory regions, ...).
 */
@Slow
class MinidumpFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);

  static Stream<Arguments> minidumpSeeds() {
    List<Arguments> hostile = new ArrayList<>();
    for (String base : List.of("x86_64-fp-thread.dmp", "i386-nofp-lib.dmp", "aarch64-core2md.dmp")) {
      Path p = MinidumpDumpTest.dir().resolve("dumps").resolve(base);
      try {
        for (Map.Entry<String, byte[]> v : HostileDumps.of(Files.readAllBytes(p)).entrySet()) {
          hostile.add(Arguments.argumentSet(base + " " + v.getKey(), (Object) v.getValue()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Stream.of(FuzzSeeds.files("minidump/dumps", n -> n.endsWith(".dmp")),
        FuzzSeeds.files("minidump/external", n -> n.endsWith(".dmp")), hostile.stream()).flatMap(s -> s);
  }

  @MethodSource("minidumpSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void minidump(byte[] input) {
    FuzzLimits.within(LIMIT, "minidump", "reading a minidump of " + input.length + " bytes", () -> {
      Minidump dump;
      try {
        dump = Minidump.of(input, "fuzz.dmp");
      } catch (GsymFormatException expected) {
        return; // not a minidump, or a header or directory Breakpad refuses
      }
      readEverything(dump);
      MinidumpDumpText.of(dump);
    });
  }

  /** Every accessor of the reader; only format errors are expected. */
  static void readEverything(Minidump dump) {
    for (Runnable r : List.<Runnable>of(dump::systemInfo, dump::threadNameList, dump::moduleList, dump::unloadedModuleList,
        dump::memory64List, dump::memoryInfoList, dump::miscInfo, dump::breakpadInfo, dump::assertion, dump::crashpadInfo,
        dump::linuxMaps, dump::linuxProcStatus, dump::linuxCpuInfo, dump::linuxLsbRelease, dump::linuxCmdLine, dump::linuxEnviron,
        dump::linuxAuxv, dump::linuxDsoDebug, dump::fullMemory)) {
      try {
        r.run();
      } catch (GsymFormatException expected) {
        // a malformed stream, reported with its offset
      }
    }
    Registers regs = new Registers();
    try {
      ThreadList threads = dump.threadList();
      if (threads != null) {
        for (MinidumpThread t : threads.threads()) {
          try {
            CpuContext c = dump.context(t);
            c.registers(regs);
            if (c.arch() != null) {
              c.pc();
              c.sp();
            }
          } catch (GsymFormatException expected) {
            // an unreadable context
          }
          try {
            dump.stack(t);
          } catch (GsymFormatException expected) {
            // stack bytes outside the file
          }
        }
      }
    } catch (GsymFormatException expected) {
      // a malformed thread list
    }
    try {
      ExceptionStream e = dump.exception();
      if (e != null) dump.context(e.threadContext(), e.contextOffset()).registers(regs);
    } catch (GsymFormatException expected) {
      // a malformed exception stream or context
    }
    try {
      MinidumpMemory memory = dump.memory();
      int reads = 0;
      for (MemoryRegion r : memory.regions()) {
        for (long a = r.start(); reads < 4096 && Long.compareUnsigned(a - r.start(), r.size()) < 0; a += 8, reads++) {
          for (int size : new int[] {1, 4, 8}) if (memory.readable(a, size)) memory.read(a, size);
        }
      }
    } catch (GsymFormatException expected) {
      // a malformed memory list
    }
  }
}
