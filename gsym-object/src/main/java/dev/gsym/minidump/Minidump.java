package dev.gsym.minidump;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.object.internal.MappedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A minidump file (Breakpad, Crashpad, Windows {@code MiniDumpWriteDump}), mapped read-only: the
 * header and stream directory are checked when it is opened; each stream is read, checked and kept
 * the first time it is asked for.
 *
 * <p>The checks are Breakpad's processor's ({@code src/processor/minidump.cc}), so that a dump its
 * {@code minidump_stackwalk} refuses is refused here and one it reads is read the same way: the
 * header signature (in either byte order) and version, at most {@link #MAX_STREAMS} streams, the
 * directory inside the file, at most one stream of each {@link StreamType#unique} type, each
 * stream's size as its structure requires, every count bounded by its stream and every RVA and
 * size by the file; strings of at most {@link #MAX_STRING_LENGTH} units. A malformed header or
 * directory fails {@link #open}; a malformed stream fails its accessor (every call), with a {@link
 * GsymFormatException} naming the absolute file offset, and leaves the other streams readable, as
 * Breakpad goes on without a stream it cannot read. Nothing is allocated beyond what the file's own
 * size bounds. Accessors return null for a stream the dump does not have.
 *
 * <p>Thread-safe; {@link #close} unmaps a file opened with {@link #open}.
 */
public final class Minidump implements AutoCloseable {
  /** Most streams Breakpad reads a dump with. */
  public static final int MAX_STREAMS = 128;
  /** Longest string Breakpad reads: UTF-16 code units of a {@code MINIDUMP_STRING}, bytes of a UTF-8 one. */
  public static final int MAX_STRING_LENGTH = 1024;

  private final Arena arena;
  private final ByteView file;
  private final String source;
  private final MinidumpHeader header;
  private final List<DirectoryEntry> directory;
  private final Map<Integer, DirectoryEntry> byType;
  private final Map<Integer, Object> streams = new HashMap<>(); // value, GsymFormatException, or ABSENT
  private static final Object ABSENT = new Object();

  private Minidump(Arena arena, MemorySegment seg, String source) {
    this.arena = arena;
    this.source = source;
    if (seg.byteSize() < MinidumpHeader.SIZE) {
      throw new GsymFormatException(source, 0, "not a minidump: " + seg.byteSize() + " bytes, shorter than the 32-byte header");
    }
    ByteView le = new ByteView(seg, 0, ByteOrder.LITTLE_ENDIAN, source);
    ByteOrder order;
    if (le.s32(0) == MinidumpHeader.SIGNATURE) {
      order = ByteOrder.LITTLE_ENDIAN;
    } else if (Integer.reverseBytes(le.s32(0)) == MinidumpHeader.SIGNATURE) {
      order = ByteOrder.BIG_ENDIAN;
    } else {
      throw new GsymFormatException(source, 0, String.format("not a minidump: signature 0x%08x is not MDMP", le.u32(0)));
    }
    this.file = order == ByteOrder.LITTLE_ENDIAN ? le : new ByteView(seg, 0, order, source);
    this.header = new MinidumpHeader(file.u32(0), file.u32(4), file.u32(8), file.u32(12), file.u32(16), file.u32(20),
        file.u64(24));
    if ((header.version() & 0xffff) != MinidumpHeader.VERSION) {
      throw error(4, String.format("minidump version 0x%x is not 0x%x", header.version() & 0xffff, MinidumpHeader.VERSION));
    }
    if (header.streamCount() > MAX_STREAMS) {
      throw error(8, "stream count " + header.streamCount() + " exceeds the maximum of " + MAX_STREAMS);
    }
    int n = (int) header.streamCount();
    long dir = header.streamDirectoryRva();
    if (!file.has(dir, (long) n * DirectoryEntry.SIZE)) {
      throw error(12, "stream directory of " + n + " entries at 0x" + Long.toHexString(dir) + " extends past the end of the file ("
          + file.size() + " bytes)");
    }
    List<DirectoryEntry> entries = new ArrayList<>(n);
    Map<Integer, DirectoryEntry> types = new HashMap<>();
    for (int i = 0; i < n; i++) {
      long at = dir + (long) i * DirectoryEntry.SIZE;
      DirectoryEntry e = new DirectoryEntry(i, at, file.s32(at), new Location(file.u32(at + 4), file.u32(at + 8)));
      if (StreamType.unique(e.type()) && types.containsKey(e.type())) {
        throw error(at, "a second stream of type " + StreamType.name(e.type()) + " (entries " + types.get(e.type()).index()
            + " and " + i + ")");
      }
      types.put(e.type(), e);
      entries.add(e);
    }
    this.directory = Collections.unmodifiableList(entries);
    this.byType = types;
  }

  /** Maps and opens the minidump at {@code path}. */
  public static Minidump open(Path path) throws IOException {
    Arena arena = Arena.ofShared();
    try {
      return new Minidump(arena, MappedFiles.map(path, arena), path.toString());
    } catch (RuntimeException | IOException e) {
      arena.close();
      throw e;
    }
  }

  /** A minidump over bytes already in memory; {@code source} names it in errors. */
  public static Minidump of(byte[] bytes, String source) {
    return new Minidump(null, MemorySegment.ofArray(bytes), source);
  }

  /** Whether {@code head} (at least the first 4 bytes of a file) starts with a minidump signature. */
  public static boolean isMinidump(byte[] head) {
    if (head.length < 4) return false;
    int le = (head[0] & 0xff) | (head[1] & 0xff) << 8 | (head[2] & 0xff) << 16 | (head[3] & 0xff) << 24;
    return le == MinidumpHeader.SIGNATURE || Integer.reverseBytes(le) == MinidumpHeader.SIGNATURE;
  }

  @Override
  public void close() {
    if (arena != null) arena.close();
  }

  /** The file name given to {@link #open} or {@link #of}, as errors name it. */
  public String source() {
    return source;
  }

  /** The byte order of the dump (of the machine that wrote it). */
  public ByteOrder byteOrder() {
    return file.order();
  }

  /** The file's size in bytes. */
  public long size() {
    return file.size();
  }

  /** The whole file (for the in-repo modules). */
  public ByteView file() {
    return file;
  }

  /** The file header. */
  public MinidumpHeader header() {
    return header;
  }

  /** Every directory entry, in file order (unknown and unused types included). */
  public List<DirectoryEntry> directory() {
    return directory;
  }

  /** The directory entry of the stream of {@code type} that is read (the last one of its type), or null. */
  public DirectoryEntry stream(int type) {
    return byType.get(type);
  }

  /** The bytes of stream {@code type}, or null when the dump has none; fails if they are not all in the file. */
  public ByteView streamBytes(int type) {
    DirectoryEntry e = byType.get(type);
    return e == null ? null : bytes(e.location(), e.offset() + 4, e.typeName());
  }

  /**
   * The system info stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public SystemInfo systemInfo() {
    return cached(StreamType.SYSTEM_INFO, SystemInfo::read);
  }

  /**
   * The thread list stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public ThreadList threadList() {
    return cached(StreamType.THREAD_LIST, ThreadList::read);
  }

  /**
   * The thread name list stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public ThreadNameList threadNameList() {
    return cached(StreamType.THREAD_NAME_LIST, ThreadNameList::read);
  }

  /**
   * The module list stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public ModuleList moduleList() {
    return cached(StreamType.MODULE_LIST, ModuleList::read);
  }

  /**
   * The unloaded module list stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public UnloadedModuleList unloadedModuleList() {
    return cached(StreamType.UNLOADED_MODULE_LIST, UnloadedModuleList::read);
  }

  /**
   * The memory list stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public MemoryList memoryList() {
    return cached(StreamType.MEMORY_LIST, MemoryList::read);
  }

  /**
   * The memory64 list stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public Memory64List memory64List() {
    return cached(StreamType.MEMORY_64_LIST, Memory64List::read);
  }

  /**
   * The memory info list stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public MemoryInfoList memoryInfoList() {
    return cached(StreamType.MEMORY_INFO_LIST, MemoryInfoList::read);
  }

  /**
   * The exception stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public ExceptionStream exception() {
    return cached(StreamType.EXCEPTION, ExceptionStream::read);
  }

  /**
   * The misc info stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public MiscInfo miscInfo() {
    return cached(StreamType.MISC_INFO, MiscInfo::read);
  }

  /**
   * The Breakpad info stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public BreakpadInfo breakpadInfo() {
    return cached(StreamType.BREAKPAD_INFO, BreakpadInfo::read);
  }

  /**
   * The assertion info stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public AssertionInfo assertion() {
    return cached(StreamType.ASSERTION_INFO, AssertionInfo::read);
  }

  /**
   * The Crashpad info stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public CrashpadInfo crashpadInfo() {
    return cached(StreamType.CRASHPAD_INFO, CrashpadInfo::read);
  }

  /**
   * The Linux maps stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxMaps linuxMaps() {
    return cached(StreamType.LINUX_MAPS, LinuxMaps::read);
  }

  /**
   * The Linux proc status stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxProcStatus linuxProcStatus() {
    return cached(StreamType.LINUX_PROC_STATUS, LinuxProcStatus::read);
  }

  /**
   * The Linux CPU info stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxCpuInfo linuxCpuInfo() {
    return cached(StreamType.LINUX_CPU_INFO, LinuxCpuInfo::read);
  }

  /**
   * The Linux LSB release stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxLsbRelease linuxLsbRelease() {
    return cached(StreamType.LINUX_LSB_RELEASE, LinuxLsbRelease::read);
  }

  /**
   * The Linux command line stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxCmdLine linuxCmdLine() {
    return cached(StreamType.LINUX_CMD_LINE, LinuxCmdLine::read);
  }

  /**
   * The Linux environ stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxEnviron linuxEnviron() {
    return cached(StreamType.LINUX_ENVIRON, LinuxEnviron::read);
  }

  /**
   * The Linux auxv stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxAuxv linuxAuxv() {
    return cached(StreamType.LINUX_AUXV, LinuxAuxv::read);
  }

  /**
   * The Linux DSO debug stream, or null when the dump has none (a malformed one throws {@link
   * GsymFormatException}).
   */
  public LinuxDsoDebug linuxDsoDebug() {
    return cached(StreamType.LINUX_DSO_DEBUG, LinuxDsoDebug::read);
  }

  /**
   * The system info when the dump has a readable one, else null (never fails): what the CPU context
   * reader and the module identifiers consult, as Breakpad does.
   */
  SystemInfo systemInfoOrNull() {
    try {
      return systemInfo();
    } catch (GsymFormatException e) {
      return null;
    }
  }

  /**
   * The CPU context at {@code location} (a thread's or the exception's), read as Breakpad's {@code
   * MinidumpContext::Read} reads it; {@code at} is the file offset of the location descriptor.
   */
  public CpuContext context(Location location, long at) {
    return CpuContext.read(this, location, at);
  }

  /** A thread's context ({@link #context(Location, long)}). */
  public CpuContext context(MinidumpThread thread) {
    return CpuContext.read(this, thread.context(), thread.offset() + MinidumpThread.CONTEXT_OFFSET);
  }

  /**
   * A thread's stack memory, or null when the thread has none (an RVA or size of 0, or a range
   * past 2^64, which Breakpad reads as no stack); fails when the bytes are not in the file.
   */
  public MemoryRegion stack(MinidumpThread thread) {
    MemoryDescriptor d = thread.stack();
    if (d.memory().rva() == 0 || d.size() == 0 || d.overflows()) return null;
    return MemoryRegion.of(this, d, thread.offset() + MinidumpThread.STACK_OFFSET, "thread 0x" + Long.toHexString(thread.threadId())
        + " stack");
  }

  /**
   * The process memory of the memory list (the memory Breakpad's processor reads: stacks, code
   * around the crash, registered application memory), or an empty memory when the dump has no
   * memory list. Fails when the memory list is malformed.
   */
  public MinidumpMemory memory() {
    MemoryList list = memoryList();
    return new MinidumpMemory(list == null ? List.of() : list.regions(), byteOrder());
  }

  /**
   * All process memory the dump holds: the memory list and the {@code Memory64List} of full-memory
   * dumps (which Breakpad's processor does not read). Fails when either list is malformed or their
   * ranges overlap.
   */
  public MinidumpMemory fullMemory() {
    List<MemoryRegion> all = new ArrayList<>();
    MemoryList list = memoryList();
    if (list != null) all.addAll(list.regions());
    Memory64List list64 = memory64List();
    if (list64 != null) {
      all.addAll(list64.regions());
      MinidumpMemory.checkDisjoint(this, all, stream(StreamType.MEMORY_64_LIST).location().rva(), "memory list and memory64 list");
    }
    return new MinidumpMemory(all, byteOrder());
  }

  // --- for the structure readers of this package ---

  GsymFormatException error(long offset, String detail) {
    return new GsymFormatException(source, offset, detail);
  }

  /** The bytes {@code location} names; {@code at} (the descriptor's offset) is reported when they are not all in the file. */
  ByteView bytes(Location location, long at, String what) {
    if (!location.inside(file.size())) {
      throw error(at, what + ": " + location + " extends past the end of the file (" + file.size() + " bytes)");
    }
    return file.slice(location.rva(), location.dataSize());
  }

  /**
   * The {@code MINIDUMP_STRING} at {@code rva} (u32 byte length, UTF-16 code units), as Breakpad's
   * {@code ReadString} reads it: an odd length, more than {@link #MAX_STRING_LENGTH} units, bytes
   * past the end or a broken surrogate pair fail. {@code at} is where the RVA was read.
   */
  String string(long rva, long at, String what) {
    if (!file.has(rva, 4)) throw error(at, what + ": string at 0x" + Long.toHexString(rva) + " is past the end of the file");
    long bytes = file.u32(rva);
    if (bytes % 2 != 0) throw error(rva, what + ": string of an odd number of bytes (" + bytes + ")");
    if (bytes / 2 > MAX_STRING_LENGTH) {
      throw error(rva, what + ": string of " + bytes / 2 + " UTF-16 units, more than the maximum of " + MAX_STRING_LENGTH);
    }
    if (!file.has(rva + 4, bytes)) throw error(rva, what + ": string of " + bytes + " bytes extends past the end of the file");
    String s = Utf16.decode(file, rva + 4, (int) bytes / 2);
    if (s == null) throw error(rva, what + ": string is not valid UTF-16 (a lone or broken surrogate)");
    return s;
  }

  /** Crashpad's UTF-8 string at {@code rva} (u32 byte length, bytes), as Breakpad's {@code ReadUTF8String}. */
  String utf8String(long rva, long at, String what) {
    if (!file.has(rva, 4)) throw error(at, what + ": string at 0x" + Long.toHexString(rva) + " is past the end of the file");
    long bytes = file.u32(rva);
    if (bytes > MAX_STRING_LENGTH) {
      throw error(rva, what + ": string of " + bytes + " bytes, more than the maximum of " + MAX_STRING_LENGTH);
    }
    if (!file.has(rva + 4, bytes)) throw error(rva, what + ": string of " + bytes + " bytes extends past the end of the file");
    return dev.gsym.ByteStrings.decode(file.bytes(rva + 4, (int) bytes));
  }

  @SuppressWarnings("unchecked")
  private synchronized <T> T cached(int type, BiFunction<Minidump, DirectoryEntry, T> reader) {
    Object v = streams.get(type);
    if (v == null) {
      DirectoryEntry e = byType.get(type);
      if (e == null) {
        v = ABSENT;
      } else {
        try {
          v = reader.apply(this, e);
        } catch (GsymFormatException ex) {
          v = ex;
        }
      }
      streams.put(type, v);
    }
    if (v == ABSENT) return null;
    if (v instanceof GsymFormatException ex) throw ex;
    return (T) v;
  }
}
