package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.minidump.Minidump;
import dev.gsym.testing.TestData;
import dev.gsym.unwind.Arch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * {@link StackwalkJson}: rust-minidump's JSON schema ({@code minidump-processor/json-schema.md})
 * field by field, for every dump of the corpus that minidump_stackwalk reads, without and with
 * symbols; the values checked against the committed outputs of Breakpad's minidump_stackwalk for the
 * same dump ({@code -m}: system, crash, modules, every frame's module, function, file, line and
 * offset, inlined frames; the text: every frame's "Found by" as the trust, the crashing thread's
 * registers, the module list's symbol warnings).
 */
class StackwalkJsonTest {
  @TempDir
  static Path cache;

  private static final Map<Path, BreakpadSymbolDirectories> symbols = new HashMap<>();

  @AfterAll
  static void close() {
    symbols.values().forEach(BreakpadSymbolDirectories::close);
  }

  private static synchronized BreakpadSymbolDirectories symbols(Path dump) throws IOException {
    Path dir = Corpus.symbols(dump);
    return symbols.computeIfAbsent(dir, d -> new BreakpadSymbolDirectories(List.of(d), cache.resolve(d.getFileName().toString())));
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Path dump : Corpus.dumps()) {
      for (boolean sym : List.of(false, true)) {
        String kind = sym ? "stackwalk-sym-m" : "stackwalk-m";
        if (Corpus.golden(dump, kind) == null) continue;
        if (Corpus.status(dump, "minidump_stackwalk -m" + (sym ? " SYMBOLS" : "")) != 0) continue;
        out.add(Arguments.of(Corpus.name(dump), sym, dump));
      }
    }
    return out.stream();
  }

  private static Map<String, Object> report(Path dump, boolean sym, boolean pretty) throws IOException {
    Stackwalker.Builder b = Stackwalker.builder();
    if (sym) b.symbols(symbols(dump));
    try (Minidump d = Minidump.open(dump)) {
      return asObject(parse(StackwalkJson.json(b.build().walk(d), StackwalkJson.DumpDetails.of(d), pretty)));
    }
  }

  @ParameterizedTest(name = "{0} symbols={1}")
  @MethodSource("cases")
  void reportsWhatMinidumpStackwalkFound(String name, boolean sym, Path dump) throws IOException {
    Map<String, Object> r = report(dump, sym, false);
    Schema.check(r);
    String suffix = sym ? "-sym" : "";
    List<String> m = TestData.text(Corpus.golden(dump, "stackwalk" + suffix + "-m")).lines().toList();
    String text = TestData.text(Corpus.golden(dump, "stackwalk" + suffix));
    Map<String, Object> system = asObject(r.get("system_info"));
    Map<String, Object> crash = asObject(r.get("crash_info"));
    boolean wide = !List.of("x86", "arm", "ppc", "sparc", "mips").contains(system.get("cpu_arch"));
    assertThat(r.get("status")).isEqualTo("OK");

    // OS|os|version, CPU|cpu|info|count, Crash|reason|address|thread
    String[] os = m.get(0).split("\\|", -1);
    assertThat(system.get("os")).isEqualTo(orNull(os[1]));
    assertThat(system.get("os_ver")).isEqualTo(orNull(os[2]));
    String[] cpu = m.get(1).split("\\|", -1);
    assertThat(system.get("cpu_arch")).isEqualTo(cpu[1].isEmpty() ? "unknown" : cpu[1]);
    assertThat(system.get("cpu_info")).isEqualTo(orNull(cpu[2]));
    assertThat(system.get("cpu_count")).isEqualTo(Long.parseLong(cpu[3]));
    String[] c = m.get(3).split("\\|", -1);
    Object crashing = c[3].isEmpty() ? null : Long.parseLong(c[3]);
    assertThat(crash.get("crashing_thread")).isEqualTo(crashing);
    if (text.contains("\nNo crash\n")) {
      assertThat(crash.get("type")).isNull();
      assertThat(crash.get("address")).isNull();
      if (!c[1].equals("No crash")) assertThat(crash.get("assertion")).isEqualTo(c[1]);
    } else {
      assertThat(crash.get("type")).isEqualTo(c[1]);
      assertThat(hexValue(crash.get("address"), wide)).isEqualTo(Long.parseUnsignedLong(c[2].substring(2), 16));
    }
    Matcher uptime = Pattern.compile("\nProcess uptime: (\\d+) seconds\n").matcher(text);
    assertThat(r.get("process_uptime")).isEqualTo(uptime.find() ? Long.parseLong(uptime.group(1)) : null);

    // Module|file|version|debug file|debug id|base|last|main, and the text's module-list warnings
    List<Object> modules = asList(r.get("modules"));
    List<String[]> moduleLines = new ArrayList<>();
    for (String line : m) if (line.startsWith("Module|")) moduleLines.add(line.split("\\|", -1));
    assertThat(modules).hasSize(moduleLines.size());
    Map<String, Integer> nameCount = new HashMap<>();
    Map<String, Integer> idCount = new HashMap<>();
    for (String[] f : moduleLines) {
      nameCount.merge(f[1], 1, Integer::sum);
      idCount.merge(f[3] + "|" + f[4], 1, Integer::sum);
    }
    Object mainIndex = null;
    for (int i = 0; i < modules.size(); i++) {
      Map<String, Object> mod = asObject(modules.get(i));
      String[] f = moduleLines.get(i);
      assertThat(mod.get("filename")).as("module %d", i).isEqualTo(f[1]);
      assertThat(mod.get("version")).isEqualTo(orNull(f[2]));
      assertThat(mod.get("debug_file")).isEqualTo(f[3]);
      assertThat(mod.get("debug_id")).isEqualTo(f[4]);
      assertThat(hexValue(mod.get("base_addr"), wide)).isEqualTo(Long.parseUnsignedLong(f[5].substring(2), 16));
      assertThat(hexValue(mod.get("end_addr"), wide)).isEqualTo(Long.parseUnsignedLong(f[6].substring(2), 16) + 1);
      if (f[7].equals("1")) mainIndex = (long) i;
      assertThat((String) mod.get("code_id")).isEqualTo(((String) mod.get("code_id")).toLowerCase(java.util.Locale.ROOT));
      assertThat(mod.get("symbol_url")).isNull();
      // (minidump_stackwalk warns of every module with the debug file and id of one without symbols)
      if (nameCount.get(f[1]) == 1 && idCount.get(f[3] + "|" + f[4]) == 1) {
        String listed = moduleListLine(text, f[1]);
        boolean missing = listed.contains("(WARNING: No symbols, ");
        boolean corrupt = listed.contains("(WARNING: Corrupt symbols, ");
        boolean framed = m.stream().anyMatch(l -> l.matches("\\d+\\|\\d+\\|" + Pattern.quote(f[1]) + "\\|.*"));
        assertThat(mod.get("missing_symbols")).as("%s missing_symbols", f[1]).isEqualTo(missing);
        assertThat(mod.get("corrupt_symbols")).as("%s corrupt_symbols", f[1]).isEqualTo(corrupt);
        assertThat(mod.get("loaded_symbols")).as("%s loaded_symbols", f[1]).isEqualTo(framed && !missing);
      }
    }
    assertThat(r.get("main_module")).isEqualTo(mainIndex);

    // the frames: -m lists each thread's frames (inlined ones as frames of their own), the
    // requesting thread first; the text says how each was found
    List<Object> threads = asList(r.get("threads"));
    assertThat(r.get("thread_count")).isEqualTo((long) threads.size());
    Map<Integer, List<String[]>> mFrames = new LinkedHashMap<>();
    for (String line : m) {
      if (line.matches("\\d+\\|\\d+\\|.*")) mFrames.computeIfAbsent(Integer.parseInt(line.split("\\|")[0]), k -> new ArrayList<>())
          .add(line.split("\\|", -1));
    }
    Map<Integer, List<String>> foundBy = foundBy(text);
    for (int t = 0; t < threads.size(); t++) {
      Map<String, Object> thread = asObject(threads.get(t));
      List<String[]> expected = mFrames.getOrDefault(t, List.of());
      List<Map<String, Object>> flat = flatten(asList(thread.get("frames")));
      assertThat(flat).as("thread %d frames", t).hasSize(expected.size());
      assertThat(thread.get("frame_count")).isEqualTo((long) asList(thread.get("frames")).size());
      for (int i = 0; i < expected.size(); i++) {
        String[] e = expected.get(i);
        Map<String, Object> f = flat.get(i);
        String where = "thread " + t + " frame " + i;
        boolean inline = f.containsKey("inline");
        if (!inline) {
          boolean loaded = f.get("module") != null;
          assertThat(loaded ? f.get("module") : unloadedName(f)).as(where).isEqualTo(orNull(e[2]));
        }
        assertThat(f.get("function")).as(where).isEqualTo(orNull(e[3]));
        assertThat(f.get("file")).as(where).isEqualTo(orNull(e[4]));
        assertThat(f.get("line")).as(where).isEqualTo(e[5].isEmpty() ? null : Long.parseLong(e[5]));
        if (!inline) {
          long offset = Long.parseUnsignedLong(e[6].substring(2), 16);
          if (!e[4].isEmpty()) {
            // -m gives the offset from the line's start, which the schema has not
          } else if (!e[3].isEmpty()) {
            assertThat(hexValue(f.get("function_offset"), wide)).as(where).isEqualTo(offset);
          } else if (f.get("module") != null) {
            assertThat(hexValue(f.get("module_offset"), wide)).as(where).isEqualTo(offset);
            if (nameCount.get((String) f.get("module")) == 1) {
              // (a return address may be the module's end: the call is the module's last instruction)
              assertThat(hexValue(f.get("offset"), wide) - hexValue(f.get("module_offset"), wide))
                  .isEqualTo(hexValue(asObject(modules.get(moduleIndex(modules, (String) f.get("module")))).get("base_addr"), wide));
            }
          } else if (e[2].isEmpty()) {
            assertThat(hexValue(f.get("offset"), wide)).as(where).isEqualTo(offset);
          }
          assertThat(f.get("missing_symbols")).isEqualTo(e[3].isEmpty());
        }
        List<String> words = foundBy.get(t);
        if (words != null) {
          assertThat(inline ? "inline record" : description((String) f.get("trust"))).as(where).isEqualTo(words.get(i));
        }
      }
    }

    // the crashing thread: the thread again, its index, frame 0's registers as the text prints them
    Object ct = r.get("crashing_thread");
    List<String[]> requestingFrames = crashing == null ? List.of() : mFrames.getOrDefault(((Long) crashing).intValue(), List.of());
    if (requestingFrames.isEmpty()) {
      assertThat(ct).isNull();
    } else {
      Map<String, Object> t = asObject(ct);
      int index = ((Long) crashing).intValue();
      assertThat(t.get("threads_index")).isEqualTo((long) index);
      Map<String, Object> copy = new LinkedHashMap<>(t);
      copy.remove("threads_index");
      Map<String, Object> frame0 = new LinkedHashMap<>(asObject(asList(copy.get("frames")).getFirst()));
      Map<String, Object> registers = asObject(frame0.remove("registers"));
      List<Object> frames = new ArrayList<>(asList(copy.get("frames")));
      frames.set(0, frame0);
      copy.put("frames", frames);
      assertThat(copy).isEqualTo(threads.get(index));
      assertThat(registers).isEqualTo(contextRegisters(text, index));
    }
  }

  /** The frames with their inlines before them (as -m lists them), inlined ones marked "inline". */
  private static List<Map<String, Object>> flatten(List<Object> frames) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < frames.size(); i++) {
      Map<String, Object> f = asObject(frames.get(i));
      assertThat(f.get("frame")).isEqualTo((long) i);
      if (f.get("inlines") != null) {
        assertThat(asList(f.get("inlines"))).isNotEmpty();
        for (Object in : asList(f.get("inlines"))) {
          Map<String, Object> x = new LinkedHashMap<>(asObject(in));
          x.put("inline", true);
          out.add(x);
        }
      }
      out.add(f);
    }
    return out;
  }

  private static String unloadedName(Map<String, Object> frame) {
    if (frame.get("unloaded_modules") == null) return null;
    List<Object> u = asList(frame.get("unloaded_modules"));
    assertThat(u).isNotEmpty();
    return (String) asObject(u.getFirst()).get("module");
  }

  private static int moduleIndex(List<Object> modules, String name) {
    for (int i = 0; i < modules.size(); i++) if (asObject(modules.get(i)).get("filename").equals(name)) return i;
    throw new AssertionError("no module " + name);
  }

  /** The line of the text's module list for {@code name}. */
  private static String moduleListLine(String text, String name) {
    String list = text.substring(text.indexOf("\nLoaded modules:\n"));
    for (String line : list.lines().toList()) {
      if (line.matches("0x[0-9a-f]+ - 0x[0-9a-f]+  " + Pattern.quote(name) + "  .*")) return line;
    }
    throw new AssertionError("module " + name + " not in the text's module list");
  }

  /** Per thread of the text, the "Found by" words of each frame. */
  private static Map<Integer, List<String>> foundBy(String text) {
    Map<Integer, List<String>> out = new HashMap<>();
    List<String> current = null;
    for (String line : text.lines().toList()) {
      Matcher t = Pattern.compile("^Thread (\\d+)( .*)?$").matcher(line);
      if (t.matches()) {
        current = new ArrayList<>();
        out.put(Integer.parseInt(t.group(1)), current);
      } else if (line.startsWith("Loaded modules:")) {
        current = null;
      } else if (current != null && line.startsWith("    Found by: ")) {
        current.add(line.substring("    Found by: ".length()));
      }
    }
    return out;
  }

  /** The registers the text prints for the first real (not inlined) frame of thread {@code index}. */
  private static Map<String, Object> contextRegisters(String text, int index) {
    Map<String, Object> out = new LinkedHashMap<>();
    boolean inThread = false;
    for (String line : text.lines().toList()) {
      if (line.matches("^Thread \\d+.*")) {
        inThread = line.startsWith("Thread " + index + " ") || line.equals("Thread " + index);
        continue;
      }
      if (!inThread) continue;
      if (line.startsWith("    Found by: ")) {
        if (line.endsWith("inline record")) continue;
        break;
      }
      Matcher r = Pattern.compile("\\s*(\\w+) = (0x[0-9a-f]+)").matcher(line);
      // (minidump_stackwalk's "efl" is rust-minidump's "eflags")
      while (r.find()) out.put(r.group(1).equals("efl") ? "eflags" : r.group(1), r.group(2));
    }
    return out;
  }

  private static String description(String trust) {
    for (FrameTrust t : FrameTrust.values()) if (StackwalkJson.trust(t).equals(trust)) return t.description();
    throw new AssertionError("trust " + trust);
  }

  private static Object orNull(String s) {
    return s.isEmpty() ? null : s;
  }

  /** A hex string's value, checked to be the schema's: 0x and the pointer width's digits. */
  private static long hexValue(Object v, boolean wide) {
    assertThat(v).isInstanceOf(String.class);
    assertThat((String) v).matches(wide ? "0x[0-9a-f]{16}" : "0x[0-9a-f]{8}");
    return Long.parseUnsignedLong(((String) v).substring(2), 16);
  }

  // ------------------------------------------------------------------ rust-minidump's own reports

  /**
   * The reports rust-minidump's minidump-stackwalk itself printed ({@code --json --pretty}, its
   * snapshot tests at the commit of external/SOURCES.tsv) for two corpus dumps walked without
   * symbols: the same values wherever the two walkers agree by design (system, crash address and
   * thread, process, modules, Linux extras, every thread's context frame with the crashing thread's
   * registers); where they differ by design (docs/stackwalk.md, "JSON report"), what each says.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"rust-minidump-test", "rust-minidump-linux-mini"})
  void agreesWithRustMinidumpsOwnReport(String name) throws IOException {
    Path dir = Corpus.dir().resolve("external");
    String snap = Files.readString(dir.resolve(name + ".json-pretty.snap"));
    Map<String, Object> rust = asObject(parse(snap.substring(snap.indexOf("\n---\n") + 5)));
    Map<String, Object> ours = report(dir.resolve(name + ".dmp"), false, true);
    Schema.check(ours);
    for (String k : List.of("status", "pid", "process_uptime", "main_module", "linux_memory_map_count", "lsb_release",
        "unloaded_modules")) {
      assertThat(ours.get(k)).as(k).isEqualTo(rust.get(k));
    }
    Map<String, Object> os = asObject(ours.get("system_info"));
    Map<String, Object> rs = asObject(rust.get("system_info"));
    for (String k : List.of("os", "cpu_arch", "cpu_info", "cpu_count", "cpu_microcode_version")) {
      assertThat(os.get(k)).as(k).isEqualTo(rs.get(k));
    }
    // Linux: Breakpad's "0.0.0 Linux RELEASE VERSION MACHINE", rust-minidump's "RELEASE VERSION"
    assertThat((String) os.get("os_ver")).contains((String) rs.get("os_ver"));
    Map<String, Object> oc = asObject(ours.get("crash_info"));
    Map<String, Object> rc = asObject(rust.get("crash_info"));
    for (String k : List.of("address", "crashing_thread", "assertion")) assertThat(oc.get(k)).as(k).isEqualTo(rc.get(k));
    // Breakpad's words for the signal's code ("SIGSEGV /0x00000000"), rust-minidump's signal alone
    assertThat((String) oc.get("type")).startsWith((String) rc.get("type"));

    Map<Object, Map<String, Object>> rustModules = new HashMap<>();
    for (Object m : asList(rust.get("modules"))) rustModules.put(asObject(m).get("base_addr"), asObject(m));
    assertThat(asList(ours.get("modules"))).hasSameSizeAs(asList(rust.get("modules")));
    for (Object o : asList(ours.get("modules"))) {
      Map<String, Object> m = new LinkedHashMap<>(asObject(o));
      Map<String, Object> r = new LinkedHashMap<>(rustModules.get(m.get("base_addr")));
      assertThat(r).as("rust-minidump's module at %s", m.get("base_addr")).isNotEmpty();
      // missing_symbols: minidump_stackwalk's warning (a frame fell in it, no symbols found) here;
      // rust-minidump says false when it had no symbol source to ask
      m.remove("missing_symbols");
      r.remove("missing_symbols");
      r.remove("cert_subject");
      assertThat(m).isEqualTo(r);
    }
    assertThat(((Map<?, ?>) asList(ours.get("modules")).get(((Long) ours.get("main_module")).intValue())).get("filename"))
        .isEqualTo(((Map<?, ?>) asList(rust.get("modules")).get(((Long) rust.get("main_module")).intValue())).get("filename"));

    // threads: rust-minidump also lists the thread that wrote the dump (Breakpad leaves it out)
    Map<Object, Map<String, Object>> rustThreads = new HashMap<>();
    for (Object t : asList(rust.get("threads"))) rustThreads.put(asObject(t).get("thread_id"), asObject(t));
    for (Object o : asList(ours.get("threads"))) {
      Map<String, Object> t = asObject(o);
      Map<String, Object> r = rustThreads.get(t.get("thread_id"));
      assertThat(r).as("thread %s", t.get("thread_id")).isNotNull();
      assertThat(t.get("thread_name")).isEqualTo(r.get("thread_name"));
      assertThat(t.get("last_error_value")).isEqualTo(r.get("last_error_value"));
      // the context frame (the callers are found by each walker's own scanning rules)
      assertThat(asList(t.get("frames")).getFirst()).isEqualTo(asList(r.get("frames")).getFirst());
    }
    Map<String, Object> ct = asObject(ours.get("crashing_thread"));
    Map<String, Object> rt = asObject(rust.get("crashing_thread"));
    assertThat(ct.get("threads_index")).isEqualTo(rt.get("threads_index"));
    assertThat(asList(ct.get("frames")).getFirst()).isEqualTo(asList(rt.get("frames")).getFirst());
  }

  // ------------------------------------------------------------------ JSON validity

  @Test
  void prettyAndCompactAreTheSameValidJson() throws IOException {
    for (Path dump : List.of(Corpus.dir().resolve("external").resolve("breakpad-linux_inline.dmp"),
        Corpus.dir().resolve("dumps").resolve("i386-fp-thread.dmp"))) {
      String compact = json(dump, true, false);
      String pretty = json(dump, true, true);
      assertThat(compact).doesNotContain("\n");
      assertThat(pretty).contains("\n  \"status\": \"OK\",\n");
      assertThat(parse(pretty)).isEqualTo(parse(compact));
    }
  }

  private static String json(Path dump, boolean sym, boolean pretty) throws IOException {
    Stackwalker.Builder b = Stackwalker.builder();
    if (sym) b.symbols(symbols(dump));
    try (Minidump d = Minidump.open(dump)) {
      return StackwalkJson.json(b.build().walk(d), StackwalkJson.DumpDetails.of(d), pretty);
    }
  }

  @Test
  void namesThatAreNotUtf8BecomeReplacementCharacters() throws Exception {
    // a module and a function whose bytes are ill-formed UTF-8 (ByteStrings' escapes), a NUL, quotes
    String badName = "lib\uDCFFbad\".so";
    CodeModule module = new CodeModule(0x400000, 0x1000, "/usr/lib/" + badName, "ABCDEF", badName, "0123", "");
    long[] regs = new long[FrameRegisters.slots(Arch.X86_64)];
    regs[16] = 0x400010;
    FrameRegisters context = FrameRegisters.of(Arch.X86_64, regs, FrameRegisters.ALL);
    StackFrame frame = new StackFrame(0x400010, 0x400010, module, "f\uDCC3\0x", 0x400000, "a\\b.c", 3, 0x400008,
        FrameTrust.CONTEXT, context);
    ProcessState state = new ProcessState(new SystemDescription("Linux", "linux", "1.0", "amd64", "", 2), null, "", 0, 0, 0,
        List.of(new CallStack(7, "main\uDC80", List.of(frame), null, null)), CodeModules.of(List.of(module), true),
        List.of(), List.of(), a -> List.of());
    byte[] bytes = StackwalkJson.json(state, StackwalkJson.DumpDetails.NONE, false).getBytes(StandardCharsets.UTF_8);
    // valid UTF-8 (a strict decoder accepts it) and valid JSON
    StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
    Map<String, Object> r = asObject(parse(new String(bytes, StandardCharsets.UTF_8)));
    Schema.check(r);
    Map<String, Object> mod = asObject(asList(r.get("modules")).getFirst());
    assertThat(mod.get("filename")).isEqualTo("lib\uFFFDbad\".so");
    assertThat(mod.get("code_id")).isEqualTo("abcdef");
    assertThat(mod.get("version")).isNull();
    Map<String, Object> t = asObject(asList(r.get("threads")).getFirst());
    assertThat(t.get("thread_name")).isEqualTo("main\uFFFD");
    assertThat(t.get("thread_id")).isEqualTo(7L);
    Map<String, Object> f = asObject(asList(t.get("frames")).getFirst());
    assertThat(f.get("function")).isEqualTo("f\uFFFD\0x");
    assertThat(f.get("function_offset")).isEqualTo("0x0000000000000010");
    assertThat(f.get("module_offset")).isEqualTo("0x0000000000000010");
    assertThat(f.get("file")).isEqualTo("a\\b.c");
    assertThat(f.get("line")).isEqualTo(3L);
    assertThat(r.get("crash_info")).isEqualTo(parse(
        "{\"type\":null,\"address\":null,\"adjusted_address\":null,\"instruction\":null,\"memory_accesses\":null,"
            + "\"instruction_pointer_update\":null,\"possible_bit_flips\":null,\"crash_inconsistencies\":null,"
            + "\"crashing_thread\":0,\"assertion\":null}"));
    Map<String, Object> registers = asObject(asObject(asList(asObject(r.get("crashing_thread")).get("frames")).getFirst())
        .get("registers"));
    assertThat(registers).hasSize(17).containsEntry("rip", "0x0000000000400010").containsEntry("rax", "0x0000000000000000");
  }

  // ------------------------------------------------------------------ the schema

  /**
   * The schema of json-schema.md as types: every field the document lists for an object is present
   * (null allowed, as the document says of every field), nothing else is, and each value has its
   * type ({@code <hexstring>}: "0x" and hex digits; {@code <u32>}: a non-negative integer).
   */
  static final class Schema {
    private static final Pattern HEX = Pattern.compile("0x[0-9a-f]+");

    static void check(Map<String, Object> r) {
      fields(r, "report", "status", "pid", "process_uptime", "crash_info", "system_info", "linux_memory_map_count",
          "lsb_release", "thread_count", "threads", "crashing_thread", "main_module", "modules", "unloaded_modules");
      assertThat(r.get("status")).isEqualTo("OK");
      u32(r, "pid");
      u32(r, "process_uptime");
      Map<String, Object> crash = asObject(r.get("crash_info"));
      fields(crash, "crash_info", "type", "address", "adjusted_address", "instruction", "memory_accesses",
          "instruction_pointer_update", "possible_bit_flips", "crash_inconsistencies", "crashing_thread", "assertion");
      string(crash, "type");
      hex(crash, "address");
      u32(crash, "crashing_thread");
      string(crash, "assertion");
      Map<String, Object> sys = asObject(r.get("system_info"));
      fields(sys, "system_info", "os", "os_ver", "cpu_arch", "cpu_info", "cpu_count", "cpu_microcode_version");
      string(sys, "os");
      string(sys, "os_ver");
      assertThat(sys.get("cpu_arch")).isInstanceOf(String.class);
      string(sys, "cpu_info");
      u32(sys, "cpu_count");
      hex(sys, "cpu_microcode_version");
      u32(r, "linux_memory_map_count");
      if (r.get("lsb_release") != null) {
        Map<String, Object> lsb = asObject(r.get("lsb_release"));
        fields(lsb, "lsb_release", "id", "release", "codename", "description");
        for (String k : lsb.keySet()) string(lsb, k);
      }
      u32(r, "thread_count");
      for (Object t : asList(r.get("threads"))) thread(asObject(t), false);
      if (r.get("crashing_thread") != null) thread(asObject(r.get("crashing_thread")), true);
      u32(r, "main_module");
      for (Object o : asList(r.get("modules"))) {
        Map<String, Object> m = asObject(o);
        fields(m, "module", "base_addr", "end_addr", "debug_file", "debug_id", "filename", "code_id", "version", "missing_symbols",
            "loaded_symbols", "corrupt_symbols", "symbol_url");
        hex(m, "base_addr");
        hex(m, "end_addr");
        for (String k : List.of("debug_file", "debug_id", "filename", "code_id", "version", "symbol_url")) string(m, k);
        for (String k : List.of("missing_symbols", "loaded_symbols", "corrupt_symbols")) bool(m, k);
      }
      for (Object o : asList(r.get("unloaded_modules"))) {
        Map<String, Object> m = asObject(o);
        fields(m, "unloaded module", "base_addr", "end_addr", "code_id", "filename");
        hex(m, "base_addr");
        hex(m, "end_addr");
        string(m, "code_id");
        string(m, "filename");
      }
    }

    private static void thread(Map<String, Object> t, boolean crashing) {
      List<String> names = new ArrayList<>(List.of("thread_name", "thread_id", "last_error_value", "frame_count", "frames"));
      if (crashing) names.add("threads_index");
      fields(t, "thread", names.toArray(String[]::new));
      string(t, "thread_name");
      u32(t, "thread_id");
      string(t, "last_error_value");
      u32(t, "frame_count");
      if (crashing) u32(t, "threads_index");
      List<Object> frames = asList(t.get("frames"));
      assertThat(t.get("frame_count")).isEqualTo((long) frames.size());
      for (int i = 0; i < frames.size(); i++) {
        Map<String, Object> f = asObject(frames.get(i));
        List<String> fn = new ArrayList<>(List.of("frame", "trust", "offset", "module", "module_offset", "unloaded_modules",
            "inlines", "function", "function_offset", "file", "line", "missing_symbols"));
        if (crashing && i == 0) fn.add("registers");
        fields(f, "frame", fn.toArray(String[]::new));
        assertThat(f.get("frame")).isEqualTo((long) i);
        assertThat((String) f.get("trust")).isIn("context", "cfi", "frame_pointer", "scan", "cfi_scan", "prewalked", "leaf", "none");
        hex(f, "offset");
        string(f, "module");
        hex(f, "module_offset");
        string(f, "function");
        hex(f, "function_offset");
        string(f, "file");
        u32(f, "line");
        bool(f, "missing_symbols");
        if (f.get("unloaded_modules") != null) {
          for (Object o : asList(f.get("unloaded_modules"))) {
            Map<String, Object> u = asObject(o);
            fields(u, "frame's unloaded module", "module", "offsets");
            string(u, "module");
            assertThat(asList(u.get("offsets"))).isNotEmpty().allSatisfy(x -> assertThat((String) x).matches(HEX));
          }
        }
        if (f.get("inlines") != null) {
          for (Object o : asList(f.get("inlines"))) {
            Map<String, Object> in = asObject(o);
            fields(in, "inline", "function", "file", "line");
            string(in, "function");
            string(in, "file");
            u32(in, "line");
          }
        }
        if (crashing && i == 0 && f.get("registers") != null) {
          asObject(f.get("registers")).values().forEach(v -> assertThat((String) v).matches(HEX));
        }
      }
    }

    private static void fields(Map<String, Object> o, String what, String... names) {
      assertThat(o.keySet()).as(what).containsExactlyInAnyOrder(names);
    }

    private static void string(Map<String, Object> o, String k) {
      Object v = o.get(k);
      if (v != null) assertThat(v).as(k).isInstanceOf(String.class);
    }

    private static void hex(Map<String, Object> o, String k) {
      Object v = o.get(k);
      if (v != null) assertThat((String) v).as(k).matches(HEX);
    }

    private static void u32(Map<String, Object> o, String k) {
      Object v = o.get(k);
      if (v != null) assertThat((Long) v).as(k).isBetween(0L, (1L << 32) - 1);
    }

    private static void bool(Map<String, Object> o, String k) {
      assertThat(o.get(k)).as(k).isInstanceOf(Boolean.class);
    }
  }

  // ------------------------------------------------------------------ a strict JSON reader (jackson-core)

  private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /** The value of a JSON text (objects as ordered maps, integers as Long); fails on anything that is not exactly one JSON value. */
  static Object parse(String text) {
    try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), text)) {
      p.nextToken();
      Object v = value(p);
      assertThat(p.nextToken()).as("text after the value").isNull();
      return v;
    }
  }

  private static Object value(JsonParser p) {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          p.nextToken();
          m.put(name, value(p));
        }
        return m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) l.add(value(p));
        return l;
      }
      case VALUE_STRING -> {
        return p.getString();
      }
      case VALUE_NUMBER_INT -> {
        return p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return true;
      }
      case VALUE_FALSE -> {
        return false;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new AssertionError("unexpected " + t);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asObject(Object o) {
    assertThat(o).isInstanceOf(Map.class);
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static List<Object> asList(Object o) {
    assertThat(o).isInstanceOf(List.class);
    return (List<Object>) o;
  }
}
