package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.nio.file.Files;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every vector file decoded and fed back through the creator (strings and files in their original
 * order) encodes to the same bytes; in the other byte order it reads back to the same dump.
 */
class VectorRoundTripTest {

  static GsymCreator rebuild(GsymReader r) {
    return GsymCreator.from(r);
  }

  private static String dump(GsymReader r) {
    StringBuilder sb = new StringBuilder();
    r.dump(sb);
    return sb.toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"t1.gsym", "t2.gsym", "t3g.gsym", "t3gm.gsym", "t3gmc.gsym", "t3s.gsym",
      "A.gsym", "B.gsym", "C.gsym", "D.gsym", "E.gsym", "F.gsym", "G.gsym",
      "t2seg.gsym-0x1000", "t2seg.gsym-0x1140", "t2seg.gsym-0x1190"})
  void reencodeBothOrders(String name) throws Exception {
    byte[] bytes = Files.readAllBytes(TestData.path("vectors", name));
    try (GsymReader r = GsymReader.of(bytes, name)) {
      GsymCreator c = rebuild(r);
      StringBuilder log = new StringBuilder();
      c.finish(new Diagnostics(log));
      assertThat(log.toString()).endsWith("Pruned 0 functions, ended with " + r.numFunctions() + " total\n");
      assertThat(c.encode(r.byteOrder())).isEqualTo(bytes);
      ByteOrder other = r.byteOrder() == ByteOrder.LITTLE_ENDIAN ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
      byte[] swapped = c.encode(other);
      assertThat(swapped).hasSameSizeAs(bytes).isNotEqualTo(bytes);
      try (GsymReader s = GsymReader.of(swapped, name)) {
        assertThat(s.byteOrder()).isEqualTo(other);
        assertThat(dump(s)).isEqualTo(dump(r));
        for (int i = 0; i < r.numFunctions(); i++) {
          long a = r.functionAddress(i) + 1;
          String expect;
          try {
            expect = r.lookupAll(a).toString();
          } catch (dev.gsym.read.LookupException | dev.gsym.GsymFormatException e) {
            expect = dev.gsym.testing.LookupErrors.llvm(e);
          }
          String got;
          try {
            got = s.lookupAll(a).toString();
          } catch (dev.gsym.read.LookupException | dev.gsym.GsymFormatException e) {
            got = dev.gsym.testing.LookupErrors.llvm(e);
          }
          assertThat(got).isEqualTo(expect);
        }
      }
    }
  }
}
