package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.elf.ElfCore;
import dev.gsym.elf.ElfFile;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tukaani.xz.XZInputStream;

/**
 * ELF core files walked by the {@link Stackwalker} ({@link ElfCoreProcess}) with symbols and CFI
 * from GSYMs the {@link Symbolizer} makes of the modules ({@link SymbolizerSymbols}: the corpus's
 * binaries, found by name and build-id in its bin directory; the installed libc and dynamic loader
 * at the paths the core names, with libc's debug file from /usr/lib/debug; the vDSO from the core's
 * memory): every thread of every core of src-test-data/crash (x86-64, i386 and AArch64; programs
 * with and without frame pointers, threads asleep in libc and the crashing one, a crash in a shared library, abort, a
 * 100-deep recursion) has exactly gdb's frames ({@code thread apply all bt} on the same core, the
 * committed goldens): the same return addresses, with the same functions where gdb names one, less
 * gdb's tail-call frames (made from DWARF call-site information; no CFI walker can see them), all
 * found by CFI but the first (past gdb's outermost frame, whose CFI ends the stack, Breakpad's
 * walker goes on scanning: only scanned frames may follow); the crash's signal and address are
 * gdb's {@code $_siginfo}'s.
 */
class ElfCoreWalkTest {
  private static final Pattern THREAD = Pattern.compile("^Thread (\\d+) \\(.*\\)\\):$|^Thread (\\d+) \\(LWP \\d+\\):$");
  private static final Pattern FRAME = Pattern.compile("^(frame|inline) 0x([0-9a-f]+) (.*)$");
  private static final Pattern SIGNAL = Pattern.compile("si_signo = (\\d+), si_errno = -?\\d+, si_code = (-?\\d+)");
  private static final Pattern SI_ADDR = Pattern.compile("_sigfault = \\{si_addr = (0x[0-9a-f]+)");

  static Symbolizer symbolizer;

  static Path crashDir() {
    return TestData.repoRoot().resolve("src-test-data/crash");
  }

  static Stream<String> cores() throws IOException {
    try (Stream<Path> s = Files.list(crashDir().resolve("cores"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".core.xz"))
          .map(n -> n.substring(0, n.length() - ".core.xz".length())).sorted().toList().stream();
    }
  }

  @BeforeAll
  static void makeSymbolizer() {
    symbolizer = Symbolizer.builder().unwind(true).threads(1)
        .addSource(Source.DebugDirectories.of(Source.DebugDirectories.DEFAULT_DIRECTORY)).build();
  }

  @AfterAll
  static void closeSymbolizer() {
    symbolizer.close();
  }

  /** The unpacked core NAME, under target/ (unpacked once). */
  static synchronized Path core(String name) {
    try {
      Path out = Path.of("target", "crash-cores", name + ".core").toAbsolutePath();
      Path xz = crashDir().resolve("cores").resolve(name + ".core.xz");
      if (Files.isRegularFile(out) && Files.getLastModifiedTime(out).compareTo(Files.getLastModifiedTime(xz)) >= 0) return out;
      Files.createDirectories(out.getParent());
      Path tmp = Files.createTempFile(out.getParent(), name, ".tmp");
      try (InputStream in = new XZInputStream(Files.newInputStream(xz))) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      }
      Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Skips unless every system library the core loaded is on this machine with the core's build-id. */
  static void assumeSystemLibraries(ElfCore core, String name) throws IOException {
    for (ElfCore.CoreModule m : core.modules()) {
      if (m.path().startsWith("[") || m.path().startsWith("/tmp/gsym-crash/")) continue;
      Path file = Path.of(m.path());
      Assumptions.assumeTrue(Files.isRegularFile(file), file + ", loaded in the core " + name + ", is not on this machine: skipped");
      try (ElfFile elf = ElfFile.open(file)) {
        byte[] id = elf.buildId();
        Assumptions.assumeTrue(id != null && HexFormat.of().formatHex(id).equals(m.buildIdHex()),
            file + " is not the file the core " + name + " was made with (build-id " + m.buildIdHex() + "): skipped");
      }
    }
  }

  /** One of gdb's frames: its pc, whether it is an inlined one, its function ("??" when gdb has none). */
  record GdbFrame(long pc, boolean inline, String function) {}

  /** gdb's frames of each thread of the core NAME (thread N at index N - 1). */
  static List<List<GdbFrame>> gdbThreads(String name) throws IOException {
    List<List<GdbFrame>> threads = new ArrayList<>();
    List<GdbFrame> current = null;
    String section = "";
    for (String line : Files.readAllLines(crashDir().resolve("gdb").resolve(name + ".txt"))) {
      if (line.startsWith("@@ ")) {
        section = line.substring(3);
        continue;
      }
      Matcher t = THREAD.matcher(line);
      if (t.matches()) {
        int n = Integer.parseInt(t.group(1) != null ? t.group(1) : t.group(2));
        while (threads.size() < n) threads.add(new ArrayList<>());
        current = threads.get(n - 1);
        continue;
      }
      Matcher f = FRAME.matcher(line);
      if (section.equals("frames") && current != null && f.matches()) {
        current.add(new GdbFrame(Long.parseUnsignedLong(f.group(2), 16), f.group(1).equals("inline"), f.group(3)));
      }
    }
    return threads;
  }

  static String gdbText(String name) throws IOException {
    return Files.readString(crashDir().resolve("gdb").resolve(name + ".txt"));
  }

  /** The walk of the core NAME, as {@code gsymutil stackwalk} makes it. */
  static ProcessState walk(ElfCore core) {
    ElfCoreProcess process = ElfCoreProcess.of(core);
    try (SymbolizerSymbols symbols = new SymbolizerSymbols(symbolizer, List.of(crashDir().resolve("bin")))) {
      ProcessState state = Stackwalker.builder().symbols(process.withMemoryImages(symbols)).build().walk(process);
      assertThat(symbols.problems()).as("modules without symbols").isEmpty();
      return state;
    }
  }

  @ParameterizedTest
  @MethodSource("cores")
  void framesAreGdbsBacktraces(String name) throws Exception {
    try (ElfCore core = ElfCore.open(core(name))) {
      assumeSystemLibraries(core, name);
      ProcessState state = walk(core);
      List<List<GdbFrame>> gdb = gdbThreads(name);
      boolean x86 = !name.contains("aarch64");
      assertThat(state.threads()).hasSize(gdb.size());
      assertThat(state.requestingThread()).isZero();
      int frames = 0;
      for (int i = 0; i < gdb.size(); i++) {
        CallStack stack = state.threads().get(i);
        List<GdbFrame> expected = gdb.get(i).stream().filter(f -> !tailCallFrame(core, f.pc())).toList();
        List<StackFrame> all = stack.frames();
        // past gdb's outermost frame (_start, clone3: their CFI ends the stack) Breakpad's walker
        // scans on, as minidump_stackwalk does: only frames found by scanning may follow
        List<StackFrame> got = all.subList(0, Math.min(all.size(), expected.size()));
        for (StackFrame extra : all.subList(got.size(), all.size())) {
          assertThat(extra.trust()).as(name + " thread " + (i + 1) + " after gdb's last frame: " + describe(all, x86))
              .isIn(FrameTrust.SCAN, FrameTrust.CFI_SCAN);
        }
        String as = name + " thread " + (i + 1) + "\ngdb:  " + expected + "\nours: " + describe(got, x86);
        assertThat(stack.failure()).as(as).isNull();
        // the same frames, physical and inlined, in the same order, at the same pcs
        long[] pcs = pcs(got, x86);
        List<String> ours = new ArrayList<>();
        for (int k = 0; k < got.size(); k++) ours.add((got.get(k).registers() == null ? "inline " : "frame ") + Long.toHexString(pcs[k]));
        assertThat(ours)
            .as(as).isEqualTo(expected.stream().map(f -> (f.inline() ? "inline " : "frame ") + Long.toHexString(f.pc())).toList());
        for (int k = 0; k < got.size(); k++) {
          if (!expected.get(k).function().equals("??")) assertThat(got.get(k).function()).as(as + "\nframe " + k).isEqualTo(expected.get(k).function());
          StackFrame f = got.get(k);
          if (f.registers() != null) {
            boolean first = got.subList(0, k).stream().allMatch(g -> g.registers() == null);
            assertThat(f.trust()).as(as + "\nframe " + k).isEqualTo(first ? FrameTrust.CONTEXT : FrameTrust.CFI);
          }
        }
        frames += got.size();
      }
      assertThat(frames).isGreaterThanOrEqualTo(3 * gdb.size());

      String text = gdbText(name);
      Matcher sig = SIGNAL.matcher(text);
      if (!sig.find()) {
        // qemu's cores have no NT_SIGINFO (gdb: no $_siginfo): the thread's signal, no address
        assertThat(text).contains("Program terminated with signal SIGSEGV");
        assertThat(state.crash()).isEqualTo(new CrashInfo("SIGSEGV /0x00000000", 0));
        return;
      }
      int signo = Integer.parseInt(sig.group(1));
      String reason = state.crash().reason();
      // the signal is gdb's; its code core2md takes from NT_PRSTATUS, where the kernel leaves 0
      switch (signo) {
        case 11 -> assertThat(reason).isEqualTo("SIGSEGV /0x00000000");
        case 6 -> assertThat(reason).isEqualTo("SIGABRT");
        default -> throw new AssertionError("signal " + signo + " of " + name);
      }
      Matcher addr = SI_ADDR.matcher(text);
      if (signo == 11 && addr.find()) assertThat(state.crash().address()).isEqualTo(Long.decode(addr.group(1)));
    }
  }

  /**
   * The pc gdb prints for each frame: a caller's return address, the first frame's instruction, and
   * for an inlined frame the pc of the physical frame it is inlined in (the next one).
   */
  private static long[] pcs(List<StackFrame> frames, boolean x86) {
    long[] pcs = new long[frames.size()];
    long next = 0;
    for (int k = frames.size() - 1; k >= 0; k--) {
      StackFrame f = frames.get(k);
      // x86 frames keep their return address; AArch64 callers' instruction is the one before it
      if (f.registers() != null) next = x86 || f.trust() == FrameTrust.CONTEXT ? f.returnAddress() : f.instruction() + 4;
      pcs[k] = next;
    }
    return pcs;
  }

  private static String describe(List<StackFrame> frames, boolean x86) {
    StringBuilder sb = new StringBuilder();
    long[] pcs = pcs(frames, x86);
    for (int k = 0; k < frames.size(); k++) {
      StackFrame f = frames.get(k);
      sb.append(f.registers() == null ? "inline " : "frame ").append(Long.toHexString(pcs[k])).append(' ')
          .append(f.function().isEmpty() ? "??" : f.function()).append(" in ").append(f.module() == null ? "-" : CodeModule.fileName(f.module().codeFile()))
          .append(" (").append(f.trust()).append("), ");
    }
    return sb.toString();
  }

  /**
   * Whether gdb's frame at {@code pc} is a tail-call frame: its pc follows a {@code jmp rel32} (e9)
   * or {@code jmp rel8} (eb) in the module's code, read from the module's file (cores hold no code).
   */
  static boolean tailCallFrame(ElfCore core, long pc) {
    ElfCore.CoreModule m = core.moduleAt(pc);
    if (m == null || m.path().startsWith("[")) return false;
    Path file = m.path().startsWith("/tmp/gsym-crash/bin/")
        ? crashDir().resolve("bin").resolve(m.path().substring("/tmp/gsym-crash/bin/".length()))
        : Path.of(m.path());
    try (ElfFile elf = ElfFile.open(file)) {
      long vaddr = pc - m.loadBias();
      for (ElfFile.ProgramHeader ph : elf.programHeaders()) {
        if (ph.type() != ElfFile.PT_LOAD || vaddr - ph.vaddr() < 5 || vaddr - ph.vaddr() > ph.filesz()) continue;
        long off = ph.offset() + (vaddr - ph.vaddr());
        byte[] code = Arrays.copyOfRange(Files.readAllBytes(file), (int) off - 5, (int) off);
        return (code[0] & 0xff) == 0xe9 || (code[3] & 0xff) == 0xeb;
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
