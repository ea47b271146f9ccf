package dev.gsym.elf;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.MemoryReader;
import dev.gsym.unwind.Registers;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Linux ELF core file ({@code ET_CORE}), as the kernel, gdb's {@code generate-core-file} and
 * qemu-user write it (elf(5), {@code linux/elfcore.h}): the threads with their general registers ({@code
 * NT_PRSTATUS}), the process ({@code NT_PRPSINFO}), the signal ({@code NT_SIGINFO}), the auxiliary
 * vector ({@code NT_AUXV}), the mapped files ({@code NT_FILE}), the memory of the {@code PT_LOAD}
 * segments as a {@link MemoryReader}, and the ELF images loaded in the process ({@link #modules()})
 * with the build-ids read from their headers in the core's memory.
 *
 * <p>The file is memory-mapped and read in place; the notes are read once at open, the memory on
 * demand. Every offset and count is checked against the file; a malformed core fails with a {@link
 * GsymFormatException} naming the absolute file offset. Registers are decoded for x86-64, i386 and
 * AArch64 ({@code struct user_regs_struct}); the threads of other machines have no registers.
 */
public final class ElfCore implements AutoCloseable {
  /** e_type of a core file. */
  public static final int ET_CORE = 4;
  /** p_type of a note segment. */
  public static final int PT_NOTE = 4;
  /** Note type: a thread's status and general registers. */
  public static final int NT_PRSTATUS = 1;
  /** Note type: a thread's floating-point registers. */
  public static final int NT_FPREGSET = 2;
  /** Note type: the process's name and arguments. */
  public static final int NT_PRPSINFO = 3;
  /** Note type: the auxiliary vector. */
  public static final int NT_AUXV = 6;
  /** "SIGI". */
  public static final int NT_SIGINFO = 0x53494749;
  /** "FILE". */
  public static final int NT_FILE = 0x46494c45;
  /** Auxiliary vector entry type: the end of the vector. */
  public static final int AT_NULL = 0;
  /** Auxiliary vector entry type: the address of the executable's program headers. */
  public static final int AT_PHDR = 3;
  /** Auxiliary vector entry type: the size of one program header. */
  public static final int AT_PHENT = 4;
  /** Auxiliary vector entry type: the number of program headers. */
  public static final int AT_PHNUM = 5;
  /** Auxiliary vector entry type: the page size. */
  public static final int AT_PAGESZ = 6;
  /** Auxiliary vector entry type: the dynamic loader's base address. */
  public static final int AT_BASE = 7;
  /** Auxiliary vector entry type: the executable's entry point. */
  public static final int AT_ENTRY = 9;
  /** Auxiliary vector entry type: the address of the executed file's name. */
  public static final int AT_EXECFN = 31;
  /** Auxiliary vector entry type: the address of the vDSO's ELF header. */
  public static final int AT_SYSINFO_EHDR = 33;

  /** Most threads read (far above Linux's own limits, as the two below). */
  public static final int MAX_THREADS = 1 << 20;
  /** Most mapped files read from {@code NT_FILE}. */
  public static final int MAX_FILES = 1 << 20;
  /** Most auxiliary-vector entries read. */
  public static final int MAX_AUXV = 4096;
  /**
   * Most program headers read from one image in the core's memory, from all of them together, and
   * most note bytes scanned in one image: a hostile core cannot make the module search slow.
   */
  static final int MAX_IMAGE_PHDRS = 1024;
  static final int MAX_TOTAL_IMAGE_PHDRS = 1 << 16;
  static final int MAX_IMAGE_NOTES = 64 << 10;
  /** Longest string read from the core's memory ({@code AT_EXECFN}). */
  static final int MAX_MEMORY_STRING = 4096;

  /** One thread: its {@code NT_PRSTATUS}. {@code registersOffset} is the file offset of its {@code pr_reg}. */
  public record CoreThread(int pid, int ppid, int pgrp, int sid, int signal, long pendingSignals, long heldSignals,
      long registersOffset) {}

  /** {@code NT_PRPSINFO}: the process's command name ({@code pr_fname}) and arguments ({@code pr_psargs}). */
  public record ProcessInfo(int pid, int ppid, int pgrp, int sid, String name, String args) {}

  /**
   * {@code NT_SIGINFO}: the signal that killed the process. {@code address} is the faulting address
   * ({@code si_addr}) when {@link #hasAddress()}; {@code senderPid}/{@code senderUid} are those of a
   * signal sent by a process ({@code si_code <= 0}: kill, tgkill, abort), else 0.
   */
  public record SignalInfo(int signal, int errno, int code, long address, int senderPid, int senderUid) {
    /** Whether {@code address} is meaningful: SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV raised by the kernel. */
    public boolean hasAddress() {
      return code > 0 && (signal == 4 || signal == 5 || signal == 7 || signal == 8 || signal == 11);
    }
  }

  /** One entry of the auxiliary vector. */
  public record AuxEntry(long type, long value) {}

  /** One file mapping of {@code NT_FILE}: addresses {@code [start, end)} hold the file from {@code fileOffset}. */
  public record MappedFile(long start, long end, long fileOffset, String path) {}

  /**
   * One {@code PT_LOAD} segment: {@code [address, address + memorySize)}, of which the first {@code
   * fileSize} bytes are in the file at {@code fileOffset} (fewer than the header says when the core
   * is truncated).
   */
  public record Segment(long address, long memorySize, long fileOffset, long fileSize, int flags) {}

  /**
   * An ELF image loaded in the process: {@code path} (from {@code NT_FILE}; {@code [vdso]} for the
   * kernel's vDSO), {@code [base, end)} (base: the mapping of file offset 0, the ELF header; end:
   * the end of its last {@code PT_LOAD} segment, {@code .bss} included, or, when the core lacks its
   * program headers, of its last file mapping; rounded up to a page for the images placed without
   * {@code NT_FILE}, the vDSO and an executable found by {@code AT_PHDR}; a core of more than 65,536
   * program headers in its images has the rest placed by their mappings only, without build-ids),
   * {@code loadBias} (what its addresses are relocated by), and its GNU build-id read from the
   * image's {@code PT_NOTE} in the core's memory, or null when the core did not capture it.
   */
  public record CoreModule(String path, long base, long end, long loadBias, byte[] buildId) {
    /** Whether {@code address} lies in {@code [base, end)}. */
    public boolean contains(long address) {
      return Long.compareUnsigned(address, base) >= 0 && Long.compareUnsigned(address, end) < 0;
    }

    /** The build-id in lower-case hex, or null. */
    public String buildIdHex() {
      return buildId == null ? null : java.util.HexFormat.of().formatHex(buildId);
    }
  }

  private final ElfFile elf;
  private final boolean ownsElf;
  private final ByteView file;
  private final int wordSize;
  private final Arch arch;
  private final RegisterLayout layout;
  private final List<CoreThread> threads;
  private final ProcessInfo process;
  private final SignalInfo signal;
  private final List<AuxEntry> auxv;
  private final List<MappedFile> files;
  private final List<Segment> segments;
  private final boolean truncated;
  private final Memory memory;
  private final List<CoreModule> modules;
  /** Program headers that the module search may still read from memory ({@link #MAX_TOTAL_IMAGE_PHDRS}). */
  private int phdrBudget = MAX_TOTAL_IMAGE_PHDRS;

  private ElfCore(ElfFile elf, boolean ownsElf) {
    this.elf = elf;
    this.ownsElf = ownsElf;
    this.file = elf.bytes();
    if (elf.type() != ET_CORE) throw file.error(16, "not a core file: e_type " + elf.type() + ", core files have " + ET_CORE);
    this.wordSize = elf.is64() ? 8 : 4;
    this.arch = Arch.ofName(elf.archName());
    this.layout = RegisterLayout.of(elf.machine(), elf.is64());
    Notes notes = new Notes();
    long phoff = elf.is64() ? file.u64(32) : file.u32(28);
    int phentsize = file.u16(elf.is64() ? 54 : 42);
    List<ElfFile.ProgramHeader> phs = elf.programHeaders();
    List<Segment> segs = new ArrayList<>();
    long[] segHeaders = new long[phs.size()];
    boolean cut = false;
    for (int i = 0; i < phs.size(); i++) {
      ElfFile.ProgramHeader ph = phs.get(i);
      long at = phoff + (long) i * phentsize;
      if (ph.type() == PT_NOTE) {
        long align = elf.is64() ? file.u64(at + 48) : file.u32(at + 28);
        readNotes(at, ph.offset(), ph.filesz(), align == 8 ? 8 : 4, notes);
      } else if (ph.type() == ElfFile.PT_LOAD && ph.memsz() != 0) {
        if (Long.compareUnsigned(ph.filesz(), ph.memsz()) > 0) throw file.error(at, "PT_LOAD p_filesz is larger than its p_memsz");
        long end = ph.vaddr() + ph.memsz();
        if (Long.compareUnsigned(end, ph.vaddr()) < 0 && end != 0) throw file.error(at, "PT_LOAD ends past the address space");
        if (!elf.is64() && end > 0x1_0000_0000L) throw file.error(at, "PT_LOAD ends past the 32-bit address space");
        long avail = ph.filesz();
        if (Long.compareUnsigned(ph.offset(), file.size()) >= 0) avail = 0;
        else if (Long.compareUnsigned(avail, file.size() - ph.offset()) > 0) avail = file.size() - ph.offset();
        if (avail != ph.filesz()) cut = true;
        int flags = file.s32(at + (elf.is64() ? 4 : 24));
        segHeaders[segs.size()] = at;
        segs.add(new Segment(ph.vaddr(), ph.memsz(), avail == 0 ? 0 : ph.offset(), avail, flags));
      }
    }
    // memory in address order; overlapping segments would make an address mean two things
    Integer[] order = new Integer[segs.size()];
    for (int i = 0; i < order.length; i++) order[i] = i;
    java.util.Arrays.sort(order, (a, b) -> Long.compareUnsigned(segs.get(a).address(), segs.get(b).address()));
    List<Segment> sorted = new ArrayList<>(segs.size());
    for (int k = 0; k < order.length; k++) {
      Segment s = segs.get(order[k]);
      if (k > 0) {
        Segment prev = sorted.get(k - 1);
        long prevEnd = prev.address() + prev.memorySize();
        if (prevEnd == 0 || Long.compareUnsigned(s.address(), prevEnd) < 0) {
          throw file.error(segHeaders[order[k]], "PT_LOAD at 0x" + Long.toHexString(s.address()) + " overlaps the one at 0x"
              + Long.toHexString(prev.address()));
        }
      }
      sorted.add(s);
    }
    this.segments = Collections.unmodifiableList(sorted);
    this.truncated = cut;
    this.memory = new Memory(file, sorted);
    this.threads = Collections.unmodifiableList(notes.threads);
    this.process = notes.process;
    this.signal = notes.signal;
    this.auxv = notes.auxv == null ? List.of() : Collections.unmodifiableList(notes.auxv);
    this.files = notes.files == null ? List.of() : Collections.unmodifiableList(notes.files);
    this.modules = Collections.unmodifiableList(findModules());
  }

  /** Maps {@code path} and reads it as a core file. Close the ElfCore to unmap. */
  public static ElfCore open(Path path) throws IOException {
    ElfFile elf = ElfFile.open(path);
    try {
      return new ElfCore(elf, true);
    } catch (RuntimeException e) {
      elf.close();
      throw e;
    }
  }

  /** The core file {@code elf} (an {@code ET_CORE} file; refused otherwise). Closing the ElfCore leaves {@code elf} open. */
  public static ElfCore of(ElfFile elf) {
    return new ElfCore(elf, false);
  }

  /** A core file over bytes in memory (tests, fuzzing). */
  public static ElfCore of(byte[] bytes, String source) {
    return new ElfCore(ElfFile.of(bytes, source), true);
  }

  /** The file as an ElfFile (program headers, byte order, machine). */
  public ElfFile elf() {
    return elf;
  }

  /** The file's name in messages. */
  public String source() {
    return file.source();
  }

  /** The process's architecture, or null for a machine this library has no unwinding for. */
  public Arch arch() {
    return arch;
  }

  /** Whether this library decodes the general registers of this core's machine (x86-64, i386, AArch64). */
  public boolean hasRegisterLayout() {
    return layout != null;
  }

  /**
   * The threads in the order of their notes. The kernel writes the thread that received the fatal
   * signal first (gdb calls it thread 1).
   */
  public List<CoreThread> threads() {
    return threads;
  }

  /** {@code NT_PRPSINFO}, or null without one. */
  public ProcessInfo process() {
    return process;
  }

  /** {@code NT_SIGINFO}, or null without one (older kernels: {@link CoreThread#signal()} still names the signal). */
  public SignalInfo signal() {
    return signal;
  }

  /** The auxiliary vector up to (without) {@code AT_NULL}; empty without {@code NT_AUXV}. */
  public List<AuxEntry> auxv() {
    return auxv;
  }

  /** The value of the first auxiliary-vector entry of {@code type}, or null. */
  public Long auxv(long type) {
    for (AuxEntry e : auxv) if (e.type() == type) return e.value();
    return null;
  }

  /** The file mappings of {@code NT_FILE} in its order (by address); empty without it. */
  public List<MappedFile> files() {
    return files;
  }

  /** The {@code PT_LOAD} segments by address. */
  public List<Segment> segments() {
    return segments;
  }

  /** Whether some {@code PT_LOAD} segment extends past the end of the file (a core cut short by a size limit). */
  public boolean truncated() {
    return truncated;
  }

  /**
   * The process's memory: the bytes of the {@code PT_LOAD} segments that are in the file. The rest
   * of a segment (past its {@code p_filesz}) is unreadable, not zero: the kernel leaves out what it
   * does not dump (file-backed code, all but the first page of an ELF image), whose contents are
   * the mapped file's, not zeros.
   */
  public MemoryReader memory() {
    return memory;
  }

  /**
   * Copies {@code length} bytes of the process's memory at {@code address}, or returns null when
   * some of them are not in the core.
   */
  public byte[] read(long address, int length) {
    return memory.bytes(address, length);
  }

  /** The NUL-terminated string at {@code address} in the process's memory (at most 4096 bytes), or null. */
  public String readString(long address) {
    byte[] b = memory.cString(address, MAX_MEMORY_STRING);
    return b == null ? null : ByteStrings.decode(b);
  }

  /** The file name the process was started with ({@code AT_EXECFN}, read from its stack), or null. */
  public String execFn() {
    Long at = auxv(AT_EXECFN);
    return at == null ? null : readString(at);
  }

  /** The ELF images loaded in the process, by base address ({@link CoreModule}). */
  public List<CoreModule> modules() {
    return modules;
  }

  /** The module containing {@code address}, or null. */
  public CoreModule moduleAt(long address) {
    for (CoreModule m : modules) if (m.contains(address)) return m;
    return null;
  }

  /** The main executable: the module holding the entry point ({@code AT_ENTRY}) or its program headers ({@code AT_PHDR}), or null. */
  public CoreModule mainExecutable() {
    for (int type : new int[] {AT_ENTRY, AT_PHDR}) {
      Long at = auxv(type);
      CoreModule m = at == null ? null : moduleAt(at);
      if (m != null) return m;
    }
    return null;
  }

  /**
   * The registers of {@code thread} by DWARF register number of {@link #arch()} (the general
   * registers, the flags, the segment registers and, on x86-64, fs_base and gs_base), with the pc;
   * empty when {@link #hasRegisterLayout()} is false.
   */
  public Registers registers(CoreThread thread) {
    Registers r = new Registers();
    registers(thread, r);
    return r;
  }

  /** Fills {@code out} (cleared first) with {@code thread}'s registers ({@link #registers(CoreThread)}). */
  public void registers(CoreThread thread, Registers out) {
    out.clear();
    if (layout == null) return;
    for (int i = 0; i < layout.names.length; i++) {
      long v = file.uN(thread.registersOffset() + (long) i * wordSize, wordSize);
      if (layout.dwarf[i] >= 0) out.set(layout.dwarf[i], v);
      if (i == layout.pc) out.pc(v);
    }
  }

  /**
   * {@code thread}'s {@code struct user_regs_struct} as the kernel stores it, by the names gdb's
   * {@code info registers} uses ({@code rip}, {@code eflags}, {@code fs_base}, {@code orig_rax};
   * {@code eip}, {@code ds}; {@code x0}, {@code sp}, {@code pc}, {@code cpsr}), in the kernel's
   * order; empty when {@link #hasRegisterLayout()} is false.
   */
  public Map<String, Long> generalRegisters(CoreThread thread) {
    Map<String, Long> m = new LinkedHashMap<>();
    if (layout == null) return m;
    for (int i = 0; i < layout.names.length; i++) {
      m.put(layout.names[i], file.uN(thread.registersOffset() + (long) i * wordSize, wordSize));
    }
    return m;
  }

  @Override
  public void close() {
    if (ownsElf) elf.close();
  }

  // ---------------------------------------------------------------------------------------------
  // notes

  private static final class Notes {
    final List<CoreThread> threads = new ArrayList<>();
    ProcessInfo process;
    SignalInfo signal;
    List<AuxEntry> auxv;
    List<MappedFile> files;
  }

  /** Walks the notes of one PT_NOTE segment (header at file offset {@code header}). */
  private void readNotes(long header, long offset, long size, int align, Notes out) {
    if (offset < 0 || size < 0 || !file.has(offset, size)) throw file.error(header, "PT_NOTE past the end of the file");
    long end = offset + size;
    long p = offset;
    while (p < end) {
      if (end - p < 12) throw file.error(p, "note header cut short: " + (end - p) + " bytes left in the PT_NOTE");
      long namesz = file.u32(p);
      long descsz = file.u32(p + 4);
      int type = file.s32(p + 8);
      long name = p + 12;
      if (namesz > end - name) throw file.error(p, "note name of " + namesz + " bytes runs past its PT_NOTE");
      long desc = alignUp(name + namesz, align);
      if (desc > end || descsz > end - desc) {
        throw file.error(p + 4, "note descriptor of " + descsz + " bytes runs past its PT_NOTE");
      }
      if (isCore(name, namesz)) readNote(type, desc, descsz, out);
      long next = alignUp(desc + descsz, align);
      p = Math.min(next, end);
    }
  }

  private static long alignUp(long v, int align) {
    return (v + align - 1) & -(long) align;
  }

  /** Whether the note name is "CORE" (NUL-terminated or not). */
  private boolean isCore(long name, long namesz) {
    if (namesz < 4 || namesz > 8) return false;
    if (file.u8(name) != 'C' || file.u8(name + 1) != 'O' || file.u8(name + 2) != 'R' || file.u8(name + 3) != 'E') return false;
    for (long i = 4; i < namesz; i++) if (file.u8(name + i) != 0) return false;
    return true;
  }

  private void readNote(int type, long desc, long size, Notes out) {
    switch (type) {
      case NT_PRSTATUS -> out.threads.add(prstatus(desc, size, out.threads.size()));
      case NT_PRPSINFO -> out.process = prpsinfo(desc, size);
      case NT_SIGINFO -> out.signal = siginfo(desc, size);
      case NT_AUXV -> out.auxv = auxv(desc, size);
      case NT_FILE -> out.files = ntFile(desc, size);
      default -> { } // NT_FPREGSET, NT_X86_XSTATE, NT_PRXFPREG, ...: not needed to unwind
    }
  }

  /**
   * {@code struct elf_prstatus}: {@code elf_siginfo} (3 ints), {@code short pr_cursig}, {@code
   * pr_sigpend} and {@code pr_sighold} (words), pid, ppid, pgrp, sid (ints), four {@code timeval}s
   * (two words each), then {@code pr_reg}.
   */
  private CoreThread prstatus(long desc, long size, int count) {
    if (count == MAX_THREADS) throw file.error(desc, "more than " + MAX_THREADS + " threads");
    int w = wordSize;
    long ids = 16 + 2L * w;
    long regs = ids + 16 + 8L * w;
    long need = layout == null ? ids + 16 : regs + (long) layout.names.length * w;
    if (size < need) throw file.error(desc, "NT_PRSTATUS of " + size + " bytes, needs " + need);
    return new CoreThread(file.s32(desc + ids), file.s32(desc + ids + 4), file.s32(desc + ids + 8), file.s32(desc + ids + 12),
        file.u16(desc + 12), file.uN(desc + 16, w), file.uN(desc + 16 + w, w), desc + regs);
  }

  /**
   * {@code struct elf_prpsinfo}: its layout differs by machine before the ids (the width of {@code
   * pr_uid}), but always ends with pid, ppid, pgrp, sid (ints), {@code pr_fname[16]} and {@code
   * pr_psargs[80]}, so those are read from the end.
   */
  private ProcessInfo prpsinfo(long desc, long size) {
    if (size < 112) throw file.error(desc, "NT_PRPSINFO of " + size + " bytes, needs at least 112");
    long fname = desc + size - 96;
    long ids = fname - 16;
    return new ProcessInfo(file.s32(ids), file.s32(ids + 4), file.s32(ids + 8), file.s32(ids + 12), fixedString(fname, 16),
        fixedString(fname + 16, 80).stripTrailing());
  }

  private String fixedString(long at, int max) {
    int n = 0;
    while (n < max && file.u8(at + n) != 0) n++;
    return ByteStrings.decode(file.bytes(at, n));
  }

  /**
   * {@code siginfo_t}: si_signo, si_errno, si_code (ints), then the union (at the next word): {@code
   * si_addr} for faults, {@code si_pid}, {@code si_uid} for signals sent by a process.
   */
  private SignalInfo siginfo(long desc, long size) {
    long union = wordSize == 8 ? 16 : 12;
    if (size < union + wordSize) throw file.error(desc, "NT_SIGINFO of " + size + " bytes, needs " + (union + wordSize));
    int signo = file.s32(desc);
    int errno = file.s32(desc + 4);
    int code = file.s32(desc + 8);
    long addr = file.uN(desc + union, wordSize);
    SignalInfo probe = new SignalInfo(signo, errno, code, addr, 0, 0);
    if (probe.hasAddress()) return probe;
    int pid = code <= 0 ? file.s32(desc + union) : 0;
    int uid = code <= 0 ? file.s32(desc + union + 4) : 0;
    return new SignalInfo(signo, errno, code, 0, pid, uid);
  }

  private List<AuxEntry> auxv(long desc, long size) {
    List<AuxEntry> out = new ArrayList<>();
    int w = wordSize;
    for (long p = desc; size - (p - desc) >= 2L * w; p += 2L * w) {
      long type = file.uN(p, w);
      if (type == AT_NULL) break;
      if (out.size() == MAX_AUXV) throw file.error(p, "more than " + MAX_AUXV + " auxiliary vector entries");
      out.add(new AuxEntry(type, file.uN(p + w, w)));
    }
    return out;
  }

  /**
   * {@code NT_FILE}: count and page size (words), {@code count} triples (start, end, offset in
   * pages), then {@code count} NUL-terminated paths.
   */
  private List<MappedFile> ntFile(long desc, long size) {
    int w = wordSize;
    if (size < 2L * w) throw file.error(desc, "NT_FILE of " + size + " bytes, needs " + 2 * w);
    long count = file.uN(desc, w);
    long pageSize = file.uN(desc + w, w);
    if (count < 0 || count > MAX_FILES) throw file.error(desc, "NT_FILE count " + Long.toUnsignedString(count) + " is more than " + MAX_FILES);
    if (count > (size - 2L * w) / (3L * w)) {
      throw file.error(desc, "NT_FILE count " + count + " needs " + (2 + 3 * count) * w + " bytes, the note has " + size);
    }
    if (count > 0 && (pageSize == 0 || (pageSize & (pageSize - 1)) != 0 || pageSize > 1L << 30)) {
      throw file.error(desc + w, "NT_FILE page size " + Long.toUnsignedString(pageSize) + " is not a power of two up to 1 GB");
    }
    List<MappedFile> out = new ArrayList<>((int) count);
    long names = desc + 2L * w + count * 3 * w;
    long end = desc + size;
    for (long i = 0; i < count; i++) {
      long e = desc + 2L * w + i * 3 * w;
      long start = file.uN(e, w);
      long stop = file.uN(e + w, w);
      long pages = file.uN(e + 2L * w, w);
      if (Long.compareUnsigned(stop, start) < 0) throw file.error(e, "NT_FILE mapping ends before it starts");
      if (Long.compareUnsigned(pages, Long.divideUnsigned(-1L, pageSize)) > 0) throw file.error(e + 2L * w, "NT_FILE file offset overflows");
      long nul = names;
      while (nul < end && file.u8(nul) != 0) nul++;
      if (nul >= end) throw file.error(names, "NT_FILE has " + i + " of its " + count + " paths");
      if (nul - names > Integer.MAX_VALUE - 16) throw file.error(names, "NT_FILE path too long");
      out.add(new MappedFile(start, stop, pages * pageSize, ByteStrings.decode(file.bytes(names, (int) (nul - names)))));
      names = nul + 1;
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // modules

  private List<CoreModule> findModules() {
    List<CoreModule> out = new ArrayList<>();
    // group the mappings by path, in the order of their first mapping
    Map<String, long[]> byPath = new LinkedHashMap<>(); // path -> {base, hasBase, end}
    for (MappedFile f : files) {
      long[] r = byPath.computeIfAbsent(f.path(), k -> new long[] {0, 0, 0});
      if (f.fileOffset() == 0 && (r[1] == 0 || Long.compareUnsigned(f.start(), r[0]) < 0)) {
        r[0] = f.start();
        r[1] = 1;
      }
      if (Long.compareUnsigned(f.end(), r[2]) > 0) r[2] = f.end();
    }
    for (Map.Entry<String, long[]> e : byPath.entrySet()) {
      long[] r = e.getValue();
      if (r[1] == 0) continue; // never mapped from its start: not a loaded image (or not one we can place)
      CoreModule m = image(e.getKey(), r[0], r[2], true);
      if (m != null) out.add(m);
    }
    Long vdso = auxv(AT_SYSINFO_EHDR);
    if (vdso != null && vdso != 0 && !covered(out, vdso)) {
      CoreModule m = image("[vdso]", vdso, vdso, false);
      if (m != null) out.add(m);
    }
    // without NT_FILE (older kernels, other writers) the executable is still found by its program headers
    Long phdr = auxv(AT_PHDR);
    if (phdr != null && !covered(out, phdr)) {
      CoreModule m = executableFromPhdrs(phdr);
      if (m != null) out.add(m);
    }
    out.sort((a, b) -> Long.compareUnsigned(a.base(), b.base()));
    return out;
  }

  private static boolean covered(List<CoreModule> modules, long address) {
    for (CoreModule m : modules) if (m.contains(address)) return true;
    return false;
  }

  /**
   * The ELF image whose header is at {@code base} in memory, its mappings ending at {@code
   * mappedEnd}: null when the header is readable and not ELF (a data file mapped from its start);
   * without the header in the core, a module of unknown build-id over its mappings.
   */
  private CoreModule image(String path, long base, long mappedEnd, boolean fromFileMappings) {
    byte[] ident = memory.bytes(base, 16);
    if (ident == null) {
      if (path.equals("[vdso]")) return null;
      return new CoreModule(path, base, Long.compareUnsigned(mappedEnd, base) < 0 ? base : mappedEnd, base, null);
    }
    if (ident[0] != 0x7f || ident[1] != 'E' || ident[2] != 'L' || ident[3] != 'F') return null;
    boolean is64 = ident[4] == 2;
    int w = is64 ? 8 : 4;
    Long phoff = word(base + (is64 ? 32 : 28), w);
    Long phentsize = word(base + (is64 ? 54 : 42), 2);
    Long phnum = word(base + (is64 ? 56 : 44), 2);
    long end = mappedEnd;
    long bias = base;
    byte[] buildId = null;
    if (phoff != null && phentsize != null && phnum != null && phentsize >= (is64 ? 56 : 32) && phnum <= MAX_IMAGE_PHDRS
        && phnum <= phdrBudget && Long.compareUnsigned(phoff, 1L << 32) < 0) {
      phdrBudget -= phnum;
      long minLoad = -1;
      long maxEnd = 0;
      List<long[]> notes = new ArrayList<>();
      for (int i = 0; i < phnum; i++) {
        long at = base + phoff + (long) i * phentsize;
        Long type = word(at, 4);
        Long vaddr = word(at + (is64 ? 16 : 8), w);
        Long filesz = word(at + (is64 ? 32 : 16), w);
        Long memsz = word(at + (is64 ? 40 : 20), w);
        Long align = word(at + (is64 ? 48 : 28), w);
        if (type == null || vaddr == null || filesz == null || memsz == null || align == null) break;
        if (type == ElfFile.PT_LOAD) {
          if (minLoad == -1 || Long.compareUnsigned(vaddr, minLoad) < 0) minLoad = vaddr;
          if (Long.compareUnsigned(vaddr + memsz, maxEnd) > 0) maxEnd = vaddr + memsz;
        } else if (type == PT_NOTE) {
          notes.add(new long[] {vaddr, filesz, align});
        }
      }
      if (minLoad != -1) {
        bias = base - (minLoad & -4096L);
        long imageEnd = bias + maxEnd;
        if (Long.compareUnsigned(imageEnd, base) > 0) end = imageEnd;
      }
      for (long[] n : notes) {
        buildId = buildId(bias + n[0], n[1], n[2] == 8 ? 8 : 4);
        if (buildId != null) break;
      }
    }
    if (path.equals("[vdso]") && end == base) return null;
    if (!fromFileMappings) {
      long page = alignUp(end, 4096); // placed by memory alone: whole pages, as the mappings are
      if (Long.compareUnsigned(page, end) >= 0) end = page;
    }
    // hostile program headers can put the end below the base (a PT_LOAD wrapping past 2^64)
    if (Long.compareUnsigned(end, base) < 0) end = base;
    return new CoreModule(path, base, end, bias, buildId);
  }

  private Long word(long address, int size) {
    return memory.readable(address, size) ? memory.read(address, size) : null;
  }

  /** The descriptor of the first GNU build-id note (name "GNU", type 3) in memory, or null. */
  private byte[] buildId(long address, long size, int align) {
    if (Long.compareUnsigned(size, MAX_IMAGE_NOTES) > 0) return null;
    byte[] notes = memory.bytes(address, (int) size);
    if (notes == null) return null;
    ByteView v = ByteView.of(notes, file.order(), file.source());
    long p = 0;
    while (v.size() - p >= 12) {
      long namesz = v.u32(p);
      long descsz = v.u32(p + 4);
      long type = v.u32(p + 8);
      long desc = alignUp(p + 12 + namesz, align);
      if (namesz > v.size() || desc > v.size() || descsz > v.size() - desc) return null;
      if (type == 3 && namesz == 4 && v.u8(p + 12) == 'G' && v.u8(p + 13) == 'N' && v.u8(p + 14) == 'U' && v.u8(p + 15) == 0
          && descsz > 0) {
        return v.bytes(desc, (int) descsz);
      }
      p = alignUp(desc + descsz, align);
    }
    return null;
  }

  /** The executable placed by {@code AT_PHDR}: its {@code PT_PHDR} gives the load bias. */
  private CoreModule executableFromPhdrs(long phdr) {
    Long phent = auxv(AT_PHENT);
    Long phnum = auxv(AT_PHNUM);
    boolean is64 = wordSize == 8;
    if (phent == null || phnum == null || phent < (is64 ? 56 : 32) || phent > 1024 || phnum > MAX_IMAGE_PHDRS || phnum > phdrBudget) {
      return null;
    }
    phdrBudget -= phnum;
    int w = wordSize;
    Long bias = null;
    long minLoad = -1;
    long maxEnd = 0;
    for (int i = 0; i < phnum; i++) {
      long at = phdr + i * phent;
      Long type = word(at, 4);
      Long vaddr = word(at + (is64 ? 16 : 8), w);
      Long memsz = word(at + (is64 ? 40 : 20), w);
      if (type == null || vaddr == null || memsz == null) return null;
      if (type == 6) bias = phdr - vaddr; // PT_PHDR
      if (type == ElfFile.PT_LOAD) {
        if (minLoad == -1 || Long.compareUnsigned(vaddr, minLoad) < 0) minLoad = vaddr;
        if (Long.compareUnsigned(vaddr + memsz, maxEnd) > 0) maxEnd = vaddr + memsz;
      }
    }
    if (bias == null || minLoad == -1) return null;
    String path = execFn();
    if (path == null && process != null) path = process.name();
    return image(path == null ? "" : path, bias + (minLoad & -4096L), bias + maxEnd, false);
  }

  // ---------------------------------------------------------------------------------------------
  // registers

  /** The order of {@code struct user_regs_struct} and the DWARF number of each register (-1: none). */
  private record RegisterLayout(String[] names, int[] dwarf, int pc) {
    static RegisterLayout of(int machine, boolean is64) {
      if (machine == 62 && is64) {
        return new RegisterLayout(
            new String[] {"r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi", "rdi", "orig_rax",
                "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs"},
            new int[] {15, 14, 13, 12, 6, 3, 11, 10, 9, 8, 0, 2, 1, 4, 5, -1, 16, 51, 49, 7, 52, 58, 59, 53, 50, 54, 55}, 16);
      }
      if (machine == 3 && !is64) {
        return new RegisterLayout(
            new String[] {"ebx", "ecx", "edx", "esi", "edi", "ebp", "eax", "ds", "es", "fs", "gs", "orig_eax", "eip", "cs", "eflags", "esp",
                "ss"},
            new int[] {3, 1, 2, 6, 7, 5, 0, 43, 40, 44, 45, -1, 8, 41, 9, 4, 42}, 12);
      }
      if (machine == 183 && is64) {
        String[] names = new String[34];
        int[] dwarf = new int[34];
        for (int i = 0; i <= 30; i++) {
          names[i] = "x" + i;
          dwarf[i] = i;
        }
        names[31] = "sp";
        dwarf[31] = 31;
        names[32] = "pc";
        dwarf[32] = -1; // the pc has no DWARF number: the return address column is x30
        names[33] = "cpsr";
        dwarf[33] = -1;
        return new RegisterLayout(names, dwarf, 32);
      }
      return null;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // memory

  /** The PT_LOAD bytes in the file, found by binary search over the segments' start addresses. */
  private static final class Memory implements MemoryReader {
    private final ByteView file;
    private final long[] start;
    private final long[] memEnd; // exclusive; 0 = the top of the address space
    private final long[] fileEnd; // exclusive end of the bytes in the file
    private final long[] offset;

    Memory(ByteView file, List<Segment> segments) {
      this.file = file;
      int n = segments.size();
      start = new long[n];
      memEnd = new long[n];
      fileEnd = new long[n];
      offset = new long[n];
      for (int i = 0; i < n; i++) {
        Segment s = segments.get(i);
        start[i] = s.address();
        memEnd[i] = s.address() + s.memorySize();
        fileEnd[i] = s.address() + s.fileSize();
        offset[i] = s.fileOffset();
      }
    }

    /** The last segment starting at or below {@code address}, or -1. */
    private int find(long address) {
      int lo = 0, hi = start.length - 1, found = -1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        if (Long.compareUnsigned(start[mid], address) <= 0) {
          found = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return found;
    }

    /** Whether {@code address} is in segment {@code i}'s bytes in the file. */
    private boolean inFile(int i, long address) {
      return i >= 0 && Long.compareUnsigned(address - start[i], fileEnd[i] - start[i]) < 0;
    }

    @Override
    public boolean readable(long address, int size) {
      if (size < 1 || size > 8) return false;
      return span(address, size);
    }

    /** Whether all of {@code [address, address + size)} is in the file (across adjacent segments). */
    private boolean span(long address, long size) {
      if (size == 0) return true;
      long last = address + size - 1;
      if (Long.compareUnsigned(last, address) < 0) return false;
      int i = find(address);
      long a = address;
      while (true) {
        if (!inFile(i, a)) return false;
        if (Long.compareUnsigned(last, fileEnd[i] - 1) <= 0) return true;
        a = fileEnd[i];
        if (fileEnd[i] != memEnd[i] || a == 0) return false; // a hole (or the top of memory) follows
        i++;
        if (i >= start.length || start[i] != a) return false;
      }
    }

    @Override
    public long read(long address, int size) {
      int i = find(address);
      if (inFile(i, address) && Long.compareUnsigned(address + size - 1 - start[i], fileEnd[i] - 1 - start[i]) <= 0) {
        return file.uN(offset[i] + (address - start[i]), size);
      }
      byte[] b = bytes(address, size);
      if (b == null) throw new IllegalArgumentException("0x" + Long.toHexString(address) + " is not in the core");
      long v = 0;
      for (int k = 0; k < size; k++) {
        long by = b[k] & 0xffL;
        v |= file.order() == ByteOrder.LITTLE_ENDIAN ? by << (8 * k) : by << (8 * (size - 1 - k));
      }
      return v;
    }

    byte[] bytes(long address, int length) {
      if (length < 0 || !span(address, length)) return null;
      byte[] out = new byte[length];
      int done = 0;
      while (done < length) {
        long a = address + done;
        int i = find(a);
        int n = (int) Math.min(length - done, fileEnd[i] - a);
        System.arraycopy(file.bytes(offset[i] + (a - start[i]), n), 0, out, done, n);
        done += n;
      }
      return out;
    }

    /** The bytes from {@code address} up to a NUL (at most {@code max}), or null if unreadable or unterminated. */
    byte[] cString(long address, int max) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      for (int k = 0; k < max; k++) {
        if (!span(address + k, 1)) return null;
        int b = (int) read(address + k, 1);
        if (b == 0) return out.toByteArray();
        out.write(b);
      }
      return null;
    }
  }

  @Override
  public String toString() {
    return "ElfCore[" + source() + ", " + arch + ", " + threads.size() + " threads, " + files.size() + " mapped files, "
        + segments.size() + " segments, " + modules.size() + " modules]";
  }
}
