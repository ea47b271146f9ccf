package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.MemoryReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The walker on processes made up here through the {@link CrashedProcess} seam (no dump file):
 * cyclic frame-pointer chains, stacks full of return addresses (the scan and frame limits),
 * registers pointing outside the stack, hostile memory readers. The expected frames are worked out
 * from Breakpad's rules by hand.
 */
class SyntheticProcessTest {
  static final long MODULE = 0x400000;
  static final long STACK = 0x7fff0000L;

  /** A little-endian stack of {@code words} 8-byte words at {@link #STACK}. */
  static final class Stack implements MemoryReader {
    final ByteBuffer b;

    Stack(int words) {
      b = ByteBuffer.allocate(words * 8).order(ByteOrder.LITTLE_ENDIAN);
    }

    void word(int i, long v) {
      b.putLong(i * 8, v);
    }

    @Override
    public boolean readable(long address, int size) {
      return Long.compareUnsigned(address, STACK) >= 0 && Long.compareUnsigned(address - STACK + size, b.capacity()) <= 0;
    }

    @Override
    public long read(long address, int size) {
      int at = (int) (address - STACK);
      return size == 8 ? b.getLong(at) : size == 4 ? b.getInt(at) & 0xffff_ffffL : b.get(at) & 0xff;
    }

    StackMemory memory() {
      return StackMemory.of(STACK, b.capacity(), this);
    }
  }

  static CrashedProcess process(FrameRegisters context, StackMemory stack) {
    CodeModules modules = CodeModules.of(List.of(new CodeModule(MODULE, 0x10000, "/bin/app", "id", "/bin/app", "ID0", "")), true);
    return new CrashedProcess() {
      @Override public SystemDescription system() {
        return new SystemDescription("Linux", "linux", "0.0.0", "amd64", "", 1);
      }
      @Override public long dumpTime() { return 0; }
      @Override public long processCreateTime() { return 0; }
      @Override public CrashInfo crash() { return new CrashInfo("SIGSEGV /SEGV_MAPERR", 0); }
      @Override public String assertion() { return ""; }
      @Override public OptionalLong requestingThreadId() { return OptionalLong.of(1); }
      @Override public CodeModules modules() { return modules; }
      @Override public CodeModules unloadedModules() { return null; }
      @Override public List<ProcessThread> threads() { return List.of(new ProcessThread(1, "main", context, stack)); }
    };
  }

  static FrameRegisters amd64(long rip, long rsp, long rbp) {
    long[] v = new long[17];
    v[16] = rip;
    v[7] = rsp;
    v[6] = rbp;
    return FrameRegisters.of(Arch.X86_64, v, FrameRegisters.ALL);
  }

  @Test
  void aFramePointerChainThatLoopsEnds() {
    // rbp points at a frame record whose saved rbp points back at itself: the frame-pointer rule
    // refuses a caller rbp below the caller's stack pointer, so the walk falls to scanning, which
    // moves up the stack and ends at its end
    Stack s = new Stack(64);
    long rbp = STACK + 16 * 8;
    s.word(16, rbp);            // [rbp] = rbp
    s.word(17, MODULE + 0x100); // [rbp + 8] = a return address
    ProcessState st = Stackwalker.builder().build().walk(process(amd64(MODULE + 0x10, STACK, rbp), s.memory()));
    List<StackFrame> frames = st.threads().getFirst().frames();
    assertThat(frames).extracting(StackFrame::trust).containsExactly(FrameTrust.CONTEXT, FrameTrust.SCAN);
    assertThat(frames.get(1).registers().sp()).isEqualTo(STACK + 18 * 8);
    assertThat(st.threads().getFirst().failure()).isNull();
  }

  @Test
  void aStackFullOfReturnAddressesStopsAtTheScanLimit() {
    int words = 20_000;
    Stack s = new Stack(words);
    for (int i = 0; i < words; i++) s.word(i, MODULE + 0x1001);
    // rbp not 8-aligned: never a frame pointer
    CrashedProcess p = process(amd64(MODULE + 0x10, STACK, 3), s.memory());
    List<StackFrame> frames = Stackwalker.builder().build().walk(p).threads().getFirst().frames();
    // the context frame, then one scanned frame per word until 16,384 scanned frames
    assertThat(frames).hasSize(1 + Stackwalker.DEFAULT_MAX_SCANNED_FRAMES);
    assertThat(frames.getLast().registers().sp()).isEqualTo(STACK + 8L * Stackwalker.DEFAULT_MAX_SCANNED_FRAMES);
    // a frame limit: Breakpad stops once the list has passed it
    assertThat(Stackwalker.builder().maxFrames(100).build().walk(p).threads().getFirst().frames()).hasSize(101);
    assertThat(Stackwalker.builder().maxScannedFrames(0).build().walk(p).threads().getFirst().frames()).hasSize(1);
  }

  @Test
  void registersOutsideTheStackAndAFailingReaderEndTheWalkQuietly() {
    Stack s = new Stack(16);
    // the stack pointer far above the stack: nothing readable, only the context frame
    ProcessState far = Stackwalker.builder().build().walk(process(amd64(MODULE + 0x10, -16L, -8L), s.memory()));
    assertThat(far.threads().getFirst().frames()).hasSize(1);
    // a reader that throws: the thread keeps its context frame and reports the failure; no exception escapes
    MemoryReader hostile = new MemoryReader() {
      @Override public boolean readable(long address, int size) { return true; }
      @Override public long read(long address, int size) { throw new IllegalStateException("unreadable page"); }
    };
    ProcessState bad = Stackwalker.builder().build().walk(process(amd64(MODULE + 0x10, STACK, STACK), StackMemory.of(STACK, 128, hostile)));
    CallStack t = bad.threads().getFirst();
    assertThat(t.frames()).hasSize(1);
    assertThat(t.failure()).contains("unreadable page");
    assertThat(StackwalkPrinter.text(bad, false, false)).contains(" 0  app + 0x10\n");
  }

  @Test
  void aThreadWithoutContextOrStack() {
    ProcessState st = Stackwalker.builder().build().walk(process(null, null));
    assertThat(st.threads().getFirst().frames()).isEmpty();
    assertThat(StackwalkPrinter.text(st, true, false)).contains("Thread 0 (crashed)\n <no frames>\n");
    ProcessState noStack = Stackwalker.builder().build().walk(process(amd64(MODULE + 0x10, STACK, STACK), null));
    assertThat(noStack.threads().getFirst().frames()).hasSize(1);
  }
}
