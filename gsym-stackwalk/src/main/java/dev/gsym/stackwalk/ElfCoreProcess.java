package dev.gsym.stackwalk;

import dev.gsym.GsymFormatException;
import dev.gsym.convert.ConvertOptions;
import dev.gsym.convert.Converter;
import dev.gsym.convert.Input;
import dev.gsym.elf.ElfCore;
import dev.gsym.elf.ElfFile;
import dev.gsym.read.GsymReader;
import dev.gsym.unwind.Arch;
import dev.gsym.write.Diagnostics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A Linux ELF core file as the walker takes it, read as Breakpad's {@code core2md} would write it
 * into a minidump ({@code LinuxCoreDumper} and {@code MinidumpWriter}), so that its walk prints what
 * minidump_stackwalk prints for that minidump: the threads of the {@code NT_PRSTATUS} notes in their
 * order (the kernel writes the thread that took the fatal signal first: it is the crashed one), each
 * walked from its registers over its stack as core2md captures it (32 KiB from the page of the stack
 * pointer, at most to the end of the memory segment holding it); the crash: the signal of {@code
 * NT_SIGINFO} (else the first thread's), with the {@code si_code} of the first thread's {@code
 * NT_PRSTATUS} (which the kernel leaves 0: {@code SIGSEGV /0x00000000}, where gdb's {@code
 * $_siginfo} says {@code SEGV_MAPERR}) and {@code NT_SIGINFO}'s {@code si_addr} for the signals that
 * fault at an address; the modules are the ELF images of the core ({@link ElfCore#modules()}: the
 * files of {@code NT_FILE} with the build-ids read from their headers in the core's memory; the
 * kernel's vDSO as {@code linux-gate.so}), the main executable first, each from its ELF header's
 * mapping to the end of its code's (as Breakpad's {@code LinuxDumper} merges mappings), with Breakpad's identifiers
 * (code identifier: the build-id in hex; debug identifier: its first 16 bytes as a GUID, age 0).
 * A core holds no system description beyond its CPU: the operating system prints as Linux without
 * a version, with no CPU count, and no process uptime.
 */
public final class ElfCoreProcess implements CrashedProcess {
  /** What core2md captures of each thread's stack ({@code LinuxDumper::GetStackInfo}). */
  public static final long STACK_TO_CAPTURE = 32 * 1024;
  /** Largest image read from the core's memory (the vDSO is two pages). */
  private static final long MAX_MEMORY_IMAGE = 1 << 20;
  /** Breakpad's name of the kernel's vDSO. */
  public static final String VDSO_NAME = "linux-gate.so";

  private final ElfCore core;
  private final SystemDescription system;
  private final CrashInfo crash;
  private final OptionalLong requesting;
  private final CodeModules modules;
  private final List<ProcessThread> threads;
  /** The modules held whole in the core's memory (the vDSO), by code file. */
  private final Map<String, ElfCore.CoreModule> inMemory = new HashMap<>();

  private ElfCoreProcess(ElfCore core) {
    this.core = core;
    Arch arch = core.arch();
    if (arch == null || FrameRegisters.slots(arch) == 0 || !core.hasRegisterLayout()) {
      throw new GsymFormatException(core.source(), 0, "a core of a machine the stack walker does not walk ("
          + core.elf().archName() + ")");
    }
    if (core.threads().isEmpty()) throw new GsymFormatException(core.source(), 0, "the core has no thread (no NT_PRSTATUS note)");
    int cpuCode = switch (arch) {
      case X86 -> CrashReasons.CPU_X86;
      case X86_64 -> CrashReasons.CPU_AMD64;
      case ARM -> CrashReasons.CPU_ARM;
      default -> 12; // PROCESSOR_ARCHITECTURE_ARM64
    };
    String cpu = switch (arch) {
      case X86 -> "x86";
      case X86_64 -> "amd64";
      case ARM -> "arm";
      default -> "arm64";
    };
    this.system = new SystemDescription("Linux", "linux", "", cpu, "", 0);

    ElfCore.CoreThread first = core.threads().getFirst();
    ElfCore.SignalInfo si = core.signal();
    int signal = si != null ? si.signal() : first.signal();
    // the code of the first thread's NT_PRSTATUS (pr_info.si_code), as core2md takes it: the kernel leaves it 0
    int code = 0;
    long[] address = {si != null && faultsAtAddress(si.signal()) ? si.address() : 0};
    String reason = CrashReasons.reason(true, CrashReasons.OS_LINUX, cpuCode, signal, code, 0, List.of(), address);
    this.crash = new CrashInfo(reason, address[0]);
    this.requesting = OptionalLong.of(Integer.toUnsignedLong(first.pid()));

    List<CodeModule> list = new ArrayList<>();
    Map<Long, Integer> fileAt = new HashMap<>();
    for (int i = 0; i < core.files().size(); i++) fileAt.putIfAbsent(core.files().get(i).start(), i);
    ElfCore.CoreModule main = core.mainExecutable();
    if (main != null) list.add(codeModule(main, mappedSize(main, fileAt)));
    for (ElfCore.CoreModule m : core.modules()) {
      if (m == main) continue;
      if (m.path().equals("[vdso]")) inMemory.put(VDSO_NAME, m);
      else if (m.path().startsWith("[")) continue;
      list.add(codeModule(m, mappedSize(m, fileAt)));
    }
    this.modules = CodeModules.of(list, true);

    List<ProcessThread> ts = new ArrayList<>();
    long page = core.auxv(ElfCore.AT_PAGESZ) != null && Long.bitCount(core.auxv(ElfCore.AT_PAGESZ)) == 1
        ? core.auxv(ElfCore.AT_PAGESZ) : 4096;
    for (ElfCore.CoreThread t : core.threads()) {
      FrameRegisters context = FrameRegisters.context(arch, core.registers(t));
      ts.add(new ProcessThread(Integer.toUnsignedLong(t.pid()), "", context, stack(context.sp(), page)));
    }
    this.threads = List.copyOf(ts);
  }

  /**
   * Reads {@code core} (which it keeps using: keep it open while walking).
   *
   * @throws GsymFormatException for a core without threads or of a machine the walker does not walk
   */
  public static ElfCoreProcess of(ElfCore core) {
    return new ElfCoreProcess(core);
  }

  /** The signals whose {@code si_addr} Breakpad's core reader takes as the crash address. */
  private static boolean faultsAtAddress(int signal) {
    return signal == 4 || signal == 5 || signal == 7 || signal == 8 || signal == 11 || signal == 31;
  }

  private static CodeModule codeModule(ElfCore.CoreModule m, long size) {
    String path = m.path().equals("[vdso]") ? VDSO_NAME : m.path();
    byte[] id = m.buildId();
    String code = id == null ? "" : HexFormat.of().formatHex(id);
    String debug = id == null ? "" : dev.gsym.breakpad.BreakpadIds.moduleId(id, true);
    return new CodeModule(m.base(), size, path, code, path, debug, "");
  }

  /**
   * The module's size as Breakpad's {@code LinuxDumper} sees it in the process's mappings: from the
   * mapping of its ELF header, the adjacent mappings of the same file merged while they keep its
   * execute permission or add it (the read-only header, then the code; the data after the code is
   * not part of the module); the image's extent when the core names no file there (the vDSO).
   */
  private long mappedSize(ElfCore.CoreModule m, Map<Long, Integer> fileAt) {
    List<ElfCore.MappedFile> files = core.files();
    Integer at = fileAt.get(m.base());
    if (at == null || !files.get(at).path().equals(m.path())) return m.end() - m.base();
    int i = at;
    long end = files.get(i).end();
    boolean exec = executable(files.get(i).start());
    for (int k = i + 1; k < files.size(); k++) {
      ElfCore.MappedFile f = files.get(k);
      boolean x = executable(f.start());
      if (f.start() != end || !f.path().equals(m.path()) || !(x == exec || !exec && x)) break;
      end = f.end();
      exec |= x;
    }
    return end - m.base();
  }

  /** Whether the memory segment at {@code address} is executable (PF_X). */
  private boolean executable(long address) {
    ElfCore.Segment s = segmentAt(address);
    return s != null && (s.flags() & 1) != 0;
  }

  /** core2md's stack of a thread: from the page of {@code sp}, 32 KiB at most, within the segment holding it. */
  private StackMemory stack(long sp, long page) {
    long start = sp & -page;
    ElfCore.Segment s = segmentAt(start);
    if (s == null) return null;
    long size = Math.min(STACK_TO_CAPTURE, s.memorySize() - (start - s.address()));
    return StackMemory.of(start, size, core.memory());
  }

  /** The memory segment holding {@code address} (the segments are sorted and do not overlap), or null. */
  private ElfCore.Segment segmentAt(long address) {
    List<ElfCore.Segment> segments = core.segments();
    int lo = 0;
    int hi = segments.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      ElfCore.Segment s = segments.get(mid);
      if (Long.compareUnsigned(address, s.address()) < 0) hi = mid - 1;
      else if (Long.compareUnsigned(address - s.address(), s.memorySize()) >= 0) lo = mid + 1;
      else return s;
    }
    return null;
  }

  /**
   * A source that answers for the modules the core holds whole in its memory (the kernel's vDSO:
   * its symbol table and CFI, read from the core) and asks {@code others} (may be null) for the rest.
   */
  public SymbolSource withMemoryImages(SymbolSource others) {
    Map<String, ModuleSymbols> converted = new HashMap<>();
    return (module, sys) -> {
      ElfCore.CoreModule m = inMemory.get(module.codeFile());
      if (m == null || m.base() != module.base()) return others == null ? null : others.find(module, sys);
      synchronized (converted) {
        return converted.computeIfAbsent(module.codeFile(), k -> fromMemory(m));
      }
    };
  }

  /** The symbols and CFI of an image held whole in the core, or null when it is not readable there. */
  private ModuleSymbols fromMemory(ElfCore.CoreModule m) {
    long size = m.end() - m.base();
    if (size <= 0 || size > MAX_MEMORY_IMAGE || !core.memory().readable(m.base(), 4)) return null;
    // the bytes the core holds, zero elsewhere
    byte[] image = new byte[(int) size];
    for (int at = 0; at < image.length; at++) {
      if (core.memory().readable(m.base() + at, 1)) image[at] = (byte) core.memory().read(m.base() + at, 1);
    }
    try (ElfFile elf = ElfFile.of(image, core.source() + ": " + m.path())) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Converter.convert(new Input.OpenObject(elf, core.source() + ": " + m.path()),
          ConvertOptions.builder().baseAddress(0L).threads(1).unwind(true).dynamicSymbols(true).build(),
          Diagnostics.silent(), gsym -> {
            if (gsym.creator().numFunctionInfos() > 0) gsym.creator().save(out, gsym.byteOrder());
          });
      if (out.size() == 0) return null;
      GsymReader r = GsymReader.of(out.toByteArray(), m.path());
      return new GsymModuleSymbols(r, r.header().baseAddress(), false, null);
    } catch (IOException | RuntimeException e) {
      return null; // an image the core holds damaged (or a converter's failure on it): no symbols
    }
  }

  @Override
  public SystemDescription system() {
    return system;
  }

  @Override
  public long dumpTime() {
    return 0;
  }

  @Override
  public long processCreateTime() {
    return 0;
  }

  @Override
  public CrashInfo crash() {
    return crash;
  }

  @Override
  public String assertion() {
    return "";
  }

  @Override
  public OptionalLong requestingThreadId() {
    return requesting;
  }

  @Override
  public CodeModules modules() {
    return modules;
  }

  @Override
  public CodeModules unloadedModules() {
    return null;
  }

  @Override
  public List<ProcessThread> threads() {
    return threads;
  }
}
