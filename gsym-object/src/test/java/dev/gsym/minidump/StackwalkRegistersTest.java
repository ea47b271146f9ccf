package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.BreakpadRegisterNames;
import dev.gsym.unwind.Registers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The registers of every thread's context equal what minidump_stackwalk prints for the thread's
 * frame 0 ({@code rip = 0x...} lines; the crashed thread's from the exception's context, as
 * Breakpad takes it), both by name (the raw fields) and by DWARF number in the {@link Registers}
 * the context fills (names mapped through {@link BreakpadRegisterNames}), on every corpus dump
 * minidump_stackwalk reads.
 */
class StackwalkRegistersTest {
  private static final Pattern THREAD = Pattern.compile("^Thread (\\d+)( \\(crashed\\))?$");
  private static final Pattern REGISTER = Pattern.compile("(\\w+) = 0x([0-9a-f]+)");

  static Stream<Path> dumps() {
    return MinidumpDumpTest.dumps().filter(p -> Files.exists(stackwalk(p)) && MinidumpDumpTest.status(p, "minidump_stackwalk") == 0);
  }

  private static Path stackwalk(Path dump) {
    return MinidumpDumpTest.dir().resolve("expected").resolve(MinidumpDumpTest.name(dump) + ".stackwalk.txt");
  }

  /** Frame 0's registers of each thread minidump_stackwalk prints, by its thread number. */
  static Map<Integer, Map<String, Long>> frameZero(Path stackwalk) throws IOException {
    Map<Integer, Map<String, Long>> out = new LinkedHashMap<>();
    Integer thread = null;
    boolean inFrameZero = false;
    for (String line : Files.readAllLines(stackwalk)) {
      Matcher t = THREAD.matcher(line);
      if (t.matches()) {
        thread = Integer.parseInt(t.group(1));
        out.put(thread, new LinkedHashMap<>());
        inFrameZero = false;
      } else if (thread != null && line.startsWith(" 0  ")) {
        inFrameZero = true;
      } else if (inFrameZero && line.startsWith("    Found by:")) {
        inFrameZero = false;
        thread = null;
      } else if (inFrameZero) {
        Matcher r = REGISTER.matcher(line);
        while (r.find()) out.get(thread).put(r.group(1), Long.parseUnsignedLong(r.group(2), 16));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dumps")
  void frameZeroRegistersAreTheContexts(Path path) throws IOException {
    Map<Integer, Map<String, Long>> expected = frameZero(stackwalk(path));
    try (Minidump dump = Minidump.open(path)) {
      ExceptionStream exception = dump.exception();
      BreakpadInfo info = null;
      try {
        info = dump.breakpadInfo();
      } catch (GsymFormatException ignored) {
        // as Breakpad, without it
      }
      // minidump_stackwalk numbers the threads it walks: all but Breakpad's own handler thread
      List<MinidumpThread> walked = new ArrayList<>();
      for (MinidumpThread t : dump.threadList().threads()) {
        if (info != null && info.hasDumpThreadId() && t.threadId() == info.dumpThreadId()) continue;
        walked.add(t);
      }
      assertThat(expected).isNotEmpty();
      int compared = 0;
      boolean anyFrames = false;
      for (var e : expected.entrySet()) {
        // a thread printed with "<no frames>": minidump_stackwalk could not read its context either
        // (Breakpad's test dump of an x86 context with XSAVE state, which neither reads)
        if (e.getValue().isEmpty()) continue;
        anyFrames = true;
        MinidumpThread t = walked.get(e.getKey());
        CpuContext context = exception != null && exception.threadId() == t.threadId()
            ? dump.context(exception.threadContext(), exception.contextOffset()) : dump.context(t);
        Registers regs = new Registers();
        context.registers(regs);
        for (var r : e.getValue().entrySet()) {
          String name = r.getKey();
          long value = r.getValue();
          assertThat(byName(context, name)).as("%s thread %d %s", path.getFileName(), e.getKey(), name).isEqualTo(value);
          int dwarf = dwarf(context.arch(), name);
          if (dwarf < 0) {
            assertThat(regs.pc()).as("%s thread %d pc", path.getFileName(), e.getKey()).isEqualTo(value);
          } else {
            assertThat(regs.has(dwarf)).as("%s DWARF %d", name, dwarf).isTrue();
            assertThat(regs.get(dwarf)).as("%s thread %d %s as DWARF %d", path.getFileName(), e.getKey(), name, dwarf).isEqualTo(value);
          }
          compared++;
        }
        assertThat(regs.pc()).isEqualTo(context.pc());
        assertThat(e.getValue()).as("the pc is printed").containsValue(context.pc());
      }
      assertThat(compared > 0 || !anyFrames).isTrue();
    }
  }

  /** The register minidump_stackwalk calls {@code name}, read from the context's raw fields. */
  private static long byName(CpuContext c, String name) {
    return switch (c) {
      case ContextAmd64 a -> name.matches("r(8|9|1[0-5])") ? a.r(Integer.parseInt(name.substring(1))) : a.register(name);
      case ContextX86 x -> switch (name) {
        case "eip" -> x.eip();
        case "esp" -> x.esp();
        case "ebp" -> x.ebp();
        case "ebx" -> x.ebx();
        case "esi" -> x.esi();
        case "edi" -> x.edi();
        case "eax" -> x.eax();
        case "ecx" -> x.ecx();
        case "edx" -> x.edx();
        case "efl" -> x.eflags();
        default -> throw new AssertionError("x86 register " + name);
      };
      case ContextArm a -> a.ireg(switch (name) {
        case "fp" -> 11;
        case "sp" -> 13;
        case "lr" -> 14;
        case "pc" -> 15;
        default -> Integer.parseInt(name.substring(1));
      });
      case ContextArm64 a -> a.ireg(switch (name) {
        case "fp" -> 29;
        case "lr" -> 30;
        case "sp" -> 31;
        case "pc" -> 32;
        default -> Integer.parseInt(name.substring(1));
      });
      case UnsupportedContext u -> throw new AssertionError("unsupported context");
    };
  }

  /** The DWARF number of minidump_stackwalk's register {@code name}, through dump_syms' names. */
  private static int dwarf(Arch arch, String name) {
    String cfiName = switch (arch) {
      case X86 -> name.equals("efl") ? "$eflags" : "$" + name;
      case X86_64 -> "$" + name;
      case ARM -> name.equals("fp") ? "r11" : name;
      case AARCH64 -> switch (name) {
        case "fp" -> "x29";
        case "lr" -> "x30";
        default -> name;
      };
      default -> throw new AssertionError(arch.toString());
    };
    if (arch == Arch.AARCH64 && name.equals("pc")) return -1; // no DWARF register: the pc is Registers.pc()
    int n = BreakpadRegisterNames.number(arch, cfiName);
    assertThat(n).as("%s %s", arch, cfiName).isGreaterThanOrEqualTo(0);
    return n;
  }
}
