package dev.gsym.coff;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindRow;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for {@link PeUnwind} (docs/reliability.md): the input is a PE image,
 * its x64 unwind information read and every function's rows made. Only GsymFormatException may
 * escape; each table's rows must lie in its function, in order, and each input must finish within
 * {@link #LIMIT}. Seeds: the x64 images of src-test-data/unwind/bin and src-test-data/pecoff/bin,
 * and hand-made ones (every unwind operation, indirect entries, a chain to itself, a 33-level chain
 * of 255 codes shared by 50 entries).
 */
@Slow
class PeUnwindFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);

  static Stream<Arguments> peSeeds() {
    PeImages every = new PeImages();
    int[] slots = {PeImages.code(40, PeUnwind.UWOP_SAVE_XMM128, 6), 3, PeImages.code(35, PeUnwind.UWOP_SAVE_XMM128_FAR, 7), 0, 1,
        PeImages.code(30, PeUnwind.UWOP_SAVE_NONVOL_FAR, 6), 8, 1, PeImages.code(25, PeUnwind.UWOP_SAVE_NONVOL, 7), 4,
        PeImages.code(20, PeUnwind.UWOP_SET_FPREG, 0), PeImages.code(15, PeUnwind.UWOP_ALLOC_LARGE, 1), 0, 2,
        PeImages.code(10, PeUnwind.UWOP_ALLOC_LARGE, 0), 100, PeImages.code(5, PeUnwind.UWOP_ALLOC_SMALL, 3),
        PeImages.code(2, PeUnwind.UWOP_PUSH_NONVOL, 5), PeImages.code(0, PeUnwind.UWOP_PUSH_MACHFRAME, 1)};
    int info = every.info(1, PeUnwind.UNW_FLAG_EHANDLER, 40, 5, 2, slots, 0x1000, 0x12345678);
    int v2 = every.info(2, 0, 2, 0, 0, new int[] {PeImages.code(3, PeUnwind.UWOP_EPILOG, 1), PeImages.code(9, PeUnwind.UWOP_EPILOG, 0),
        PeImages.code(2, PeUnwind.UWOP_PUSH_NONVOL, 3)});
    int chained = every.info(1, PeUnwind.UNW_FLAG_CHAININFO, 0, 0, 0, new int[0], 0x1000, 0x1100, info);
    int target = every.raw(0x1000, 0x1100, info);
    every.function(0x1000, 0x1100, info).function(0x1100, 0x1110, v2).function(0x1110, 0x1120, chained).function(0x1120, 0x1130, target + 1);
    PeImages loop = new PeImages();
    int self = loop.info(1, PeUnwind.UNW_FLAG_CHAININFO, 0, 0, 0, new int[0], 0x1000, 0x1010, PeImages.DATA_RVA);
    loop.function(0x1000, 0x1010, self);
    PeImages heavy = new PeImages();
    int[] many = new int[255];
    for (int i = 0; i < many.length; i++) many[i] = PeImages.code(i, PeUnwind.UWOP_ALLOC_SMALL, 0);
    int p = heavy.info(1, 0, 255, 0, 0, many);
    for (int i = 0; i < 32; i++) p = heavy.info(1, PeUnwind.UNW_FLAG_CHAININFO, 255, 0, 0, many, 0x1000 + 300 * i, 0x2000, p);
    // (few entries: each evaluates the whole chain; PeUnwindTest has thousands, past the work budget)
    for (int i = 0; i < 50; i++) heavy.function(0x1000 + 4 * i, 0x1000 + 4 * i + 2, p);
    Stream<Arguments> made = Stream.of(Arguments.argumentSet("every unwind operation", (Object) every.build()),
        Arguments.argumentSet("a chain to itself", (Object) loop.build()), Arguments.argumentSet("deep chains", (Object) heavy.build()));
    return Stream.of(FuzzSeeds.files("unwind/bin", n -> n.endsWith(".exe")), FuzzSeeds.files("pecoff/bin", n -> n.contains("x86_64")), made)
        .flatMap(s -> s);
  }

  @MethodSource("peSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void peImage(byte[] input) {
    FuzzLimits.within(LIMIT, "pe-unwind", "reading the unwind information of a PE image of " + input.length + " bytes", () -> {
      try {
        PeUnwind pe = PeUnwind.read(CoffFile.of(input, "fuzz.exe"));
        if (pe != null) for (PeUnwind.Function fn : pe.functions()) check(fn);
      } catch (GsymFormatException expected) {
        // malformed input, reported with its offset
      }
    });
  }

  private static void check(PeUnwind.Function fn) {
    if (!(fn.plan() instanceof PeUnwind.Plan.Rows rows)) return;
    CfiTable t = rows.table();
    List<UnwindRow> r = t.rows();
    if (r.isEmpty() || r.getFirst().address() != t.start()) throw new AssertionError("no row at the start of " + t);
    for (UnwindRow row : r) {
      if (!t.contains(row.address())) throw new AssertionError("a row outside its function: " + row + " in " + t);
      if (row.cfa() == null || row.rule(16) == null) throw new AssertionError("no CFA or return address in " + row);
    }
  }
}
