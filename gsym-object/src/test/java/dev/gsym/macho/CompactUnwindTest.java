package dev.gsym.macho;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfiTable;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * {@link CompactUnwind} on hand-made sections and encodings: libunwind's reading of what compilers
 * do not emit (i386 frames with ECX/EDX, bad registers, undecodable permutations), and malformed
 * sections (errors at the absolute file offset of the bad field).
 */
class CompactUnwindTest {
  /** Where the hand-made sections pretend to lie in their file. */
  private static final long AT = 0x5000;

  private static CompactUnwind.Plan plan(Arch arch, int encoding) {
    return CompactUnwind.plan(arch, encoding, 7, 0x1000, 0x40, a -> a == 0x1000 + 0x0b ? 0x12340 : -1);
  }

  private static String row(Arch arch, int encoding) {
    CompactUnwind.Plan p = plan(arch, encoding);
    assertThat(p).as(Integer.toHexString(encoding)).isInstanceOf(CompactUnwind.Plan.Rows.class);
    CfiTable t = ((CompactUnwind.Plan.Rows) p).table();
    assertThat(t.start()).isEqualTo(0x1000);
    assertThat(t.length()).isEqualTo(0x40);
    assertThat(t.ordinal()).isEqualTo(7);
    assertThat(t.rows()).hasSize(1);
    return t.rows().getFirst().toString();
  }

  private static String invalid(Arch arch, int encoding) {
    CompactUnwind.Plan p = plan(arch, encoding);
    assertThat(p).as(Integer.toHexString(encoding)).isInstanceOf(CompactUnwind.Plan.Invalid.class);
    return ((CompactUnwind.Plan.Invalid) p).reason();
  }

  @Test
  void i386FramesWithEveryRegister() {
    // EBP frame, offset 5, slots: EBX ECX EDX EDI ESI (1 2 3 4 5), from ebp-20 upwards; CFA = ebp+8
    int slots = 1 | 2 << 3 | 3 << 6 | 4 << 9 | 5 << 12;
    assertThat(row(Arch.X86, 0x01050000 | slots)).isEqualTo(
        "0x1000: CFA=reg5+8: reg1=[CFA-24], reg2=[CFA-20], reg3=[CFA-28], reg5=[CFA-8], reg6=[CFA-12], reg7=[CFA-16], reg8=[CFA-4]");
    // EBP in a frame slot: libunwind aborts
    assertThat(invalid(Arch.X86, 0x01010006)).contains("EBP");
    // frameless, 6 registers, permutation 0 (EBX ECX EDX EDI ESI EBP from the lowest address), 64 bytes
    assertThat(row(Arch.X86, 0x02101800)).isEqualTo(
        "0x1000: CFA=reg4+64: reg1=[CFA-24], reg2=[CFA-20], reg3=[CFA-28], reg5=[CFA-8], reg6=[CFA-12], reg7=[CFA-16], reg8=[CFA-4]");
    // STACK_IND: the immediate at function + 0x0b (0x12340) plus 4 * adjust 2
    assertThat(row(Arch.X86, 0x030b4000)).isEqualTo("0x1000: CFA=reg4+74568: reg8=[CFA-4]");
  }

  @Test
  void x86_64Encodings() {
    // RBP frame: slots RBX R12 (1, 2), offset 2; CFA = rbp+16
    assertThat(row(Arch.X86_64, 0x01020000 | 1 | 2 << 3)).isEqualTo(
        "0x1000: CFA=reg6+16: reg3=[CFA-32], reg6=[CFA-16], reg12=[CFA-24], reg16=[CFA-8]");
    // an empty slot between two: the slot keeps its place
    assertThat(row(Arch.X86_64, 0x01030000 | 1 | 3 << 6)).isEqualTo(
        "0x1000: CFA=reg6+16: reg3=[CFA-40], reg6=[CFA-16], reg13=[CFA-24], reg16=[CFA-8]");
    assertThat(invalid(Arch.X86_64, 0x01010006)).contains("RBP");
    assertThat(invalid(Arch.X86_64, 0x01010007)).contains("register 7");
    // frameless, 2 registers, permutation 5*1 + 2 = 7 (digits 1, 2: R12, then R14)
    assertThat(row(Arch.X86_64, 0x02040800 | 7)).isEqualTo("0x1000: CFA=reg7+32: reg12=[CFA-24], reg14=[CFA-16], reg16=[CFA-8]");
    // STACK_IND, 3 registers pushed (adjust 4), immediate 0x12340 at function + 0x0b
    assertThat(row(Arch.X86_64, 0x030b8c00)).isEqualTo(
        "0x1000: CFA=reg7+74592: reg3=[CFA-32], reg12=[CFA-24], reg13=[CFA-16], reg16=[CFA-8]");
    assertThat(invalid(Arch.X86_64, 0x030c8c00)).contains("no code at 0x100c");
    assertThat(invalid(Arch.X86_64, 0x02041c00)).contains("7 saved registers");
    // one register, digit 6: no seventh register
    assertThat(invalid(Arch.X86_64, 0x02040400 | 6)).contains("does not decode");
    assertThat(plan(Arch.X86_64, 0x04001234)).isEqualTo(new CompactUnwind.Plan.Dwarf(0x1234));
    assertThat(plan(Arch.X86_64, 0)).isEqualTo(new CompactUnwind.Plan.NoInfo());
    // mode 0 with other bits, mode 5: libunwind aborts
    assertThat(invalid(Arch.X86_64, 0x40000000)).contains("mode 0x0");
    assertThat(invalid(Arch.X86_64, 0x05000000)).contains("mode 0x5");
  }

  @Test
  void lehmerCodesOfSixRegisters() {
    // every permutation of 6 registers decodes to a distinct order (720 codes in 10 bits)
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int p = 0; p < 720; p++) {
      int[] regs = CompactUnwind.decodePermutation(6, p);
      assertThat(regs).isNotNull();
      assertThat(java.util.Arrays.stream(regs).sorted().toArray()).containsExactly(1, 2, 3, 4, 5, 6);
      seen.add(java.util.Arrays.toString(regs));
    }
    assertThat(seen).hasSize(720);
    assertThat(CompactUnwind.decodePermutation(6, 0)).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(CompactUnwind.decodePermutation(6, 719)).containsExactly(6, 5, 4, 3, 2, 1);
  }

  @Test
  void arm64Encodings() {
    assertThat(row(Arch.AARCH64, 0x04000000)).isEqualTo("0x1000: CFA=reg29+16: reg29=[CFA-16], reg30=[CFA-8]");
    // x19/x20 and d14/d15: the d pair right below the x pair
    assertThat(row(Arch.AARCH64, 0x04000801)).isEqualTo(
        "0x1000: CFA=reg29+16: reg19=[CFA-24], reg20=[CFA-32], reg29=[CFA-16], reg30=[CFA-8], reg78=[CFA-40], reg79=[CFA-48]");
    // a signed return address
    assertThat(row(Arch.AARCH64, 0x05000000)).isEqualTo("0x1000: CFA=reg29+16: reg29=[CFA-16], reg30=[CFA-8], reg34=1");
    assertThat(row(Arch.AARCH64, 0x02000000)).isEqualTo("0x1000: CFA=reg31+0");
    assertThat(row(Arch.AARCH64, 0x02fff000)).isEqualTo("0x1000: CFA=reg31+65520");
    assertThat(row(Arch.AARCH64, 0x02002002)).isEqualTo("0x1000: CFA=reg31+32: reg21=[CFA-8], reg22=[CFA-16]");
    assertThat(plan(Arch.AARCH64, 0x03000040)).isEqualTo(new CompactUnwind.Plan.Dwarf(0x40));
    assertThat(invalid(Arch.AARCH64, 0x01000000)).contains("mode 0x1");
    assertThat(invalid(null, 0x01000000)).contains("not supported");
    assertThat(invalid(Arch.ARM, 0x01000000)).contains("not supported");
  }

  /** A hand-made __unwind_info: a header, then the words given, in a view at file offset {@link #AT}. */
  private static ByteView section(int... words) {
    ByteBuffer b = ByteBuffer.allocate(words.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int w : words) b.putInt(w);
    return new ByteView(MemorySegment.ofArray(b.array()), AT, ByteOrder.LITTLE_ENDIAN, "test.__unwind_info");
  }

  private static CompactUnwind parse(ByteView v) {
    return CompactUnwind.parse(v, 0x100000000L, Arch.X86_64, a -> -1);
  }

  /**
   * A valid section: 1 common encoding (RBP frame), 1 personality, index [0x1000 -> page at 0x40,
   * sentinel 0x1100], one LSDA entry, a compressed page of two entries (the second with the LSDA
   * bit and personality 1, a page encoding).
   */
  private static int[] valid() {
    return new int[] {
        1, 28, 1, 32, 1, 36, 2, // header: version, common at 28 (1), personalities at 32 (1), index at 36 (2)
        0x01000000, // common encoding 0
        0x3000, // personality 1
        0x1000, 68, 60, // index 0: page at 68, LSDA index at 60
        0x1100, 0, 68, // sentinel
        0x1080, 0x2000, // LSDA entry: function 0x1080
        3, 12 | 2 << 16, 20 | 1 << 16, // page: kind 3, entries at 12, 2 entries, encodings at 20, 1 encoding
        0x00000000, // entry 0: offset 0, encoding 0 (common)
        0x01000080, // entry 1: offset 0x80, encoding 1 (the page's)
        0x51000000, // page encoding: RBP frame, LSDA, personality 1
    };
  }

  @Test
  void aHandMadeSection() {
    CompactUnwind cu = parse(section(valid()));
    assertThat(cu.ranges()).hasSize(2);
    CompactUnwind.Range second = cu.ranges().get(1);
    assertThat(second.start()).isEqualTo(0x100001080L);
    assertThat(second.length()).isEqualTo(0x80);
    assertThat(second.lsdaOffset()).isEqualTo(0x2000);
    assertThat(second.plan()).isInstanceOf(CompactUnwind.Plan.Rows.class);
    assertThat(cu.tables()).extracting(CfiTable::start).containsExactly(0x100001000L, 0x100001080L);
  }

  private static void assertError(int[] words, long field, String message) {
    assertThatThrownBy(() -> parse(section(words))).isInstanceOf(GsymFormatException.class).hasMessageContaining(message)
        .satisfies(e -> assertThat(((GsymFormatException) e).offset()).as(message).isEqualTo(AT + field));
  }

  private static int[] with(int index, int value) {
    int[] w = valid();
    w[index] = value;
    return w;
  }

  @Test
  void malformedSectionsNameTheBadField() {
    assertThatThrownBy(() -> parse(section(1, 28, 0))).isInstanceOf(GsymFormatException.class).hasMessageContaining("needs 28 bytes");
    assertError(with(0, 2), 0, "unsupported version 2");
    assertError(with(2, 1000), 4, "the common encodings array");
    assertError(with(4, 0x40000000), 12, "the personality array");
    assertError(with(6, 200), 20, "the first-level index");
    // a page offset 0 before the sentinel
    int[] noPage = valid();
    noPage[6] = 3;
    assertThatThrownBy(() -> parse(section(noPage))).isInstanceOf(GsymFormatException.class);
    assertError(with(10, 0), 40, "has no second-level page");
    assertError(with(12, 0x800), 48, "before entry 0's");
    assertError(with(14, 0x100), 44, "is not a whole number");
    assertError(with(10, 0x1000), 40, "a second-level page header");
    assertError(with(17, 7), 68, "unknown second-level page kind 7");
    assertError(with(18, 12 | 200 << 16), 72, "a compressed page's entries");
    assertError(with(19, 20 | 90 << 16), 76, "a compressed page's encodings");
    assertError(with(20, 0x02000080), 80, "encoding index 2 is past the 1 common and 1 page encodings");
    assertError(with(20, 0x01000200), 80, "outside its page's functions");
    // entries out of order
    int[] swapped = valid();
    swapped[20] = 0x00000080;
    swapped[21] = 0x01000000;
    assertError(swapped, 68, "entries out of order");
  }

  @Test
  void sharedPagesAreRefused() {
    // 200 index entries all naming one regular page of 10 entries at one function offset: the same
    // bytes read over and over (a file could make that 65,535 entries times thousands of pages)
    int n = 200, k = 10;
    int[] w = new int[7 + 3 * n + 2 + 2 * k];
    w[0] = 1;
    w[1] = 28;
    w[3] = 28;
    w[5] = 28;
    w[6] = n;
    int page = 28 + 12 * n;
    for (int i = 0; i < n; i++) {
      w[7 + 3 * i] = 0x1000;
      w[8 + 3 * i] = i == n - 1 ? 0 : page;
      w[9 + 3 * i] = page;
    }
    w[7 + 3 * n] = 2;
    w[8 + 3 * n] = 8 | k << 16;
    for (int e = 0; e < k; e++) {
      w[9 + 3 * n + 2 * e] = 0x1000;
      w[10 + 3 * n + 2 * e] = 0x01000000;
    }
    assertThatThrownBy(() -> parse(section(w))).isInstanceOf(GsymFormatException.class).hasMessageContaining("share their entries");
  }

  @Test
  void entriesLibunwindRefuses() {
    // the LSDA bit without an LSDA entry for the function
    int[] noLsda = valid();
    noLsda[15] = 0x1040;
    CompactUnwind a = parse(section(noLsda));
    assertThat(a.ranges().get(1).plan()).isEqualTo(
        new CompactUnwind.Plan.Invalid("UNWIND_HAS_LSDA, but the LSDA index has no entry for function offset 0x1080"));
    // personality 2 of 1
    CompactUnwind b = parse(section(with(22, 0x61000000)));
    assertThat(b.ranges().get(1).plan()).isEqualTo(new CompactUnwind.Plan.Invalid("personality 2, but the personality array has 1"));
  }
}
