package dev.gsym.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedOutputStream;
import dev.gsym.GsymFormatException;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Hostile profiles: declared sizes far beyond the bytes present, deep nesting, references to what
 * does not exist and decompression bombs are one {@link GsymFormatException} each, allocating little
 * (the thread's allocation counter) and never overflowing the stack.
 */
class HostileProfileTest {
  private static final long ALLOCATION_BOUND = 64L << 20;

  /** Fails unless {@code read} throws a GsymFormatException containing {@code text}, allocating under the bound. */
  private static void refused(String text, Supplier<Object> read) {
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = bean.getCurrentThreadAllocatedBytes();
    GsymFormatException e = assertThrows(GsymFormatException.class, read::get);
    long allocated = bean.getCurrentThreadAllocatedBytes() - before;
    assertTrue(e.getMessage().contains(text), e.getMessage());
    assertTrue(allocated < ALLOCATION_BOUND, allocated + " bytes allocated for: " + e.getMessage());
  }

  private static byte[] bytes(Writer w) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(b);
    w.write(out);
    out.flush();
    return b.toByteArray();
  }

  @FunctionalInterface
  interface Writer {
    void write(CodedOutputStream out) throws Exception;
  }

  @Test
  void aBillionLocationsDeclared() throws Exception {
    // a location field declaring 1,000,000,000 bytes, then nothing
    byte[] huge = bytes(out -> {
      out.writeTag(PprofProfile.LOCATION, 2);
      out.writeUInt32NoTag(1_000_000_000);
      out.writeRawBytes(new byte[16]);
    });
    refused("runs past the end of the profile", () -> PprofProfile.read(huge, "huge"));
    // a sample whose packed location ids declare a billion bytes
    byte[] sample = bytes(out -> {
      out.writeByteArray(PprofProfile.STRING_TABLE, new byte[0]);
      out.writeTag(PprofProfile.SAMPLE, 2);
      out.writeUInt32NoTag(9); // tag, a 5-byte length, 3 of the billion bytes
      out.writeTag(1, 2);
      out.writeUInt32NoTag(1_000_000_000);
      out.writeRawBytes(new byte[3]);
    });
    refused("malformed sample", () -> PprofProfile.read(sample, "sample"));
    // samples naming a billion locations that do not exist
    byte[] ids = bytes(out -> {
      out.writeByteArray(PprofProfile.STRING_TABLE, new byte[0]);
      out.writeTag(PprofProfile.SAMPLE, 2);
      out.writeUInt32NoTag(6);
      out.writeUInt64(1, 1_000_000_000L);
    });
    refused("names location 1000000000, which does not exist", () -> PprofProfile.read(ids, "ids"));
  }

  /** A profile of one sample type, locations with these ids and one sample naming {@code named}. */
  private static byte[] withLocations(long[] ids, long named) {
    var p = com.google.perftools.profiles.ProfileProto.Profile.newBuilder().addStringTable("").addStringTable("samples")
        .addStringTable("count").addSampleType(com.google.perftools.profiles.ProfileProto.ValueType.newBuilder()
            .setType(1).setUnit(2));
    for (long id : ids) p.addLocation(com.google.perftools.profiles.ProfileProto.Location.newBuilder().setId(id));
    p.addSample(com.google.perftools.profiles.ProfileProto.Sample.newBuilder().addLocationId(named).addValue(1));
    return p.build().toByteArray();
  }

  @Test
  void samplesNameLocationsThatExist() {
    // ids 1..n in any order, and ids with gaps
    assertEquals(3, PprofProfile.read(withLocations(new long[] {3, 1, 2}, 3), "dense").locations().size());
    refused("names location 4, which does not exist", () -> PprofProfile.read(withLocations(new long[] {3, 1, 2}, 4), "d"));
    refused("names location 0, which does not exist", () -> PprofProfile.read(withLocations(new long[] {3, 1, 2}, 0), "d"));
    assertEquals(2, PprofProfile.read(withLocations(new long[] {9, 5}, 9), "gaps").locations().size());
    refused("names location 7, which does not exist", () -> PprofProfile.read(withLocations(new long[] {9, 5}, 7), "g"));
    refused("names location 2, which does not exist", () -> PprofProfile.read(withLocations(new long[] {9, 5}, 2), "g"));
    refused("duplicate location id 5", () -> PprofProfile.read(withLocations(new long[] {5, 9, 5}, 9), "dup"));
    refused("location with id 0", () -> PprofProfile.read(withLocations(new long[] {0, 1}, 1), "zero"));
  }

  @Test
  void malformedSampleTypesAreRefusedWhenRead() throws Exception {
    // the fuzz finding crash-637237d0...: a sample type that is not a ValueType was kept as bytes and
    // failed only when drawn; a sample type naming no string; a sample that is a varint
    byte[] badType = bytes(out -> {
      out.writeByteArray(PprofProfile.STRING_TABLE, new byte[0]);
      out.writeByteArray(PprofProfile.SAMPLE_TYPE, new byte[] {0, 0});
    });
    refused("malformed sample type", () -> PprofProfile.read(badType, "type"));
    byte[] noString = bytes(out -> {
      out.writeByteArray(PprofProfile.STRING_TABLE, new byte[0]);
      out.writeByteArray(PprofProfile.SAMPLE_TYPE, new byte[] {8, 5});
    });
    refused("a sample type is string 5, outside the string table of 1", () -> PprofProfile.read(noString, "type"));
    byte[] varintSample = bytes(out -> {
      out.writeByteArray(PprofProfile.STRING_TABLE, new byte[0]);
      out.writeUInt64(PprofProfile.SAMPLE, 3);
    });
    refused("a sample that is not a message", () -> PprofProfile.read(varintSample, "sample"));
  }

  @Test
  void deepNesting() throws Exception {
    // 100,000 nested groups at the top level and inside a location: protobuf's recursion bound
    for (int field : new int[] {99, PprofProfile.LOCATION}) {
      byte[] nested = bytes(out -> {
        out.writeByteArray(PprofProfile.STRING_TABLE, new byte[0]);
        ByteArrayOutputStream inner = new ByteArrayOutputStream();
        CodedOutputStream in = CodedOutputStream.newInstance(inner);
        for (int i = 0; i < 100_000; i++) in.writeTag(7, 3); // start group
        for (int i = 0; i < 100_000; i++) in.writeTag(7, 4); // end group
        in.flush();
        if (field == PprofProfile.LOCATION) {
          out.writeByteArray(field, inner.toByteArray());
        } else {
          out.writeRawBytes(inner.toByteArray());
        }
      });
      refused("malformed protobuf", () -> PprofProfile.read(nested, "nested"));
    }
  }

  @Test
  void decompressionBomb() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(b)) {
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 200; i++) z.write(zeros); // 200 MiB of zeros, 200 KB gzipped
    }
    byte[] bomb = b.toByteArray();
    refused("profile decompresses to more than 8388608 bytes", () -> {
      try {
        return PprofProfile.read(new java.io.ByteArrayInputStream(bomb), "bomb", 8L << 20);
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    });
  }

  @Test
  void truncatedAndCorrupt() throws Exception {
    byte[] good = Files.readAllBytes(ProfileData.file("synthetic.pb"));
    for (int cut : new int[] {1, 7, good.length / 3, good.length - 1}) {
      byte[] t = java.util.Arrays.copyOf(good, cut);
      assertThrows(GsymFormatException.class, () -> PprofProfile.read(t, "cut"), "cut at " + cut);
    }
    byte[] gz = Files.readAllBytes(ProfileData.file("synthetic.pb.gz"));
    refused("gzip stream cut short", () -> PprofProfile.read(java.util.Arrays.copyOf(gz, gz.length - 9), "gz"));
    byte[] flipped = gz.clone();
    flipped[gz.length / 2] ^= 0x55;
    assertThrows(GsymFormatException.class, () -> PprofProfile.read(flipped, "flipped"));
    refused("string_table[0] is not", () -> PprofProfile.read(new byte[] {0x32, 1, 'x'}, "strings"));
  }
}
