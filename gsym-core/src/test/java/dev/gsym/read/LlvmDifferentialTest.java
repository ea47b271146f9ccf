package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.format.Hex;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential check against the real {@code llvm-gsymutil-22} (skipped when it is not on the
 * PATH, failed then under -Dgsym.requireTools=true): the dump and the lookups of valid vectors and
 * of deterministic mutants of them must give the same text. llvm must answer every one of them
 * (exit 0 or 1): a crash or a hang is reported, not silently left out of the comparison.
 */
@NeedsLlvm
class LlvmDifferentialTest {
  private static final String TOOL = Llvm.GSYMUTIL;
  private static final int MUTANTS = Integer.getInteger("gsym.diff.mutants", 150);

  @TempDir Path dir;

  record Seed(String name, long[] addrs) {}

  private static final Seed[] SEEDS = {
      new Seed("t1.gsym", new long[] {0x1000, 0x1010, 0x1145, 0x1158, 0x1165, 0x11f5}),
      new Seed("t2.gsym", new long[] {0x1158, 0x115b, 0x1183, 0x1060, 0x1195}),
      new Seed("A.gsym", new long[] {0x1000, 0x1025, 0x1031, 0x5000}),
      new Seed("B.gsym", new long[] {0x401005, 0x413345}),
      new Seed("C.gsym", new long[] {0x15, 0x100000015L}),
      new Seed("D.gsym", new long[] {0x115, 0x125, 0x300, 0x510}),
      new Seed("E.gsym", new long[] {0x1004, 0x1010, 0x114a, 0x3105, 0x3209}),
      new Seed("F.gsym", new long[] {0x110, 0x130, 0x205, 0x215, 0x315, 0x412, 0x424}),
      new Seed("G.gsym", new long[] {0x2005, 0x2008}),
      new Seed("t3gmc.gsym", new long[] {0x6c0, 0x6c4})};

  /** stdout + stderr of llvm-gsymutil, or null if it crashed or hung. */
  private static String llvm(List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Llvm.gsymutil().toString());
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).start();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return null;
    }
    if (p.exitValue() != 0 && p.exitValue() != 1) return null;
    return ByteStrings.decode(out) + ByteStrings.decode(err); // compared exactly, bytes that are not UTF-8 too
  }

  private static String ourDump(Path file, byte[] bytes) {
    try (GsymReader r = GsymReader.of(bytes, file.toString())) {
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      return sb.toString();
    } catch (GsymFormatException e) {
      return file + ": " + e.detail() + "\n";
    }
  }

  private static String ourLookups(Path file, byte[] bytes, long[] addrs) {
    GsymReader r;
    try {
      r = GsymReader.of(bytes, file.toString());
    } catch (GsymFormatException e) {
      return file + ": " + e.detail() + "\n";
    }
    StringBuilder sb = new StringBuilder("Looking up addresses in \"" + file + "\":\n");
    try (r) {
      for (long a : addrs) {
        try {
          r.lookup(a).withoutCallSites().appendTo(sb);
        } catch (LookupException e) {
          Hex.append(sb, a, 16).append(": error: ").append(e.getMessage()).append('\n');
        }
      }
    }
    return sb.toString();
  }

  private static List<String> lookupArgs(long[] addrs, Path file) {
    List<String> args = new ArrayList<>();
    for (long a : addrs) {
      args.add("--address");
      args.add(Hex.hex(a));
    }
    args.add(file.toString());
    return args;
  }

  /** Whether llvm answered (did not crash or hang); differences go to {@code diffs}. */
  private boolean compare(Path file, byte[] bytes, long[] addrs, List<String> diffs) throws Exception {
    Files.write(file, bytes);
    String dump = llvm(List.of(file.toString()));
    String look = llvm(lookupArgs(addrs, file));
    if (dump == null || look == null) return false;
    if (!dump.equals(ourDump(file, bytes))) diffs.add("dump of " + file.getFileName());
    if (!look.equals(ourLookups(file, bytes, addrs))) diffs.add("lookups of " + file.getFileName());
    return true;
  }

  @Test
  void vectorsAndMutantsMatchLlvm() throws Exception {
    Tools.require(Llvm.gsymutil(), TOOL);
    List<String> diffs = new ArrayList<>();
    List<byte[]> seeds = new ArrayList<>();
    for (Seed s : SEEDS) {
      byte[] b = Files.readAllBytes(TestData.path("vectors", s.name()));
      seeds.add(b);
      assertThat(compare(dir.resolve(s.name()), b, s.addrs(), diffs)).as("llvm answers for %s", s.name()).isTrue();
    }
    Random rnd = new Random(0x11f0);
    List<Integer> notCompared = new ArrayList<>();
    for (int i = 0; i < MUTANTS; i++) {
      int k = rnd.nextInt(SEEDS.length);
      byte[] b = seeds.get(k).clone();
      switch (rnd.nextInt(5)) {
        case 0 -> b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
        case 1 -> b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
        case 2 -> b = Arrays.copyOf(b, rnd.nextInt(b.length));
        case 3 -> {
          int at = rnd.nextInt(Math.max(1, b.length - 3)) & ~3;
          int v = new int[] {0, 1, 0xff, 0x7fffffff, 0xffffffff, 0x80}[rnd.nextInt(6)];
          for (int j = 0; j < 4 && at + j < b.length; j++) b[at + j] = (byte) (v >>> (8 * j));
        }
        default -> {
          byte[] o = seeds.get(rnd.nextInt(seeds.size()));
          int from = rnd.nextInt(o.length);
          int to = rnd.nextInt(b.length);
          int n = Math.min(Math.min(1 + rnd.nextInt(32), o.length - from), b.length - to);
          System.arraycopy(o, from, b, to, n);
        }
      }
      if (!compare(dir.resolve(String.format("m%05d.gsym", i)), b, SEEDS[k].addrs(), diffs)) notCompared.add(i);
    }
    // llvm-gsymutil-22 answers every one of the 150 mutants (none crashes or hangs): all compared.
    assertThat(notCompared).as("mutants llvm-gsymutil-22 crashed or hung on, so not compared").isEmpty();
    assertThat(diffs).isEmpty();
  }
}
