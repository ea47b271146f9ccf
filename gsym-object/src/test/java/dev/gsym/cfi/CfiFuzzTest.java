package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.Slow;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for the CFI reader (docs/reliability.md, target {@code cfi}): the
 * input is one {@code .eh_frame} or {@code .debug_frame} section with a 9-byte frame saying how to
 * read it:
 *
 * <pre>
 *   u8   bit 0: .eh_frame (else .debug_frame); bit 1: big-endian; bit 2: 8-byte addresses;
 *        bits 3-5: architecture (x86_64, aarch64, sparcv9, i386, powerpc64, arm, mips, x86_64)
 *   u64  the section's address (little-endian)
 *   ...  the section's bytes; read once more as an .eh_frame_hdr at the same address
 * </pre>
 *
 * The walk never throws: every input gives entries and problems; every table made is well formed
 * (rows ascending from its start); each FDE read again through {@link CallFrameInfo#fdeAt} (the
 * {@code .eh_frame_hdr} lookup path) and {@link CfaProgram#rows(CfiSection, Fde)} gives what the
 * walk gave; the header reader throws only GsymFormatException. Each input must finish within
 * {@link #LIMIT}. Seeds: the CFI sections of every input of src-test-data/cfi/manifest.tsv, and
 * hostile ones (a 1 MB augmentation string, lengths and counts near 2^32, remember_state nested
 * past the limit, FDEs whose CIE pointers lead to themselves and to each other).
 */
@Slow
class CfiFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);
  private static final String[] ARCHS = {"x86_64", "aarch64", "sparcv9", "i386", "powerpc64", "arm", "mips", "x86_64"};

  static Stream<Arguments> cfiSeeds() {
    List<Arguments> out = new ArrayList<>();
    for (CfiCorpus c : CfiCorpus.all()) {
      try (ObjectFile f = ObjectFiles.open(c.input())) {
        for (CfiReader.Input in : CfiReader.inputs(f)) {
          CfiSection s = in.section();
          int arch = Arrays.asList(ARCHS).indexOf(f.archName());
          if (arch < 0) arch = f.archName().startsWith("powerpc") ? 4 : f.archName().startsWith("mips") ? 6 : 0;
          int flags = (s.isEh() ? 1 : 0) | (f.byteOrder() == ByteOrder.BIG_ENDIAN ? 2 : 0) | (s.addressSize() == 8 ? 4 : 0) | arch << 3;
          byte[] data = s.data().segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
          out.add(Arguments.argumentSet(c + " " + s.name(), (Object) frame(flags, s.address(), data)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    hostile().forEach(out::add);
    return out.stream();
  }

  static byte[] frame(int flags, long address, byte[] section) {
    ByteBuffer b = ByteBuffer.allocate(9 + section.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) flags).putLong(address).put(section);
    return b.array();
  }

  private static Stream<Arguments> hostile() {
    int eh64 = 1 | 4;
    // a CIE whose augmentation string is 1 MB of 'S' after "z", and an FDE using it
    CfiBytes longAug = new CfiBytes();
    longAug.begin().u32(0).u8(1).cstring("z" + "S".repeat(1 << 20)).uleb(1).sleb(-8).u8(16).uleb(0).u8(0x0c, 7, 8).end();
    longAug.begin().u32(longAug.position()).u64(0x4000).u64(0x10).uleb(0).u8(0x41).end();
    // lengths and counts near 2^32: an entry length of 0xffffffef, a 64-bit length of 2^32, an
    // augmentation data length of 2^32 - 1, an expression length of 2^32
    CfiBytes lengths = new CfiBytes().ehCie(0x1b);
    lengths.begin().u32(lengths.position()).u32(0).u32(0x10).uleb(0xffffffffL).end();
    lengths.ehFde(0, 0x2000, 0x4000, 0x10, 0x0f, 0x80, 0x80, 0x80, 0x80, 0x10);
    lengths.u32(0xffffffffL).u64(1L << 32).u32(0xffffffefL);
    // DW_CFA_remember_state 300 levels deep, then as many restore_state
    int[] deep = new int[600];
    Arrays.fill(deep, 0, 300, 0x0a);
    Arrays.fill(deep, 300, 600, 0x0b);
    CfiBytes nesting = new CfiBytes().ehCie(0x1b).ehFde(0, 0x2000, 0x4000, 0x10, deep);
    // .debug_frame FDEs whose CIE pointer leads to the FDE itself, and two leading to each other
    CfiBytes loop = new CfiBytes();
    loop.begin().u32(0).u32(0x1000).u32(0x10).end(); // at 0: itself
    loop.begin().u32(0x20).u32(0x2000).u32(0x10).end(); // at 0x10: the next one
    loop.begin().u32(0x10).u32(0x3000).u32(0x10).end(); // at 0x20: the one before
    return Stream.of(
        Arguments.argumentSet("hostile: 1 MB augmentation string", (Object) frame(eh64, 0x2000, longAug.bytes())),
        Arguments.argumentSet("hostile: lengths near 2^32", (Object) frame(eh64, 0x2000, lengths.bytes())),
        Arguments.argumentSet("hostile: remember_state 300 deep", (Object) frame(eh64, 0x2000, nesting.bytes())),
        Arguments.argumentSet("hostile: CIE pointer loops", (Object) frame(0, 0, loop.bytes())));
  }

  @MethodSource("cfiSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void cfiSection(byte[] input) {
    if (input.length < 9) return;
    FuzzLimits.within(LIMIT, "cfi", "reading " + input.length + " bytes of CFI", () -> read(input));
  }

  private static void read(byte[] input) {
    int flags = input[0] & 0xff;
    long address = ByteBuffer.wrap(input, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    ByteOrder order = (flags & 2) != 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    int addressSize = (flags & 4) != 0 ? 8 : 4;
    ByteView data = new ByteView(MemorySegment.ofArray(input).asSlice(9), 9, order, "fuzz");
    CfiSection section = new CfiSection((flags & 1) != 0 ? UnwindSource.EH_FRAME : UnwindSource.DEBUG_FRAME, "fuzz", data, address,
        addressSize, ARCHS[(flags >> 3) & 7], address + 0x1000, address + 0x2000, (a, n) -> null);
    CfiReader.Result r = CallFrameInfoTest.read(section); // must not throw
    CallFrameInfo again = CallFrameInfo.of(section);
    int checked = 0;
    for (CfiReader.Entry e : r.entries()) {
      if (e.table() != null) {
        CfiTable t = e.table();
        List<UnwindRow> rows = t.rows();
        for (int i = 0; i < rows.size(); i++) {
          if (i == 0 && rows.get(i).address() != t.start()) throw new AssertionError("first row not at the start: " + t);
          if (i > 0 && Long.compareUnsigned(rows.get(i).address(), rows.get(i - 1).address()) <= 0) throw new AssertionError("rows out of order: " + t);
        }
      }
      if (checked++ < 16) {
        // the lookup path reads the same FDE and, with a budget of its own, the same rows
        Fde f = again.fdeAt(e.fde().offset());
        if (!f.equals(e.fde())) throw new AssertionError("fdeAt(0x" + Long.toHexString(e.fde().offset()) + ") = " + f + ", the walk read " + e.fde());
        if (e.table() != null) {
          List<UnwindRow> alone;
          try {
            alone = CfaProgram.rows(section, f);
          } catch (GsymFormatException overBudget) {
            // alone, the FDE has a budget of its own size, smaller than the section's
            if (!overBudget.detail().contains("too complex")) throw overBudget;
            continue;
          }
          if (!alone.equals(e.table().rows())) throw new AssertionError("rows of the FDE at 0x" + Long.toHexString(f.offset()) + " differ");
        }
      }
    }
    try {
      EhFrameHdr hdr = EhFrameHdr.parse(data, address, addressSize);
      for (long i = 0; i < Math.min(hdr.fdeCount(), 64); i++) hdr.entry(i);
      hdr.find(address);
      hdr.find(-1);
    } catch (GsymFormatException expected) {
      // not a header
    }
  }
}
