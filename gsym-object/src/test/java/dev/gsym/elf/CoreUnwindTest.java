package dev.gsym.elf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.MemoryReader;
import dev.gsym.unwind.Registers;
import dev.gsym.unwind.UnwindState;
import dev.gsym.unwind.Unwinder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stack walks of the crash corpus's cores with {@link Unwinder}, from the registers and memory
 * {@link ElfCore} reads, compared with gdb's backtraces of the same cores (its physical frames:
 * inline frames share their pc with the frame they are inlined into).
 *
 * <p><b>The CFI seam.</b> A walk takes a {@code BiFunction<Long, UnwindState, Boolean>}: given an
 * address, it fills the {@link UnwindState} with the call frame information row in effect there
 * and answers true, or answers false when it has no row (the walk stops). The address is the
 * context frame's pc, and the return address minus one in the caller frames (the call
 * instruction, whose row holds; the return address may already be the next function's).
 *
 * <p>Today the only lookup is {@link #framePointerRule}: CFA = fp + 2 words, return address at CFA
 * - 1 word, caller's fp at CFA - 2 words (AArch64's frame record: x29, x30), for any pc in a module of the corpus built with frame
 * pointers (-fno-omit-frame-pointer). With it the walk must give exactly gdb's frames up to the
 * first frame outside those modules (libc's, built without frame pointers): {@link
 * #expectedFrames}. The real lookup, {@code GsymReader.unwindRow(address, state)} over the GSYM
 * files of the executables and of libc (their .eh_frame), will plug in here; with it every
 * build, with frame pointers or not, must give all of gdb's frames.
 */
class CoreUnwindTest {
  /** More frames than any corpus thread has (the 100 of recurse): a walk that goes on is a loop. */
  static final int MAX_FRAMES = 512;

  static Stream<String> framePointerCores() {
    return CrashCorpus.names().stream().filter(CrashCorpus::framePointers);
  }

  /** The walks with the frame-pointer rule equal gdb's frames as far as frame pointers reach. */
  @ParameterizedTest
  @MethodSource("framePointerCores")
  void framePointerWalksAreGdbsBacktraces(String name) throws Exception {
    GdbAnswers gdb = CrashCorpus.gdb(name);
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      BiFunction<Long, UnwindState, Boolean> cfi = framePointerRule(core, "-fp");
      int deepest = 0;
      for (GdbAnswers.ThreadAnswer t : gdb.threads()) {
        List<Long> gdbPcs = t.physicalFrames().stream().map(GdbAnswers.Frame::pc).toList();
        List<Long> walked = walk(core, core.threads().get(t.number() - 1), cfi);
        List<Long> expected = expectedFrames(core, gdbPcs, "-fp");
        assertThat(hex(walked)).as("%s thread %d (gdb: %s)", name, t.number(), t.physicalFrames()).isEqualTo(hex(expected));
        deepest = Math.max(deepest, walked.size());
      }
      // the crashing programs' own frames: main (or the thread function) and its caller in libc
      int ownFrames = switch (CrashCorpus.program(name).replaceAll("-.*", "")) {
        case "null" -> 5; // level3 level2 level1 main __libc_start_call_main
        case "recurse" -> 104; // bottom, 101 x recurse, main, __libc_start_call_main
        case "solib" -> 6; // lib_store crashlib_fault on_callback crashlib_run main __libc_start_call_main
        case "threads" -> 4; // work2 work1 crasher_main start_thread
        case "abort" -> 1; // the top frame is in libc: no frame pointer to follow
        case "fault" -> 4; // level3 level2 level1 _start (AArch64, freestanding)
        default -> throw new AssertionError(name);
      };
      assertThat(deepest).as("%s: frames walked in its deepest thread", name).isEqualTo(ownFrames);
    }
  }

  /**
   * The same rule on the builds without frame pointers does not give gdb's frames: the comparison
   * above can tell a right walk from a wrong one.
   */
  @ParameterizedTest
  @MethodSource("noFramePointerCrashes")
  void theFramePointerRuleFailsWithoutFramePointers(String name) throws Exception {
    GdbAnswers gdb = CrashCorpus.gdb(name);
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      GdbAnswers.ThreadAnswer t = gdb.thread(1);
      List<Long> gdbPcs = t.physicalFrames().stream().map(GdbAnswers.Frame::pc).toList();
      List<Long> walked = walk(core, core.threads().get(0), framePointerRule(core, "-nofp"));
      assertThat(hex(walked)).isNotEqualTo(hex(expectedFrames(core, gdbPcs, "-nofp")));
    }
  }

  static Stream<String> noFramePointerCrashes() {
    return Stream.of("null", "recurse", "solib", "threads").flatMap(p -> Stream.of(p + "-x86_64-nofp", p + "-i386-nofp"));
  }

  /**
   * gdb's frames up to and including the first whose pc is outside the modules the lookup covers
   * (the return address into libc): the frames a walk with that lookup can find.
   */
  static List<Long> expectedFrames(ElfCore core, List<Long> gdbPcs, String suffix) {
    List<Long> out = new ArrayList<>();
    for (long pc : gdbPcs) {
      out.add(pc);
      if (!covered(core, pc, suffix)) break;
    }
    return out;
  }

  /** Whether {@code pc} is in a module of the corpus built with {@code suffix} (-fp or -nofp). */
  static boolean covered(ElfCore core, long pc, String suffix) {
    ElfCore.CoreModule m = core.moduleAt(pc);
    return m != null && (m.path().endsWith(suffix) || m.path().endsWith(suffix + ".so"));
  }

  /**
   * The frame-pointer rule as a CFI lookup for the pcs in the corpus's modules built with {@code
   * suffix}: x86-64 CFA = rbp + 16, rip = [CFA - 8], rbp = [CFA - 16]; i386 CFA = ebp + 8,
   * eip = [CFA - 4], ebp = [CFA - 8].
   */
  static BiFunction<Long, UnwindState, Boolean> framePointerRule(ElfCore core, String suffix) {
    Arch arch = core.arch();
    int w = arch.addressSize();
    return (pc, state) -> {
      if (!covered(core, pc, suffix)) return false;
      state.clear();
      state.table(arch, null, pc, 1, arch.returnAddress());
      state.address(pc);
      state.cfaRegisterOffset(arch.framePointer(), 2L * w);
      state.rule(arch.returnAddress(), UnwindState.OFFSET, -w, null);
      state.rule(arch.framePointer(), UnwindState.OFFSET, -2L * w, null);
      return true;
    };
  }

  /**
   * Walks {@code thread}'s stack: the pcs of its frames, innermost first. Stops where the lookup
   * has no row, a step fails, the return address is 0, or the stack pointer does not grow.
   */
  static List<Long> walk(ElfCore core, ElfCore.CoreThread thread, BiFunction<Long, UnwindState, Boolean> cfi) {
    Arch arch = core.arch();
    Unwinder unwinder = new Unwinder(arch);
    MemoryReader memory = core.memory();
    Registers callee = core.registers(thread);
    Registers caller = new Registers();
    UnwindState state = new UnwindState();
    List<Long> pcs = new ArrayList<>();
    pcs.add(callee.pc());
    for (int frame = 0; pcs.size() < MAX_FRAMES; frame++) {
      long lookup = frame == 0 ? callee.pc() : callee.pc() - 1;
      if (!cfi.apply(lookup, state)) break;
      if (!unwinder.step(state, callee, memory, caller)) break;
      if (caller.pc() == 0) break;
      int sp = arch.stackPointer();
      if (Long.compareUnsigned(caller.get(sp), callee.get(sp)) <= 0) break;
      pcs.add(caller.pc());
      Registers t = callee;
      callee = caller;
      caller = t;
    }
    return pcs;
  }

  private static List<String> hex(List<Long> pcs) {
    return pcs.stream().map(Long::toHexString).toList();
  }
}
