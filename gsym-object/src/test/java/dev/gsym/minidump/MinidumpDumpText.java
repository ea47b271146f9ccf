package dev.gsym.minidump;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Breakpad's {@code minidump_dump} prints for a dump, written from what our reader reads
 * (Breakpad's {@code Minidump::Print} and the streams' {@code Print}, {@code DumpContext::Print},
 * {@code DumpRawStream}): a stream our reader refuses prints nothing, as one Breakpad refuses. The
 * tests compare it with minidump_dump's own output, so every field it prints is checked.
 */
final class MinidumpDumpText {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
  private final StringBuilder out = new StringBuilder();
  private final Minidump dump;

  private MinidumpDumpText(Minidump dump) {
    this.dump = dump;
  }

  /** minidump_dump's stdout for {@code dump} (a String of {@link ByteStrings}'s decoding). */
  static String of(Minidump dump) {
    MinidumpDumpText t = new MinidumpDumpText(dump);
    t.all();
    return t.out.toString();
  }

  private MinidumpDumpText p(String format, Object... args) {
    out.append(args.length == 0 ? format : String.format(format, args));
    return this;
  }

  private static String time(long t) {
    return TIME.format(Instant.ofEpochSecond(t));
  }

  private void all() {
    MinidumpHeader h = dump.header();
    p("MDRawHeader\n");
    p("  signature            = 0x%x\n", h.signature());
    p("  version              = 0x%x\n", h.version());
    p("  stream_count         = %d\n", (int) h.streamCount());
    p("  stream_directory_rva = 0x%x\n", h.streamDirectoryRva());
    p("  checksum             = 0x%x\n", h.checksum());
    p("  time_date_stamp      = 0x%x %s\n", h.timeDateStamp(), time(h.timeDateStamp()));
    p("  flags                = 0x%x\n", h.flags());
    p("\n");
    for (DirectoryEntry e : dump.directory()) {
      p("mDirectory[%d]\n", e.index());
      p("MDRawDirectory\n");
      p("  stream_type        = 0x%x (%s)\n", e.type(), e.typeName());
      p("  location.data_size = %d\n", (int) e.location().dataSize());
      p("  location.rva       = 0x%x\n", e.location().rva());
      p("\n");
    }
    p("Streams:\n");
    TreeMap<Long, DirectoryEntry> byType = new TreeMap<>();
    for (DirectoryEntry e : dump.directory()) byType.put(Integer.toUnsignedLong(e.type()), e);
    for (DirectoryEntry e : byType.values()) {
      p("  stream type 0x%x (%s) at index %d\n", e.type(), e.typeName(), e.index());
    }
    p("\n");
    stream(this::threads);
    stream(this::threadNames);
    stream(this::modules);
    stream(this::memoryList);
    stream(this::exception);
    stream(this::assertion);
    stream(this::systemInfo);
    stream(this::miscInfo);
    stream(this::breakpadInfo);
    stream(this::memoryInfo);
    stream(this::crashpad);
    raw(StreamType.LINUX_CMD_LINE);
    raw(StreamType.LINUX_ENVIRON);
    raw(StreamType.LINUX_LSB_RELEASE);
    raw(StreamType.LINUX_PROC_STATUS);
    raw(StreamType.LINUX_CPU_INFO);
    raw(StreamType.LINUX_MAPS);
  }

  /** Prints a stream, or nothing when our reader refuses it (as minidump_dump prints nothing). */
  private void stream(Runnable print) {
    int mark = out.length();
    try {
      print.run();
    } catch (GsymFormatException refused) {
      out.setLength(mark);
    }
  }

  private void threads() {
    ThreadList list = dump.threadList();
    if (list == null) return;
    p("MinidumpThreadList\n");
    p("  thread_count = %d\n", list.threads().size());
    p("\n");
    int i = 0;
    for (MinidumpThread t : list.threads()) {
      p("thread[%d]\n", i++);
      p("MDRawThread\n");
      p("  thread_id                   = 0x%x\n", t.threadId());
      p("  suspend_count               = %d\n", (int) t.suspendCount());
      p("  priority_class              = 0x%x\n", t.priorityClass());
      p("  priority                    = 0x%x\n", t.priority());
      p("  teb                         = 0x%x\n", t.teb());
      p("  stack.start_of_memory_range = 0x%x\n", t.stack().start());
      p("  stack.memory.data_size      = 0x%x\n", t.stack().size());
      p("  stack.memory.rva            = 0x%x\n", t.stack().memory().rva());
      p("  thread_context.data_size    = 0x%x\n", t.context().dataSize());
      p("  thread_context.rva          = 0x%x\n", t.context().rva());
      CpuContext c = contextOrNull(() -> dump.context(t));
      if (c != null) {
        p("\n");
        context(c);
      } else {
        p("  (no context)\n");
        p("\n");
      }
      MemoryDescriptor d = t.stack();
      if (d.memory().rva() == 0 || d.size() == 0 || d.overflows()) {
        p("No stack\n");
      } else {
        p("Stack\n");
        MemoryRegion r;
        try {
          r = dump.stack(t);
        } catch (GsymFormatException notInFile) {
          r = null;
        }
        memory(r == null ? null : r.bytes(), d.size());
      }
      p("\n");
    }
  }

  private interface ContextRead {
    CpuContext read();
  }

  private static CpuContext contextOrNull(ContextRead read) {
    try {
      CpuContext c = read.read();
      return c instanceof UnsupportedContext ? null : c;
    } catch (GsymFormatException e) {
      return null;
    }
  }

  /** MinidumpMemoryRegion::Print (not as a hexdump). */
  private void memory(ByteView bytes, long size) {
    if (bytes == null || size > MemoryRegion.MAX_SIZE) {
      p("No memory\n");
      return;
    }
    StringBuilder sb = new StringBuilder(2 + 2 * (int) size);
    sb.append("0x");
    for (long i = 0; i < size; i++) {
      int b = bytes.u8(i);
      sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
    }
    out.append(sb).append('\n');
  }

  private void context(CpuContext c) {
    switch (c) {
      case ContextX86 x -> {
        p("MDRawContextX86\n");
        p("  context_flags                = 0x%x\n", x.contextFlags());
        p("  dr0                          = 0x%x\n", x.dr0());
        p("  dr1                          = 0x%x\n", x.dr1());
        p("  dr2                          = 0x%x\n", x.dr2());
        p("  dr3                          = 0x%x\n", x.dr3());
        p("  dr6                          = 0x%x\n", x.dr6());
        p("  dr7                          = 0x%x\n", x.dr7());
        p("  float_save.control_word      = 0x%x\n", x.floatControlWord());
        p("  float_save.status_word       = 0x%x\n", x.floatStatusWord());
        p("  float_save.tag_word          = 0x%x\n", x.floatTagWord());
        p("  float_save.error_offset      = 0x%x\n", x.floatErrorOffset());
        p("  float_save.error_selector    = 0x%x\n", x.floatErrorSelector());
        p("  float_save.data_offset       = 0x%x\n", x.floatDataOffset());
        p("  float_save.data_selector     = 0x%x\n", x.floatDataSelector());
        p("  float_save.register_area[%2d] = 0x", 80);
        hex(x.floatRegisterArea());
        p("\n");
        p("  float_save.cr0_npx_state     = 0x%x\n", x.floatCr0NpxState());
        p("  gs                           = 0x%x\n", x.gs());
        p("  fs                           = 0x%x\n", x.fs());
        p("  es                           = 0x%x\n", x.es());
        p("  ds                           = 0x%x\n", x.ds());
        p("  edi                          = 0x%x\n", x.edi());
        p("  esi                          = 0x%x\n", x.esi());
        p("  ebx                          = 0x%x\n", x.ebx());
        p("  edx                          = 0x%x\n", x.edx());
        p("  ecx                          = 0x%x\n", x.ecx());
        p("  eax                          = 0x%x\n", x.eax());
        p("  ebp                          = 0x%x\n", x.ebp());
        p("  eip                          = 0x%x\n", x.eip());
        p("  cs                           = 0x%x\n", x.cs());
        p("  eflags                       = 0x%x\n", x.eflags());
        p("  esp                          = 0x%x\n", x.esp());
        p("  ss                           = 0x%x\n", x.ss());
        p("  extended_registers[%3d]      = 0x", 512);
        hex(x.extendedRegisters());
        p("\n\n");
      }
      case ContextAmd64 a -> {
        p("MDRawContextAMD64\n");
        for (int i = 1; i <= 6; i++) p("  p%d_home       = 0x%x\n", i, a.pHome(i));
        p("  context_flags = 0x%x\n", a.contextFlags());
        p("  mx_csr        = 0x%x\n", a.mxCsr());
        p("  cs            = 0x%x\n", a.cs());
        p("  ds            = 0x%x\n", a.ds());
        p("  es            = 0x%x\n", a.es());
        p("  fs            = 0x%x\n", a.fs());
        p("  gs            = 0x%x\n", a.gs());
        p("  ss            = 0x%x\n", a.ss());
        p("  eflags        = 0x%x\n", a.eflags());
        p("  dr0           = 0x%x\n", a.dr0());
        p("  dr1           = 0x%x\n", a.dr1());
        p("  dr2           = 0x%x\n", a.dr2());
        p("  dr3           = 0x%x\n", a.dr3());
        p("  dr6           = 0x%x\n", a.dr6());
        p("  dr7           = 0x%x\n", a.dr7());
        for (String r : List.of("rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi")) p("  %-3s           = 0x%x\n", r, a.register(r));
        for (int i = 8; i <= 15; i++) p("  %-3s           = 0x%x\n", "r" + i, a.r(i));
        p("  rip           = 0x%x\n", a.rip());
        p("\n");
      }
      case ContextArm a -> {
        p("MDRawContextARM\n");
        p("  context_flags        = 0x%x\n", a.contextFlags());
        for (int i = 0; i < 16; i++) p("  %-3s                  = 0x%x\n", ContextArm.NAMES[i], a.ireg(i));
        p("  cpsr                 = 0x%x\n", a.cpsr());
        p("  float_save.fpscr     = 0x%x\n", a.fpscr());
        for (int i = 0; i < 32; i++) p("  float_save.regs[%2d]  = 0x%x\n", i, a.floatReg(i));
        for (int i = 0; i < 8; i++) p("  float_save.extra[%2d] = 0x%x\n", i, a.floatExtra(i));
      }
      case ContextArm64 a -> {
        p("MDRawContextARM64\n");
        p("  context_flags       = 0x%x\n", a.contextFlags());
        for (int i = 0; i < 33; i++) p("  iregs[%2d]            = 0x%x\n", i, a.ireg(i));
        p("  cpsr                = 0x%x\n", a.cpsr());
        p("  float_save.fpsr     = 0x%x\n", a.fpsr());
        p("  float_save.fpcr     = 0x%x\n", a.fpcr());
        // Breakpad normalises the halves of a 128-bit register only when it byte-swaps the dump: of a
        // little-endian dump it prints the low half first ("high" is the first eight bytes)
        boolean le = a.raw().order() == java.nio.ByteOrder.LITTLE_ENDIAN;
        for (int i = 0; i < 32; i++) {
          p("  float_save.regs[%2d]            = 0x%x%x\n", i, le ? a.floatRegLow(i) : a.floatRegHigh(i),
              le ? a.floatRegHigh(i) : a.floatRegLow(i));
        }
      }
      case UnsupportedContext u -> throw new IllegalStateException("not printed");
    }
  }

  private void hex(byte[] bytes) {
    for (byte b : bytes) p("%02x", b & 0xff);
  }

  private void threadNames() {
    ThreadNameList list = dump.threadNameList();
    if (list == null) return;
    p("MinidumpThreadNameList\n");
    p("  thread_name_count = %d\n", list.names().size());
    p("\n");
    int i = 0;
    for (ThreadName n : list.names()) {
      p("thread_name[%d]\n", i++);
      p("MDRawThreadName\n");
      p("  thread_id                   = 0x%x\n", n.threadId());
      p("  thread_name_rva             = 0x%x\n", n.nameRva());
      p("  thread_name                 = \"%s\"\n", cString(n.name()));
      p("\n");
    }
  }

  private void modules() {
    ModuleList list = dump.moduleList();
    if (list == null) return;
    p("MinidumpModuleList\n");
    p("  module_count = %d\n", list.modules().size());
    p("\n");
    int i = 0;
    for (MinidumpModule m : list.modules()) {
      p("module[%d]\n", i++);
      VersionInfo v = m.versionInfo();
      p("MDRawModule\n");
      p("  base_of_image                   = 0x%x\n", m.baseOfImage());
      p("  size_of_image                   = 0x%x\n", m.sizeOfImage());
      p("  checksum                        = 0x%x\n", m.checksum());
      p("  time_date_stamp                 = 0x%x %s\n", m.timeDateStamp(), time(m.timeDateStamp()));
      p("  module_name_rva                 = 0x%x\n", m.moduleNameRva());
      p("  version_info.signature          = 0x%x\n", v.signature());
      p("  version_info.struct_version     = 0x%x\n", v.structVersion());
      p("  version_info.file_version       = 0x%x:0x%x\n", v.fileVersionHi(), v.fileVersionLo());
      p("  version_info.product_version    = 0x%x:0x%x\n", v.productVersionHi(), v.productVersionLo());
      p("  version_info.file_flags_mask    = 0x%x\n", v.fileFlagsMask());
      p("  version_info.file_flags         = 0x%x\n", v.fileFlags());
      p("  version_info.file_os            = 0x%x\n", v.fileOs());
      p("  version_info.file_type          = 0x%x\n", v.fileType());
      p("  version_info.file_subtype       = 0x%x\n", v.fileSubtype());
      p("  version_info.file_date          = 0x%x:0x%x\n", v.fileDateHi(), v.fileDateLo());
      p("  cv_record.data_size             = %d\n", (int) m.cvRecord().dataSize());
      p("  cv_record.rva                   = 0x%x\n", m.cvRecord().rva());
      p("  misc_record.data_size           = %d\n", (int) m.miscRecord().dataSize());
      p("  misc_record.rva                 = 0x%x\n", m.miscRecord().rva());
      p("  (code_file)                     = \"%s\"\n", cString(m.codeFile()));
      p("  (code_identifier)               = \"%s\"\n", m.codeIdentifier());
      switch (m.codeView()) {
        case CodeViewRecord.Pdb70 r -> {
          p("  (cv_record).cv_signature        = 0x%x\n", CodeViewRecord.SIGNATURE_PDB70);
          p("  (cv_record).signature           = %s\n", r.guid());
          p("  (cv_record).age                 = %d\n", (int) r.age());
          p("  (cv_record).pdb_file_name       = \"%s\"\n", r.pdbFileName());
        }
        case CodeViewRecord.Pdb20 r -> {
          p("  (cv_record).cv_header.signature = 0x%x\n", CodeViewRecord.SIGNATURE_PDB20);
          p("  (cv_record).cv_header.offset    = 0x%x\n", r.offset());
          p("  (cv_record).signature           = 0x%x %s\n", r.signature(), time(r.signature()));
          p("  (cv_record).age                 = %d\n", (int) r.age());
          p("  (cv_record).pdb_file_name       = \"%s\"\n", r.pdbFileName());
        }
        case CodeViewRecord.Elf r -> {
          p("  (cv_record).cv_signature        = 0x%x\n", CodeViewRecord.SIGNATURE_ELF);
          p("  (cv_record).build_id            = %s\n", r.buildIdHex());
        }
        case CodeViewRecord.Other r -> {
          p("  (cv_record)                     = ");
          hex(r.bytes());
          p("\n");
        }
        case null -> p("  (cv_record)                     = (null)\n");
      }
      MiscDebugRecord misc = m.misc();
      if (misc != null) {
        p("  (misc_record).data_type         = 0x%x\n", misc.dataType());
        p("  (misc_record).length            = 0x%x\n", misc.length());
        p("  (misc_record).unicode           = %d\n", misc.unicode());
        p("  (misc_record).data              = \"%s\"\n", misc.data());
      } else {
        p("  (misc_record)                   = (null)\n");
      }
      p("  (debug_file)                    = \"%s\"\n", cString(m.debugFile()));
      p("  (debug_identifier)              = \"%s\"\n", m.debugIdentifier());
      p("  (version)                       = \"%s\"\n", m.version());
      p("\n");
    }
  }

  /** A String as printf's %s prints its bytes: up to the first NUL. */
  private static String cString(String s) {
    int nul = s.indexOf('\0');
    return nul < 0 ? s : s.substring(0, nul);
  }

  private void memoryList() {
    MemoryList list = dump.memoryList();
    if (list == null) return;
    p("MinidumpMemoryList\n");
    p("  region_count = %d\n", list.descriptors().size());
    p("\n");
    for (int i = 0; i < list.descriptors().size(); i++) {
      MemoryDescriptor d = list.descriptors().get(i);
      p("region[%d]\n", i);
      p("MDMemoryDescriptor\n");
      p("  start_of_memory_range = 0x%x\n", d.start());
      p("  memory.data_size      = 0x%x\n", d.size());
      p("  memory.rva            = 0x%x\n", d.memory().rva());
      p("Memory\n");
      MemoryRegion r = list.regions().get(i);
      memory(r.bytes(), d.size());
      p("\n");
    }
  }

  private void exception() {
    ExceptionStream e = dump.exception();
    if (e == null) return;
    p("MDException\n");
    p("  thread_id                                  = 0x%x\n", e.threadId());
    p("  exception_record.exception_code            = 0x%x\n", e.exceptionCode());
    p("  exception_record.exception_flags           = 0x%x\n", e.exceptionFlags());
    p("  exception_record.exception_record          = 0x%x\n", e.exceptionRecord());
    p("  exception_record.exception_address         = 0x%x\n", e.exceptionAddress());
    p("  exception_record.number_parameters         = %d\n", (int) e.numberParameters());
    for (int i = 0; i < e.parameters().size(); i++) {
      p("  exception_record.exception_information[%2d] = 0x%x\n", i, e.parameters().get(i));
    }
    p("  thread_context.data_size                   = %d\n", (int) e.threadContext().dataSize());
    p("  thread_context.rva                         = 0x%x\n", e.threadContext().rva());
    CpuContext c = contextOrNull(() -> dump.context(e.threadContext(), e.contextOffset()));
    if (c != null) {
      p("\n");
      context(c);
    } else {
      p("  (no context)\n");
      p("\n");
    }
  }

  private void assertion() {
    AssertionInfo a = dump.assertion();
    if (a == null) return;
    p("MDAssertion\n");
    p("  expression                                 = %s\n", a.expression());
    p("  function                                   = %s\n", a.function());
    p("  file                                       = %s\n", a.file());
    p("  line                                       = %d\n", a.line());
    p("  type                                       = %d\n", a.type());
    p("\n");
  }

  private void systemInfo() {
    SystemInfo s = dump.systemInfo();
    if (s == null) return;
    p("MDRawSystemInfo\n");
    p("  processor_architecture                     = 0x%x (%s)\n", s.processorArchitecture(), s.cpu());
    p("  processor_level                            = %d\n", s.processorLevel());
    p("  processor_revision                         = 0x%x\n", s.processorRevision());
    p("  number_of_processors                       = %d\n", s.numberOfProcessors());
    p("  product_type                               = %d\n", s.productType());
    p("  major_version                              = %d\n", (int) s.majorVersion());
    p("  minor_version                              = %d\n", (int) s.minorVersion());
    p("  build_number                               = %d\n", (int) s.buildNumber());
    p("  platform_id                                = 0x%x (%s)\n", s.platformId(), s.os());
    p("  csd_version_rva                            = 0x%x\n", s.csdVersionRva());
    p("  suite_mask                                 = 0x%x\n", s.suiteMask());
    p(s.isX86CpuInfo() ? "  cpu.x86_cpu_info (valid):\n" : "  cpu.x86_cpu_info (invalid):\n");
    for (int i = 0; i < 3; i++) p("  cpu.x86_cpu_info.vendor_id[%d]              = 0x%x\n", i, s.cpuInfo().get(i));
    p("  cpu.x86_cpu_info.version_information       = 0x%x\n", s.cpuInfo().get(3));
    p("  cpu.x86_cpu_info.feature_information       = 0x%x\n", s.cpuInfo().get(4));
    p("  cpu.x86_cpu_info.amd_extended_cpu_features = 0x%x\n", s.cpuInfo().get(5));
    if (!s.isX86CpuInfo()) {
      p("  cpu.other_cpu_info (valid):\n");
      for (int i = 0; i < 2; i++) p("  cpu.other_cpu_info.processor_features[%d]   = 0x%x\n", i, s.processorFeatures().get(i));
    }
    if (s.csdVersion() != null) p("  (csd_version)                              = \"%s\"\n", cString(s.csdVersion()));
    else p("  (csd_version)                              = (null)\n");
    if (s.cpuVendor() != null) p("  (cpu_vendor)                               = \"%s\"\n", s.cpuVendor());
    else p("  (cpu_vendor)                               = (null)\n");
    p("\n");
  }

  private void valueOrInvalid(boolean valid, boolean hex, long value) {
    if (!valid) p("(invalid)\n");
    else if (hex) p("0x%x\n", value);
    else p("%d\n", (int) value);
  }

  private void miscInfo() {
    MiscInfo m = dump.miscInfo();
    if (m == null) return;
    p("MDRawMiscInfo\n");
    p("  size_of_info                 = %d\n", (int) m.sizeOfInfo());
    p("  flags1                       = 0x%x\n", m.flags1());
    p("  process_id                   = ");
    valueOrInvalid(m.has(MiscInfo.FLAGS1_PROCESS_ID), false, m.processId());
    boolean times = m.has(MiscInfo.FLAGS1_PROCESS_TIMES);
    if (times) p("  process_create_time          = 0x%x %s\n", m.processCreateTime(), time(m.processCreateTime()));
    else p("  process_create_time          = (invalid)\n");
    p("  process_user_time            = ");
    valueOrInvalid(times, false, m.processUserTime());
    p("  process_kernel_time          = ");
    valueOrInvalid(times, false, m.processKernelTime());
    if (m.sizeOfInfo() > MiscInfo.SIZE_1) {
      boolean power = m.has(MiscInfo.FLAGS1_PROCESSOR_POWER_INFO);
      p("  processor_max_mhz            = ");
      valueOrInvalid(power, false, m.processorMaxMhz());
      p("  processor_current_mhz        = ");
      valueOrInvalid(power, false, m.processorCurrentMhz());
      p("  processor_mhz_limit          = ");
      valueOrInvalid(power, false, m.processorMhzLimit());
      p("  processor_max_idle_state     = ");
      valueOrInvalid(power, false, m.processorMaxIdleState());
      p("  processor_current_idle_state = ");
      valueOrInvalid(power, false, m.processorCurrentIdleState());
    }
    if (m.sizeOfInfo() > MiscInfo.SIZE_2) {
      p("  process_integrity_level      = ");
      valueOrInvalid(m.has(MiscInfo.FLAGS1_PROCESS_INTEGRITY), true, m.processIntegrityLevel());
      p("  process_execute_flags        = ");
      valueOrInvalid(m.has(MiscInfo.FLAGS1_PROCESS_EXECUTE_FLAGS), true, m.processExecuteFlags());
      p("  protected_process            = ");
      valueOrInvalid(m.has(MiscInfo.FLAGS1_PROTECTED_PROCESS), false, m.protectedProcess());
      p("  time_zone_id                 = ");
      valueOrInvalid(m.has(MiscInfo.FLAGS1_TIMEZONE), false, m.timeZoneId());
      MiscInfo.TimeZone tz = m.timeZone();
      if (m.has(MiscInfo.FLAGS1_TIMEZONE)) {
        p("  time_zone.bias               = %d\n", tz.bias());
        p("  time_zone.standard_name      = %s\n", tz.standardName());
        p("  time_zone.standard_date      = %s\n", date(tz.standardDate()));
        p("  time_zone.standard_bias      = %d\n", tz.standardBias());
        p("  time_zone.daylight_name      = %s\n", tz.daylightName());
        p("  time_zone.daylight_date      = %s\n", date(tz.daylightDate()));
        p("  time_zone.daylight_bias      = %d\n", tz.daylightBias());
      } else {
        for (String f : List.of("bias", "standard_name", "standard_date", "standard_bias", "daylight_name", "daylight_date",
            "daylight_bias")) {
          p("  time_zone.%-13s      = (invalid)\n", f);
        }
      }
    }
    if (m.sizeOfInfo() > MiscInfo.SIZE_3) {
      if (m.has(MiscInfo.FLAGS1_BUILDSTRING)) {
        p("  build_string                 = %s\n", m.buildString());
        p("  dbg_bld_str                  = %s\n", m.dbgBldStr());
      } else {
        p("  build_string                 = (invalid)\n");
        p("  dbg_bld_str                  = (invalid)\n");
      }
    }
    if (m.sizeOfInfo() > MiscInfo.SIZE_4) {
      if (m.has(MiscInfo.FLAGS1_PROCESS_COOKIE)) {
        MiscInfo.XState x = m.xstate();
        p("  xstate_data.size_of_info     = %d\n", (int) x.sizeOfInfo());
        p("  xstate_data.context_size     = %d\n", (int) x.contextSize());
        p("  xstate_data.enabled_features = 0x%x\n", x.enabledFeatures());
        for (int i = 0; i < 64; i++) {
          if ((x.enabledFeatures() >>> i & 1) != 0) {
            p("  xstate_data.features[%02d]     = { %d, %d }\n", i, (int) (long) x.features().get(2 * i), (int) (long) x.features().get(2 * i + 1));
          }
        }
        if (x.enabledFeatures() == 0) p("  xstate_data.features[]       = (empty)\n");
        p("  process_cookie               = %d\n", (int) m.processCookie());
      } else {
        p("  xstate_data.size_of_info     = (invalid)\n");
        p("  xstate_data.context_size     = (invalid)\n");
        p("  xstate_data.enabled_features = (invalid)\n");
        p("  xstate_data.features[]       = (invalid)\n");
        p("  process_cookie               = (invalid)\n");
      }
    }
    p("\n");
  }

  private static String date(MiscInfo.SystemTime t) {
    return String.format("%04d-%02d-%02d (%d) %02d:%02d:%02d.%03d", t.year(), t.month(), t.day(), t.dayOfWeek(), t.hour(), t.minute(),
        t.second(), t.milliseconds());
  }

  private void breakpadInfo() {
    BreakpadInfo b = dump.breakpadInfo();
    if (b == null) return;
    p("MDRawBreakpadInfo\n");
    p("  validity             = 0x%x\n", b.validity());
    p("  dump_thread_id       = ");
    valueOrInvalid(b.hasDumpThreadId(), true, b.dumpThreadId());
    p("  requesting_thread_id = ");
    valueOrInvalid(b.hasRequestingThreadId(), true, b.requestingThreadId());
    p("\n");
  }

  private void memoryInfo() {
    MemoryInfoList list = dump.memoryInfoList();
    if (list == null) return;
    p("MinidumpMemoryInfoList\n");
    p("  info_count = %d\n", list.infos().size());
    p("\n");
    int i = 0;
    for (MemoryInfo m : list.infos()) {
      p("info[%d]\n", i++);
      p("MDRawMemoryInfo\n");
      p("  base_address          = 0x%x\n", m.baseAddress());
      p("  allocation_base       = 0x%x\n", m.allocationBase());
      p("  allocation_protection = 0x%x\n", m.allocationProtection());
      p("  region_size           = 0x%x\n", m.regionSize());
      p("  state                 = 0x%x\n", m.state());
      p("  protection            = 0x%x\n", m.protection());
      p("  type                  = 0x%x\n", m.type());
      p("\n");
    }
  }

  /** std::map order: keys compared as bytes. */
  private static List<Map.Entry<String, String>> sorted(Map<String, String> m) {
    List<Map.Entry<String, String>> l = new ArrayList<>(m.entrySet());
    l.sort(Comparator.comparing(e -> ByteStrings.encode(e.getKey()), java.util.Arrays::compareUnsigned));
    return l;
  }

  private void crashpad() {
    CrashpadInfo c = dump.crashpadInfo();
    if (c == null) return;
    p("MDRawCrashpadInfo\n");
    p("  version = %d\n", (int) c.version());
    p("  report_id = %s\n", c.reportId());
    p("  client_id = %s\n", c.clientId());
    for (var e : sorted(c.simpleAnnotations())) p("  simple_annotations[\"%s\"] = %s\n", cString(e.getKey()), cString(e.getValue()));
    int i = 0;
    for (CrashpadInfo.ModuleInfo m : c.modules()) {
      p("  module_list[%d].minidump_module_list_index = %d\n", i, (int) m.moduleIndex());
      p("  module_list[%d].version = %d\n", i, (int) m.version());
      for (int k = 0; k < m.listAnnotations().size(); k++) p("  module_list[%d].list_annotations[%d] = %s\n", i, k, cString(m.listAnnotations().get(k)));
      for (var e : sorted(m.simpleAnnotations())) p("  module_list[%d].simple_annotations[\"%s\"] = %s\n", i, cString(e.getKey()), cString(e.getValue()));
      for (CrashpadInfo.Annotation a : m.annotations()) {
        String value;
        if (a.type() == CrashpadInfo.Annotation.TYPE_STRING) {
          value = ByteStrings.decode(a.value());
        } else {
          StringBuilder sb = new StringBuilder();
          for (byte b : a.value()) sb.append(String.format("%02X", b & 0xff));
          value = sb.toString();
        }
        p("  module_list[%d].crashpad_annotations[\"%s\"] (type = %d) = %s\n", i, cString(a.name()), a.type(), cString(value));
      }
      p("  address_mask = %s\n", Long.toUnsignedString(c.addressMask()));
      i++;
    }
    p("\n");
  }

  private void raw(int type) {
    DirectoryEntry e = dump.stream(type);
    if (e == null) return;
    p("Stream %s:\n", StreamType.name(type));
    if (e.location().dataSize() == 0) {
      p("\n");
      return;
    }
    ByteView b;
    try {
      b = dump.streamBytes(type);
    } catch (GsymFormatException notInFile) {
      return;
    }
    byte[] bytes = b.bytes(0, (int) b.size());
    int at = 0;
    while (at < bytes.length) {
      int nul = at;
      while (nul < bytes.length && bytes[nul] != 0) nul++;
      out.append(ByteStrings.decode(bytes, at, nul - at));
      if (nul == bytes.length) break;
      p("\\0\n");
      at = nul + 1;
    }
    p("\n\n");
  }
}
