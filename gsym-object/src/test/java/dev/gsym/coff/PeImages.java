package dev.gsym.coff;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Minimal x64 PE images for the unwind tests: a PE32+ header whose exception directory is the
 * function table given, in one section ".rdata" at RVA 0x2000 (file offset 0x400) that also holds
 * the unwind information; ImageBase 0x140000000. Functions are at RVAs 0x1000 and up (no code: the
 * unwind readers need none).
 */
final class PeImages {
  static final long IMAGE_BASE = 0x140000000L;
  static final int DATA_RVA = 0x2000;
  static final int DATA_FILE = 0x400;

  private final ByteBuffer data = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
  private final List<int[]> functions = new ArrayList<>();
  private int machine = CoffHeader.IMAGE_FILE_MACHINE_AMD64;

  PeImages machine(int m) {
    machine = m;
    return this;
  }

  /** Appends an UNWIND_INFO (version, flags, prolog size, frame register/offset, slots, then the tail words) and returns its RVA. */
  int info(int version, int flags, int prolog, int frameRegister, int frameOffset, int[] slots, int... tail) {
    align4();
    int rva = DATA_RVA + data.position();
    data.put((byte) (version | flags << 3)).put((byte) prolog).put((byte) slots.length).put((byte) (frameRegister | frameOffset << 4));
    for (int s : slots) data.putShort((short) s);
    if (slots.length % 2 != 0) data.putShort((short) 0);
    for (int t : tail) data.putInt(t);
    return rva;
  }

  /** Appends raw bytes and returns their RVA. */
  int raw(int... words) {
    align4();
    int rva = DATA_RVA + data.position();
    for (int w : words) data.putInt(w);
    return rva;
  }

  /** A RUNTIME_FUNCTION of the function table. */
  PeImages function(int begin, int end, int unwindData) {
    functions.add(new int[] {begin, end, unwindData});
    return this;
  }

  /** An unwind code slot: offset in the prolog, operation, operation information. */
  static int code(int offset, int op, int info) {
    return offset | op << 8 | info << 12;
  }

  private void align4() {
    while (data.position() % 4 != 0) data.put((byte) 0);
  }

  byte[] build() {
    align4();
    int pdata = DATA_RVA + data.position();
    for (int[] f : functions) data.putInt(f[0]).putInt(f[1]).putInt(f[2]);
    int size = data.position();
    int raw = (size + 0x1ff) & ~0x1ff;
    ByteBuffer b = ByteBuffer.allocate(DATA_FILE + raw).order(ByteOrder.LITTLE_ENDIAN);
    b.put(0, (byte) 'M').put(1, (byte) 'Z').putInt(0x3c, 0x80);
    b.putInt(0x80, 0x4550); // "PE\0\0"
    int coff = 0x84;
    b.putShort(coff, (short) machine).putShort(coff + 2, (short) 1).putShort(coff + 16, (short) 240).putShort(coff + 18, (short) 0x22);
    int opt = coff + 20;
    b.putShort(opt, (short) 0x20b).putLong(opt + 24, IMAGE_BASE).putInt(opt + 32, 0x1000).putInt(opt + 36, 0x200);
    b.putInt(opt + 56, DATA_RVA + raw).putInt(opt + 60, DATA_FILE);
    b.putInt(opt + 108, 16);
    b.putInt(opt + 112 + 3 * 8, pdata).putInt(opt + 112 + 3 * 8 + 4, functions.size() * 12);
    int sec = opt + 240;
    byte[] name = ".rdata\0\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    for (int i = 0; i < 8; i++) b.put(sec + i, name[i]);
    b.putInt(sec + 8, size).putInt(sec + 12, DATA_RVA).putInt(sec + 16, raw).putInt(sec + 20, DATA_FILE).putInt(sec + 36, 0x40000040);
    b.put(DATA_FILE, data.array(), 0, size);
    return b.array();
  }

  static PeUnwind read(byte[] image) {
    return PeUnwind.read(CoffFile.of(image, "test.exe"));
  }
}
