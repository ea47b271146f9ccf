package dev.gsym.minidump;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A small minidump written field by field in either byte order, for what the corpus has no real
 * dump of: a big-endian writer's dump (every field byte-swapped, which Breakpad reads by its
 * signature); and structures no dump of the corpus has. It has a system info (x86 or current-layout
 * arm64), one thread with a patterned context and a 64-byte stack, three modules (a PDB 7.0
 * CodeView record; a PDB 2.0 one and a UTF-16 misc record; an 8-bit misc record alone), an unloaded
 * module, a memory info list, a memory list holding the stack, an exception, a misc info (version
 * 2) and a Breakpad info. {@code MinidumpDumpLiveTest}
 * checks that minidump_dump reads it as we do; {@code ByteOrderTest} that both orders read alike.
 */
final class SyntheticDump {
  private SyntheticDump() {}

  /** The dump for CPU {@code arm64} (else x86) in byte order {@code order}. */
  static byte[] of(boolean arm64, ByteOrder order) {
    Writer w = new Writer(order);
    int streams = 9;
    w.u32(MinidumpHeader.SIGNATURE).u32(MinidumpHeader.VERSION).u32(streams).u32(32).u32(0).u32(0x5f000000).u64(0);
    int dir = w.size();
    w.zeros(streams * DirectoryEntry.SIZE);
    // system info
    int sys = w.size();
    int csd = sys + SystemInfo.SIZE;
    w.u16(arm64 ? SystemInfo.CPU_ARM64 : SystemInfo.CPU_X86).u16(6).u16(0x0f0a).u8(4).u8(1).u32(10).u32(0).u32(19045)
        .u32(SystemInfo.OS_WIN32_NT).u32(csd).u16(0x100).u16(0);
    if (arm64) w.u64(0x1122334455667788L).u64(0x0102030405060708L).u64(0);
    else w.u32(0x756e6547).u32(0x49656e69).u32(0x6c65746e).u32(0x000906ea).u32(0xbfebfbff).u32(0x2c100800);
    w.string("Service Pack 1");
    // module names and debug records: RSDS; NB10 with a UTF-16 misc record; no CodeView, an 8-bit misc record
    int name = w.size();
    w.string("C:\\Program Files\\App\\app.exe");
    int name2 = w.size();
    w.string("C:\\Windows\\old.dll");
    int name3 = w.size();
    w.string("C:\\Windows\\older.dll");
    int cv = w.size();
    w.u32(CodeViewRecord.SIGNATURE_PDB70).u32(0x12345678).u16(0x9abc).u16(0xdef0).bytes(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}).u32(3);
    w.bytes("app.pdb\0".getBytes(StandardCharsets.US_ASCII));
    int cvSize = w.size() - cv;
    int cv2 = w.size();
    w.u32(CodeViewRecord.SIGNATURE_PDB20).u32(0).u32(0x3c000000).u32(7).bytes("old.pdb\0".getBytes(StandardCharsets.US_ASCII));
    int cv2Size = w.size() - cv2;
    int misc2 = w.size();
    String dbg = "old.dbg";
    w.u32(4).u32(12 + 2L * dbg.length() + 2).u8(1).zeros(3);
    for (char c : dbg.toCharArray()) w.u16(c);
    w.u16(0);
    int misc2Size = w.size() - misc2;
    int misc3 = w.size();
    w.u32(4).u32(12 + 12).u8(0).zeros(3).bytes("older.dbg\0\0\0".getBytes(StandardCharsets.US_ASCII));
    int misc3Size = w.size() - misc3;
    int unloadedName = w.size();
    w.string("C:\\Windows\\gone.dll");
    // context, patterned
    int ctx = w.size();
    int ctxSize = arm64 ? ContextArm64.SIZE : ContextX86.SIZE;
    if (arm64) {
      // flags, cpsr, x0..x28, fp, lr, sp, pc, v0..v31, fpcr, fpsr, bcr[8], bvr[8], wcr[2], wvr[2]
      w.u32(CpuContext.CONTEXT_ARM64 | 0x7).u32(0x60000000);
      for (int i = 0; i < 33; i++) w.u64(0x0000_7f00_0000_0000L + 0x1111L * i);
      for (int i = 0; i < 64; i++) w.u64(0x0102030405060708L * (i + 1));
      w.u32(0x03000000).u32(0x10);
      for (int i = 0; i < 8; i++) w.u32(i);
      for (int i = 0; i < 8; i++) w.u64(0x1000L * i);
      w.u32(1).u32(2).u64(3).u64(4);
    } else {
      // flags, dr0..dr7, the x87 save area (80 bytes of registers), segments, general registers,
      // the FXSAVE area
      w.u32(CpuContext.CONTEXT_X86 | 0x3f);
      for (int i = 0; i < 6 + 7; i++) w.u32(0x100 * i + 1);
      for (int i = 0; i < 80; i++) w.u8(i);
      w.u32(0x22);
      for (int i = 0; i < 16; i++) w.u32(0x0012f000 + 0x10 * i);
      for (int i = 0; i < 512; i++) w.u8(i * 3);
    }
    // stack
    int stack = w.size();
    long stackStart = arm64 ? 0x7ff0001000L : 0x0012f000L;
    for (int i = 0; i < 64; i++) w.u8(i * 5);
    // thread list
    int threads = w.size();
    w.u32(1).u32(0x1a2b).u32(0).u32(0x20).u32(0).u64(0x7ffde000L).u64(stackStart).u32(64).u32(stack).u32(ctxSize).u32(ctx);
    // module list
    int modules = w.size();
    w.u32(3);
    int[][] records = {{name, cvSize, cv, 0, 0}, {name2, cv2Size, cv2, misc2Size, misc2}, {name3, 0, 0, misc3Size, misc3}};
    for (int i = 0; i < 3; i++) {
      w.u64((arm64 ? 0x7ff6_0000_0000L : 0x00400000L) + 0x100000L * i).u32(0x20000).u32(0xabcd + i).u32(0x5e000000 + i).u32(records[i][0]);
      w.u32(0xfeef04bdL).u32(0x10000).u32(0x00010002 + i).u32(0x00030004);
      w.zeros(36);
      w.u32(records[i][1]).u32(records[i][2]).u32(records[i][3]).u32(records[i][4]).zeros(16);
    }
    // unloaded module list (header 12, entries 24)
    int unloaded = w.size();
    w.u32(12).u32(24).u32(1).u64(0x10000000L).u32(0x8000).u32(0x77).u32(0x5d000000).u32(unloadedName);
    // memory info list: the stack's page, committed read-write, and a reserved region
    int memoryInfo = w.size();
    w.u32(16).u32(48).u64(2);
    w.u64(stackStart).u64(stackStart).u32(0x04).u32(0).u64(0x1000).u32(0x1000).u32(0x04).u32(0x20000).u32(0);
    w.u64(stackStart + 0x1000).u64(stackStart).u32(0x04).u32(0).u64(0x3000).u32(0x2000).u32(0).u32(0x20000).u32(0);
    // memory list
    int memory = w.size();
    w.u32(1).u64(stackStart).u32(64).u32(stack);
    // exception
    int exception = w.size();
    w.u32(0x1a2b).u32(0).u32(0xc0000005L).u32(0).u64(0).u64(0x10).u32(2).u32(0).u64(1).u64(0x10).zeros(13 * 8).u32(ctxSize).u32(ctx);
    // misc info, version 2
    int misc = w.size();
    w.u32(MiscInfo.SIZE_2).u32(MiscInfo.FLAGS1_PROCESS_ID | MiscInfo.FLAGS1_PROCESS_TIMES | MiscInfo.FLAGS1_PROCESSOR_POWER_INFO)
        .u32(4242).u32(0x5eff0000).u32(3).u32(1).u32(2400).u32(1200).u32(2400).u32(1).u32(1);
    // Breakpad info
    int breakpad = w.size();
    w.u32(BreakpadInfo.VALID_DUMP_THREAD_ID | BreakpadInfo.VALID_REQUESTING_THREAD_ID).u32(0x1a2c).u32(0x1a2b);
    int[][] entries = {{StreamType.SYSTEM_INFO, SystemInfo.SIZE, sys}, {StreamType.THREAD_LIST, modules - threads, threads},
        {StreamType.MODULE_LIST, unloaded - modules, modules}, {StreamType.UNLOADED_MODULE_LIST, memoryInfo - unloaded, unloaded},
        {StreamType.MEMORY_INFO_LIST, memory - memoryInfo, memoryInfo}, {StreamType.MEMORY_LIST, exception - memory, memory},
        {StreamType.EXCEPTION, ExceptionStream.SIZE, exception}, {StreamType.MISC_INFO, MiscInfo.SIZE_2, misc},
        {StreamType.BREAKPAD_INFO, BreakpadInfo.SIZE, breakpad}};
    byte[] out = w.toBytes();
    ByteBuffer bb = ByteBuffer.wrap(out).order(order);
    for (int i = 0; i < entries.length; i++) {
      bb.putInt(dir + 12 * i, entries[i][0]).putInt(dir + 12 * i + 4, entries[i][1]).putInt(dir + 12 * i + 8, entries[i][2]);
    }
    return out;
  }

  private static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteOrder order;

    Writer(ByteOrder order) {
      this.order = order;
    }

    int size() {
      return out.size();
    }

    private Writer put(long v, int n) {
      for (int i = 0; i < n; i++) {
        int shift = order == ByteOrder.LITTLE_ENDIAN ? 8 * i : 8 * (n - 1 - i);
        out.write((int) (v >>> shift) & 0xff);
      }
      return this;
    }

    Writer u8(int v) {
      return put(v, 1);
    }

    Writer u16(int v) {
      return put(v, 2);
    }

    Writer u32(long v) {
      return put(v, 4);
    }

    Writer u64(long v) {
      return put(v, 8);
    }

    Writer zeros(int n) {
      out.writeBytes(new byte[n]);
      return this;
    }

    Writer bytes(byte[] b) {
      out.writeBytes(b);
      return this;
    }

    /** A MINIDUMP_STRING: u32 byte length, UTF-16 code units, a terminating 0 unit. */
    Writer string(String s) {
      u32(2L * s.length());
      for (char c : s.toCharArray()) u16(c);
      return u16(0);
    }

    byte[] toBytes() {
      return out.toByteArray();
    }
  }
}
