package dev.gsym.coff;

import static dev.gsym.coff.PeImages.code;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.unwind.UnwindRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PeUnwind} on hand-made images (PeImages): the corners of RtlVirtualUnwind that compilers do
 * not produce, worked out by hand from Windows' unwinder, and malformed tables.
 */
class PeUnwindTest {
  private static final int PUSH = PeUnwind.UWOP_PUSH_NONVOL;
  private static final int ALLOC_SMALL = PeUnwind.UWOP_ALLOC_SMALL;
  private static final int SET_FPREG = PeUnwind.UWOP_SET_FPREG;
  private static final int SAVE = PeUnwind.UWOP_SAVE_NONVOL;
  private static final int EPILOG = PeUnwind.UWOP_EPILOG;
  private static final int CHAIN = PeUnwind.UNW_FLAG_CHAININFO;

  private static List<String> rows(PeUnwind.Function fn) {
    assertThat(fn.plan()).as(fn.toString()).isInstanceOf(PeUnwind.Plan.Rows.class);
    return ((PeUnwind.Plan.Rows) fn.plan()).table().rows().stream().map(UnwindRow::toString).toList();
  }

  private static String invalid(PeUnwind.Function fn) {
    assertThat(fn.plan()).as(fn.toString()).isInstanceOf(PeUnwind.Plan.Invalid.class);
    return ((PeUnwind.Plan.Invalid) fn.plan()).reason();
  }

  @Test
  void theEstablisherFrameIsRspUntilTheFramePointerIsSet() {
    // push rbp (1); sub rsp, 0x40 (5); mov [rsp+0x20], rsi (10); lea rbp, [rsp+0x10] (15):
    // the save counts from rsp until the lea has run, from rbp - 16 after it
    PeImages img = new PeImages();
    int info = img.info(1, 0, 15, 5, 1, new int[] {code(15, SET_FPREG, 0), code(10, SAVE, 6), 4, code(5, ALLOC_SMALL, 7), code(1, PUSH, 5)});
    PeUnwind pe = PeImages.read(img.function(0x1000, 0x1040, info).build());
    assertThat(rows(pe.functions().getFirst())).containsExactly(
        "0x140001000: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001001: CFA=reg7+16: reg6=[CFA-16], reg16=[CFA-8]",
        "0x140001005: CFA=reg7+80: reg6=[CFA-16], reg16=[CFA-8]",
        "0x14000100a: CFA=reg7+80: reg4=[CFA-48], reg6=[CFA-16], reg16=[CFA-8]",
        "0x14000100f: CFA=reg6+64: reg4=[CFA-48], reg6=[CFA-16], reg16=[CFA-8]");
  }

  @Test
  void aPushAfterTheFramePointerIsAnAddressFromRsp() {
    // push rbp (1); mov rbp, rsp (4); push rbx (5): rbx was pushed below rbp, at rsp, which is no
    // constant distance from the CFA (rbp + 16) once the body allocates: an expression
    PeImages img = new PeImages();
    int info = img.info(1, 0, 5, 5, 0, new int[] {code(5, PUSH, 3), code(4, SET_FPREG, 0), code(1, PUSH, 5)});
    PeUnwind pe = PeImages.read(img.function(0x1000, 0x1020, info).build());
    assertThat(rows(pe.functions().getFirst())).containsExactly(
        "0x140001000: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001001: CFA=reg7+16: reg6=[CFA-16], reg16=[CFA-8]",
        "0x140001004: CFA=reg6+16: reg6=[CFA-16], reg16=[CFA-8]",
        // DW_OP_breg7 0
        "0x140001005: CFA=reg6+16: reg3=[expr(7700)], reg6=[CFA-16], reg16=[CFA-8]");
  }

  @Test
  void anOddEpilogCodeHidesTheNextCodeFromWindows() {
    // Windows steps over an UWOP_EPILOG as two slots (hence llvm's padding): without the padding the
    // push after the epilog header is never unwound, as RtlVirtualUnwind does it
    PeImages img = new PeImages();
    int info = img.info(2, 0, 1, 0, 0, new int[] {code(2, EPILOG, 1), code(1, PUSH, 3)});
    PeUnwind pe = PeImages.read(img.function(0x1000, 0x1010, info).build());
    PeUnwind.Function fn = pe.functions().getFirst();
    assertThat(fn.info().codes()).containsExactly(new PeUnwind.UnwindCode.Epilog(2, 1), new PeUnwind.UnwindCode.PushNonVol(1, 3));
    assertThat(rows(fn)).containsExactly("0x140001000: CFA=reg7+8: reg16=[CFA-8]");
    // with the padding the push counts, in the body and in the epilog at the end (pop rbx; ret)
    PeImages padded = new PeImages();
    int info2 = padded.info(2, 0, 1, 0, 0, new int[] {code(2, EPILOG, 1), code(0, EPILOG, 0), code(1, PUSH, 3)});
    PeUnwind pe2 = PeImages.read(padded.function(0x1000, 0x1010, info2).build());
    // (at 0x100e, before the pop, the epilog's state is the body's: no row of its own)
    assertThat(rows(pe2.functions().getFirst())).containsExactly(
        "0x140001000: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001001: CFA=reg7+16: reg3=[CFA-16], reg16=[CFA-8]",
        "0x14000100f: CFA=reg7+8: reg16=[CFA-8]");
  }

  @Test
  void indirectEntriesUseTheEntryTheyName() {
    // an odd UnwindData names a RUNTIME_FUNCTION: its start and unwind information apply
    PeImages img = new PeImages();
    int info = img.info(1, 0, 1, 0, 0, new int[] {code(1, PUSH, 3)});
    int target = img.raw(0x1000, 0x1010, info);
    PeUnwind pe = PeImages.read(img.function(0x1000, 0x1010, info).function(0x1020, 0x1030, target + 1).build());
    PeUnwind.Function fn = pe.functions().get(1);
    assertThat(fn.indirect()).isEqualTo(new PeUnwind.RuntimeFunction(0x1000, 0x1010, info));
    // 0x1020 is 0x20 past the named start: the push has run
    assertThat(rows(fn)).containsExactly("0x140001020: CFA=reg7+16: reg3=[CFA-16], reg16=[CFA-8]");
    PeImages loop = new PeImages();
    int self = loop.raw(0x1000, 0x1010, 0);
    int odd = loop.raw(0x1000, 0x1010, self + 1);
    PeUnwind pe2 = PeImages.read(loop.function(0x1000, 0x1010, odd + 1).build());
    assertThat(invalid(pe2.functions().getFirst())).contains("another indirect entry");
  }

  @Test
  void chainsEndAfter32Parents() {
    // a chain to itself: Windows gives up past 32 chained parents
    PeImages img = new PeImages();
    int rva = PeImages.DATA_RVA; // the first info: it names itself as its parent
    int info = img.info(1, CHAIN, 0, 0, 0, new int[0], 0x1000, 0x1010, rva);
    assertThat(info).isEqualTo(rva);
    PeUnwind pe = PeImages.read(img.function(0x1000, 0x1010, info).build());
    assertThat(invalid(pe.functions().getFirst())).isEqualTo("chained unwind information deeper than 32");
    // 32 parents are allowed
    PeImages ok = new PeImages();
    int parent = ok.info(1, 0, 1, 0, 0, new int[] {code(1, PUSH, 3)});
    int child = parent;
    for (int i = 0; i < 32; i++) child = ok.info(1, CHAIN, 0, 0, 0, new int[0], 0x1000, 0x1010, child);
    PeUnwind pe2 = PeImages.read(ok.function(0x1000, 0x1010, child).build());
    assertThat(rows(pe2.functions().getFirst())).containsExactly("0x140001000: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001001: CFA=reg7+16: reg3=[CFA-16], reg16=[CFA-8]");
    PeImages over = new PeImages();
    int p = over.info(1, 0, 1, 0, 0, new int[] {code(1, PUSH, 3)});
    for (int i = 0; i < 33; i++) p = over.info(1, CHAIN, 0, 0, 0, new int[0], 0x1000, 0x1010, p);
    assertThat(invalid(PeImages.read(over.function(0x1000, 0x1010, p).build()).functions().getFirst())).contains("deeper than 32");
  }

  @Test
  void whatWindowsRefusesIsInvalid() {
    PeImages img = new PeImages();
    int v3 = img.info(3, 0, 0, 0, 0, new int[0]);
    int spare = img.info(1, 0, 4, 0, 0, new int[] {code(4, PeUnwind.UWOP_SPARE_CODE, 0), 0, 0});
    int pushRsp = img.info(1, 0, 1, 0, 0, new int[] {code(1, PUSH, 4)});
    // unwind codes run in array order: a push after the machine frame's code was pushed before it
    int afterFrame = img.info(1, 0, 2, 0, 0, new int[] {code(0, PeUnwind.UWOP_PUSH_MACHFRAME, 0), code(0, PUSH, 3)});
    PeUnwind pe = PeImages.read(img.function(0x1000, 0x1010, v3).function(0x1010, 0x1020, spare).function(0x1020, 0x1030, pushRsp)
        .function(0x1030, 0x1040, afterFrame).function(0x1050, 0x1050, v3).build());
    assertThat(invalid(pe.functions().get(0))).isEqualTo("unwind information version 3");
    assertThat(invalid(pe.functions().get(1))).contains("UWOP_SPARE_CODE");
    assertThat(invalid(pe.functions().get(2))).contains("RSP");
    assertThat(invalid(pe.functions().get(3))).contains("after UWOP_PUSH_MACHFRAME");
    assertThat(invalid(pe.functions().get(4))).contains("ends");
    assertThat(pe.tables()).isEmpty();
  }

  @Test
  void malformedTablesNameTheirOffset() {
    // an UNWIND_INFO outside the image: the error is at the RUNTIME_FUNCTION's UnwindData field
    PeImages a = new PeImages();
    byte[] outside = a.function(0x1000, 0x1010, 0x9000).build();
    assertThatThrownBy(() -> PeImages.read(outside)).isInstanceOf(GsymFormatException.class)
        .satisfies(e -> assertThat(((GsymFormatException) e).offset()).isEqualTo(PeImages.DATA_FILE + 8))
        .hasMessageContaining("an UNWIND_INFO at RVA 0x9000");
    // an unknown operation
    PeImages b = new PeImages();
    int info = b.info(1, 0, 0, 0, 0, new int[] {code(0, PUSH, 3), code(0, 11, 0)});
    byte[] unknown = b.function(0x1000, 0x1010, info).build();
    assertThatThrownBy(() -> PeImages.read(unknown)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("unknown unwind operation 11")
        .satisfies(e -> assertThat(((GsymFormatException) e).offset()).isEqualTo(PeImages.DATA_FILE + 4 + 2));
    // a code whose slots run past the array
    PeImages c = new PeImages();
    int cut = c.info(1, 0, 0, 0, 0, new int[] {code(0, PeUnwind.UWOP_ALLOC_LARGE, 1), 8});
    byte[] truncated = c.function(0x1000, 0x1010, cut).build();
    assertThatThrownBy(() -> PeImages.read(truncated)).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("needs 3 slots, 2 are left");
  }

  @Test
  void otherMachinesHaveNoX64UnwindInformation() {
    byte[] arm = new PeImages().machine(CoffHeader.IMAGE_FILE_MACHINE_ARM64).function(0x1000, 0x1010, 0x2000).build();
    assertThat(PeImages.read(arm)).isNull();
  }

  @Test
  void theWorkIsBounded() {
    // 33 levels of 255 codes each, shared by 5,000 entries: tens of billions of steps unbounded
    PeImages img = new PeImages();
    int[] slots = new int[255];
    for (int i = 0; i < slots.length; i++) slots[i] = code(i, ALLOC_SMALL, 0);
    int p = img.info(1, 0, 255, 0, 0, slots);
    for (int i = 0; i < 32; i++) p = img.info(1, CHAIN, 255, 0, 0, slots, 0x1000 + 300 * i, 0x2000, p);
    for (int i = 0; i < 5000; i++) img.function(0x1000 + 4 * i, 0x1000 + 4 * i + 2, p);
    byte[] image = img.build();
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> PeImages.read(image)).isInstanceOf(GsymFormatException.class).hasMessageContaining("too much work");
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
  }
}
