package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.elf.ElfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the reader reads of the corpus against the other independent facts the corpus has: module
 * identities against minidump_stackwalk -m and against the binaries and dump_syms' symbol files,
 * the auxiliary vector against the dynamic loader's own LD_SHOW_AUXV print, and the Linux streams
 * against how the programs were run and against each other.
 */
class MinidumpCorpusTest {
  /** Where regenerate.sh builds and runs the programs (the paths the dumps record). */
  private static final String WORK = "/tmp/gsym-minidump/";

  static Stream<Path> breakpadDumps() {
    return MinidumpDumpTest.dumps().filter(p -> p.getParent().getFileName().toString().equals("dumps"));
  }

  static Stream<Path> handlerDumps() {
    return breakpadDumps().filter(p -> !p.getFileName().toString().contains("core2md"));
  }

  static Stream<Path> walkedDumps() {
    return MinidumpDumpTest.dumps().filter(p -> MinidumpDumpTest.status(p, "minidump_stackwalk -m") == 0);
  }

  private static Path expected(Path dump, String suffix) {
    return MinidumpDumpTest.dir().resolve("expected").resolve(MinidumpDumpTest.name(dump) + suffix);
  }

  /** minidump_stackwalk -m's {@code Module|name|version|debug_file|debug_id|base|max|main} lines are our modules. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("walkedDumps")
  void modulesAreMinidumpStackwalks(Path path) throws IOException {
    List<String[]> lines = new ArrayList<>();
    for (String l : Files.readAllLines(expected(path, ".stackwalk-m.txt"))) {
      if (l.startsWith("Module|")) lines.add(l.split("\\|", -1));
    }
    assertThat(lines).isNotEmpty();
    try (Minidump dump = Minidump.open(path)) {
      List<MinidumpModule> modules = dump.moduleList().modules();
      for (String[] f : lines) {
        long base = Long.parseUnsignedLong(f[5].substring(2), 16);
        MinidumpModule m = modules.stream().filter(x -> x.baseOfImage() == base).findFirst().orElseThrow();
        assertThat(f[1]).as("name").isEqualTo(baseName(m.codeFile()));
        assertThat(f[2]).as("version").isEqualTo(m.version());
        assertThat(f[3]).as("debug file").isEqualTo(baseName(m.debugFile()));
        assertThat(f[4]).as("debug id of %s", f[1]).isEqualTo(m.debugIdentifier());
        assertThat(Long.parseUnsignedLong(f[6].substring(2), 16)).as("last address").isEqualTo(base + m.sizeOfImage() - 1);
        assertThat(f[7].equals("1")).as("main").isEqualTo(m == modules.getFirst());
      }
    }
  }

  /** Breakpad's file-name rule (PathnameStripper::File): after the last '/' or '\'. */
  private static String baseName(String path) {
    return path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  }

  /**
   * The BpEL records are the build-ids of the committed binaries (read by our ELF reader), and
   * every module whose file dump_syms read has its symbols filed under the module's debug
   * identifier: dump_syms computed that identifier from the file itself.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("breakpadDumps")
  void moduleIdentitiesAreTheBinaries(Path path) throws IOException {
    Path symbols = MinidumpDumpTest.dir().resolve("symbols");
    int binaries = 0;
    try (Minidump dump = Minidump.open(path)) {
      for (MinidumpModule m : dump.moduleList().modules()) {
        byte[] id = m.elfBuildId();
        assertThat(id).as("%s has a BpEL record", m.codeFile()).isNotNull();
        assertThat(m.codeIdentifier()).isEqualTo(java.util.HexFormat.of().formatHex(id));
        assertThat(m.debugIdentifier()).isEqualTo(MinidumpModule.elfDebugId(id));
        assertThat(m.debugFile()).isEqualTo(m.codeFile());
        String name = baseName(m.codeFile());
        if (m.codeFile().startsWith(WORK)) {
          // our binaries, committed under bin/: the directory name below bin/ is the variant's
          String[] parts = m.codeFile().substring(WORK.length()).split("/");
          String variant = parts[parts.length - 2].replaceFirst("^qemu-", ""); // where regenerate.sh ran the qemu programs
          Path binary = MinidumpDumpTest.dir().resolve("bin").resolve(variant).resolve(name);
          try (ElfFile elf = ElfFile.open(binary)) {
            assertThat(elf.buildId()).as("build-id of %s", binary).isEqualTo(id);
          }
          binaries++;
        }
        if (!name.startsWith("linux-gate") && !name.startsWith("linux-vdso")) {
          Path dir = symbols.resolve(name).resolve(m.debugIdentifier());
          assertThat(Files.exists(dir.resolve(name + ".sym")) || Files.exists(dir.resolve(name + ".sym.xz")))
              .as("dump_syms' symbols of %s under %s", m.codeFile(), m.debugIdentifier()).isTrue();
        }
      }
    }
    assertThat(binaries).as("modules of our own binaries").isGreaterThanOrEqualTo(1);
  }

  /** The auxiliary vector is the one the dynamic loader printed at start-up (LD_SHOW_AUXV). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("handlerDumps")
  void auxvIsWhatTheLoaderPrinted(Path path) throws IOException {
    List<long[]> printed = new ArrayList<>(); // type, value (-1: a string, not compared)
    for (String line : Files.readAllLines(expected(path, ".auxv.txt"))) {
      int colon = line.indexOf(": ");
      String name = line.substring(0, colon);
      String value = line.substring(colon + 1).strip();
      long type;
      if (name.startsWith("AT_??? (0x")) type = Long.parseLong(name.substring(10, name.length() - 1), 16);
      else type = AUXV_TYPES.getOrDefault(name, -1L);
      assertThat(type).as("a type LD_SHOW_AUXV prints: %s", name).isNotEqualTo(-1L);
      long v;
      if (value.startsWith("0x")) v = Long.parseUnsignedLong(value.substring(2), 16);
      else if (name.equals("AT_HWCAP") && value.matches("[0-9a-f]+")) v = Long.parseUnsignedLong(value, 16); // bare hex on x86-64
      else if (value.matches("\\d+")) v = Long.parseLong(value);
      else v = -1; // AT_EXECFN, AT_PLATFORM: the string the value points at; i386's AT_HWCAP as flag names
      printed.add(new long[] {type, v});
    }
    try (Minidump dump = Minidump.open(path)) {
      LinuxAuxv auxv = dump.linuxAuxv();
      assertThat(auxv.wordSize()).isEqualTo(dump.systemInfo().pointerSize());
      List<LinuxAuxv.Entry> entries = auxv.entries().stream().filter(e -> e.type() != LinuxAuxv.AT_NULL).toList();
      assertThat(auxv.entries().getLast().type()).isEqualTo(LinuxAuxv.AT_NULL);
      assertThat(entries).hasSameSizeAs(printed);
      for (int i = 0; i < printed.size(); i++) {
        assertThat(entries.get(i).type()).as("entry %d", i).isEqualTo(printed.get(i)[0]);
        if (printed.get(i)[1] != -1) assertThat(entries.get(i).value()).as("entry %d", i).isEqualTo(printed.get(i)[1]);
      }
    }
  }

  private static final Map<String, Long> AUXV_TYPES = new HashMap<>();

  static {
    String[] names = {"AT_NULL", "AT_IGNORE", "AT_EXECFD", "AT_PHDR", "AT_PHENT", "AT_PHNUM", "AT_PAGESZ", "AT_BASE", "AT_FLAGS",
        "AT_ENTRY", "AT_NOTELF", "AT_UID", "AT_EUID", "AT_GID", "AT_EGID", "AT_PLATFORM", "AT_HWCAP", "AT_CLKTCK", "AT_FPUCW",
        "AT_DCACHEBSIZE", "AT_ICACHEBSIZE", "AT_UCACHEBSIZE", "AT_IGNOREPPC", "AT_SECURE", "AT_BASE_PLATFORM", "AT_RANDOM",
        "AT_HWCAP2"};
    for (int i = 0; i < names.length; i++) AUXV_TYPES.put(names[i], (long) i);
    AUXV_TYPES.put("AT_EXECFN", 31L);
    AUXV_TYPES.put("AT_SYSINFO", 32L);
    AUXV_TYPES.put("AT_SYSINFO_EHDR", 33L);
    AUXV_TYPES.put("AT_MINSIGSTKSZ", 51L);
  }

  /**
   * The Linux streams of the handler's dumps: the command line and environment the script gave,
   * the process id of the status file is the main thread's id, every maps line parsed back to its
   * text, every module at the start of a mapping of its file, and the dynamic linker's list of
   * objects holds every shared library at its module's base.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("handlerDumps")
  void linuxStreamsAgree(Path path) throws IOException {
    String dmp = MinidumpDumpTest.name(path);
    String mode = dmp.substring(dmp.lastIndexOf('-') + 1);
    try (Minidump dump = Minidump.open(path)) {
      assertThat(dump.linuxCmdLine().arguments()).containsExactly("./crasher", mode, WORK + "run/" + dmp);
      assertThat(dump.linuxEnviron().entries()).containsExactly("PATH=/usr/bin:/bin", "LD_SHOW_AUXV=1");
      assertThat(dump.linuxEnviron().get("PATH")).isEqualTo("/usr/bin:/bin");
      assertThat(dump.linuxProcStatus().fields().get("Name")).isEqualTo("crasher");
      // /proc/TID/status of the crashed thread: its Pid is that thread's id, its Tgid the process's
      assertThat(dump.linuxProcStatus().pid()).isEqualTo(dump.exception().threadId());
      long tgid = Long.parseLong(dump.linuxProcStatus().fields().get("Tgid"));
      assertThat(dump.threadList().byId(tgid)).as("the main thread").isNotNull();
      assertThat(dump.linuxCpuInfo().processors()).isNotEmpty().allSatisfy(p -> assertThat(p).containsKey("processor"));

      LinuxMaps maps = dump.linuxMaps();
      List<String> lines = new String(maps.text(), java.nio.charset.StandardCharsets.ISO_8859_1).lines().filter(l -> !l.isEmpty()).toList();
      assertThat(maps.mappings()).hasSameSizeAs(lines);
      for (int i = 0; i < lines.size(); i++) {
        LinuxMaps.Mapping m = maps.mappings().get(i);
        assertThat(m.line()).isEqualTo(lines.get(i));
        String[] f = lines.get(i).split("\\s+", 6);
        assertThat(String.format("%x-%x", m.start(), m.end())).isEqualTo(f[0]);
        assertThat(m.permissions()).isEqualTo(f[1]);
        assertThat(String.format("%08x", m.offset())).isEqualTo(f[2]);
        assertThat(String.format("%02x:%02x", m.majorDevice(), m.minorDevice())).isEqualTo(f[3]);
        assertThat(Long.toString(m.inode())).isEqualTo(f[4]);
        assertThat(m.path()).isEqualTo(f.length > 5 ? f[5] : "");
      }
      for (MinidumpModule mod : dump.moduleList().modules()) {
        if (mod.codeFile().startsWith("linux-gate")) continue;
        // Breakpad names a library by its SONAME in the mapped file's directory (libstdc++.so.6, mapped
        // as libstdc++.so.6.0.30)
        String dir = mod.codeFile().substring(0, mod.codeFile().lastIndexOf('/') + 1);
        assertThat(maps.mappings()).as("a mapping of %s at its base", mod.codeFile())
            .anyMatch(m -> m.start() == mod.baseOfImage() && m.offset() == 0 && m.path().startsWith(dir)
                && (m.path().equals(mod.codeFile()) || m.path().startsWith(mod.codeFile() + ".")));
      }

      LinuxDsoDebug dso = dump.linuxDsoDebug();
      assertThat(dso.version()).isEqualTo(1);
      assertThat(dso.linkMaps()).hasSize((int) dso.dsoCount());
      assertThat(dso.dynamicSection().getLast().tag()).as("DT_NULL").isZero();
      // the first object is the executable: unnamed, at the main module's base, its l_ld the dynamic section copied
      LinuxDsoDebug.LinkMap exe = dso.linkMaps().getFirst();
      assertThat(exe.name()).isEmpty();
      assertThat(exe.addr()).isEqualTo(dump.moduleList().main().baseOfImage());
      assertThat(exe.ld()).isEqualTo(dso.dynamic());
      int libraries = 0;
      for (LinuxDsoDebug.LinkMap lm : dso.linkMaps()) {
        if (lm.name().isEmpty() || lm.name().startsWith("linux-")) continue; // the executable, the vDSO
        // a shared library, linked at 0: its load bias is its module's base
        MinidumpModule mod = dump.moduleList().moduleAt(lm.addr());
        assertThat(mod).as("a module at the load bias of %s", lm.name()).isNotNull();
        assertThat(mod.baseOfImage()).isEqualTo(lm.addr());
        assertThat(baseName(mod.codeFile())).isEqualTo(baseName(lm.name()));
        libraries++;
      }
      assertThat(libraries).as("shared libraries in the link map").isGreaterThanOrEqualTo(5);
    }
  }
}
