package dev.gsym.cfi;

import dev.gsym.io.ByteView;
import dev.gsym.unwind.UnwindSource;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Hand-assembled call frame information for unit tests: little- or big-endian bytes with LEB128s,
 * strings and entries whose initial length is filled in when they end.
 */
final class CfiBytes {
  private byte[] buf = new byte[64];
  private int size;
  private final ByteOrder order;
  private int entryStart = -1;
  private boolean entry64;

  CfiBytes(ByteOrder order) {
    this.order = order;
  }

  CfiBytes() {
    this(ByteOrder.LITTLE_ENDIAN);
  }

  int position() {
    return size;
  }

  private void write(int b) {
    if (size == buf.length) buf = java.util.Arrays.copyOf(buf, buf.length * 2);
    buf[size++] = (byte) b;
  }

  CfiBytes u8(int... bytes) {
    for (int b : bytes) write(b);
    return this;
  }

  CfiBytes uN(long v, int n) {
    for (int i = 0; i < n; i++) {
      int shift = order == ByteOrder.LITTLE_ENDIAN ? 8 * i : 8 * (n - 1 - i);
      write((int) (v >>> shift) & 0xff);
    }
    return this;
  }

  CfiBytes u16(long v) {
    return uN(v, 2);
  }

  CfiBytes u32(long v) {
    return uN(v, 4);
  }

  CfiBytes u64(long v) {
    return uN(v, 8);
  }

  CfiBytes uleb(long v) {
    do {
      int b = (int) (v & 0x7f);
      v >>>= 7;
      write(v != 0 ? b | 0x80 : b);
    } while (v != 0);
    return this;
  }

  CfiBytes sleb(long v) {
    while (true) {
      int b = (int) (v & 0x7f);
      v >>= 7;
      boolean done = (v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0);
      write(done ? b : b | 0x80);
      if (done) return this;
    }
  }

  CfiBytes cstring(String s) {
    for (byte c : s.getBytes(StandardCharsets.ISO_8859_1)) write(c);
    write(0);
    return this;
  }

  /** Starts an entry: a placeholder initial length (64-bit DWARF: 0xffffffff and a u64). */
  CfiBytes begin(boolean dwarf64) {
    entryStart = size;
    entry64 = dwarf64;
    if (dwarf64) u32(0xffffffffL).u64(0);
    else u32(0);
    return this;
  }

  CfiBytes begin() {
    return begin(false);
  }

  /** Pads with DW_CFA_nop to {@code align} bytes and patches the initial length. */
  CfiBytes end(int align) {
    int lengthField = entry64 ? 12 : 4;
    while ((size - entryStart) % align != 0) write(0);
    long length = size - entryStart - lengthField;
    int at = entryStart + (entry64 ? 4 : 0);
    int n = entry64 ? 8 : 4;
    for (int i = 0; i < n; i++) {
      int shift = order == ByteOrder.LITTLE_ENDIAN ? 8 * i : 8 * (n - 1 - i);
      buf[at + i] = (byte) (length >>> shift);
    }
    return this;
  }

  CfiBytes end() {
    return end(4);
  }

  /**
   * A standard .eh_frame CIE: version 1, augmentation "zR" with {@code fdeEncoding}, code alignment
   * 1, data alignment -8, return address 16, initial instructions {@code def_cfa rsp+8; offset rip -8}.
   */
  CfiBytes ehCie(int fdeEncoding) {
    return begin().u32(0).u8(1).cstring("zR").uleb(1).sleb(-8).u8(16).uleb(1).u8(fdeEncoding).u8(0x0c, 7, 8, 0x90, 1).end();
  }

  /** An .eh_frame FDE for the CIE at {@code cie}, pcrel sdata4 at section address {@code address}, with {@code insns}. */
  CfiBytes ehFde(int cie, long address, long pcBegin, long pcRange, int... insns) {
    begin();
    int idAt = position();
    u32(idAt - cie);
    int pcAt = position();
    u32(pcBegin - (address + pcAt));
    u32(pcRange).uleb(0).u8(insns);
    return end();
  }

  byte[] bytes() {
    return java.util.Arrays.copyOf(buf, size);
  }

  /** These bytes as a section at {@code address} whose first byte is at file offset {@code fileOffset}. */
  CfiSection section(UnwindSource kind, long address, long fileOffset, int addressSize, String arch) {
    ByteView v = new ByteView(MemorySegment.ofArray(bytes()), fileOffset, order, "test");
    return new CfiSection(kind, kind == UnwindSource.EH_FRAME ? ".eh_frame" : ".debug_frame", v, address, addressSize, arch, 0x5000L,
        0x9000L, null);
  }

  CfiSection eh(long address) {
    return section(UnwindSource.EH_FRAME, address, 0, 8, "x86_64");
  }
}
