package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfCore;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Damaged core files: corpus cores with bytes overwritten (seeded) in their headers and notes and in
 * their memory (stacks, the vDSO's image), read by {@link ElfCoreProcess} and walked with the vDSO's
 * symbols converted from that memory. Each either fails with one {@link GsymFormatException} or is
 * walked to the end of every thread without an unexpected error, as no minidump may fail a walk.
 */
class HostileCoreTest {
  @Test
  void damagedCoresFailCleanlyOrWalk() throws Exception {
    int walked = 0;
    int refused = 0;
    for (String name : List.of("threads-x86_64-nofp", "abort-i386-fp", "fault-aarch64-fp")) {
      byte[] original = Files.readAllBytes(ElfCoreWalkTest.core(name));
      Random random = new Random(name.hashCode());
      for (int variant = 0; variant < 60; variant++) {
        byte[] bytes = original.clone();
        int edits = 1 + random.nextInt(16);
        for (int e = 0; e < edits; e++) {
          // half in the first 16 KiB (ELF and program headers, the notes), half anywhere (memory)
          int at = random.nextBoolean() ? random.nextInt(Math.min(16384, bytes.length)) : random.nextInt(bytes.length);
          int n = 1 + random.nextInt(8);
          for (int k = 0; k < n && at + k < bytes.length; k++) {
            bytes[at + k] = (byte) (random.nextInt(4) == 0 ? 0xff : random.nextInt(256));
          }
        }
        ElfCoreProcess process;
        try {
          ElfCore core = ElfCore.of(bytes, name + " variant " + variant);
          process = ElfCoreProcess.of(core);
        } catch (GsymFormatException ex) {
          refused++;
          continue;
        }
        ProcessState state = Stackwalker.builder().maxFrames(4096).symbols(process.withMemoryImages(null)).build().walk(process);
        for (CallStack stack : state.threads()) {
          assertThat(stack.failure()).as("%s variant %d thread %d", name, variant, stack.threadId()).isNull();
        }
        StackwalkPrinter.machineReadable(state);
        walked++;
      }
    }
    assertThat(walked).as("variants walked").isGreaterThan(30);
    assertThat(refused).as("variants refused").isGreaterThan(0);
  }
}
