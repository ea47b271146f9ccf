package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.io.ByteView;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import dev.gsym.testing.TestData;
import dev.gsym.unwind.CfiTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code .eh_frame_hdr}: read as llvm-readelf-22 --unwind reads it (the goldens of
 * src-test-data/regenerate-cfi.sh), its binary search finding the FDE a full read finds, and its
 * disagreements with {@code .eh_frame} reported.
 */
class EhFrameHdrTest {
  static Stream<CfiCorpus> withHeader() {
    return CfiCorpus.all().stream().filter(c -> Files.exists(c.golden(".unwind.txt")));
  }

  private static final Pattern FIELD = Pattern.compile("^\\s*(\\w+): (0x[0-9a-f]+|[0-9]+)$");

  @ParameterizedTest(name = "{0}")
  @MethodSource("withHeader")
  void headerEqualsLlvmReadelf(CfiCorpus in) throws IOException {
    long ptr = -1;
    long count = -1;
    int[] encodings = new int[4];
    List<EhFrameHdr.Entry> entries = new ArrayList<>();
    long initial = -1;
    for (String line : TestData.text(in.golden(".unwind.txt")).split("\n")) {
      if (line.equals("}")) break; // the EHFrameHeader block ends; llvm-readelf goes on with .eh_frame
      Matcher m = FIELD.matcher(line);
      if (!m.matches()) continue;
      String v = m.group(2);
      long value = v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
      switch (m.group(1)) {
        case "version" -> encodings[0] = (int) value;
        case "eh_frame_ptr_enc" -> encodings[1] = (int) value;
        case "fde_count_enc" -> encodings[2] = (int) value;
        case "table_enc" -> encodings[3] = (int) value;
        case "eh_frame_ptr" -> ptr = value;
        case "fde_count" -> count = value;
        case "initial_location" -> initial = value;
        case "address" -> entries.add(new EhFrameHdr.Entry(initial, value));
        default -> {}
      }
    }
    try (ObjectFile file = ObjectFiles.open(in.input())) {
      EhFrameHdr hdr = CfiReader.ehFrameHdr(file);
      assertNotNull(hdr, in + ": no .eh_frame_hdr");
      assertEquals(encodings[0], hdr.version());
      assertEquals(encodings[1], hdr.ehFramePointerEncoding());
      assertEquals(encodings[2], hdr.fdeCountEncoding());
      assertEquals(encodings[3], hdr.tableEncoding());
      assertEquals(ptr, hdr.ehFramePointer(), in + ": eh_frame_ptr");
      assertEquals(count, hdr.fdeCount(), in + ": fde_count");
      List<EhFrameHdr.Entry> ours = new ArrayList<>();
      for (long i = 0; i < hdr.fdeCount(); i++) ours.add(hdr.entry(i));
      assertEquals(entries, ours, in + ": table");
    }
  }

  /** Each FDE found through the header's binary search has the table the full read made of it. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("withHeader")
  void lookupFindsWhatTheFullReadFound(CfiCorpus in) throws IOException {
    try (ObjectFile file = ObjectFiles.open(in.input())) {
      CfiReader.Result all = CfiReader.read(file);
      int looked = 0;
      for (CfiReader.Entry e : all.entries()) {
        if (e.fde().section() != dev.gsym.unwind.UnwindSource.EH_FRAME || e.table() == null || e.fde().pcRange() == 0) continue;
        for (long pc : new long[] {e.fde().pcBegin(), e.fde().pcBegin() + e.fde().pcRange() - 1}) {
          CfiTable t = CfiReader.lookup(file, pc);
          assertNotNull(t, in + ": nothing at 0x" + Long.toHexString(pc));
          assertEquals(e.table().rows(), t.rows(), in + ": rows at 0x" + Long.toHexString(pc));
          assertEquals(e.table().start(), t.start());
          assertEquals(-1, t.ordinal());
          looked++;
        }
      }
      assertTrue(looked > 0, in + ": no FDE looked up");
      long below = all.entries().stream().mapToLong(e -> e.fde().pcBegin()).min().orElseThrow() - 1;
      assertNull(CfiReader.lookup(file, below), "below every FDE");
    }
  }

  private static byte[] bytes(String binary) throws IOException {
    return Files.readAllBytes(TestData.path("bin", binary));
  }

  /** Where c-clang-O2's .eh_frame_hdr is in the file, and its table. */
  private record Layout(int offset, long address, int count) {}

  private static Layout layout(byte[] elf) {
    try (ElfFile f = ElfFile.of(elf, "c-clang-O2")) {
      ElfFile.Section s = f.section(".eh_frame_hdr");
      EhFrameHdr h = CfiReader.ehFrameHdr(f);
      return new Layout((int) s.offset(), s.addr(), (int) h.fdeCount());
    }
  }

  private static List<String> problems(byte[] elf) {
    try (ElfFile f = ElfFile.of(elf, "patched")) {
      return CfiReader.read(f).problems().stream().map(GsymFormatException::detail).toList();
    }
  }

  @Test
  void disagreementsAreReported() throws IOException {
    byte[] good = bytes("c-clang-O2");
    assertEquals(List.of(), problems(good));
    Layout l = layout(good);
    // eh_frame_ptr (pcrel sdata4 at +4) one byte off
    byte[] ptr = good.clone();
    ByteBuffer.wrap(ptr).order(ByteOrder.LITTLE_ENDIAN).putInt(l.offset() + 4, ByteBuffer.wrap(ptr).order(ByteOrder.LITTLE_ENDIAN).getInt(l.offset() + 4) + 1);
    assertTrue(problems(ptr).getFirst().startsWith(".eh_frame_hdr: eh_frame_ptr is 0x"), problems(ptr).toString());
    // fde_count (udata4 at +8) one less: the last FDE is not in the table
    byte[] count = good.clone();
    ByteBuffer.wrap(count).order(ByteOrder.LITTLE_ENDIAN).putInt(l.offset() + 8, l.count() - 1);
    assertEquals(List.of(".eh_frame_hdr: fde_count is " + (l.count() - 1) + ", but .eh_frame has " + l.count() + " FDEs"), problems(count));
    // two entries swapped: out of order
    byte[] swapped = good.clone();
    ByteBuffer b = ByteBuffer.wrap(swapped).order(ByteOrder.LITTLE_ENDIAN);
    long e0 = b.getLong(l.offset() + 12);
    b.putLong(l.offset() + 12, b.getLong(l.offset() + 20));
    b.putLong(l.offset() + 20, e0);
    assertTrue(problems(swapped).contains(".eh_frame_hdr: entry 1 (0x" + Long.toHexString(layoutEntry(good, l, 0)) + ") is below the entry before it"),
        problems(swapped).toString());
    // an entry's FDE address moved into the middle of an FDE
    byte[] moved = good.clone();
    b = ByteBuffer.wrap(moved).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(l.offset() + 16, b.getInt(l.offset() + 16) + 4);
    assertTrue(problems(moved).getFirst().matches("\\.eh_frame_hdr: entry 0 points at 0x[0-9a-f]+, where \\.eh_frame has no FDE"), problems(moved).toString());
    // an entry's initial location off by 16
    byte[] initial = good.clone();
    b = ByteBuffer.wrap(initial).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(l.offset() + 12, b.getInt(l.offset() + 12) + 16);
    assertTrue(problems(initial).getFirst().matches("\\.eh_frame_hdr: entry 0 gives 0x[0-9a-f]+ for the FDE at 0x[0-9a-f]+, which starts at 0x[0-9a-f]+"),
        problems(initial).toString());
  }

  private static long layoutEntry(byte[] elf, Layout l, int i) {
    ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
    return l.address() + b.getInt(l.offset() + 12 + 8 * i);
  }

  private static EhFrameHdr parse(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < b.length; i++) b[i] = (byte) bytes[i];
    return EhFrameHdr.parse(ByteView.of(b, ByteOrder.LITTLE_ENDIAN, "hdr"), 0x1000, 8);
  }

  @Test
  void badHeadersAreRefused() {
    assertEquals(".eh_frame_hdr: unsupported version 2",
        assertThrows(GsymFormatException.class, () -> parse(2, 0x1b, 3, 0x3b, 0, 0, 0, 0)).detail());
    assertEquals(".eh_frame_hdr: 3 bytes are too few for a header", assertThrows(GsymFormatException.class, () -> parse(1, 0x1b, 3)).detail());
    // a count of 2^32 - 1 entries with 8 bytes left: refused before anything is read
    GsymFormatException huge = assertThrows(GsymFormatException.class,
        () -> parse(1, 0x1b, 3, 0x3b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0));
    assertEquals(".eh_frame_hdr: fde_count 4294967295 does not fit the 8 bytes after it", huge.detail());
    assertEquals(8, huge.offset());
    assertEquals(".eh_frame_hdr: table encoding 0x1 is not of fixed size",
        assertThrows(GsymFormatException.class, () -> parse(1, 0x1b, 3, 0x01, 0, 0, 0, 0, 0, 0, 0, 0)).detail());
    assertEquals(".eh_frame_hdr: eh_frame_ptr: unknown pointer encoding 0x7",
        assertThrows(GsymFormatException.class, () -> parse(1, 0x07, 3, 0x3b, 0, 0, 0, 0)).detail());
    // no table (fde_count omitted): only eh_frame_ptr
    EhFrameHdr none = parse(1, 0x1b, 0xff, 0xff, 0x10, 0, 0, 0);
    assertEquals(0x1000 + 4 + 0x10, none.ehFramePointer());
    assertEquals(-1, none.fdeCount());
    assertEquals(-1, none.find(0x2000));
  }

  @Test
  void binarySearch() {
    // datarel sdata4 entries (relative to the header at 0x1000): 0x2000 -> FDE 0x3000, 0x2100 -> 0x3020, 0x2200 -> 0x3040
    EhFrameHdr h = parse(1, 0x1b, 0x03, 0x3b, 0, 0, 0, 0, 3, 0, 0, 0,
        0x00, 0x10, 0, 0, 0x00, 0x20, 0, 0,
        0x00, 0x11, 0, 0, 0x20, 0x20, 0, 0,
        0x00, 0x12, 0, 0, 0x40, 0x20, 0, 0);
    assertEquals(3, h.fdeCount());
    assertEquals(new EhFrameHdr.Entry(0x2100, 0x3020), h.entry(1));
    assertEquals(-1, h.find(0x1fff));
    assertEquals(0x3000, h.find(0x2000));
    assertEquals(0x3000, h.find(0x20ff));
    assertEquals(0x3020, h.find(0x2100));
    assertEquals(0x3040, h.find(0xffff_ffffL));
  }
}
