package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.unwind.Registers;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A big-endian writer's dump (every field byte-swapped; {@link SyntheticDump}) reads as the same
 * dump written little-endian: header, system info, thread, context registers, module identities,
 * exception, misc and Breakpad info; its memory reads in its own byte order. (minidump_dump reads
 * both as we do: {@code MinidumpDumpLiveTest}.)
 */
class ByteOrderTest {
  @ParameterizedTest(name = "arm64 {0}")
  @ValueSource(booleans = {false, true})
  void bigEndianReadsAsLittleEndian(boolean arm64) {
    Minidump le = Minidump.of(SyntheticDump.of(arm64, ByteOrder.LITTLE_ENDIAN), "le");
    Minidump be = Minidump.of(SyntheticDump.of(arm64, ByteOrder.BIG_ENDIAN), "be");
    assertThat(le.byteOrder()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
    assertThat(be.byteOrder()).isEqualTo(ByteOrder.BIG_ENDIAN);
    assertThat(be.header()).isEqualTo(le.header());
    assertThat(be.directory()).isEqualTo(le.directory());
    assertThat(be.systemInfo()).isEqualTo(le.systemInfo());
    assertThat(be.systemInfo().csdVersion()).isEqualTo("Service Pack 1");
    assertThat(be.systemInfo().cpu()).isEqualTo(arm64 ? "arm64" : "x86");
    if (!arm64) assertThat(be.systemInfo().cpuVendor()).isEqualTo("GenuineIntel");
    assertThat(be.threadList()).isEqualTo(le.threadList());
    MinidumpThread t = be.threadList().threads().getFirst();
    Registers rb = new Registers();
    Registers rl = new Registers();
    CpuContext cb = be.context(t);
    cb.registers(rb);
    le.context(le.threadList().threads().getFirst()).registers(rl);
    assertThat(rb.toString()).isEqualTo(rl.toString());
    assertThat(cb.contextFlags()).isEqualTo(arm64 ? CpuContext.CONTEXT_ARM64 | 0x7 : CpuContext.CONTEXT_X86 | 0x3f);
    assertThat(cb.pc()).isEqualTo(rl.pc());
    MinidumpModule mb = be.moduleList().modules().getFirst();
    MinidumpModule ml = le.moduleList().modules().getFirst();
    assertThat(mb.codeFile()).isEqualTo("C:\\Program Files\\App\\app.exe");
    assertThat(mb.debugFile()).isEqualTo("app.pdb");
    assertThat(mb.debugIdentifier()).isEqualTo("123456789ABCDEF001020304050607083").isEqualTo(ml.debugIdentifier());
    assertThat(mb.codeIdentifier()).isEqualTo("5E00000020000").isEqualTo(ml.codeIdentifier());
    assertThat(mb.version()).isEqualTo("1.2.3.4");
    for (int i = 0; i < 3; i++) {
      MinidumpModule b = be.moduleList().modules().get(i);
      MinidumpModule l = le.moduleList().modules().get(i);
      assertThat(b.debugFile()).isEqualTo(l.debugFile());
      assertThat(b.debugIdentifier()).isEqualTo(l.debugIdentifier());
      assertThat(b.codeIdentifier()).isEqualTo(l.codeIdentifier());
      assertThat(b.misc()).isEqualTo(l.misc());
    }
    MinidumpModule nb10 = be.moduleList().modules().get(1);
    assertThat(nb10.codeView()).isInstanceOf(CodeViewRecord.Pdb20.class);
    assertThat(nb10.debugFile()).isEqualTo("old.pdb");
    assertThat(nb10.debugIdentifier()).isEqualTo("3C0000007");
    assertThat(nb10.misc().data()).isEqualTo("old.dbg");
    MinidumpModule misc = be.moduleList().modules().get(2);
    assertThat(misc.codeView()).isNull();
    assertThat(misc.debugFile()).as("every byte of 8-bit misc data").isEqualTo("older.dbg\0\0\0");
    assertThat(misc.debugIdentifier()).isEmpty();
    assertThat(misc.codeIdentifier()).isEqualTo("5E00000220000");
    assertThat(be.unloadedModuleList()).isEqualTo(le.unloadedModuleList());
    assertThat(be.unloadedModuleList().modules()).singleElement()
        .satisfies(u -> assertThat(u.name()).isEqualTo("C:\\Windows\\gone.dll"))
        .satisfies(u -> assertThat(u.baseOfImage()).isEqualTo(0x10000000L))
        .satisfies(u -> assertThat(u.sizeOfImage()).isEqualTo(0x8000L));
    assertThat(be.memoryInfoList()).isEqualTo(le.memoryInfoList());
    MemoryInfo stackInfo = be.memoryInfoList().infoAt(be.threadList().threads().getFirst().stack().start() + 8);
    assertThat(stackInfo.writable()).isTrue();
    assertThat(stackInfo.executable()).isFalse();
    assertThat(stackInfo.state()).isEqualTo(0x1000);
    assertThat(be.exception()).isEqualTo(le.exception());
    assertThat(be.miscInfo()).isEqualTo(le.miscInfo());
    assertThat(be.miscInfo().processId()).isEqualTo(4242);
    assertThat(be.breakpadInfo()).isEqualTo(le.breakpadInfo());
    // the same stack bytes: a word reads in each dump's own byte order
    long sp = t.stack().start();
    assertThat(be.memory().read(sp + 4, 4)).isEqualTo(Integer.toUnsignedLong(Integer.reverseBytes((int) le.memory().read(sp + 4, 4))));
    assertThat(le.memory().read(sp + 4, 4)).isEqualTo(0x23_1e_19_14L);
  }
}
