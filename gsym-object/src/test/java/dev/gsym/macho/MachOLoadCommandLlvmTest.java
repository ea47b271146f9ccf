package dev.gsym.macho;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * llvm's validation of every load command, against llvm itself: thousands of byte-patched copies
 * of the Mach-O goldens (each command's cmdsize changed, each of its first 16 words set to edge
 * values, the command retagged as each kind llvm checks, thread states written in) are read by
 * {@link MachOFile} and by llvm-size-22 (one process reads them all; libObject's MachOObjectFile
 * constructor, the code llvm-gsymutil-22 runs, does the checks and words the errors, which
 * llvm-gsymutil-22 itself prints only as "Invalid data was encountered while parsing the file").
 * The same files are refused, with llvm's description. Skipped without llvm-size-22.
 */
@NeedsLlvm
class MachOLoadCommandLlvmTest {
  @TempDir Path tmp;

  private static final String[] GOLDENS = {"c-x86_64-O2", "c-arm64-O2", "libutil-x86_64.dylib", "shapes-arm64.bundle", "c-x86_64-O2.o",
      "c-i386-O2.o", "c-armv7-O2.o", "c-arm64_32-O2", "c-x86_64-O2.dSYM/Contents/Resources/DWARF/c-x86_64-O2"};

  /** The commands a command is retagged as: every kind llvm checks, and a few it does not. */
  private static final int[] RETAGS = {0x1, 0x19, 0x2, 0xb, 0x1b, 0x8, 0x3, 0x4, 0x5, 0x6, 0x7, 0x9, 0xa, 0xc, 0xd, 0xe, 0xf, 0x10, 0x11,
      0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x80000018, 0x1a, 0x8000001c, 0x1d, 0x1e, 0x8000001f, 0x20, 0x21, 0x22, 0x80000022, 0x80000023,
      0x24, 0x25, 0x26, 0x27, 0x80000028, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x32, 0x80000033, 0x80000034, 0x80000035,
      0x36, 0x7777};

  private record Command(int offset, int cmd, int size) {}

  private static List<Command> commands(ByteBuffer b) {
    List<Command> all = new ArrayList<>();
    int at = b.getInt(0) == 0xfeedfacf ? 32 : 28;
    for (int i = 0, n = b.getInt(16); i < n; i++) {
      all.add(new Command(at, b.getInt(at), b.getInt(at + 4)));
      at += b.getInt(at + 4);
    }
    return all;
  }

  /** The mutants of one golden, by name. */
  private static Map<String, byte[]> mutants(String name, byte[] orig) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    ByteBuffer ob = ByteBuffer.wrap(orig).order(ByteOrder.LITTLE_ENDIAN);
    boolean is64 = ob.getInt(0) == 0xfeedfacf;
    int cpu = ob.getInt(4);
    List<Command> cmds = commands(ob);
    for (int k = 0; k < cmds.size(); k++) {
      Command c = cmds.get(k);
      String tag = name.replace('/', '_') + "." + k;
      for (int delta : new int[] {-8, -4, 4, 8}) {
        if (c.size() + delta >= 8) out.put(tag + ".size" + delta, patch(orig, c.offset() + 4, c.size() + delta));
      }
      out.put(tag + ".size8", patch(orig, c.offset() + 4, 8));
      for (int w = 8; w < Math.min(c.size(), 8 + 4 * 16); w += 4) {
        int old = ob.getInt(c.offset() + w);
        int[] values = {0, -1, orig.length - 2, 1, 0x20, old + 1, old - 1, old ^ 0x8000_0000};
        for (int v = 0; v < values.length; v++) out.put(tag + ".w" + w + "=" + v, patch(orig, c.offset() + w, values[v]));
      }
      for (int t : RETAGS) {
        if (t != c.cmd()) out.put(tag + ".as" + Integer.toHexString(t), patch(orig, c.offset(), t));
      }
      // thread states written over the command (same size, so the later commands stay in place)
      int[][] states = switch (cpu) {
        case 7 -> new int[][] {{1, 16, 64}};
        case 0x01000007 -> new int[][] {{4, 42, 168}, {6, 4, 16}, {7, 44, 176}, {8, 133, 532}, {9, 6, 24}};
        case 12 -> new int[][] {{1, 17, 68}};
        case 0x0100000c, 0x0200000c -> new int[][] {{6, 68, 272}};
        default -> new int[0][];
      };
      for (int[] s : states) {
        for (int variant = 0; variant < 4; variant++) {
          int body = c.size() - 8;
          if (body < 8 + s[2] && variant < 3) continue;
          byte[] m = orig.clone();
          ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
          b.putInt(c.offset(), variant == 3 ? 0x4 : 0x5);
          int at = c.offset() + 8, end = c.offset() + c.size();
          while (at + 8 <= end) {
            b.putInt(at, variant == 1 ? s[0] + 100 : s[0]).putInt(at + 4, variant == 2 ? s[1] + 1 : s[1]);
            java.util.Arrays.fill(m, at + 8, Math.min(end, at + 8 + s[2]), (byte) 0);
            at += 8 + s[2];
          }
          out.put(tag + ".thread" + s[0] + "v" + variant, m);
        }
      }
    }
    return out;
  }

  private static byte[] patch(byte[] orig, int at, int value) {
    byte[] m = orig.clone();
    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
    return m;
  }

  @Test
  void sameFilesRefusedWithLlvmsDescription() throws IOException, InterruptedException {
    Path size = Tools.require("llvm-size-22");
    Map<String, byte[]> all = new TreeMap<>();
    for (String g : GOLDENS) all.putAll(mutants(g, Files.readAllBytes(TestData.path("macho", "bin", g))));
    List<String> args = new ArrayList<>(List.of(size.toString()));
    for (Map.Entry<String, byte[]> m : all.entrySet()) {
      Files.write(tmp.resolve(m.getKey()), m.getValue());
      args.add(m.getKey());
    }
    Path out = tmp.resolve("llvm-size.out");
    // (its errors on stderr alone: stdout is buffered and would cut into them)
    Process p = new ProcessBuilder(args).directory(tmp.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(out.toFile()).start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
    Map<String, String> llvmErrors = new TreeMap<>();
    Pattern error = Pattern.compile("^\\S*llvm-size-22: error: '([^']+)': (.*)$");
    for (String line : Files.readAllLines(out, StandardCharsets.ISO_8859_1)) {
      Matcher m = error.matcher(line);
      if (m.matches()) llvmErrors.put(m.group(1), m.group(2));
    }
    Pattern ours = Pattern.compile("(truncated or malformed object \\(.*\\)) at offset 0x[0-9a-f]+$");
    int refused = 0;
    List<String> differ = new ArrayList<>();
    for (Map.Entry<String, byte[]> m : all.entrySet()) {
      String llvm = llvmErrors.get(m.getKey());
      String mine = null;
      try {
        MachOFile.of(m.getValue(), m.getKey());
      } catch (GsymFormatException e) {
        Matcher mm = ours.matcher(e.getMessage());
        mine = mm.find() ? mm.group(1) : e.getMessage();
      }
      if (llvm != null) refused++;
      if (llvm == null ? mine != null : !llvm.equals(mine)) differ.add(m.getKey() + ": llvm " + llvm + " | ours " + mine);
    }
    assertThat(differ).as("of " + all.size() + " mutants; llvm-size-22 said: "
        + String.join("\n", Files.readAllLines(out, StandardCharsets.ISO_8859_1).stream().limit(5).toList())).isEmpty();
    assertThat(refused).as("refused by llvm, of " + all.size()).isGreaterThan(all.size() / 4);
    System.out.println("MachOLoadCommandLlvmTest: " + all.size() + " mutants, " + refused + " refused, as llvm-size-22");
  }
}
