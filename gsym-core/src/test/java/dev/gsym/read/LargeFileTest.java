package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sparse file of 2.7 GB whose FunctionInfo record lies past 2^31: mapping, lookups and the dump
 * must use 64-bit offsets throughout (no disk space is used for the hole).
 */
class LargeFileTest {
  private static final long RECORD_AT = 0xA000_0000L; // 2.5 GiB, 4-aligned

  @Test
  void recordBeyondTwoGigabytes(@TempDir Path dir) throws Exception {
    GsymCreator c = new GsymCreator();
    int file = c.insertFile("/src/big.c");
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000, 0x1040), c.insertString("far_away"),
        new LineTable(List.of(new LineEntry(0x1000, file, 7), new LineEntry(0x1010, file, 8))),
        null, null, null));
    c.finish(Diagnostics.silent());
    byte[] small = c.encode(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer bb = ByteBuffer.wrap(small).order(ByteOrder.LITTLE_ENDIAN);
    int infoAt = 52; // 48-byte header + one 1-byte address offset, aligned to 4
    int recordAt = bb.getInt(infoAt);
    byte[] record = Arrays.copyOfRange(small, recordAt, small.length);

    Path big = dir.resolve("big.gsym");
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      ByteBuffer patched = ByteBuffer.wrap(small.clone()).order(ByteOrder.LITTLE_ENDIAN);
      patched.putInt(infoAt, (int) RECORD_AT);
      f.write(patched.array(), 0, recordAt);
      f.seek(RECORD_AT);
      f.write(record);
    }
    try (GsymReader r = GsymReader.open(big)) {
      assertThat(r.functionInfoOffset(0)).isEqualTo(RECORD_AT);
      assertThat(r.lookup(0x1014).toString())
          .isEqualTo("0x0000000000001014: far_away + 20 @ /src/big.c:8\n");
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      assertThat(sb.toString()).contains("FunctionInfo @ 0xa0000000: [0x0000000000001000 - 0x0000000000001040) \"far_away\"\n"
          + "LineTable:\n  0x0000000000001000 /src/big.c:7\n  0x0000000000001010 /src/big.c:8\n");
    }
  }

  private static final long SECTION_AT = 0x1_4000_0000L; // 5 GiB

  /**
   * GSYM version 2 over 4 GiB: a sparse file whose FunctionInfo section starts at 5 GiB (its
   * directory entry says so; the address-info offsets stay relative to it). Version 1 cannot
   * express this file at all.
   */
  @Test
  void version2SectionBeyondFourGigabytes(@TempDir Path dir) throws Exception {
    GsymCreator c = new GsymCreator();
    int file = c.insertFile("/src/big.c");
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000, 0x1040), c.insertString("very_far_away"),
        new LineTable(List.of(new LineEntry(0x1000, file, 7), new LineEntry(0x1010, file, 8))),
        null, null, null));
    c.setOutputVersion(2);
    c.finish(Diagnostics.silent());
    byte[] small = c.encode(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer bb = ByteBuffer.wrap(small).order(ByteOrder.LITTLE_ENDIAN);
    int entry = 20;
    while (bb.getInt(entry) != 5) entry += 20; // the FunctionInfo entry
    int sectionAt = (int) bb.getLong(entry + 4);
    byte[] section = Arrays.copyOfRange(small, sectionAt, small.length);
    Path big = dir.resolve("big.v2.gsym");
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      ByteBuffer patched = ByteBuffer.wrap(small.clone()).order(ByteOrder.LITTLE_ENDIAN);
      patched.putLong(entry + 4, SECTION_AT);
      f.write(patched.array(), 0, sectionAt);
      f.seek(SECTION_AT);
      f.write(section);
    }
    try (GsymReader r = GsymReader.open(big)) {
      assertThat(r.version()).isEqualTo(2);
      assertThat(r.functionInfoOffset(0)).isEqualTo(SECTION_AT);
      assertThat(r.lookup(0x1014).toString())
          .isEqualTo("0x0000000000001014: very_far_away + 20 @ /src/big.c:8\n");
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      assertThat(sb.toString()).contains("FunctionInfo    0x0000000140000000  0x00000000000000")
          .contains("[   0] 0x0000000000000000 (0x0000000140000000)\n")
          .contains("FunctionInfo @ 0x140000000: [0x0000000000001000 - 0x0000000000001040) \"very_far_away\"\n");
      GsymStatistics st = GsymStatistics.of(r, "big");
      assertThat(st.fileSize()).isEqualTo(SECTION_AT + section.length);
      assertThat(st.functionInfoData()).isEqualTo(section.length);
    }
  }
}
