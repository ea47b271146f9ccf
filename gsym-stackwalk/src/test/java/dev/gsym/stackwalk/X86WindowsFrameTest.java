package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.MemoryReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The x86 walker's Windows frame data, on a process made up here and a symbol file written here,
 * the frames worked out by hand from Breakpad's rules ({@code StackwalkerX86}): a FUNC's parameter
 * size (no STACK WIN record) is kept with its frame and counts as the callee's parameters when the
 * frame above it is walked by a STACK WIN program string ({@code .raSearchStart = esp + callee
 * parameters + locals + saved registers}).
 */
class X86WindowsFrameTest {
  static final long BASE = 0x400000;
  static final long STACK = 0x10000;

  @TempDir
  Path tmp;

  @Test
  void aFuncsParameterSizeServesTheStackWinFrameAboveIt() throws Exception {
    Path dir = tmp.resolve("symbols/app.pdb/ID0");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("app.sym"), """
        MODULE windows x86 ID0 app.pdb
        FUNC 1000 100 20 leaf
        FUNC 2000 100 0 mid
        FUNC 3000 100 0 outer
        STACK WIN 4 2000 100 0 0 0 4 0 0 1 $eip .raSearchStart ^ = $esp .raSearchStart 4 + = $ebp $ebp =
        """);
    ByteBuffer stack = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
    stack.putInt(0x10, 0x10080);          // leaf's frame record: the saved ebp
    stack.putInt(0x14, (int) (BASE + 0x2050)); // ... and the return address into mid
    stack.putInt(0x3c, (int) (BASE + 0x3010)); // mid's return address: esp 0x10018 + 0x20 + 4 saved
    MemoryReader reader = new MemoryReader() {
      @Override public boolean readable(long address, int size) {
        return address >= STACK && address + size <= STACK + 256;
      }
      @Override public long read(long address, int size) {
        int at = (int) (address - STACK);
        return size == 4 ? stack.getInt(at) & 0xffff_ffffL : stack.get(at) & 0xff;
      }
    };
    long[] regs = new long[10];
    regs[8] = BASE + 0x1010; // eip in leaf
    regs[4] = STACK;         // esp
    regs[5] = STACK + 0x10;  // ebp
    FrameRegisters context = FrameRegisters.of(Arch.X86, regs, FrameRegisters.ALL);
    CodeModules modules = CodeModules.of(List.of(new CodeModule(BASE, 0x10000, "app.exe", "", "app.pdb", "ID0", "")), false);
    CrashedProcess p = new CrashedProcess() {
      @Override public SystemDescription system() {
        return new SystemDescription("Windows NT", "windows", "10.0.1", "x86", "", 1);
      }
      @Override public long dumpTime() { return 0; }
      @Override public long processCreateTime() { return 0; }
      @Override public CrashInfo crash() { return null; }
      @Override public String assertion() { return ""; }
      @Override public OptionalLong requestingThreadId() { return OptionalLong.empty(); }
      @Override public CodeModules modules() { return modules; }
      @Override public CodeModules unloadedModules() { return null; }
      @Override public List<ProcessThread> threads() {
        return List.of(new ProcessThread(1, "", context, StackMemory.of(STACK, 256, reader)));
      }
    };
    try (BreakpadSymbolDirectories symbols = new BreakpadSymbolDirectories(List.of(tmp.resolve("symbols")), tmp.resolve("cache"))) {
      List<StackFrame> frames = Stackwalker.builder().symbols(symbols).build().walk(p).threads().getFirst().frames();
      assertThat(frames).extracting(StackFrame::function).containsExactly("leaf", "mid", "outer");
      // leaf: no STACK WIN, no CFI: its frame pointer
      assertThat(frames.get(1).trust()).isEqualTo(FrameTrust.FP);
      assertThat(frames.get(1).registers().sp()).isEqualTo(STACK + 0x18);
      // mid: its program string, .raSearchStart = 0x10018 + 0x20 (leaf's parameters) + 4 (saved registers)
      StackFrame outer = frames.get(2);
      assertThat(outer.trust()).isEqualTo(FrameTrust.CFI);
      assertThat(outer.registers().pc()).isEqualTo(BASE + 0x3010);
      assertThat(outer.registers().sp()).isEqualTo(STACK + 0x40);
      assertThat(outer.registers().value(5)).isEqualTo(0x10080); // ebp kept by "$ebp $ebp ="
      // the second use reads the cached GSYM and its parameter sizes: no conversion
      try (BreakpadSymbolDirectories again = new BreakpadSymbolDirectories(List.of(tmp.resolve("symbols")), tmp.resolve("cache"))) {
        List<StackFrame> cached = Stackwalker.builder().symbols(again).build().walk(p).threads().getFirst().frames();
        assertThat(cached).isEqualTo(frames);
        assertThat(again.conversions()).isZero();
      }
    }
  }
}
