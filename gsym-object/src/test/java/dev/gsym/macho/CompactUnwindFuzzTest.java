package dev.gsym.macho;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.object.FileKind;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfiTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for {@link CompactUnwind} (docs/reliability.md): an input starting
 * with a Mach-O or universal magic is a file, every slice's {@code __unwind_info} read; anything
 * else is the bytes of an {@code __unwind_info} section, read for x86_64, i386 and arm64 with the
 * input itself as the code STACK_IND reads its immediates from. Only GsymFormatException may
 * escape; the ranges must be ordered and not empty, each table must cover its range, and each input
 * must finish within {@link #LIMIT}. Seeds: the images of src-test-data/unwind/bin and
 * src-test-data/macho/bin, their {@code __unwind_info} sections alone, and hand-made hostile
 * sections (pages shared by thousands of index entries, counts past the section).
 */
@Slow
class CompactUnwindFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);

  static Stream<Arguments> unwindSeeds() {
    List<Arguments> sections = new ArrayList<>();
    for (String name : new String[] {"cu-x86_64", "cu-arm64", "cu-x86_64-omitfp", "cu-pages-x86_64"}) {
      try (MachOFile m = MachOFile.open(TestData.path("unwind", "bin", name))) {
        for (MachSection s : m.sections()) {
          if (s.name().equals("__unwind_info")) {
            ByteView v = m.data(s);
            sections.add(Arguments.argumentSet("__unwind_info of " + name, (Object) v.bytes(0, (int) v.size())));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    // hostile: 2,000 index entries naming one page of 10 entries, and a header with huge counts
    int n = 2000;
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(28 + 12 * n + 8 + 80).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(1).putInt(28).putInt(0).putInt(28).putInt(0).putInt(28).putInt(n);
    int page = 28 + 12 * n;
    for (int i = 0; i < n; i++) b.putInt(0x1000).putInt(i == n - 1 ? 0 : page).putInt(page);
    b.putInt(2).putInt(8 | 10 << 16);
    for (int e = 0; e < 10; e++) b.putInt(0x1000).putInt(0x03000000 | e);
    sections.add(Arguments.argumentSet("shared pages", (Object) b.array()));
    java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(1).putInt(28).putInt(-1).putInt(28).putInt(-1).putInt(28).putInt(-1);
    sections.add(Arguments.argumentSet("huge counts", (Object) h.array()));
    return Stream.of(FuzzSeeds.files("unwind/bin", n2 -> !n2.endsWith(".o")), FuzzSeeds.files("macho/bin", n2 -> true), sections.stream())
        .flatMap(s -> s);
  }

  @MethodSource("unwindSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void unwindInfo(byte[] input) {
    FuzzLimits.within(LIMIT, "compact-unwind", "reading compact unwind information of " + input.length + " bytes", () -> {
      try {
        read(input);
      } catch (GsymFormatException expected) {
        // malformed input, reported with its offset
      }
    });
  }

  private static void read(byte[] input) {
    switch (FileKind.sniff(input)) {
      case MACH_O -> {
        try (MachOFile m = MachOFile.of(input, "fuzz.macho")) {
          check(CompactUnwind.read(m));
        }
      }
      case MACH_O_UNIVERSAL -> {
        try (MachOUniversal fat = MachOUniversal.of(input, "fuzz.fat")) {
          for (FatArch a : fat.archs()) {
            try (MachOFile m = fat.slice(a)) {
              check(CompactUnwind.read(m));
            }
          }
        }
      }
      default -> {
        ByteView section = ByteView.of(input, ByteOrder.LITTLE_ENDIAN, "fuzz.__unwind_info");
        CompactUnwind.CodeReader code = address -> section.has(address, 4) ? section.u32(address) : -1;
        for (Arch arch : new Arch[] {Arch.X86_64, Arch.X86, Arch.AARCH64}) check(CompactUnwind.parse(section, 0, arch, code));
      }
    }
  }

  private static void check(CompactUnwind cu) {
    if (cu == null) return;
    long previous = Long.MIN_VALUE;
    for (CompactUnwind.Range r : cu.ranges()) {
      if (r.length() <= 0) throw new AssertionError("an empty range at 0x" + Long.toHexString(r.start()));
      if (r.start() < previous) throw new AssertionError("ranges out of order at 0x" + Long.toHexString(r.start()));
      previous = r.start() + r.length();
      if (r.plan() instanceof CompactUnwind.Plan.Rows rows) {
        CfiTable t = rows.table();
        if (t.start() != r.start() || t.length() != r.length() || t.rows().size() != 1) throw new AssertionError("table " + t + " of " + r);
      }
    }
  }
}
