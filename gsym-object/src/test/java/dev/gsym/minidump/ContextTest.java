package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.Registers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two arm64 layouts read alike: the aarch64 dump of the corpus (Breakpad's old layout, written
 * by core2md) and the same dump with its contexts rewritten in the current layout ({@link
 * HostileDumps#withNewArm64Contexts}; minidump_dump prints both alike, {@code MinidumpDumpLiveTest})
 * give the same flags, registers and vector registers; and Breakpad's flag conversion.
 */
class ContextTest {
  @Test
  void oldAndNewArm64LayoutsReadAlike() throws IOException {
    // with cpsr and the floating-point state patterned, so that no two fields are alike
    byte[] old = HostileDumps.of(Files.readAllBytes(MinidumpDumpTest.dir().resolve("dumps").resolve("aarch64-core2md.dmp")))
        .get("patterned-float-state");
    Minidump a = Minidump.of(old, "old");
    Minidump b = Minidump.of(HostileDumps.withNewArm64Contexts(old), "new");
    assertThat(a.systemInfo().processorArchitecture()).isEqualTo(SystemInfo.CPU_ARM64_OLD);
    assertThat(b.systemInfo().processorArchitecture()).isEqualTo(SystemInfo.CPU_ARM64);
    List<MinidumpThread> ta = a.threadList().threads();
    List<MinidumpThread> tb = b.threadList().threads();
    assertThat(ta).hasSameSizeAs(tb).isNotEmpty();
    for (int i = 0; i < ta.size(); i++) {
      ContextArm64 ca = (ContextArm64) a.context(ta.get(i));
      ContextArm64 cb = (ContextArm64) b.context(tb.get(i));
      assertThat(ca.convertedFromOld()).isTrue();
      assertThat(cb.convertedFromOld()).isFalse();
      assertThat(ca.raw().size()).isEqualTo(ContextArm64.SIZE);
      // Breakpad's conversion sets control, integer and floating point whenever the old CPU bit is set
      assertThat(ca.contextFlags()).isEqualTo(CpuContext.CONTEXT_ARM64 | 0x7).isEqualTo(cb.contextFlags());
      assertThat(ca.arch()).isEqualTo(Arch.AARCH64);
      for (int r = 0; r <= 32; r++) assertThat(ca.ireg(r)).as("iregs[%d]", r).isEqualTo(cb.ireg(r));
      assertThat(ca.cpsr()).isEqualTo(cb.cpsr());
      assertThat(ca.fpsr()).isEqualTo(cb.fpsr());
      assertThat(ca.fpcr()).isEqualTo(cb.fpcr());
      assertThat(ca.fpsr()).isNotEqualTo(ca.fpcr());
      for (int v = 0; v < 32; v++) {
        assertThat(ca.floatRegHigh(v)).isEqualTo(cb.floatRegHigh(v));
        assertThat(ca.floatRegLow(v)).isEqualTo(cb.floatRegLow(v));
      }
      Registers ra = new Registers();
      Registers rb = new Registers();
      ca.registers(ra);
      cb.registers(rb);
      assertThat(ra.toString()).isEqualTo(rb.toString());
      assertThat(ra.pc()).isEqualTo(ca.ireg(32));
      assertThat(ra.get(31)).isEqualTo(ca.sp());
    }
  }
}
