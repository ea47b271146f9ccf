package dev.gsym.minidump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hostile variants of a real (little-endian) minidump, each breaking one thing Breakpad checks:
 * the inputs of the live differential test against minidump_dump, the hostile-input tests and the
 * fuzz target's seeds. Offsets are found with our own reader on the unmodified dump.
 */
final class HostileDumps {
  private HostileDumps() {}

  private static final class Edit {
    final byte[] b;
    final ByteBuffer bb;

    Edit(byte[] base, int extra) {
      b = Arrays.copyOf(base, base.length + extra);
      bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    Edit u32(long at, long v) {
      bb.putInt((int) at, (int) v);
      return this;
    }

    Edit u64(long at, long v) {
      bb.putLong((int) at, v);
      return this;
    }

    Edit u16(long at, int v) {
      bb.putShort((int) at, (short) v);
      return this;
    }
  }

  /**
   * Whether minidump_dump's output on variant {@code name} can be compared with ours. Not when a read
   * runs past the end of the file: Breakpad reads through one std::ifstream, which then stays failed,
   * so every stream not yet read fails too (what is lost depends on the reading order; our reader
   * checks each stream on its own); nor with more than 15 exception parameters, which Breakpad prints
   * from the memory after its record.
   */
  static boolean comparableWithBreakpad(String name) {
    return !name.contains("past-end") && !name.startsWith("truncated") && !name.equals("exception-100-parameters");
  }

  /**
   * {@code base} (a dump with Breakpad's old arm64 contexts, as its Linux writer makes them) rewritten
   * with the current arm64 layout, as Windows and Crashpad write it: each context converted field
   * by field (flags {@code CONTEXT_ARM64 | CONTROL | INTEGER | FLOATING_POINT}, debug registers 0)
   * and appended to the file, the thread list and exception pointing at the new contexts, the system
   * info's CPU {@code CPU_ARM64}.
   */
  static byte[] withNewArm64Contexts(byte[] base) {
    Minidump d = Minidump.of(base, "base");
    java.util.List<long[]> contexts = new java.util.ArrayList<>(); // offset of the location descriptor, old context rva
    for (MinidumpThread t : d.threadList().threads()) contexts.add(new long[] {t.offset() + MinidumpThread.CONTEXT_OFFSET, t.context().rva()});
    ExceptionStream e = d.exception();
    if (e != null) contexts.add(new long[] {e.contextOffset(), e.threadContext().rva()});
    Edit out = new Edit(base, contexts.size() * ContextArm64.SIZE);
    ByteBuffer old = ByteBuffer.wrap(base).order(ByteOrder.LITTLE_ENDIAN);
    int at = base.length;
    for (long[] c : contexts) {
      int o = (int) c[1];
      out.u32(at, CpuContext.CONTEXT_ARM64 | 0x7);
      out.u32(at + 4, old.getInt(o + 272)); // cpsr
      for (int i = 0; i < 33; i++) out.u64(at + 8 + 8L * i, old.getLong(o + 8 + 8 * i));
      System.arraycopy(base, o + 284, out.b, at + 272, 512); // v0..v31
      out.u32(at + 784, old.getInt(o + 280)); // fpcr
      out.u32(at + 788, old.getInt(o + 276)); // fpsr
      out.u32(c[0], ContextArm64.SIZE).u32(c[0] + 4, at);
      at += ContextArm64.SIZE;
    }
    out.u16(d.stream(StreamType.SYSTEM_INFO).location().rva(), SystemInfo.CPU_ARM64);
    return out.b;
  }

  /** The variants of {@code base}, by name; only those the dump has the structures for. */
  static Map<String, byte[]> of(byte[] base) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    Minidump d = Minidump.of(base, "base");
    int n = base.length;
    out.put("stream-count-4294967295", new Edit(base, 0).u32(8, 0xffffffffL).b);
    out.put("stream-count-129", new Edit(base, 0).u32(8, 129).b);
    out.put("version", new Edit(base, 0).u32(4, 0xa794).b);
    out.put("directory-past-end", new Edit(base, 0).u32(12, n - 4).b);
    out.put("truncated-half", Arrays.copyOf(base, n / 2));
    out.put("truncated-header", Arrays.copyOf(base, 20));
    DirectoryEntry threads = d.stream(StreamType.THREAD_LIST);
    DirectoryEntry modules = d.stream(StreamType.MODULE_LIST);
    DirectoryEntry memory = d.stream(StreamType.MEMORY_LIST);
    DirectoryEntry system = d.stream(StreamType.SYSTEM_INFO);
    DirectoryEntry exception = d.stream(StreamType.EXCEPTION);
    DirectoryEntry misc = d.stream(StreamType.MISC_INFO);
    DirectoryEntry maps = d.stream(StreamType.LINUX_MAPS);
    DirectoryEntry names = d.stream(StreamType.THREAD_NAME_LIST);
    if (threads != null) {
      out.put("thread-list-rva-past-end", new Edit(base, 0).u32(threads.offset() + 8, n + 100).b);
      out.put("thread-list-size-past-end", new Edit(base, 0).u32(threads.offset() + 4, n).b);
      long count = d.threadList().threads().size();
      out.put("thread-count-plus-one", new Edit(base, 0).u32(threads.location().rva(), count + 1).b);
      out.put("thread-count-4294967295", new Edit(base, 0).u32(threads.location().rva(), 0xffffffffL).b);
      MinidumpThread t0 = d.threadList().threads().getFirst();
      long ctx = t0.offset() + MinidumpThread.CONTEXT_OFFSET;
      out.put("context-size-716", new Edit(base, 0).u32(ctx, ContextX86.SIZE).b);
      out.put("context-size-912", new Edit(base, 0).u32(ctx, ContextArm64.SIZE).b);
      out.put("context-size-20000", new Edit(base, 0).u32(ctx, 20000).b);
      out.put("context-past-end", new Edit(base, 0).u32(ctx + 4, n - 100).b);
      out.put("context-flags-zero", new Edit(base, 0).u32(t0.context().rva() + (t0.context().dataSize() == ContextAmd64.SIZE ? 48 : 0), 0).b);
      out.put("stack-past-end", new Edit(base, 0).u32(t0.offset() + MinidumpThread.STACK_OFFSET + 12, n - 16).b);
      out.put("stack-wraps", new Edit(base, 0).u64(t0.offset() + MinidumpThread.STACK_OFFSET, -16L).b);
      // arm and old-arm64 contexts (whose real dumps, from qemu cores, have no floating-point state):
      // cpsr and the floating-point area filled with a pattern, so that every field is told apart
      long ctxSize = t0.context().dataSize();
      if (ctxSize == ContextArm64.OLD_SIZE || ctxSize == ContextArm.SIZE) {
        Edit e = new Edit(base, 0);
        int from = ctxSize == ContextArm.SIZE ? 68 : 272;
        for (MinidumpThread t : d.threadList().threads()) {
          for (int i = from; i < ctxSize; i++) e.b[(int) t.context().rva() + i] = (byte) (i * 7 + 1);
        }
        out.put("patterned-float-state", e.b);
      }
      if (ctxSize == ContextX86.SIZE || ctxSize == ContextArm.SIZE || ctxSize == ContextArm64.SIZE) {
        // context_flags without CPU bits (the system info's CPU is taken), and with the old ARM bit 0x40
        long flags = d.file().u32(t0.context().rva());
        out.put("context-cpu-bits-zero", new Edit(base, 0).u32(t0.context().rva(), flags & 0xff).b);
        out.put("context-old-arm-bit", new Edit(base, 0).u32(t0.context().rva(), (flags & 0xff) | CpuContext.CONTEXT_ARM_OLD).b);
      }
      if (d.threadList().threads().size() > 1) {
        MinidumpThread t1 = d.threadList().threads().get(1);
        out.put("thread-id-twice", new Edit(base, 0).u32(t1.offset(), t0.threadId()).b);
      }
      // a second thread list: the directory entry of another stream retyped
      DirectoryEntry other = d.directory().stream().filter(e -> e.type() != StreamType.THREAD_LIST).findFirst().orElseThrow();
      out.put("thread-list-twice", new Edit(base, 0).u32(other.offset(), StreamType.THREAD_LIST).b);
    }
    if (modules != null && !d.moduleList().modules().isEmpty()) {
      MinidumpModule m0 = d.moduleList().modules().getFirst();
      out.put("module-list-rva-past-end", new Edit(base, 0).u32(modules.offset() + 8, n + 1).b);
      // a 1 MiB module name (512 Ki UTF-16 units) appended to the file
      int units = 512 * 1024;
      Edit big = new Edit(base, 4 + 2 * units);
      big.u32(n, 2L * units);
      for (int i = 0; i < units; i++) big.u16(n + 4 + 2L * i, 'A');
      big.u32(m0.offset() + 20, n);
      out.put("module-name-1MiB", big.b);
      out.put("module-name-odd-length", new Edit(base, 0).u32(m0.moduleNameRva(), 7).b);
      out.put("module-name-lone-surrogate", new Edit(base, 0).u16(m0.moduleNameRva() + 4, 0xdc00).b);
      out.put("module-name-past-end", new Edit(base, 0).u32(m0.offset() + 20, n - 2).b);
      out.put("module-size-zero", new Edit(base, 0).u32(m0.offset() + 8, 0).b);
      out.put("module-wraps", new Edit(base, 0).u64(m0.offset(), -4096L).b);
      out.put("module-cv-40000-bytes", new Edit(base, 0).u32(m0.offset() + 76, 40000).b);
      out.put("module-cv-past-end", new Edit(base, 0).u32(m0.offset() + 80, n - 8).b);
      out.put("module-misc-short", new Edit(base, 0).u32(m0.offset() + 84, 8).u32(m0.offset() + 88, 64).b);
      out.put("module-count-plus-one", new Edit(base, 0).u32(modules.location().rva(), d.moduleList().modules().size() + 1).b);
      if (m0.cvRecord().dataSize() > 8) {
        // a PDB 7.0 record that is too short, and one whose name is not NUL-terminated
        out.put("module-cv-rsds-short", new Edit(base, 0).u32(m0.cvRecord().rva(), CodeViewRecord.SIGNATURE_PDB70)
            .u32(m0.offset() + 76, Math.min(m0.cvRecord().dataSize(), 24)).b);
        out.put("module-cv-4-bytes", new Edit(base, 0).u32(m0.offset() + 76, 4).b);
      }
    }
    if (memory != null && d.memoryList().descriptors().size() > 1) {
      long first = memory.location().rva() + memory.location().dataSize() - 16L * d.memoryList().descriptors().size();
      MemoryDescriptor r0 = d.memoryList().descriptors().getFirst();
      out.put("memory-overlapping", new Edit(base, 0).u64(first + 16, r0.start() + 1).b);
      out.put("memory-region-empty", new Edit(base, 0).u32(first + 8, 0).b);
      out.put("memory-region-past-end", new Edit(base, 0).u32(first + 12, n - 8).b);
      out.put("memory-count-4294967295", new Edit(base, 0).u32(memory.location().rva(), 0xffffffffL).b);
    }
    if (system != null) {
      out.put("system-info-52-bytes", new Edit(base, 0).u32(system.offset() + 4, 52).b);
      out.put("system-info-arm64", new Edit(base, 0).u16(system.location().rva(), SystemInfo.CPU_ARM64).b);
      out.put("system-info-csd-past-end", new Edit(base, 0).u32(system.location().rva() + 24, n + 8).b);
    }
    if (exception != null) {
      out.put("exception-160-bytes", new Edit(base, 0).u32(exception.offset() + 4, 160).b);
      out.put("exception-100-parameters", new Edit(base, 0).u32(exception.location().rva() + 32, 100).b);
      out.put("exception-context-past-end", new Edit(base, 0).u32(exception.location().rva() + 164, n).b);
    }
    if (misc != null) {
      out.put("misc-info-size-of-info", new Edit(base, 0).u32(misc.location().rva(), misc.location().dataSize() + 4).b);
      out.put("misc-info-30-bytes", new Edit(base, 0).u32(misc.offset() + 4, 30).b);
    }
    if (maps != null) {
      out.put("maps-no-newline", new Edit(base, 0).u32(maps.offset() + 4, maps.location().dataSize() - 1).b);
      out.put("maps-bad-permissions", new Edit(base, 0).u32(maps.location().rva() + maps.location().dataSize() / 2 / 4 * 4, 0x2a2a2a2a).b);
    }
    if (names != null && !d.threadNameList().names().isEmpty()) {
      ThreadName t = d.threadNameList().names().getFirst();
      out.put("thread-name-lone-surrogate", new Edit(base, 0).u16(t.nameRva() + 4, 0xdc10).b);
      out.put("thread-name-high-surrogate-last", new Edit(base, 0).u32(t.nameRva(), 2).u16(t.nameRva() + 4, 0xd800).b);
    }
    return out;
  }
}
