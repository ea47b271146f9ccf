package dev.gsym.elf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.MemoryReader;
import dev.gsym.unwind.Registers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ElfCore} on every core of the crash corpus (src-test-data/crash) against the answers gdb
 * and eu-unstrip gave about the same core when it was made: threads, registers, the signal, the
 * mapped files, the auxiliary vector, memory at each thread's stack pointer, and the loaded ELF
 * images with their build-ids.
 */
class ElfCoreCorpusTest {
  static Stream<String> cores() {
    return CrashCorpus.names().stream();
  }

  /** DWARF register numbers (the psABIs) of the registers gdb names: independent of ElfCore's table. */
  static final Map<String, Integer> X86_64_DWARF = Map.ofEntries(Map.entry("rax", 0), Map.entry("rdx", 1), Map.entry("rcx", 2),
      Map.entry("rbx", 3), Map.entry("rsi", 4), Map.entry("rdi", 5), Map.entry("rbp", 6), Map.entry("rsp", 7), Map.entry("r8", 8),
      Map.entry("r9", 9), Map.entry("r10", 10), Map.entry("r11", 11), Map.entry("r12", 12), Map.entry("r13", 13), Map.entry("r14", 14),
      Map.entry("r15", 15), Map.entry("rip", 16), Map.entry("eflags", 49), Map.entry("es", 50), Map.entry("cs", 51), Map.entry("ss", 52),
      Map.entry("ds", 53), Map.entry("fs", 54), Map.entry("gs", 55), Map.entry("fs_base", 58), Map.entry("gs_base", 59));
  static final Map<String, Integer> I386_DWARF = Map.ofEntries(Map.entry("eax", 0), Map.entry("ecx", 1), Map.entry("edx", 2),
      Map.entry("ebx", 3), Map.entry("esp", 4), Map.entry("ebp", 5), Map.entry("esi", 6), Map.entry("edi", 7), Map.entry("eip", 8),
      Map.entry("eflags", 9), Map.entry("es", 40), Map.entry("cs", 41), Map.entry("ss", 42), Map.entry("ds", 43), Map.entry("fs", 44),
      Map.entry("gs", 45));

  static final Map<String, Integer> AARCH64_DWARF = aarch64();

  private static Map<String, Integer> aarch64() {
    Map<String, Integer> m = new java.util.HashMap<>();
    for (int i = 0; i <= 30; i++) m.put("x" + i, i);
    m.put("sp", 31);
    return Map.copyOf(m);
  }

  /** A core is an ELF file: ElfFile opens it (program headers, no sections from the kernel) and ElfCore reads it from there. */
  @org.junit.jupiter.api.Test
  void elfFileOpensACoreAndElfCoreRefusesOtherFiles() throws Exception {
    try (ElfFile elf = ElfFile.open(CrashCorpus.core("null-x86_64-fp")); ElfCore core = ElfCore.of(elf)) {
      assertThat(elf.type()).isEqualTo(ElfCore.ET_CORE);
      assertThat(elf.sections()).isEmpty();
      assertThat(elf.programHeaders()).hasSize(1 + core.segments().size());
      assertThat(core.threads()).hasSize(1);
    }
    try (ElfFile exe = ElfFile.open(CrashCorpus.binary("null-x86_64-fp"))) {
      dev.gsym.GsymFormatException e = org.assertj.core.api.Assertions.catchThrowableOfType(dev.gsym.GsymFormatException.class,
          () -> ElfCore.of(exe));
      assertThat(e.offset()).isEqualTo(16);
      assertThat(e.getMessage()).endsWith("null-x86_64-fp: offset 0x00000010: not a core file: e_type 3, core files have 4");
    }
  }

  @ParameterizedTest
  @MethodSource("cores")
  void threadsAndRegistersAreGdbs(String name) throws Exception {
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      checkThreadsAndRegisters(name, core, CrashCorpus.gdb(name));
    }
  }

  static void checkThreadsAndRegisters(String name, ElfCore core, GdbAnswers gdb) {
    String arch = CrashCorpus.arch(name);
    {
      assertThat(core.arch()).isEqualTo(switch (arch) {
        case "x86_64" -> Arch.X86_64;
        case "i386" -> Arch.X86;
        default -> Arch.AARCH64;
      });
      assertThat(core.hasRegisterLayout()).isTrue();
      assertThat(core.threads()).hasSize(gdb.threads().size());
      Map<String, Integer> dwarf = switch (arch) {
        case "x86_64" -> X86_64_DWARF;
        case "i386" -> I386_DWARF;
        default -> AARCH64_DWARF;
      };
      for (GdbAnswers.ThreadAnswer t : gdb.threads()) {
        // gdb numbers the threads in the order of their NT_PRSTATUS notes
        ElfCore.CoreThread ours = core.threads().get(t.number() - 1);
        assertThat(ours.pid()).as("thread %d", t.number()).isEqualTo(t.lwp());
        Map<String, Long> general = core.generalRegisters(ours);
        Registers regs = core.registers(ours);
        int compared = 0;
        for (Map.Entry<String, Long> r : t.registers().entrySet()) {
          if (general.containsKey(r.getKey())) {
            assertThat(general.get(r.getKey())).as("%s thread %d %s", name, t.number(), r.getKey()).isEqualTo(r.getValue());
            compared++;
          }
          Integer number = dwarf.get(r.getKey());
          if (number != null) {
            assertThat(regs.has(number)).as("%s thread %d DWARF %d (%s)", name, t.number(), number, r.getKey()).isTrue();
            assertThat(regs.get(number)).as("%s thread %d DWARF %d (%s)", name, t.number(), number, r.getKey()).isEqualTo(r.getValue());
          }
        }
        // gdb shows the general, flags and segment registers: all of them must have been compared
        assertThat(compared).as("registers compared").isGreaterThanOrEqualTo(16);
        assertThat(regs.hasPc()).isTrue();
        assertThat(regs.pc()).isEqualTo(t.registers().get(switch (arch) {
          case "x86_64" -> "rip";
          case "i386" -> "eip";
          default -> "pc";
        }));
        assertThat(regs.pc()).isEqualTo(t.frames().get(0).pc());
      }
    }
  }

  @ParameterizedTest
  @MethodSource("cores")
  void signalAndProcessAreGdbs(String name) throws Exception {
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      checkSignalAndProcess(name, core, CrashCorpus.gdb(name));
    }
  }

  static void checkSignalAndProcess(String name, ElfCore core, GdbAnswers gdb) {
    if (gdb.signal() == null) {
      // qemu's cores have no NT_SIGINFO: the signal is NT_PRSTATUS's pr_cursig
      assertThat(core.signal()).isNull();
      assertThat(core.threads().get(0).signal()).isEqualTo(11);
    } else {
      ElfCore.SignalInfo s = core.signal();
      assertThat(s).isNotNull();
      assertThat(s.signal()).isEqualTo(gdb.signal().signo());
      assertThat(s.errno()).isEqualTo(gdb.signal().errno());
      assertThat(s.code()).isEqualTo(gdb.signal().code());
      assertThat(core.threads().get(0).signal()).isEqualTo(s.signal());
      if (s.signal() == 11) {
        assertThat(s.hasAddress()).isTrue();
        assertThat(s.address()).isEqualTo(gdb.signal().address());
        // the field of struct node past a null pointer
        assertThat(s.address()).isEqualTo(CrashCorpus.is64(name) ? 0x10 : 0x8);
      } else {
        assertThat(s.signal()).isEqualTo(6);
        assertThat(s.hasAddress()).isFalse();
        assertThat(s.senderPid()).isEqualTo(gdb.signal().killPid()).isEqualTo(core.threads().get(0).pid());
      }
    }
    {
      ElfCore.ProcessInfo p = core.process();
      assertThat(p.args()).isEqualTo(gdb.generatedBy());
      String program = CrashCorpus.program(name);
      // the kernel keeps 15 characters and a NUL, qemu 16 characters
      assertThat(p.name()).isIn(program.substring(0, Math.min(15, program.length())), program.substring(0, Math.min(16, program.length())));
      assertThat(p.pid()).isEqualTo(core.threads().stream().mapToInt(ElfCore.CoreThread::pid).min().getAsInt());
    }
  }

  @ParameterizedTest
  @MethodSource("cores")
  void mappingsAndAuxvAreGdbs(String name) throws Exception {
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      checkMappingsAndAuxv(name, core, CrashCorpus.gdb(name));
    }
  }

  static void checkMappingsAndAuxv(String name, ElfCore core, GdbAnswers gdb) {
    {
      List<GdbAnswers.Mapping> ours = core.files().stream()
          .map(f -> new GdbAnswers.Mapping(f.start(), f.end(), f.fileOffset(), f.path())).toList();
      assertThat(ours).isEqualTo(gdb.mappings());
      assertThat(core.auxv().stream().map(e -> new GdbAnswers.Aux(e.type(), e.value())).toList()).isEqualTo(gdb.auxv());
      assertThat(core.execFn()).isEqualTo(gdb.execFn()).isEqualTo("/tmp/gsym-crash/bin/" + CrashCorpus.program(name));
    }
  }

  @ParameterizedTest
  @MethodSource("cores")
  void memoryAtEachStackPointerIsGdbs(String name) throws Exception {
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      checkMemoryAtStackPointers(name, core, CrashCorpus.gdb(name));
    }
  }

  static void checkMemoryAtStackPointers(String name, ElfCore core, GdbAnswers gdb) {
    int w = CrashCorpus.is64(name) ? 8 : 4;
    {
      MemoryReader memory = core.memory();
      for (GdbAnswers.ThreadAnswer t : gdb.threads()) {
        long sp = core.registers(core.threads().get(t.number() - 1)).get(core.arch().stackPointer());
        assertThat(t.stackAddress()).isEqualTo(sp);
        assertThat(t.stackWords()).hasSize(8);
        List<Long> ours = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          assertThat(memory.readable(sp + (long) i * w, w)).isTrue();
          ours.add(memory.read(sp + (long) i * w, w));
        }
        assertThat(ours).as("%s thread %d at 0x%x", name, t.number(), sp).isEqualTo(t.stackWords());
        // smaller reads of the same bytes, little-endian
        long first = t.stackWords().get(0);
        assertThat(memory.read(sp, 1)).isEqualTo(first & 0xff);
        assertThat(memory.read(sp + 1, 2)).isEqualTo((first >>> 8) & 0xffff);
      }
    }
  }

  /**
   * The ELF images: eu-unstrip -n --core reads them from the core as we do (base, size from the
   * image's program headers, the build-id from its note in the core's memory).
   */
  @ParameterizedTest
  @MethodSource("cores")
  void modulesAreEuUnstrips(String name) throws Exception {
    List<String> eu = CrashCorpus.modulesText(name);
    try (ElfCore core = ElfCore.open(CrashCorpus.core(name))) {
      assertThat(core.modules()).hasSize(eu.size());
      for (String line : eu) {
        // 0x555555554000+0x4028 b8f8...744f@0x555555554368 . . /tmp/gsym-crash/bin/solib-x86_64-fp
        String[] f = line.split(" ");
        String[] range = f[0].split("\\+");
        long base = Long.parseUnsignedLong(range[0].substring(2), 16);
        long size = Long.parseUnsignedLong(range[1].substring(2), 16);
        String buildId = f[1].substring(0, f[1].indexOf('@'));
        String module = f[f.length - 1];
        ElfCore.CoreModule m = core.modules().stream().filter(x -> x.base() == base).findFirst().orElseThrow(
            () -> new AssertionError(name + ": no module at 0x" + Long.toHexString(base) + " in " + core.modules()));
        assertThat(m.buildIdHex()).as("%s %s", name, module).isEqualTo(buildId);
        assertThat(m.end()).as("%s %s", name, module).isEqualTo(base + size);
        String ourName = m.path().substring(m.path().lastIndexOf('/') + 1);
        if (module.equals("[exe]")) assertThat(m).isEqualTo(core.mainExecutable()); // eu-unstrip without NT_FILE
        else if (m.path().equals("[vdso]")) assertThat(module).matches("linux-(vdso|gate)\\.so\\.1"); // the vDSO's soname (i386: linux-gate)
        else assertThat(ourName).isEqualTo(module.substring(module.lastIndexOf('/') + 1));
      }
      ElfCore.CoreModule exe = core.mainExecutable();
      assertThat(exe.path()).isEqualTo("/tmp/gsym-crash/bin/" + CrashCorpus.program(name));
      assertThat(exe.buildId()).isEqualTo(ElfFile.open(CrashCorpus.binary(name)).buildId());
      // every shared library gdb found lies in our module of that name
      for (GdbAnswers.SharedLibrary lib : CrashCorpus.gdb(name).sharedLibraries()) {
        ElfCore.CoreModule at = core.moduleAt(lib.from());
        assertThat(at).as("%s: module at 0x%x (%s)", name, lib.from(), lib.path()).isNotNull();
        assertThat(at.path().substring(at.path().lastIndexOf('/'))).isEqualTo(lib.path().substring(lib.path().lastIndexOf('/')));
        assertThat(at.contains(lib.to() - 1)).isTrue();
      }
    }
  }
}
