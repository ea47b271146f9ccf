package dev.gsym.stackwalk;

import dev.gsym.minidump.ExceptionStream;
import dev.gsym.minidump.Minidump;
import dev.gsym.minidump.MinidumpModule;
import dev.gsym.minidump.MinidumpThread;
import dev.gsym.minidump.SystemInfo;
import dev.gsym.unwind.Arch;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Corpus dumps with hostile stacks: the structure untouched (Breakpad and we read the same
 * streams), the stack memory and the registers the walk starts from rewritten with words that lead
 * walkers astray: return addresses anywhere in the modules, pointers into the stack itself (frame
 * pointer chains that loop back or point at themselves), addresses near the top of the address
 * space, zeros and noise. A seed makes each variant.
 */
final class HostileStacks {
  private HostileStacks() {}

  /** Where the bytes of one thread's walk start are. */
  private record Target(long stackRva, long stackStart, long stackSize, long contextRva, Arch arch) {}

  /** A variant of {@code original} made from {@code seed}. */
  static byte[] variant(byte[] original, long seed) {
    byte[] b = original.clone();
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Target> targets = new ArrayList<>();
    List<long[]> modules = new ArrayList<>();
    Arch arch;
    try (Minidump d = Minidump.of(original, "original")) {
      SystemInfo si = d.systemInfo();
      arch = si.arch();
      for (MinidumpModule m : d.moduleList().modules()) modules.add(new long[] {m.baseOfImage(), m.sizeOfImage()});
      ExceptionStream e = null;
      try {
        e = d.exception();
      } catch (RuntimeException ignored) {
        // no exception stream
      }
      for (MinidumpThread t : d.threadList().threads()) {
        long context = t.context().rva();
        if (e != null && e.threadId() == t.threadId()) context = e.threadContext().rva();
        targets.add(new Target(t.stack().memory().rva(), t.stack().start(), t.stack().size(), context, arch));
      }
    }
    int word = arch.addressSize();
    ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    for (Target t : targets) {
      if (t.stackSize() < word * 4L || t.stackRva() + t.stackSize() > b.length) continue;
      int words = (int) (t.stackSize() / word);
      int edits = 1 + rnd.nextInt(Math.max(1, words / 8));
      for (int i = 0; i < edits; i++) {
        int at = rnd.nextInt(words);
        put(buf, (int) (t.stackRva() + (long) at * word), word, hostileWord(rnd, t, modules, word));
      }
      // the registers the walk starts from: frame pointer, stack pointer, pc, link register
      int[] offsets = switch (arch) {
        case X86_64 -> new int[] {160, 152, 248};
        case X86 -> new int[] {180, 196, 184};
        case ARM -> new int[] {4 + 4 * 11, 4 + 4 * 13, 4 + 4 * 15, 4 + 4 * 14, 4 + 4 * 7};
        case AARCH64 -> new int[] {8 + 8 * 29, 8 + 8 * 31, 8 + 8 * 32, 8 + 8 * 30};
        default -> new int[0];
      };
      for (int off : offsets) {
        if (rnd.nextInt(3) == 0 && t.contextRva() + off + word <= b.length) {
          put(buf, (int) (t.contextRva() + off), word, hostileWord(rnd, t, modules, word));
        }
      }
    }
    return b;
  }

  private static long hostileWord(SplittableRandom rnd, Target t, List<long[]> modules, int word) {
    long mask = word == 4 ? 0xffff_ffffL : -1L;
    return switch (rnd.nextInt(7)) {
      case 0, 1 -> { // a return address in a module
        if (modules.isEmpty()) yield rnd.nextLong() & mask;
        long[] m = modules.get(rnd.nextInt(modules.size()));
        yield (m[0] + rnd.nextLong(Math.max(1, m[1]))) & mask;
      }
      case 2, 3 -> (t.stackStart() + (rnd.nextLong(Math.max(1, t.stackSize())) & -word)) & mask; // into the stack: cycles
      case 4 -> (-1L - rnd.nextInt(64)) & mask; // the top of the address space
      case 5 -> 0;
      default -> rnd.nextLong() & mask;
    };
  }

  private static void put(ByteBuffer buf, int at, int word, long v) {
    if (word == 4) buf.putInt(at, (int) v);
    else buf.putLong(at, v);
  }
}
