package dev.gsym.elf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small ELF core files for the tests of hostile and unusual input: an ELF header ({@code
 * ET_CORE}, 64- or 32-bit little-endian), one {@code PT_NOTE} with the notes added, then one
 * {@code PT_LOAD} per segment added, in that order. Offsets of the parts are reported so tests can
 * check the offsets in error messages.
 */
final class CoreBuilder {
  private final boolean is64;
  private final int machine;
  private int type = ElfCore.ET_CORE;
  private final ByteArrayOutputStream notes = new ByteArrayOutputStream();
  private final List<long[]> loads = new ArrayList<>(); // vaddr, memsz, filesz override (-1: data length)
  private final List<byte[]> loadData = new ArrayList<>();
  private long noteOffsetOverride = -1;
  private boolean extendedNumbering;
  private long noteSizeOverride = -1;

  CoreBuilder(boolean is64, int machine) {
    this.is64 = is64;
    this.machine = machine;
  }

  static CoreBuilder x86_64() {
    return new CoreBuilder(true, 62);
  }

  CoreBuilder type(int t) {
    type = t;
    return this;
  }

  int wordSize() {
    return is64 ? 8 : 4;
  }

  /** Offset of the PT_NOTE's data in the file. */
  long noteDataOffset() {
    return headerSize() + (long) (1 + loads.size()) * phentsize();
  }

  /** Offset in the file of the next note added. */
  long nextNoteOffset() {
    return noteDataOffset() + notes.size();
  }

  /** Adds a note with name "CORE", padded as ELF notes are. */
  CoreBuilder note(int type, byte[] desc) {
    return note("CORE", type, desc);
  }

  CoreBuilder note(String name, int type, byte[] desc) {
    byte[] n = (name + "\0").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    ByteBuffer b = ByteBuffer.allocate(12 + align4(n.length) + align4(desc.length)).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(n.length).putInt(desc.length).putInt(type).put(n);
    b.position(12 + align4(n.length));
    b.put(desc);
    notes.writeBytes(b.array());
    return this;
  }

  /** Adds raw note bytes (a header that lies, for instance). */
  CoreBuilder rawNote(byte[] bytes) {
    notes.writeBytes(bytes);
    return this;
  }

  /** Writes e_phnum as PN_XNUM and the real count in sh_info of a section header 0 after the data. */
  CoreBuilder extendedNumbering() {
    extendedNumbering = true;
    return this;
  }

  CoreBuilder noteSegment(long offset, long size) {
    noteOffsetOverride = offset;
    noteSizeOverride = size;
    return this;
  }

  /** A PT_LOAD at {@code vaddr} of {@code memsz} bytes whose first {@code data.length} are in the file. */
  CoreBuilder load(long vaddr, long memsz, byte[] data) {
    loads.add(new long[] {vaddr, memsz, -1});
    loadData.add(data);
    return this;
  }

  /** A PT_LOAD whose p_filesz claims {@code filesz} bytes while only {@code data} is written. */
  CoreBuilder loadClaiming(long vaddr, long memsz, long filesz, byte[] data) {
    loads.add(new long[] {vaddr, memsz, filesz});
    loadData.add(data);
    return this;
  }

  private int headerSize() {
    return is64 ? 64 : 52;
  }

  private int phentsize() {
    return is64 ? 56 : 32;
  }

  /** Offset of program header {@code i} (0: the PT_NOTE). */
  long programHeaderOffset(int i) {
    return headerSize() + (long) i * phentsize();
  }

  /** Offset of the data of load {@code i}. */
  long loadDataOffset(int i) {
    long at = noteDataOffset() + notes.size();
    for (int k = 0; k < i; k++) at += loadData.get(k).length;
    return at;
  }

  byte[] build() {
    int phnum = 1 + loads.size();
    long dataEnd = loadDataOffset(loads.size());
    long total = dataEnd + (extendedNumbering ? (is64 ? 64 : 40) : 0);
    ByteBuffer b = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', (byte) (is64 ? 2 : 1), 1, 1, 0});
    b.position(16);
    b.putShort((short) type).putShort((short) machine).putInt(1);
    long shoff = extendedNumbering ? dataEnd : 0;
    short ePhnum = (short) (extendedNumbering ? ElfFile.PN_XNUM : phnum);
    short eShnum = (short) (extendedNumbering ? 1 : 0);
    if (is64) {
      b.putLong(0).putLong(headerSize()).putLong(shoff); // entry, phoff, shoff
      b.putInt(0).putShort((short) 64).putShort((short) 56).putShort(ePhnum).putShort((short) 64).putShort(eShnum).putShort((short) 0);
    } else {
      b.putInt(0).putInt(headerSize()).putInt((int) shoff);
      b.putInt(0).putShort((short) 52).putShort((short) 32).putShort(ePhnum).putShort((short) 40).putShort(eShnum).putShort((short) 0);
    }
    if (extendedNumbering) b.putInt((int) dataEnd + (is64 ? 44 : 28), phnum); // sh_info of section 0
    long noteOff = noteOffsetOverride >= 0 ? noteOffsetOverride : noteDataOffset();
    long noteSize = noteSizeOverride >= 0 ? noteSizeOverride : notes.size();
    phdr(b, 0, ElfCore.PT_NOTE, 4, noteOff, 0, noteSize, 0, 4);
    long at = noteDataOffset() + notes.size();
    for (int i = 0; i < loads.size(); i++) {
      long[] l = loads.get(i);
      long filesz = l[2] >= 0 ? l[2] : loadData.get(i).length;
      phdr(b, 1 + i, ElfFile.PT_LOAD, 6, at, l[0], filesz, l[1], 4096);
      at += loadData.get(i).length;
    }
    b.position((int) noteDataOffset());
    b.put(notes.toByteArray());
    for (byte[] d : loadData) b.put(d);
    return b.array();
  }

  private void phdr(ByteBuffer b, int i, int type, int flags, long offset, long vaddr, long filesz, long memsz, long align) {
    b.position((int) programHeaderOffset(i));
    if (is64) {
      b.putInt(type).putInt(flags).putLong(offset).putLong(vaddr).putLong(0).putLong(filesz).putLong(memsz).putLong(align);
    } else {
      b.putInt(type).putInt((int) offset).putInt((int) vaddr).putInt(0).putInt((int) filesz).putInt((int) memsz).putInt(flags)
          .putInt((int) align);
    }
  }

  private static int align4(int n) {
    return (n + 3) & ~3;
  }

  /** Words of the core's size as little-endian bytes. */
  byte[] words(long... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * wordSize()).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      if (is64) b.putLong(v);
      else b.putInt((int) v);
    }
    return b.array();
  }

  /** An NT_PRSTATUS of this layout (x86-64: 336 bytes) for thread {@code pid} with its registers in kernel order. */
  byte[] prstatus(int pid, int signal, long... regs) {
    int w = wordSize();
    int regsAt = 32 + 10 * w;
    ByteBuffer b = ByteBuffer.allocate(regsAt + regs.length * w + 4 + (is64 ? 4 : 0)).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, signal);
    b.putShort(12, (short) signal);
    b.putInt(16 + 2 * w, pid);
    for (int i = 0; i < regs.length; i++) {
      if (is64) b.putLong(regsAt + i * w, regs[i]);
      else b.putInt(regsAt + i * w, (int) regs[i]);
    }
    return b.array();
  }
}
