package dev.gsym.stackwalk;

import dev.gsym.GsymFormatException;
import dev.gsym.minidump.AssertionInfo;
import dev.gsym.minidump.BreakpadInfo;
import dev.gsym.minidump.ContextArm64;
import dev.gsym.minidump.CpuContext;
import dev.gsym.minidump.ExceptionStream;
import dev.gsym.minidump.MemoryRegion;
import dev.gsym.minidump.Minidump;
import dev.gsym.minidump.MinidumpMemory;
import dev.gsym.minidump.MinidumpModule;
import dev.gsym.minidump.MinidumpThread;
import dev.gsym.minidump.MiscInfo;
import dev.gsym.minidump.ModuleList;
import dev.gsym.minidump.SystemInfo;
import dev.gsym.minidump.ThreadList;
import dev.gsym.minidump.ThreadNameList;
import dev.gsym.minidump.UnloadedModule;
import dev.gsym.minidump.UnloadedModuleList;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.MemoryReader;
import dev.gsym.unwind.Registers;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A minidump as Breakpad's processor ({@code MinidumpProcessor::Process}) reads it for the stack
 * walker: the system's names, the crash reason and address, the requesting thread (the exception's,
 * else the Breakpad info's), the threads without the one that wrote the dump, the crashed thread
 * started from the exception's context, each thread's own stack memory, the modules stored as
 * Breakpad stores them. A stream the dump lacks or cannot read is left out, as Breakpad goes on
 * without it; only a dump without a readable thread list cannot be walked.
 */
public final class MinidumpProcess implements CrashedProcess {
  /** Largest memory region Breakpad reads (64 MiB). */
  private static final long MAX_REGION = 64L << 20;

  private final SystemDescription system;
  private final long dumpTime;
  private final long processCreateTime;
  private final CrashInfo crash;
  private final String assertion;
  private final OptionalLong requesting;
  private final CodeModules modules;
  private final CodeModules unloaded;
  private final List<ProcessThread> threads;

  private MinidumpProcess(SystemDescription system, long dumpTime, long processCreateTime, CrashInfo crash, String assertion,
      OptionalLong requesting, CodeModules modules, CodeModules unloaded, List<ProcessThread> threads) {
    this.system = system;
    this.dumpTime = dumpTime;
    this.processCreateTime = processCreateTime;
    this.crash = crash;
    this.assertion = assertion;
    this.requesting = requesting;
    this.modules = modules;
    this.unloaded = unloaded;
    this.threads = threads;
  }

  /**
   * Reads what the walker needs from {@code dump} (whose memory it keeps using: keep the dump open
   * while walking).
   *
   * @throws GsymFormatException when the dump has no readable thread list (Breakpad cannot process it)
   */
  public static MinidumpProcess of(Minidump dump) {
    SystemInfo info = optional(dump::systemInfo);
    SystemDescription system = info == null ? SystemDescription.UNKNOWN : describe(info);
    MiscInfo misc = optional(dump::miscInfo);
    long created = misc != null && misc.has(MiscInfo.FLAGS1_PROCESS_TIMES) ? misc.processCreateTime() : 0;

    BreakpadInfo breakpad = optional(dump::breakpadInfo);
    OptionalLong dumpThread = breakpad != null && breakpad.hasDumpThreadId() ? OptionalLong.of(breakpad.dumpThreadId())
        : OptionalLong.empty();
    OptionalLong requesting = breakpad != null && breakpad.hasRequestingThreadId()
        ? OptionalLong.of(breakpad.requestingThreadId()) : OptionalLong.empty();
    ExceptionStream exception = optional(dump::exception);
    CrashInfo crash = null;
    if (exception != null) {
      requesting = OptionalLong.of(exception.threadId());
      long[] address = {exception.exceptionAddress()};
      String reason = CrashReasons.reason(info != null, info == null ? 0 : (int) info.platformId(),
          info == null ? 0 : info.processorArchitecture(), (int) exception.exceptionCode(), (int) exception.exceptionFlags(),
          exception.numberParameters(), exception.parameters(), address);
      crash = new CrashInfo(reason, address[0]);
    }
    AssertionInfo assertionInfo = optional(dump::assertion);
    String assertion = assertionInfo == null ? "" : assertion(assertionInfo);

    CodeModules modules = modules(dump, info);
    CodeModules unloaded = unloaded(dump, info);

    ThreadList list = dump.threadList();
    if (list == null) throw new GsymFormatException(dump.source(), 0, "the dump has no thread list");
    ThreadNameList names = optional(dump::threadNameList);
    MinidumpMemory memoryList = optional(dump::memory);
    List<ProcessThread> threads = new ArrayList<>();
    for (MinidumpThread t : list.threads()) {
      // the thread that wrote the dump is not walked: its context and stack were in flux
      if (dumpThread.isPresent() && t.threadId() == dumpThread.getAsLong()) continue;
      CpuContext context = optional(() -> dump.context(t));
      if (exception != null && requesting.isPresent() && t.threadId() == requesting.getAsLong()) {
        // the crashed thread's own context is inside the handler: walk from the exception's
        CpuContext atCrash = optional(() -> dump.context(exception.threadContext(), exception.contextOffset()));
        if (atCrash != null) context = atCrash;
      }
      String name = names == null ? "" : nullToEmpty(names.nameOf(t.threadId()));
      threads.add(new ProcessThread(t.threadId(), name, registers(context), stack(dump, t, memoryList)));
    }
    return new MinidumpProcess(system, dump.header().timeDateStamp(), created, crash, assertion, requesting, modules, unloaded,
        List.copyOf(threads));
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The value, or null when the dump lacks it or it cannot be read (Breakpad goes on without it). */
  private static <T> T optional(java.util.function.Supplier<T> read) {
    try {
      return read.get();
    } catch (GsymFormatException | IllegalArgumentException e) {
      return null;
    }
  }

  /** The walker's registers of a context ({@link FrameRegisters#ALL} valid), or null for none or an unsupported CPU. */
  private static FrameRegisters registers(CpuContext c) {
    if (c == null || c.arch() == null || FrameRegisters.slots(c.arch()) == 0) return null;
    Registers regs = new Registers();
    c.registers(regs);
    if (c instanceof ContextArm64 a) {
      regs.set(31, a.ireg(31));
      regs.pc(a.ireg(32));
    }
    return FrameRegisters.context(c.arch(), regs);
  }

  /**
   * The thread's stack: its own descriptor's region, else the memory-list region holding the
   * descriptor's start; bytes outside the file, or a region over 64 MiB, read as absent.
   */
  private static StackMemory stack(Minidump dump, MinidumpThread t, MinidumpMemory memoryList) {
    long start = t.stack().start();
    long size = t.stack().size();
    if (t.stack().memory().rva() != 0 && size != 0 && !t.stack().overflows()) {
      MemoryRegion r;
      try {
        r = dump.stack(t);
      } catch (GsymFormatException e) {
        return StackMemory.of(start, size, NO_BYTES);
      }
      if (r == null || size > MAX_REGION) return StackMemory.of(start, size, NO_BYTES);
      return StackMemory.of(r.start(), r.size(), new MinidumpMemory(List.of(r), dump.byteOrder()));
    }
    if (memoryList == null || start == 0) return null;
    MemoryRegion r = memoryList.regionAt(start);
    if (r == null) return null;
    MemoryReader reader = r.readable() && r.size() <= MAX_REGION ? new MinidumpMemory(List.of(r), dump.byteOrder()) : NO_BYTES;
    return StackMemory.of(r.start(), r.size(), reader);
  }

  private static final MemoryReader NO_BYTES = new MemoryReader() {
    @Override
    public boolean readable(long address, int size) {
      return false;
    }

    @Override
    public long read(long address, int size) {
      throw new IllegalStateException("no bytes");
    }
  };

  // ------------------------------------------------------------------ system

  private static SystemDescription describe(SystemInfo s) {
    int arch = s.processorArchitecture();
    String cpu;
    String cpuInfo = "";
    switch (arch) {
      case SystemInfo.CPU_X86, SystemInfo.CPU_AMD64 -> {
        cpu = arch == SystemInfo.CPU_X86 ? "x86" : "amd64";
        String vendor = s.cpuVendor();
        cpuInfo = (vendor != null ? vendor + " " : "") + String.format("family %d model %d stepping %d", s.processorLevel(),
            s.processorRevision() >> 8, s.processorRevision() & 0xff);
      }
      case SystemInfo.CPU_PPC -> cpu = "ppc";
      case SystemInfo.CPU_PPC64 -> cpu = "ppc64";
      case SystemInfo.CPU_SPARC -> cpu = "sparc";
      case SystemInfo.CPU_ARM -> {
        cpu = "arm";
        cpuInfo = armCpuInfo(s);
      }
      case SystemInfo.CPU_ARM64, SystemInfo.CPU_ARM64_OLD -> cpu = "arm64";
      case SystemInfo.CPU_MIPS -> cpu = "mips";
      case SystemInfo.CPU_MIPS64 -> cpu = "mips64";
      case SystemInfo.CPU_RISCV -> cpu = "riscv";
      case SystemInfo.CPU_RISCV64 -> cpu = "riscv64";
      default -> cpu = String.format("0x%04x", arch);
    }
    String os = switch ((int) s.platformId()) {
      case SystemInfo.OS_WIN32_NT -> "Windows NT";
      case SystemInfo.OS_WIN32_WINDOWS -> "Windows";
      case SystemInfo.OS_MAC_OS_X -> "Mac OS X";
      case SystemInfo.OS_IOS -> "iOS";
      case SystemInfo.OS_LINUX -> "Linux";
      case SystemInfo.OS_SOLARIS -> "Solaris";
      case SystemInfo.OS_ANDROID -> "Android";
      case SystemInfo.OS_PS3 -> "PS3";
      case SystemInfo.OS_NACL -> "NaCl";
      case SystemInfo.OS_FUCHSIA -> "Fuchsia";
      default -> String.format("0x%08x", s.platformId());
    };
    String version = Long.toUnsignedString(s.majorVersion()) + "." + Long.toUnsignedString(s.minorVersion()) + "."
        + Long.toUnsignedString(s.buildNumber());
    if (s.csdVersion() != null) version += " " + s.csdVersion();
    return new SystemDescription(os, s.os(), version, cpu, cpuInfo, s.numberOfProcessors());
  }

  private static final String[] ARM_FEATURES = {"swp", "half", "thumb", "26bit", "fastmult", "fpa", "vfpv2", "edsp", "java",
      "iwmmxt", "crunch", "thumbee", "neon", "vfpv3", "vfpv3d16", "tls", "vfpv4", "idiva", "idivt"};

  /** Breakpad's ARM CPU description: the architecture version, the vendor and part of the CPUID, the ELF hwcaps. */
  private static String armCpuInfo(SystemInfo s) {
    StringBuilder sb = new StringBuilder("ARMv").append(s.processorLevel());
    long cpuid = s.cpuInfo().get(0);
    if (cpuid != 0) {
      int vendor = (int) (cpuid >>> 24) & 0xff;
      String name = switch (vendor) {
        case 0x41 -> "ARM";
        case 0x51 -> "Qualcomm";
        case 0x56 -> "Marvell";
        case 0x69 -> "Intel/Marvell";
        default -> String.format("vendor(0x%x)", vendor);
      };
      sb.append(' ').append(name);
      int part = (int) (cpuid & 0xff00fff0L);
      String partName = switch (part) {
        case 0x4100c050 -> "Cortex-A5";
        case 0x4100c080 -> "Cortex-A8";
        case 0x4100c090 -> "Cortex-A9";
        case 0x4100c0f0 -> "Cortex-A15";
        case 0x4100c140 -> "Cortex-R4";
        case 0x4100c150 -> "Cortex-R5";
        case 0x4100b360 -> "ARM1136";
        case 0x4100b560 -> "ARM1156";
        case 0x4100b760 -> "ARM1176";
        case 0x4100b020 -> "ARM11-MPCore";
        case 0x41009260 -> "ARM926";
        case 0x41009460 -> "ARM946";
        case 0x41009660 -> "ARM966";
        case 0x510006f0 -> "Krait";
        case 0x510000f0 -> "Scorpion";
        default -> String.format("part(0x%x)", part);
      };
      sb.append(' ').append(partName);
    }
    long hwcaps = s.cpuInfo().get(1);
    if (hwcaps != 0) {
      sb.append(" features: ");
      String comma = "";
      for (int i = 0; i < ARM_FEATURES.length; i++) {
        if ((hwcaps & (1L << i)) != 0) {
          sb.append(comma).append(ARM_FEATURES[i]);
          comma = ",";
        }
      }
    }
    return sb.toString();
  }

  private static String assertion(AssertionInfo a) {
    StringBuilder sb = new StringBuilder();
    if (a.type() == 1) sb.append("Invalid parameter passed to library function");
    else if (a.type() == 2) sb.append("Pure virtual function called");
    else sb.append("Unknown assertion type ").append(String.format("0x%08x", a.type()));
    if (!a.expression().isEmpty()) sb.append(' ').append(a.expression());
    if (!a.function().isEmpty()) sb.append(" in function ").append(a.function());
    if (!a.file().isEmpty()) sb.append(", in file ").append(a.file());
    if (a.line() != 0) sb.append(" at line ").append(Long.toUnsignedString(a.line()));
    return sb.toString();
  }

  // ------------------------------------------------------------------ modules

  /**
   * The module list as Breakpad's {@code MinidumpModuleList} reads it (null when it cannot: more
   * than 2,048 modules, a base of 2^64-1, an overlap it cannot store), then copied into the
   * processor's map; Linux and Android lists truncate overlapping modules.
   */
  private static CodeModules modules(Minidump dump, SystemInfo info) {
    ModuleList list = optional(dump::moduleList);
    if (list == null || list.modules().size() > ModuleList.MAX_MODULES) return null;
    int platform = info == null ? -1 : (int) info.platformId();
    boolean truncate = platform == SystemInfo.OS_LINUX || platform == SystemInfo.OS_ANDROID;
    boolean android = platform == SystemInfo.OS_ANDROID;
    RangeMap<MinidumpModule> check = new RangeMap<>(truncate ? RangeMap.Merge.TRUNCATE_LOWER : RangeMap.Merge.EXCLUSIVE);
    long lastEnd = 0;
    List<CodeModule> all = new ArrayList<>();
    for (MinidumpModule m : list.modules()) {
      all.add(new CodeModule(m.baseOfImage(), m.sizeOfImage(), m.codeFile(), m.codeIdentifier(), m.debugFile(),
          m.debugIdentifier(), m.version()));
      long base = m.baseOfImage();
      long size = m.sizeOfImage();
      if (base == -1L) return null;
      RangeMap.Range<MinidumpModule> existing = check.retrieve(base);
      if (existing != null) {
        MinidumpModule e = existing.value();
        if (e.baseOfImage() == base && e.sizeOfImage() == size && e.codeFile().equals(m.codeFile())
            && e.codeIdentifier().equals(m.codeIdentifier())) {
          continue; // a duplicate entry (crbug.com/838322)
        }
      }
      if (!check.store(base, size, m) && !(android && m.codeFile().startsWith("/dev/ashmem/"))) {
        if (!android || Long.compareUnsigned(base, lastEnd) >= 0) return null;
        // Android's packed relocations: the client moved the base down; back it out
        size -= lastEnd - base;
        base = lastEnd;
        if (!check.store(base, size, m)) return null;
      }
      lastEnd = base + size;
    }
    return CodeModules.of(all, truncate);
  }

  private static CodeModules unloaded(Minidump dump, SystemInfo info) {
    UnloadedModuleList list = optional(dump::unloadedModuleList);
    if (list == null) return null;
    int platform = info == null ? -1 : (int) info.platformId();
    List<CodeModule> all = new ArrayList<>();
    for (UnloadedModule m : list.modules()) {
      String id = switch (platform) {
        case SystemInfo.OS_WIN32_NT, SystemInfo.OS_WIN32_WINDOWS -> String.format("%08X%x", m.timeDateStamp(), m.sizeOfImage());
        case SystemInfo.OS_ANDROID, SystemInfo.OS_LINUX, SystemInfo.OS_MAC_OS_X, SystemInfo.OS_IOS, SystemInfo.OS_SOLARIS,
            SystemInfo.OS_NACL, SystemInfo.OS_PS3 -> "id";
        default -> "";
      };
      all.add(new CodeModule(m.baseOfImage(), m.sizeOfImage(), m.name(), id, "", "", ""));
    }
    return CodeModules.of(all, true);
  }

  // ------------------------------------------------------------------ CrashedProcess

  @Override
  public SystemDescription system() {
    return system;
  }

  @Override
  public long dumpTime() {
    return dumpTime;
  }

  @Override
  public long processCreateTime() {
    return processCreateTime;
  }

  @Override
  public CrashInfo crash() {
    return crash;
  }

  @Override
  public String assertion() {
    return assertion;
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
    return unloaded;
  }

  @Override
  public List<ProcessThread> threads() {
    return threads;
  }

  /** The architecture of the walker a context of {@code arch} gets, or null. */
  static boolean walkable(Arch arch) {
    return arch != null && FrameRegisters.slots(arch) > 0;
  }
}
