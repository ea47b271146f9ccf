package dev.gsym.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.unwind.MemoryReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link ElfCore} on malformed and unusual cores: one clear error with the absolute file offset,
 * no allocation sized by a count from the file, memory semantics at segment edges.
 */
class ElfCoreHostileTest {
  private static GsymFormatException error(byte[] core) {
    try {
      ElfCore.of(core, "hostile.core").close();
    } catch (GsymFormatException e) {
      return e;
    }
    throw new AssertionError("no error");
  }

  @Test
  void notACoreFileIsRefused() {
    byte[] exec = CoreBuilder.x86_64().type(2).build();
    GsymFormatException e = error(exec);
    assertThat(e.offset()).isEqualTo(16);
    assertThat(e.getMessage()).contains("not a core file: e_type 2");
  }

  @Test
  void noteDescriptorNearTwoToThe32IsRefused() {
    CoreBuilder b = CoreBuilder.x86_64();
    long at = b.nextNoteOffset();
    byte[] header = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(5).putInt(0xffff_fff0).putInt(ElfCore.NT_FILE)
        .put("CORE\0\0\0\0".getBytes()).array();
    GsymFormatException e = error(b.rawNote(header).build());
    assertThat(e.offset()).isEqualTo(at + 4);
    assertThat(e.detail()).isEqualTo("note descriptor of 4294967280 bytes runs past its PT_NOTE");
  }

  @Test
  void noteNameNearTwoToThe32IsRefused() {
    CoreBuilder b = CoreBuilder.x86_64();
    long at = b.nextNoteOffset();
    byte[] header = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(0xffff_ffff).putInt(0).putInt(1).array();
    GsymFormatException e = error(b.rawNote(header).build());
    assertThat(e.offset()).isEqualTo(at);
    assertThat(e.detail()).contains("note name of 4294967295 bytes");
  }

  @Test
  void noteDescriptorPastTheSegmentIsRefused() {
    CoreBuilder b = CoreBuilder.x86_64();
    long at = b.nextNoteOffset();
    b.note(ElfCore.NT_AUXV, b.words(ElfCore.AT_ENTRY, 0x1000, 0, 0));
    // the segment ends 8 bytes before the descriptor does
    byte[] core = b.noteSegment(b.noteDataOffset(), 12 + 8 + 32 - 8).build();
    GsymFormatException e = error(core);
    assertThat(e.offset()).isEqualTo(at + 4);
    assertThat(e.detail()).contains("note descriptor of 32 bytes runs past its PT_NOTE");
  }

  @Test
  void noteSegmentPastTheFileIsRefused() {
    CoreBuilder b = CoreBuilder.x86_64();
    byte[] core = b.noteSegment(1 << 20, 64).build();
    GsymFormatException e = error(core);
    assertThat(e.offset()).isEqualTo(b.programHeaderOffset(0));
    assertThat(e.detail()).isEqualTo("PT_NOTE past the end of the file");
  }

  @Test
  void noteHeaderCutShortIsRefused() {
    CoreBuilder b = CoreBuilder.x86_64();
    long at = b.nextNoteOffset();
    GsymFormatException e = error(b.rawNote(new byte[8]).build());
    assertThat(e.offset()).isEqualTo(at);
    assertThat(e.detail()).contains("note header cut short");
  }

  @Test
  void fileCountsNearTwoToThe32AndTheWordAreRefusedWithoutAllocating() {
    CoreBuilder b = CoreBuilder.x86_64();
    long at = b.nextNoteOffset() + 20;
    GsymFormatException e = error(b.note(ElfCore.NT_FILE, b.words(0xffff_ffffL, 4096)).build());
    assertThat(e.offset()).isEqualTo(at);
    assertThat(e.detail()).contains("NT_FILE count 4294967295 is more than 1048576");
    CoreBuilder c = CoreBuilder.x86_64();
    e = error(c.note(ElfCore.NT_FILE, c.words(-1L, 4096)).build());
    assertThat(e.detail()).contains("NT_FILE count 18446744073709551615");
    CoreBuilder d = CoreBuilder.x86_64();
    e = error(d.note(ElfCore.NT_FILE, d.words(1000, 4096, 0, 0x1000, 0)).build());
    assertThat(e.detail()).isEqualTo("NT_FILE count 1000 needs 24016 bytes, the note has 40");
  }

  @Test
  void fileEntriesAreChecked() {
    CoreBuilder b = CoreBuilder.x86_64();
    long desc = b.nextNoteOffset() + 20;
    // two entries, one path
    byte[] d = concat(b.words(2, 4096, 0x1000, 0x2000, 0, 0x3000, 0x4000, 1), "/a\0".getBytes());
    GsymFormatException e = error(b.note(ElfCore.NT_FILE, d).build());
    assertThat(e.detail()).isEqualTo("NT_FILE has 1 of its 2 paths");
    assertThat(e.offset()).isEqualTo(desc + 8 * 8 + 3);
    CoreBuilder c = CoreBuilder.x86_64();
    e = error(c.note(ElfCore.NT_FILE, concat(c.words(1, 4096, 0x2000, 0x1000, 0), "/a\0".getBytes())).build());
    assertThat(e.detail()).isEqualTo("NT_FILE mapping ends before it starts");
    CoreBuilder f = CoreBuilder.x86_64();
    e = error(f.note(ElfCore.NT_FILE, concat(f.words(1, 3000, 0x1000, 0x2000, 0), "/a\0".getBytes())).build());
    assertThat(e.detail()).contains("page size 3000 is not a power of two");
  }

  @Test
  void aOneMegabytePathIsRead() {
    CoreBuilder b = CoreBuilder.x86_64();
    byte[] path = new byte[1 << 20];
    Arrays.fill(path, (byte) 'p');
    path[0] = '/';
    byte[] d = concat(b.words(1, 4096, 0x10000, 0x11000, 3), path, new byte[] {0});
    long t0 = System.nanoTime();
    try (ElfCore core = ElfCore.of(b.note(ElfCore.NT_FILE, d).build(), "long-path.core")) {
      assertThat(core.files()).hasSize(1);
      ElfCore.MappedFile f = core.files().get(0);
      assertThat(f.path()).hasSize(1 << 20).startsWith("/ppp");
      assertThat(f.fileOffset()).isEqualTo(3 * 4096);
      // mapped, but its header is not in the core: a module of unknown build-id
      assertThat(core.modules()).isEmpty(); // not mapped from offset 0
    }
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(2000);
  }

  @Test
  void auxvLongerThanAnyKernelsIsRefused() {
    CoreBuilder b = CoreBuilder.x86_64();
    long[] words = new long[2 * (ElfCore.MAX_AUXV + 1)];
    for (int i = 0; i < words.length; i += 2) words[i] = 100 + i;
    GsymFormatException e = error(b.note(ElfCore.NT_AUXV, b.words(words)).build());
    assertThat(e.detail()).isEqualTo("more than 4096 auxiliary vector entries");
  }

  @Test
  void shortNotesAreRefused() {
    CoreBuilder b = CoreBuilder.x86_64();
    long desc = b.nextNoteOffset() + 20;
    GsymFormatException e = error(b.note(ElfCore.NT_PRSTATUS, new byte[200]).build());
    assertThat(e.offset()).isEqualTo(desc);
    assertThat(e.detail()).isEqualTo("NT_PRSTATUS of 200 bytes, needs 328");
    CoreBuilder c = CoreBuilder.x86_64();
    assertThat(error(c.note(ElfCore.NT_SIGINFO, new byte[20]).build()).detail()).isEqualTo("NT_SIGINFO of 20 bytes, needs 24");
    CoreBuilder d = CoreBuilder.x86_64();
    assertThat(error(d.note(ElfCore.NT_PRPSINFO, new byte[100]).build()).detail()).contains("NT_PRPSINFO of 100 bytes");
  }

  @Test
  void notesOfOtherOwnersAreSkipped() {
    CoreBuilder b = CoreBuilder.x86_64();
    // a LINUX note of type 1 is not an NT_PRSTATUS (NT_PPC_VMX and friends reuse small numbers)
    try (ElfCore core = ElfCore.of(b.note("LINUX", ElfCore.NT_PRSTATUS, new byte[8]).build(), "x")) {
      assertThat(core.threads()).isEmpty();
    }
  }

  @Test
  void overlappingAndWrappingSegmentsAreRefused() {
    CoreBuilder b = CoreBuilder.x86_64().load(0x1000, 0x2000, new byte[16]).load(0x2000, 0x1000, new byte[16]);
    GsymFormatException e = error(b.build());
    assertThat(e.offset()).isEqualTo(b.programHeaderOffset(2));
    assertThat(e.detail()).isEqualTo("PT_LOAD at 0x2000 overlaps the one at 0x1000");
    CoreBuilder c = CoreBuilder.x86_64().load(0xffff_ffff_ffff_f000L, 0x2000, new byte[0]);
    assertThat(error(c.build()).detail()).isEqualTo("PT_LOAD ends past the address space");
    CoreBuilder d = CoreBuilder.x86_64().loadClaiming(0x1000, 0x10, 0x20, new byte[0x20]);
    assertThat(error(d.build()).detail()).isEqualTo("PT_LOAD p_filesz is larger than its p_memsz");
  }

  @Test
  void memoryPastFileSizeIsUnreadableAndAdjacentSegmentsJoin() {
    byte[] first = new byte[0x1000];
    byte[] second = new byte[0x800];
    for (int i = 0; i < first.length; i++) first[i] = (byte) i;
    for (int i = 0; i < second.length; i++) second[i] = (byte) (0x80 + i);
    CoreBuilder b = CoreBuilder.x86_64().load(0x10000, 0x1000, first).load(0x11000, 0x1000, second);
    try (ElfCore core = ElfCore.of(b.build(), "mem.core")) {
      MemoryReader m = core.memory();
      assertThat(m.readable(0x10000, 8)).isTrue();
      assertThat(m.read(0x10000, 8)).isEqualTo(0x0706050403020100L);
      // a word across the two segments
      assertThat(m.readable(0x10ffc, 8)).isTrue();
      assertThat(m.read(0x10ffc, 8)).isEqualTo(0x838281_80_fffefdfcL);
      assertThat(core.read(0x10ffe, 4)).containsExactly(0xfe, 0xff, 0x80, 0x81);
      // the second segment's memory past its p_filesz is not in the core: unreadable, not zero
      assertThat(m.readable(0x117f8, 8)).isTrue();
      assertThat(m.readable(0x117fc, 8)).isFalse();
      assertThat(m.readable(0x11800, 1)).isFalse();
      assertThat(core.read(0x117fc, 8)).isNull();
      // below, between and above the segments; at the top of the address space
      assertThat(m.readable(0xffff, 1)).isFalse();
      assertThat(m.readable(0x12000, 1)).isFalse();
      assertThat(m.readable(-8, 8)).isFalse();
      assertThat(m.readable(-1, 8)).isFalse();
      assertThat(m.readable(0x10000, 0)).isFalse();
      assertThat(m.readable(0x10000, 9)).isFalse();
      assertThat(core.truncated()).isFalse();
    }
  }

  @Test
  void aTruncatedCoreKeepsWhatItHas() {
    byte[] data = new byte[0x100];
    Arrays.fill(data, (byte) 0x5a);
    // p_filesz claims 0x1000 bytes; the file ends after 0x100
    CoreBuilder b = CoreBuilder.x86_64().loadClaiming(0x40000, 0x1000, 0x1000, data);
    try (ElfCore core = ElfCore.of(b.build(), "cut.core")) {
      assertThat(core.truncated()).isTrue();
      assertThat(core.segments().get(0).fileSize()).isEqualTo(0x100);
      assertThat(core.memory().read(0x400f8, 8)).isEqualTo(0x5a5a5a5a5a5a5a5aL);
      assertThat(core.memory().readable(0x400fc, 8)).isFalse();
    }
  }

  @Test
  void registersOfAnX86_64Thread() {
    CoreBuilder b = CoreBuilder.x86_64();
    long[] regs = new long[27];
    for (int i = 0; i < regs.length; i++) regs[i] = 0x1000 + i; // r15 = 0x1000, r14 = 0x1001, ...
    try (ElfCore core = ElfCore.of(b.note(ElfCore.NT_PRSTATUS, b.prstatus(42, 11, regs)).build(), "x")) {
      ElfCore.CoreThread t = core.threads().get(0);
      assertThat(t.pid()).isEqualTo(42);
      assertThat(t.signal()).isEqualTo(11);
      var r = core.registers(t);
      assertThat(r.get(15)).isEqualTo(0x1000); // r15
      assertThat(r.get(6)).isEqualTo(0x1004); // rbp
      assertThat(r.get(0)).isEqualTo(0x100a); // rax
      assertThat(r.get(7)).isEqualTo(0x1013); // rsp
      assertThat(r.pc()).isEqualTo(0x1010).isEqualTo(r.get(16)); // rip
      assertThat(core.generalRegisters(t)).containsEntry("orig_rax", 0x100fL).containsEntry("gs", 0x101aL).hasSize(27);
    }
  }

  /**
   * AArch64's {@code user_regs_struct}: x0-x30, sp, pc, pstate (arch/arm64/include/uapi/asm/ptrace.h);
   * {@code pr_reg} at offset 112 as on every 64-bit Linux.
   */
  @Test
  void registersOfAnAarch64Thread() {
    CoreBuilder b = new CoreBuilder(true, 183);
    long[] regs = new long[34];
    for (int i = 0; i < regs.length; i++) regs[i] = 0xa000 + i;
    try (ElfCore core = ElfCore.of(b.note(ElfCore.NT_PRSTATUS, b.prstatus(7, 6, regs)).build(), "a64")) {
      assertThat(core.arch()).isEqualTo(dev.gsym.unwind.Arch.AARCH64);
      var r = core.registers(core.threads().get(0));
      assertThat(r.get(0)).isEqualTo(0xa000);
      assertThat(r.get(29)).isEqualTo(0xa01d); // fp
      assertThat(r.get(30)).isEqualTo(0xa01e); // lr
      assertThat(r.get(31)).isEqualTo(0xa01f); // sp
      assertThat(r.pc()).isEqualTo(0xa020);
      assertThat(r.has(32)).isFalse();
      assertThat(core.generalRegisters(core.threads().get(0))).containsEntry("cpsr", 0xa021L).containsEntry("pc", 0xa020L);
    }
  }

  @Test
  void aMachineWithoutARegisterLayoutHasThreadsWithoutRegisters() {
    CoreBuilder b = new CoreBuilder(true, 22); // s390x
    try (ElfCore core = ElfCore.of(b.note(ElfCore.NT_PRSTATUS, b.prstatus(9, 11)).build(), "s390")) {
      assertThat(core.hasRegisterLayout()).isFalse();
      assertThat(core.threads()).hasSize(1);
      assertThat(core.threads().get(0).pid()).isEqualTo(9);
      assertThat(core.registers(core.threads().get(0)).hasPc()).isFalse();
    }
  }

  @Test
  void hostileImageHeadersInMemoryGiveModulesWithoutBuildIds() {
    // an ELF header whose e_phnum (0xffff) is over the limit, mapped from its file's start
    byte[] image = new byte[0x1000];
    image[0] = 0x7f;
    image[1] = 'E';
    image[2] = 'L';
    image[3] = 'F';
    image[4] = 2;
    ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).putLong(32, 64).putShort(54, (short) 56).putShort(56, (short) 0xffff);
    CoreBuilder b = CoreBuilder.x86_64();
    b.note(ElfCore.NT_FILE, concat(b.words(1, 4096, 0x400000, 0x401000, 0), "/bin/hostile\0".getBytes()));
    b.load(0x400000, 0x1000, image);
    try (ElfCore core = ElfCore.of(b.build(), "x")) {
      assertThat(core.modules()).hasSize(1);
      ElfCore.CoreModule m = core.modules().get(0);
      assertThat(m.path()).isEqualTo("/bin/hostile");
      assertThat(m.buildId()).isNull();
      assertThat(m.base()).isEqualTo(0x400000);
      assertThat(m.end()).isEqualTo(0x401000);
    }
  }

  /**
   * A process with more than 65,534 mappings has a core with e_phnum = PN_XNUM and the real count
   * in section header 0's sh_info (the kernel's fill_extnum_info). 70,000 segments here.
   */
  @Test
  void moreThan65534SegmentsUseExtendedNumbering() {
    CoreBuilder b = CoreBuilder.x86_64().extendedNumbering();
    for (int i = 0; i < 70_000; i++) b.load(0x100000L + i * 0x2000L, 0x1000, new byte[] {(byte) i, (byte) (i >> 8), (byte) (i >> 16), 0});
    try (ElfCore core = ElfCore.of(b.build(), "xnum.core")) {
      assertThat(core.elf().programHeaders()).hasSize(70_001);
      assertThat(core.segments()).hasSize(70_000);
      assertThat(core.memory().read(0x100000L + 69_999 * 0x2000L, 4)).isEqualTo(69_999);
      assertThat(core.memory().readable(0x100000L + 69_999 * 0x2000L + 4, 1)).isFalse();
    }
  }

  /**
   * Program headers (found by AT_PHDR, without NT_FILE) whose PT_LOAD ends at the top of the address
   * space: the module's end wrapped to 0, below its base (fuzz finding crash-10af0692…).
   */
  @Test
  void aModuleEndingAtTheTopOfTheAddressSpaceKeepsItsEndAboveItsBase() {
    byte[] page = new byte[0x1000];
    ByteBuffer p = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
    p.put(0, (byte) 0x7f).put(1, (byte) 'E').put(2, (byte) 'L').put(3, (byte) 'F').put(4, (byte) 2);
    p.putLong(32, 0x40).putShort(54, (short) 56).putShort(56, (short) 3); // e_phoff, e_phentsize, e_phnum
    p.putInt(0x40, 6).putLong(0x40 + 16, 0x40); // PT_PHDR at 0x40
    p.putInt(0x78, 1).putLong(0x78 + 16, 0).putLong(0x78 + 40, 0); // PT_LOAD at 0
    p.putInt(0xb0, 1).putLong(0xb0 + 16, 0x1000).putLong(0xb0 + 40, -0x3000L); // PT_LOAD wrapping past 2^64
    CoreBuilder b = CoreBuilder.x86_64();
    b.note(ElfCore.NT_AUXV, b.words(ElfCore.AT_PHDR, 0x200040, ElfCore.AT_PHENT, 56, ElfCore.AT_PHNUM, 3, 0, 0));
    b.load(0x200000, 0x1000, page);
    try (ElfCore core = ElfCore.of(b.build(), "x")) {
      assertThat(core.modules()).hasSize(1);
      ElfCore.CoreModule m = core.modules().get(0);
      assertThat(m.base()).isEqualTo(0x200000);
      assertThat(Long.compareUnsigned(m.end(), m.base())).isGreaterThanOrEqualTo(0);
    }
  }

  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) n += p.length;
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
