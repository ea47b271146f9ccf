package dev.gsym.stackwalk;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.minidump.LinuxCpuInfo;
import dev.gsym.minidump.LinuxLsbRelease;
import dev.gsym.minidump.LinuxMaps;
import dev.gsym.minidump.LinuxProcStatus;
import dev.gsym.minidump.Minidump;
import dev.gsym.minidump.MiscInfo;
import dev.gsym.minidump.UnloadedModule;
import dev.gsym.minidump.UnloadedModuleList;
import dev.gsym.unwind.Arch;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.PrettyPrinter;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;

/**
 * A walked process as the JSON of rust-minidump's {@code minidump-stackwalk --json} (its stable
 * schema, {@code minidump-processor/json-schema.md}, the report Mozilla's crash-stats reads):
 * {@code status}, {@code pid}, {@code process_uptime}, {@code crash_info}, {@code system_info},
 * {@code threads} (frames with the frames inlined at them as {@code inlines}), {@code crashing_thread}
 * (with frame 0's {@code registers}), {@code main_module}, {@code modules}, {@code unloaded_modules},
 * and the Linux extras. Addresses are hex strings zero-padded to the CPU's pointer width; a field the
 * dump or the symbols do not give is {@code null}; strings are valid Unicode (ill-formed bytes
 * become U+FFFD). The values are those of the {@link ProcessState} (Breakpad's walk and words), so
 * frames, trust and modules are those of {@link StackwalkPrinter}'s outputs.
 */
public final class StackwalkJson {
  private static final JsonFactory FACTORY = JsonFactory.builder().disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES).build();

  private StackwalkJson() {}

  /**
   * What the schema reports beyond a {@link ProcessState}, read from the dump: the process id, the
   * CPU's microcode version, the Linux {@code lsb-release} and memory-map count, the unloaded-module
   * list as written. {@link #NONE} when the process was not a minidump.
   *
   * @param pid the process id, -1 when unknown
   * @param cpuMicrocodeVersion the {@code microcode} of /proc/cpuinfo, -1 when unknown
   * @param lsbRelease {@code id}, {@code release}, {@code codename}, {@code description}, or null
   * @param linuxMemoryMapCount the mappings of /proc/self/maps, -1 without the stream
   * @param unloadedModules the unloaded-module list in the dump's order (empty without one)
   */
  public record DumpDetails(long pid, long cpuMicrocodeVersion, Map<String, String> lsbRelease, int linuxMemoryMapCount,
      List<UnloadedModule> unloadedModules) {
    /** Nothing known: a process that was not read from a minidump. */
    public static final DumpDetails NONE = new DumpDetails(-1, -1, null, -1, List.of());

    /** Copies the map and the list. */
    public DumpDetails {
      lsbRelease = lsbRelease == null ? null : Map.copyOf(lsbRelease);
      unloadedModules = List.copyOf(unloadedModules);
    }

    /** Reads the details from {@code dump}; a stream that is missing or unreadable gives its "unknown". */
    public static DumpDetails of(Minidump dump) {
      MiscInfo misc = optional(dump::miscInfo);
      LinuxProcStatus status = optional(dump::linuxProcStatus);
      long pid = -1;
      if (misc != null) {
        if (misc.has(MiscInfo.FLAGS1_PROCESS_ID)) pid = misc.processId();
      } else if (status != null) {
        pid = status.pid();
      }
      long microcode = -1;
      LinuxCpuInfo cpuInfo = optional(dump::linuxCpuInfo);
      if (cpuInfo != null) {
        for (Map<String, String> p : cpuInfo.processors()) {
          String v = p.get("microcode");
          if (v == null) continue;
          v = v.strip();
          if (v.startsWith("0x")) {
            try {
              microcode = Long.parseUnsignedLong(v.substring(2), 16);
            } catch (NumberFormatException e) {
              // not a number: unknown, as rust-minidump reads it
            }
          }
          break;
        }
      }
      Map<String, String> lsb = null;
      LinuxLsbRelease release = optional(dump::linuxLsbRelease);
      if (release != null) {
        String[] v = {"", "", "", ""};
        for (Map.Entry<String, String> e : release.fields().entrySet()) {
          int slot = switch (unquote(e.getKey())) {
            case "DISTRIB_ID", "ID" -> 0;
            case "DISTRIB_RELEASE", "VERSION_ID" -> 1;
            case "DISTRIB_CODENAME", "VERSION_CODENAME" -> 2;
            case "DISTRIB_DESCRIPTION", "PRETTY_NAME" -> 3;
            default -> -1;
          };
          if (slot >= 0) v[slot] = unquote(e.getValue());
        }
        lsb = Map.of("id", v[0], "release", v[1], "codename", v[2], "description", v[3]);
      }
      LinuxMaps maps = optional(dump::linuxMaps);
      UnloadedModuleList unloaded = optional(dump::unloadedModuleList);
      return new DumpDetails(pid, microcode, lsb, maps == null ? -1 : maps.mappings().size(),
          unloaded == null ? List.of() : unloaded.modules());
    }

    /** Surrounding white space and one pair of double quotes removed (how the schema's writer reads these files). */
    private static String unquote(String s) {
      s = s.strip();
      return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private static <T> T optional(Supplier<T> read) {
      try {
        return read.get();
      } catch (GsymFormatException | IllegalArgumentException e) {
        return null;
      }
    }
  }

  /** The JSON text (compact, or indented by two spaces with {@code pretty}). */
  public static String json(ProcessState state, DumpDetails details, boolean pretty) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    write(state, details, out, pretty);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Writes the JSON (UTF-8) to {@code out}, which is flushed, not closed. */
  public static void write(ProcessState state, DumpDetails details, OutputStream out, boolean pretty) {
    ObjectWriteContext context = pretty ? new Pretty() : ObjectWriteContext.empty();
    try (JsonGenerator g = FACTORY.createGenerator(context, new NonClosing(out))) {
      new Writer(state, details == null ? DumpDetails.NONE : details, g).report();
    }
  }

  /** serde_json's pretty form: two-space indentation, {@code "name": value}. */
  private static final class Pretty extends ObjectWriteContext.Base {
    @Override
    public PrettyPrinter getPrettyPrinter() {
      DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
      return new DefaultPrettyPrinter(Separators.createDefaultInstance().withObjectNameValueSpacing(Separators.Spacing.AFTER))
          .withObjectIndenter(indenter).withArrayIndenter(indenter);
    }

    @Override
    public boolean hasPrettyPrinter() {
      return true;
    }
  }

  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws java.io.IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws java.io.IOException {
      out.flush();
    }
  }

  private static final class Writer {
    private final ProcessState state;
    private final DumpDetails details;
    private final JsonGenerator g;
    private final boolean wide;
    /** Modules a frame fell into (their symbols were asked for). */
    private final Set<CodeModule> asked = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    Writer(ProcessState state, DumpDetails details, JsonGenerator g) {
      this.state = state;
      this.details = details;
      this.g = g;
      this.wide = !switch (state.system().cpu()) {
        case "x86", "arm", "ppc", "sparc", "mips", "riscv" -> true;
        default -> false;
      };
      for (CallStack t : state.threads()) for (StackFrame f : t.frames()) if (f.module() != null) asked.add(f.module());
    }

    void report() {
      g.writeStartObject();
      g.writeStringProperty("status", "OK");
      if (details.pid() >= 0) g.writeNumberProperty("pid", details.pid());
      else nullProperty("pid");
      long stamp = state.dumpTime();
      long created = state.processCreateTime();
      if (stamp != 0 && created != 0 && Long.compareUnsigned(stamp, created) >= 0) {
        g.writeNumberProperty("process_uptime", stamp - created);
      } else {
        nullProperty("process_uptime");
      }
      crashInfo();
      systemInfo();
      if (details.linuxMemoryMapCount() >= 0) g.writeNumberProperty("linux_memory_map_count", details.linuxMemoryMapCount());
      else nullProperty("linux_memory_map_count");
      g.writeName("lsb_release");
      if (details.lsbRelease() == null) {
        g.writeNull();
      } else {
        g.writeStartObject();
        for (String k : List.of("id", "release", "codename", "description")) string(k, details.lsbRelease().get(k));
        g.writeEndObject();
      }
      List<CallStack> threads = state.threads();
      g.writeNumberProperty("thread_count", threads.size());
      g.writeName("threads");
      g.writeStartArray();
      for (CallStack t : threads) thread(t, -1);
      g.writeEndArray();
      int requesting = state.requestingThread();
      g.writeName("crashing_thread");
      if (requesting >= 0 && requesting < threads.size() && !threads.get(requesting).frames().isEmpty()) {
        thread(threads.get(requesting), requesting);
      } else {
        g.writeNull();
      }
      modules();
      unloadedModules();
      g.writeEndObject();
    }

    private void crashInfo() {
      g.writeName("crash_info");
      g.writeStartObject();
      CrashInfo crash = state.crash();
      string("type", crash == null ? null : crash.reason());
      g.writeName("address");
      if (crash == null) g.writeNull();
      else g.writeString(hex(crash.address()));
      // rust-minidump's disassembly of the crashing instruction: not made here
      for (String k : List.of("adjusted_address", "instruction", "memory_accesses", "instruction_pointer_update",
          "possible_bit_flips", "crash_inconsistencies")) {
        nullProperty(k);
      }
      // the index in "threads" (as rust-minidump and Breakpad's JSON writers report it)
      if (state.requestingThread() >= 0) g.writeNumberProperty("crashing_thread", state.requestingThread());
      else nullProperty("crashing_thread");
      string("assertion", state.assertion());
      g.writeEndObject();
    }

    private void systemInfo() {
      SystemDescription sys = state.system();
      g.writeName("system_info");
      g.writeStartObject();
      string("os", sys.os());
      string("os_ver", sys.osVersion());
      g.writeStringProperty("cpu_arch", sys.cpu().isEmpty() ? "unknown" : sys.cpu());
      string("cpu_info", sys.cpuInfo());
      g.writeNumberProperty("cpu_count", sys.cpuCount());
      string("cpu_microcode_version",
          details.cpuMicrocodeVersion() < 0 ? null : "0x" + Long.toHexString(details.cpuMicrocodeVersion()));
      g.writeEndObject();
    }

    /** A thread; with {@code index} >= 0 the crashing thread's copy (its index, frame 0's registers). */
    private void thread(CallStack t, int index) {
      g.writeStartObject();
      if (index >= 0) g.writeNumberProperty("threads_index", index);
      string("thread_name", t.threadName());
      g.writeNumberProperty("thread_id", t.threadId());
      nullProperty("last_error_value"); // a Windows thread's TEB value: not read
      // inlined frames go into the "inlines" of the frame they are inlined into (the next real one)
      List<StackFrame> frames = t.frames();
      int real = 0;
      for (StackFrame f : frames) if (f.trust() != FrameTrust.INLINE) real++;
      boolean trailing = !frames.isEmpty() && frames.getLast().trust() == FrameTrust.INLINE;
      g.writeNumberProperty("frame_count", real + (trailing ? 1 : 0));
      g.writeName("frames");
      g.writeStartArray();
      int n = 0;
      int start = 0;
      for (int i = 0; i < frames.size(); i++) {
        StackFrame f = frames.get(i);
        if (f.trust() == FrameTrust.INLINE && i + 1 < frames.size()) continue;
        frame(n, f, frames.subList(start, i), index >= 0 && n == 0);
        n++;
        start = i + 1;
      }
      g.writeEndArray();
      g.writeEndObject();
    }

    private void frame(int n, StackFrame f, List<StackFrame> inlines, boolean registers) {
      g.writeStartObject();
      g.writeNumberProperty("frame", n);
      g.writeStringProperty("trust", trust(f.trust()));
      if (registers && f.registers() != null) registers(f.registers());
      long address = f.returnAddress();
      g.writeStringProperty("offset", hex(address));
      CodeModule m = f.module();
      boolean loaded = m != null && loaded(m);
      string("module", loaded ? CodeModule.fileName(m.codeFile()) : null);
      string("module_offset", loaded ? hex(address - m.base()) : null);
      unloadedAt(address, loaded ? null : m);
      g.writeName("inlines");
      if (inlines.isEmpty()) {
        g.writeNull();
      } else {
        g.writeStartArray();
        for (StackFrame in : inlines) {
          g.writeStartObject();
          string("function", in.function());
          source(in);
          g.writeEndObject();
        }
        g.writeEndArray();
      }
      boolean symbol = !f.function().isEmpty();
      string("function", f.function());
      string("function_offset", symbol ? hex(address - f.functionBase()) : null);
      source(f);
      g.writeBooleanProperty("missing_symbols", !symbol);
      g.writeEndObject();
    }

    private void source(StackFrame f) {
      boolean line = !f.sourceFile().isEmpty();
      string("file", f.sourceFile());
      if (line) g.writeNumberProperty("line", Integer.toUnsignedLong(f.sourceLine()));
      else nullProperty("line");
    }

    /** The unloaded modules holding {@code address} (by name, their offsets): for frames in no loaded module. */
    private void unloadedAt(long address, CodeModule frameModule) {
      TreeMap<String, TreeSet<Long>> byName = new TreeMap<>();
      if (frameModule != null || state.modules() == null || state.modules().forAddress(address) == null) {
        for (UnloadedModule u : details.unloadedModules()) {
          if (Long.compareUnsigned(address - u.baseOfImage(), u.sizeOfImage()) < 0) {
            byName.computeIfAbsent(CodeModule.fileName(ByteStrings.wellFormed(u.name())), k -> new TreeSet<>(Long::compareUnsigned))
                .add(address - u.baseOfImage());
          }
        }
        if (byName.isEmpty() && frameModule != null) {
          // a process that is no minidump: the module the walk attributed the frame to
          byName.computeIfAbsent(CodeModule.fileName(ByteStrings.wellFormed(frameModule.codeFile())), k -> new TreeSet<>())
              .add(address - frameModule.base());
        }
      }
      g.writeName("unloaded_modules");
      if (byName.isEmpty()) {
        g.writeNull();
        return;
      }
      g.writeStartArray();
      for (Map.Entry<String, TreeSet<Long>> e : byName.entrySet()) {
        g.writeStartObject();
        g.writeStringProperty("module", e.getKey());
        g.writeName("offsets");
        g.writeStartArray();
        for (long o : e.getValue()) g.writeString(hex(o));
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    }

    private void registers(FrameRegisters r) {
      List<Object[]> names = registerNames(r.arch());
      g.writeName("registers");
      g.writeStartObject();
      for (Object[] reg : names) {
        int i = (Integer) reg[1];
        if (r.allValid() || r.valid(i)) {
          long v = r.value(i);
          g.writeStringProperty((String) reg[0], wide ? String.format("0x%016x", v) : String.format("0x%08x", v & 0xffff_ffffL));
        }
      }
      g.writeEndObject();
    }

    private void modules() {
      CodeModules modules = state.modules();
      List<CodeModule> list = modules == null ? List.of() : modules.inAddressOrder();
      CodeModule main = modules == null ? null : modules.main();
      int mainIndex = -1;
      for (int i = 0; i < list.size(); i++) if (list.get(i) == main) mainIndex = i;
      if (mainIndex >= 0) g.writeNumberProperty("main_module", mainIndex);
      else nullProperty("main_module");
      Set<CodeModule> without = identitySet(state.modulesWithoutSymbols());
      Set<CodeModule> corrupt = identitySet(state.modulesWithCorruptSymbols());
      g.writeName("modules");
      g.writeStartArray();
      for (CodeModule m : list) {
        g.writeStartObject();
        g.writeStringProperty("base_addr", hex(m.base()));
        g.writeStringProperty("end_addr", hex(m.base() + m.size()));
        g.writeStringProperty("debug_file", ByteStrings.wellFormed(CodeModule.fileName(m.debugFile())));
        g.writeStringProperty("debug_id", ByteStrings.wellFormed(m.debugIdentifier()));
        g.writeStringProperty("filename", ByteStrings.wellFormed(CodeModule.fileName(m.codeFile())));
        g.writeStringProperty("code_id", ByteStrings.wellFormed(m.codeIdentifier()).toLowerCase(java.util.Locale.ROOT));
        string("version", m.version());
        boolean missing = without.contains(m);
        g.writeBooleanProperty("missing_symbols", missing);
        g.writeBooleanProperty("loaded_symbols", asked.contains(m) && !missing);
        g.writeBooleanProperty("corrupt_symbols", corrupt.contains(m));
        nullProperty("symbol_url"); // symbols come from local directories, not a URL
        g.writeEndObject();
      }
      g.writeEndArray();
    }

    private void unloadedModules() {
      g.writeName("unloaded_modules");
      g.writeStartArray();
      for (UnloadedModule u : details.unloadedModules()) {
        g.writeStartObject();
        g.writeStringProperty("base_addr", hex(u.baseOfImage()));
        g.writeStringProperty("end_addr", hex(u.baseOfImage() + u.sizeOfImage()));
        g.writeStringProperty("code_id", String.format("%08x%x", u.timeDateStamp(), u.sizeOfImage()));
        g.writeStringProperty("filename", ByteStrings.wellFormed(u.name()));
        g.writeEndObject();
      }
      g.writeEndArray();
    }

    private boolean loaded(CodeModule m) {
      return state.modules() != null && state.modules().forAddress(m.base()) == m;
    }

    /** A string property, null for an absent ("") value. */
    private void string(String name, String value) {
      if (value == null || value.isEmpty()) nullProperty(name);
      else g.writeStringProperty(name, ByteStrings.wellFormed(value));
    }

    private void nullProperty(String name) {
      g.writeName(name);
      g.writeNull();
    }

    private String hex(long v) {
      return wide ? String.format("0x%016x", v) : String.format("0x%08x", v & 0xffff_ffffL);
    }
  }

  private static Set<CodeModule> identitySet(List<CodeModule> list) {
    Set<CodeModule> s = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    s.addAll(list);
    return s;
  }

  /**
   * The schema's word for how a frame was found; Breakpad's own kinds beyond the schema's list keep
   * their Breakpad names ({@code cfi_scan}, {@code prewalked}, {@code leaf}, {@code none}), as the
   * schema's enums are open.
   */
  static String trust(FrameTrust t) {
    return switch (t) {
      case NONE -> "none";
      case SCAN -> "scan";
      case CFI_SCAN -> "cfi_scan";
      case FP -> "frame_pointer";
      case CFI -> "cfi";
      case PREWALKED -> "prewalked";
      case CONTEXT -> "context";
      case INLINE -> "inline";
      case LEAF -> "leaf";
    };
  }

  /** The general-purpose registers the schema lists for a CPU (rust-minidump's and Breakpad's names), with their slots. */
  private static List<Object[]> registerNames(Arch arch) {
    List<Object[]> out = new ArrayList<>();
    switch (arch) {
      case X86 -> {
        String[] n = {"eip", "esp", "ebp", "ebx", "esi", "edi", "eax", "ecx", "edx", "eflags"};
        int[] slot = {8, 4, 5, 3, 6, 7, 0, 1, 2, 9};
        for (int i = 0; i < n.length; i++) out.add(new Object[] {n[i], slot[i]});
      }
      case X86_64 -> {
        String[] n = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
            "r15", "rip"};
        for (int i = 0; i < n.length; i++) out.add(new Object[] {n[i], i});
      }
      case ARM -> {
        for (int i = 0; i <= 10; i++) out.add(new Object[] {"r" + i, i});
        out.add(new Object[] {"r12", 12});
        out.add(new Object[] {"fp", 11});
        out.add(new Object[] {"sp", 13});
        out.add(new Object[] {"lr", 14});
        out.add(new Object[] {"pc", 15});
      }
      case AARCH64 -> {
        for (int i = 0; i <= 28; i++) out.add(new Object[] {"x" + i, i});
        out.add(new Object[] {"fp", 29});
        out.add(new Object[] {"lr", 30});
        out.add(new Object[] {"sp", 31});
        out.add(new Object[] {"pc", 32});
      }
      default -> { }
    }
    return out;
  }
}
