package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Deterministic mutation fuzzing over the vector files: every mutant is opened, dumped and looked up
 * at a few addresses; only GsymFormatException (open, decode) and LookupException (lookups) may
 * escape, and each mutant must finish within a time bound.
 */
@Slow
class GsymMutationFuzzTest {
  /** Overridable for longer local runs: -Dgsym.fuzz.seed=… -Dgsym.fuzz.mutations=…. */
  private static final long SEED = Long.getLong("gsym.fuzz.seed", 0x6753594dL);
  private static final int MUTATIONS = Integer.getInteger("gsym.fuzz.mutations", 20_000);
  private static final String[] FILES = {"t1.gsym", "t2.gsym", "t3g.gsym", "t3gm.gsym", "t3gmc.gsym", "t3s.gsym",
      "A.gsym", "B.gsym", "C.gsym", "D.gsym", "E.gsym", "F.gsym", "G.gsym", "t2seg.gsym-0x1140"};
  private static final int[] INTERESTING = {0, 1, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff0,
      0x10000, 48, 20, 21};

  record Seed(String name, byte[] bytes, long[] addrs) {}

  private static List<Seed> seeds() throws Exception {
    List<Seed> out = new ArrayList<>();
    for (String f : FILES) {
      byte[] b = Files.readAllBytes(TestData.path("vectors", f));
      List<Long> addrs = new ArrayList<>();
      try (GsymReader r = GsymReader.of(b, f)) {
        for (int i = 0; i < r.numFunctions() && addrs.size() < 12; i++) {
          long a = r.functionAddress(i);
          addrs.add(a);
          addrs.add(a + 5);
        }
        addrs.add(r.header().baseAddress() - 1);
      }
      out.add(new Seed(f, b, addrs.stream().mapToLong(Long::longValue).toArray()));
    }
    return out;
  }

  static byte[] mutate(Random rnd, byte[] in, List<Seed> seeds, StringBuilder how) {
    byte[] b = in.clone();
    int kind = rnd.nextInt(8);
    switch (kind) {
      case 0 -> { // random bytes
        int n = 1 + rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
          int at = rnd.nextInt(b.length);
          b[at] = (byte) rnd.nextInt(256);
          how.append("byte@").append(at).append(' ');
        }
      }
      case 1 -> { // bit flip
        int at = rnd.nextInt(b.length);
        b[at] ^= (byte) (1 << rnd.nextInt(8));
        how.append("bit@").append(at);
      }
      case 2 -> { // truncate
        int len = rnd.nextInt(b.length);
        b = Arrays.copyOf(b, len);
        how.append("truncate ").append(len);
      }
      case 3 -> { // interesting u32 at a (mostly aligned) offset, either order
        int at = rnd.nextInt(Math.max(1, b.length - 3)) & (rnd.nextBoolean() ? ~3 : ~0);
        if (at + 4 <= b.length) {
          ByteBuffer.wrap(b).order(rnd.nextBoolean() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN)
              .putInt(at, INTERESTING[rnd.nextInt(INTERESTING.length)]);
        }
        how.append("u32@").append(at);
      }
      case 4 -> { // splice a chunk from another vector
        byte[] other = seeds.get(rnd.nextInt(seeds.size())).bytes();
        int from = rnd.nextInt(other.length);
        int len = 1 + rnd.nextInt(Math.min(64, other.length - from));
        int to = rnd.nextInt(b.length);
        int n = Math.min(len, b.length - to);
        System.arraycopy(other, from, b, to, n);
        how.append("splice ").append(from).append("->").append(to).append(" len ").append(n);
      }
      case 5 -> { // insert or delete a few bytes (shifts everything after)
        int at = rnd.nextInt(b.length);
        int n = 1 + rnd.nextInt(8);
        if (rnd.nextBoolean() && at + n <= b.length) {
          byte[] c = new byte[b.length - n];
          System.arraycopy(b, 0, c, 0, at);
          System.arraycopy(b, at + n, c, at, b.length - at - n);
          b = c;
          how.append("delete ").append(n).append('@').append(at);
        } else {
          byte[] c = new byte[b.length + n];
          System.arraycopy(b, 0, c, 0, at);
          for (int i = 0; i < n; i++) c[at + i] = (byte) rnd.nextInt(256);
          System.arraycopy(b, at, c, at + n, b.length - at);
          b = c;
          how.append("insert ").append(n).append('@').append(at);
        }
      }
      case 6 -> { // run of 0x80 / 0xff (LEB128 continuation bytes)
        int at = rnd.nextInt(b.length);
        int n = 1 + rnd.nextInt(24);
        byte v = rnd.nextBoolean() ? (byte) 0x80 : (byte) 0xff;
        for (int i = at; i < Math.min(b.length, at + n); i++) b[i] = v;
        how.append("run ").append(n).append('@').append(at);
      }
      default -> { // several mutations stacked
        for (int i = 0; i < 3; i++) b = mutate(rnd, b.length == 0 ? in : b, seeds, how.append(" + "));
      }
    }
    return b;
  }

  /** Opens, dumps, looks up; returns normally if only the two allowed exception types escaped. */
  static boolean exercise(byte[] b, long[] addrs) {
    GsymReader r;
    try {
      r = GsymReader.of(b, "mutant");
    } catch (GsymFormatException e) {
      return false;
    }
    try (r) {
      exercise(r, addrs);
    }
    return true;
  }

  /** Dumps and looks up through an open reader; only GsymFormatException and LookupException may escape from decoding. */
  static void exercise(GsymReader r, long[] addrs) {
    r.dump(new StringBuilder());
    int n = r.numFunctions();
    for (int i = 0; i < Math.min(n, 16); i++) {
      try {
        r.functionInfoAtIndex(i);
      } catch (GsymFormatException expected) {
        // fine
      }
      try {
        r.lookup(r.functionAddress(i) + 1);
      } catch (LookupException expected) {
        // fine
      }
    }
    for (long a : addrs) {
      try {
        r.lookup(a).toString();
      } catch (LookupException expected) {
        // fine
      }
      try {
        r.lookupAll(a);
      } catch (LookupException expected) {
        // fine
      }
      try {
        r.functionInfo(a);
      } catch (LookupException | GsymFormatException expected) {
        // fine
      }
    }
  }

  /** The vector files transcoded to GSYM version 2 (both byte orders): the seeds of the version 2 run. */
  private static List<Seed> version2Seeds() throws Exception {
    List<Seed> out = new ArrayList<>();
    for (Seed v1 : seeds()) {
      try (GsymReader r = GsymReader.of(v1.bytes(), v1.name())) {
        dev.gsym.write.GsymCreator c = dev.gsym.write.GsymCreator.from(r);
        c.setOutputVersion(2);
        c.finish(dev.gsym.write.Diagnostics.silent());
        for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
          out.add(new Seed(v1.name() + ".v2." + o, c.encode(o), v1.addrs()));
        }
      }
    }
    return out;
  }

  /** As {@link #mutantsFailCleanly} over version 2 files: header, directory, 8-byte offsets. */
  @Test
  void version2MutantsFailCleanly() throws Exception {
    assertThat(mutantsOpened(version2Seeds(), new Random(SEED + 2), MUTATIONS / 2)).isGreaterThan(MUTATIONS / 6);
  }

  @Test
  void mutantsFailCleanly() throws Exception {
    // most mutants must get past the header and tables, or the fuzzing would only test open()
    assertThat(mutantsOpened(seeds(), new Random(SEED), MUTATIONS)).isGreaterThan(MUTATIONS / 3);
  }

  /**
   * Exercises {@code count} mutants of {@code seeds}, each within 2 s and failing only with a
   * GsymFormatException; how many opened.
   */
  private static int mutantsOpened(List<Seed> seeds, Random rnd, int count) {
    int opened = 0;
    for (int i = 0; i < count; i++) {
      Seed s = seeds.get(rnd.nextInt(seeds.size()));
      StringBuilder how = new StringBuilder();
      byte[] mutant = mutate(rnd, s.bytes(), seeds, how);
      String what = "mutation #" + i + " of " + s.name() + ": " + how;
      try {
        if (assertTimeoutPreemptively(Duration.ofSeconds(2), () -> exercise(mutant, s.addrs()), () -> what)) {
          opened++;
        }
      } catch (AssertionError e) {
        throw e;
      } catch (Throwable t) {
        throw new AssertionError(what + " -> " + t + "\nmutant: "
            + HexFormat.of().formatHex(mutant, 0, Math.min(mutant.length, 512)), t);
      }
    }
    return opened;
  }

  /**
   * The same mutants as a window of a larger file (a GSYM in an object file's section, opened with
   * {@link GsymReader#open(FileChannel, long, long, String)}), between bytes that are not part of it
   * and before a valid GSYM: nothing outside the window is read (the mapping holds only the window),
   * and open errors name the source and an offset at or after the window's start.
   */
  @Test
  void windowMutantsFailCleanly(@TempDir Path tmp) throws Exception {
    List<Seed> seeds = seeds();
    Random rnd = new Random(SEED + 1);
    Path file = tmp.resolve("object");
    byte[] after = seeds.get(0).bytes();
    int opened = 0;
    int mutations = MUTATIONS / 8;
    for (int i = 0; i < mutations; i++) {
      Seed s = seeds.get(rnd.nextInt(seeds.size()));
      StringBuilder how = new StringBuilder();
      byte[] mutant = mutate(rnd, s.bytes(), seeds, how);
      int before = 8 * rnd.nextInt(8);
      byte[] whole = new byte[before + mutant.length + after.length];
      Arrays.fill(whole, 0, before, (byte) 0x55);
      System.arraycopy(mutant, 0, whole, before, mutant.length);
      System.arraycopy(after, 0, whole, before + mutant.length, after.length);
      Files.write(file, whole);
      String what = "window mutation #" + i + " of " + s.name() + " at " + before + ": " + how;
      try (FileChannel ch = FileChannel.open(file)) {
        GsymReader r;
        try {
          r = GsymReader.open(ch, before, mutant.length, "object (section .gsym)");
        } catch (GsymFormatException e) {
          assertThat(e.source()).as(what).isEqualTo("object (section .gsym)");
          assertThat(e.offset()).as(what + ": " + e.getMessage()).isGreaterThanOrEqualTo(before);
          continue;
        }
        opened++;
        try (r) {
          assertTimeoutPreemptively(Duration.ofSeconds(2), () -> exercise(r, s.addrs()), () -> what);
        }
      } catch (AssertionError e) {
        throw e;
      } catch (Throwable t) {
        throw new AssertionError(what + " -> " + t, t);
      }
    }
    assertThat(opened).isGreaterThan(mutations / 3);
  }
}
