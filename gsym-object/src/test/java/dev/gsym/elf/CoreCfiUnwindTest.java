package dev.gsym.elf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.cfi.CfiReader;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindState;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real unwinding check of the unwind information: every thread of every x86 core of the crash
 * corpus (programs built with and without frame pointers; threads asleep in libc and the crashing
 * one; a crash inside a shared library; abort; a 100-deep recursion) walked with {@link
 * dev.gsym.unwind.Unwinder} over the core's registers and memory, each frame's rule looked up in a
 * GSYM file carrying the module's call frame information ({@link GsymReader#unwindRow}: the
 * {@code .eh_frame} of the executable, of the corpus's shared library and of the installed libc
 * and dynamic loader the core was made with; the vDSO's, from the core's memory), gives exactly
 * gdb's backtrace (its physical frames, less the tail-call frames gdb makes from DWARF call-site
 * information, which no CFI unwinder sees), to its last frame. The CFI seam of {@link
 * CoreUnwindTest} with the GSYM behind it.
 */
class CoreCfiUnwindTest {
  static Stream<String> x86Cores() {
    return CrashCorpus.names().stream().filter(n -> !CrashCorpus.arch(n).equals("aarch64"));
  }

  @ParameterizedTest
  @MethodSource("x86Cores")
  void gsymCfiWalksAreGdbsBacktraces(String name) throws Exception {
    GdbAnswers gdb = CrashCorpus.gdb(name);
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      BiFunction<Long, UnwindState, Boolean> cfi = gsymCfi(core, name);
      int frames = 0;
      for (GdbAnswers.ThreadAnswer t : gdb.threads()) {
        List<Long> gdbPcs = t.physicalFrames().stream().map(GdbAnswers.Frame::pc).filter(pc -> !tailCallFrame(core, pc)).toList();
        List<Long> walked = CoreUnwindTest.walk(core, core.threads().get(t.number() - 1), cfi);
        assertThat(hex(walked)).as("%s thread %d (gdb: %s)", name, t.number(), t.physicalFrames()).isEqualTo(hex(gdbPcs));
        frames += walked.size();
      }
      assertThat(frames).as("%s: frames in all threads", name).isGreaterThanOrEqualTo(gdb.threads().size() * 3);
    }
  }

  /**
   * The CFI lookup of the core's modules through GSYM files made from their call frame
   * information: the file each module was loaded from (the corpus's binaries; the installed system
   * libraries, which must be the ones the core was made with, else the test is skipped), its
   * tables attached to a GSYM, looked up at the address less the module's load bias.
   */
  static BiFunction<Long, UnwindState, Boolean> gsymCfi(ElfCore core, String name) throws Exception {
    Map<ElfCore.CoreModule, GsymReader> gsyms = new HashMap<>();
    for (ElfCore.CoreModule m : core.modules()) {
      if (m.path().equals("[vdso]")) {
        // the kernel's vDSO is in the core's memory whole: its own .eh_frame, read from there
        byte[] image = new byte[(int) (m.end() - m.base())];
        for (int i = 0; i < image.length; i++) {
          if (core.memory().readable(m.base() + i, 1)) image[i] = (byte) core.memory().read(m.base() + i, 1);
        }
        gsyms.put(m, GsymReader.of(gsymWithCfi(ElfFile.of(image, "[vdso]")), "[vdso]"));
        continue;
      }
      if (m.path().startsWith("[")) continue;
      Path file = m.path().startsWith("/tmp/gsym-crash/bin/")
          ? CrashCorpus.dir().resolve("bin").resolve(m.path().substring("/tmp/gsym-crash/bin/".length()))
          : Path.of(m.path());
      Assumptions.assumeTrue(Files.isRegularFile(file), file + ", loaded in the core " + name + ", is not on this machine: skipped");
      try (ElfFile elf = ElfFile.open(file)) {
        byte[] id = elf.buildId();
        Assumptions.assumeTrue(id != null && HexFormat.of().formatHex(id).equals(m.buildIdHex()),
            file + " is not the file the core " + name + " was made with (build-id " + m.buildIdHex() + "): skipped");
        gsyms.put(m, GsymReader.of(gsymWithCfi(elf), file.toString()));
      }
    }
    assertThat(gsyms).isNotEmpty();
    return (pc, state) -> {
      ElfCore.CoreModule m = core.moduleAt(pc);
      GsymReader g = m == null ? null : gsyms.get(m);
      return g != null && g.unwindRow(pc - m.loadBias(), state);
    };
  }

  /**
   * Whether gdb's frame at {@code pc} is a tail-call frame: gdb makes one from DWARF call-site
   * information (DW_AT_call_tail_call) for a function that jumped to its callee, so the frame's
   * return address is on no stack and no CFI unwinder (Breakpad's neither) can find it. Its pc is
   * the address after that jump: {@code jmp rel32} (e9) or {@code jmp rel8} (eb) just before it in
   * the module's code (read from the module's file: cores do not hold code pages).
   */
  static boolean tailCallFrame(ElfCore core, long pc) {
    ElfCore.CoreModule m = core.moduleAt(pc);
    if (m == null || m.path().startsWith("[")) return false;
    Path file = m.path().startsWith("/tmp/gsym-crash/bin/")
        ? CrashCorpus.dir().resolve("bin").resolve(m.path().substring("/tmp/gsym-crash/bin/".length()))
        : Path.of(m.path());
    try (ElfFile elf = ElfFile.open(file)) {
      long vaddr = pc - m.loadBias();
      for (ElfFile.ProgramHeader ph : elf.programHeaders()) {
        if (ph.type() != ElfFile.PT_LOAD || vaddr - ph.vaddr() < 5 || vaddr - ph.vaddr() > ph.filesz()) continue;
        long off = ph.offset() + (vaddr - ph.vaddr());
        byte[] code = java.util.Arrays.copyOfRange(Files.readAllBytes(file), (int) off - 5, (int) off);
        return (code[0] & 0xff) == 0xe9 || (code[3] & 0xff) == 0xeb;
      }
      return false;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A GSYM of one function at the first executable segment, carrying every CFI table of {@code elf}. */
  static byte[] gsymWithCfi(ElfFile elf) {
    Arch arch = Arch.ofName(elf.archName());
    List<CfiTable> tables = new ArrayList<>(CfiReader.read(elf).tables());
    assertThat(tables).as("%s has CFI", elf).isNotEmpty();
    GsymCreator c = new GsymCreator();
    long start = tables.stream().mapToLong(CfiTable::start).min().orElseThrow();
    c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 1), c.insertString("module")));
    c.finish(Diagnostics.silent());
    c.attachUnwind(arch, tables);
    return c.encode(elf.byteOrder());
  }

  private static List<String> hex(List<Long> pcs) {
    return pcs.stream().map(Long::toHexString).toList();
  }
}
