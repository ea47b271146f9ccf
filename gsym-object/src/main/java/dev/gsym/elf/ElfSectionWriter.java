package dev.gsym.elf;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a copy of an ELF file (32/64-bit, either byte order) with one non-allocated
 * {@code SHT_PROGBITS} section added, or replaced if the file has a section of that name, without
 * moving anything the loader or a debugger reads: every byte of the input keeps its offset (the
 * ELF header's {@code e_shoff}/{@code e_shnum}/{@code e_shstrndx} aside), and the new bytes go
 * after the end of the file:
 *
 * <pre>
 *   input bytes (all of them; see below for a replaced section at the end)
 *   copy of the section-name table plus the new name   (only when the name is not in it yet)
 *   the section's bytes                                (aligned to 8)
 *   the new section header table                       (aligned to 8 / 4): the old entries, the
 *                                                        name table's entry pointing at its copy,
 *                                                        the new section's entry last
 * </pre>
 *
 * <p>A replaced section keeps its index (so {@code sh_link}, {@code sh_info} and symbols' section
 * indexes stay right) and points at the new bytes. The old bytes of a replaced section and the old
 * section header table are cut from the end of the file when nothing else follows them, so
 * embedding again does not grow the file; elsewhere they stay, unreferenced. Extended numbering
 * ({@code e_shnum} 0 or {@code e_shstrndx} {@code SHN_XINDEX}, counts in section 0) is kept and
 * entered when the count reaches {@code SHN_LORESERVE}.
 */
public final class ElfSectionWriter {
  private static final int SHT_PROGBITS = 1;
  private static final int SHT_STRTAB = 3;
  private static final int SHN_LORESERVE = 0xff00;
  private static final int SHN_XINDEX = 0xffff;
  /** Alignment of the section's bytes in the file and its {@code sh_addralign}. */
  public static final int ALIGN = 8;
  private static final int COPY_CHUNK = 1 << 30;

  private final ElfFile elf;
  private final String name;
  private final long size;
  private final boolean is64;
  private final ByteOrder order;
  private final ByteView in;
  private final int entrySize;
  /** Index of the section replaced, or -1 when the section is added. */
  private final int replaced;
  /** Index of the section-name table in the output (maybe a new one), and whether it is written anew. */
  private final int names;
  private final byte[] newNames;
  private final int nameOffset;
  private final int count;
  private final long keep;
  private final long namesOffset;
  private final long dataOffset;
  private final long headersOffset;

  /**
   * Plans the output for the ELF {@code elf} with the section {@code name} of {@code size} bytes.
   *
   * @throws GsymFormatException when the file has no section header table, or a 32-bit file would
   *     need offsets of 4 GiB or more
   */
  public ElfSectionWriter(ElfFile elf, String name, long size) {
    this.elf = elf;
    this.name = name;
    this.size = size;
    this.is64 = elf.is64();
    this.order = elf.byteOrder();
    this.in = elf.bytes();
    List<ElfFile.Section> sections = elf.sections();
    if (sections.isEmpty()) {
      throw new GsymFormatException(elf.source(), is64 ? 40 : 32, "no section header table to add section " + name + " to");
    }
    this.entrySize = in.u16(is64 ? 58 : 46);
    int rawShstrndx = in.u16(is64 ? 62 : 50);
    int shstrndx = rawShstrndx == SHN_XINDEX ? (int) field(0, 40, 24, 4) : rawShstrndx;
    if (shstrndx >= sections.size()) shstrndx = 0;
    int found = -1;
    for (ElfFile.Section s : sections) {
      if (s.index() != 0 && s.name().equals(name)) found = s.index();
    }
    this.replaced = found;
    int total = sections.size() + (found >= 0 ? 0 : 1);
    // the name: in the existing table (at a string's end, which covers our own earlier copies), or
    // appended to a copy of it; a file without a name table gets a new ".shstrtab"
    byte[] wanted = (name + "\0").getBytes(StandardCharsets.UTF_8);
    ByteView table = shstrndx == 0 ? null : elf.rawData(sections.get(shstrndx));
    int at = found >= 0 ? (int) field(found, 0, 0, 4) : table == null ? -1 : indexOf(table, wanted);
    if (at >= 0) {
      this.names = shstrndx;
      this.newNames = null;
      this.nameOffset = at;
    } else if (table != null) {
      this.names = shstrndx;
      byte[] old = table.bytes(0, Math.toIntExact(table.size()));
      int start = old.length > 0 && old[old.length - 1] != 0 ? old.length + 1 : old.length;
      this.newNames = new byte[start + wanted.length];
      System.arraycopy(old, 0, newNames, 0, old.length);
      System.arraycopy(wanted, 0, newNames, start, wanted.length);
      this.nameOffset = start;
    } else {
      this.names = total++;
      byte[] strtab = (".shstrtab\0").getBytes(StandardCharsets.US_ASCII);
      this.newNames = new byte[1 + strtab.length + wanted.length];
      System.arraycopy(strtab, 0, newNames, 1, strtab.length);
      System.arraycopy(wanted, 0, newNames, 1 + strtab.length, wanted.length);
      this.nameOffset = 1 + strtab.length;
    }
    this.count = total;
    this.keep = keptLength(sections, shstrndx);
    long pos = keep;
    this.namesOffset = pos;
    if (newNames != null) pos += newNames.length;
    this.dataOffset = align(pos, ALIGN);
    this.headersOffset = align(dataOffset + size, is64 ? 8 : 4);
    if (!is64 && headersOffset + (long) count * entrySize > 0xffffffffL) {
      throw new GsymFormatException(elf.source(), -1, "a 32-bit ELF file cannot hold " + size + " more bytes in section " + name);
    }
  }

  /** The index of the section in the output. */
  public int sectionIndex() {
    return replaced >= 0 ? replaced : newNames != null && names == count - 1 ? count - 2 : count - 1;
  }

  /** True if a section of that name was there and is replaced. */
  public boolean replaces() {
    return replaced >= 0;
  }

  /** The file offset of the section's bytes in the output. */
  public long dataOffset() {
    return dataOffset;
  }

  /** The size of the output. */
  public long outputSize() {
    return headersOffset + (long) count * entrySize;
  }

  /** Writes the output: {@code data} (exactly the size given) becomes the section's bytes. */
  public void write(MemorySegment data, WritableByteChannel out) throws IOException {
    if (data.byteSize() != size) throw new IllegalArgumentException("section data is " + data.byteSize() + " bytes, planned " + size);
    int ehsize = is64 ? 64 : 52;
    ByteBuffer header = ByteBuffer.wrap(in.bytes(0, ehsize)).order(order);
    boolean extendedCount = in.u16(is64 ? 60 : 48) == 0 || count >= SHN_LORESERVE;
    if (is64) header.putLong(40, headersOffset);
    else header.putInt(32, (int) headersOffset);
    header.putShort(is64 ? 60 : 48, (short) (extendedCount ? 0 : count));
    int rawShstrndx = in.u16(is64 ? 62 : 50);
    boolean extendedNames = rawShstrndx == SHN_XINDEX || names >= SHN_LORESERVE;
    header.putShort(is64 ? 62 : 50, (short) (extendedNames ? SHN_XINDEX : names));
    writeFully(out, header);
    copy(in.segment().asSlice(ehsize, keep - ehsize), out);
    long pos = keep;
    if (newNames != null) {
      writeFully(out, ByteBuffer.wrap(newNames));
      pos += newNames.length;
    }
    pos = pad(out, pos, dataOffset);
    copy(data, out);
    pos = pad(out, pos + size, headersOffset);

    ByteBuffer table = ByteBuffer.allocate(Math.multiplyExact(count, entrySize)).order(order);
    int old = elf.sections().size();
    for (int i = 0; i < old; i++) {
      table.put(i * entrySize, in.bytes(elf.sectionHeaderOffset(i), entrySize));
    }
    if (extendedCount) set(table, 0, 32, 20, count);
    if (extendedNames) set(table, 0, 40, 24, names);
    if (newNames != null) {
      int n = names;
      if (n == old || n == old + 1) table.putInt(n * entrySize, 1); // a new ".shstrtab": its name at 1
      table.putInt(n * entrySize + 4, SHT_STRTAB);
      set(table, n, 24, 16, namesOffset);
      set(table, n, 32, 20, newNames.length);
      if (n >= old) set(table, n, 48, 32, 1);
    }
    int g = sectionIndex();
    int e = g * entrySize;
    table.put(e, new byte[entrySize], 0, entrySize);
    table.putInt(e, nameOffset);
    table.putInt(e + 4, SHT_PROGBITS);
    set(table, g, 24, 16, dataOffset);
    set(table, g, 32, 20, size);
    set(table, g, 48, 32, ALIGN);
    writeFully(out, table.clear());
  }

  /**
   * Where the output stops copying the input: the whole file, except that the old bytes of a
   * replaced section, a renewed name table and the old section header table are cut when they are
   * the last things in the file (with at most 7 zero bytes of alignment between them) and nothing
   * kept (headers, segments, other sections) reaches into them.
   */
  private long keptLength(List<ElfFile.Section> sections, int shstrndx) {
    List<long[]> dropped = new ArrayList<>();
    long shoff = word(is64 ? 40 : 32);
    dropped.add(new long[] {shoff, shoff + (long) sections.size() * entrySize});
    long used = is64 ? 64 : 52;
    int phnum = in.u16(is64 ? 56 : 44);
    long phoff = word(is64 ? 32 : 28);
    if (phnum > 0) used = Math.max(used, phoff + (long) phnum * in.u16(is64 ? 54 : 42));
    long end = in.size();
    // a header that points past the end of the file keeps everything (the file is copied whole)
    for (ElfFile.ProgramHeader p : elf.programHeaders()) used = Math.max(used, clampedEnd(p.offset(), p.filesz()));
    for (ElfFile.Section s : sections) {
      if (s.type() == ElfFile.SHT_NOBITS || s.size() == 0) continue;
      boolean drop = s.index() == replaced || (s.index() == shstrndx && newNames != null);
      if (drop) dropped.add(new long[] {s.offset(), clampedEnd(s.offset(), s.size())});
      else used = Math.max(used, clampedEnd(s.offset(), s.size()));
    }
    for (boolean cut = true; cut; ) {
      cut = false;
      for (long[] r : dropped) {
        if (r[0] < end && r[1] <= end && end - r[1] < ALIGN && zeros(r[1], end) && r[0] >= used) {
          end = r[0];
          cut = true;
        }
      }
    }
    return Math.max(end, used);
  }

  private long clampedEnd(long offset, long length) {
    long size = in.size();
    if (offset < 0 || length < 0 || offset > size || length > size - offset) return size;
    return offset + length;
  }

  /** e_phoff / e_shoff: 8 bytes in a 64-bit file, 4 in a 32-bit one. */
  private long word(int at) {
    return is64 ? in.u64(at) : in.u32(at);
  }

  private boolean zeros(long from, long to) {
    for (long i = from; i < to; i++) if (in.u8(i) != 0) return false;
    return true;
  }

  /** A section-header field of the input: at {@code off64} (64-bit) or {@code off32} (32-bit). */
  private long field(int index, int off64, int off32, int width) {
    long p = elf.sectionHeaderOffset(index) + (is64 ? off64 : off32);
    return is64 && width == 8 ? in.u64(p) : in.u32(p);
  }

  /** Sets an address-sized (sh_offset, sh_size, sh_addralign) or 32-bit field of entry {@code index}. */
  private void set(ByteBuffer table, int index, int off64, int off32, long value) {
    int p = index * entrySize + (is64 ? off64 : off32);
    boolean wide = is64 && off64 != 40 && off64 != 44;
    if (wide) table.putLong(p, value);
    else table.putInt(p, (int) value);
  }

  private static int indexOf(ByteView table, byte[] wanted) {
    long n = table.size();
    outer:
    for (long i = 0; i + wanted.length <= n; i++) {
      for (int j = 0; j < wanted.length; j++) if (table.u8(i + j) != (wanted[j] & 0xff)) continue outer;
      return (int) i;
    }
    return -1;
  }

  private static long align(long v, long a) {
    return (v + a - 1) & -a;
  }

  private static long pad(WritableByteChannel out, long pos, long to) throws IOException {
    if (to > pos) writeFully(out, ByteBuffer.allocate((int) (to - pos)));
    return to;
  }

  private static void copy(MemorySegment seg, WritableByteChannel out) throws IOException {
    for (long off = 0; off < seg.byteSize(); off += COPY_CHUNK) {
      writeFully(out, seg.asSlice(off, Math.min(COPY_CHUNK, seg.byteSize() - off)).asByteBuffer());
    }
  }

  private static void writeFully(WritableByteChannel out, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) out.write(b);
  }
}
