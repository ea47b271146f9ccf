package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.elf.ElfFile;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outermost frame named from the binary's symbol table, as llvm-symbolizer-22 names it when it
 * reads DWARF (docs/symbolize.md, "Names"): glibc-style hidden aliases ({@code work} over
 * {@code __GI_work}), a versioned symbol, a weak alias, a label inside a function, the {@code .dynsym}
 * of a stripped library, a build-id's debug file, and GSYM's names kept where llvm reads a GSYM file.
 * The goldens are llvm-symbolizer-22's answers, made by {@code src-test-data/regenerate-symnames.sh}
 * from {@code src/symnames.c}; a live test does the same on the system's libc with its debug file.
 */
@NeedsLlvm
class SymbolizeSymbolNamesTest {
  private static final Path DIR = TestData.path("symnames");

  @TempDir
  Path tmp;

  /** One frame as compared: function, file, line; and the outermost frame's start address. */
  private record Frame(String function, String file, long line) {}

  private record Answer(String address, List<Frame> frames, String start) {}

  @SuppressWarnings("unchecked")
  private static List<Answer> answers(String json) {
    List<Answer> out = new ArrayList<>();
    for (String line : json.split("\n")) {
      if (line.isEmpty()) continue;
      Map<String, Object> o = (Map<String, Object>) MiniJson.parse(line);
      List<Frame> frames = new ArrayList<>();
      String start = null;
      for (Object f : (List<Object>) o.get("Symbol")) {
        Map<String, Object> m = (Map<String, Object>) f;
        frames.add(new Frame((String) m.get("FunctionName"), (String) m.get("FileName"), (Long) m.get("Line")));
        start = (String) m.get("StartAddress");
      }
      out.add(new Answer((String) o.get("Address"), frames, start));
    }
    return out;
  }

  /** Our JSON answers to the addresses of addresses.txt with {@code args}, run in src-test-data/symnames. */
  private static List<Answer> ours(String stdin, String... args) {
    List<String> all = new ArrayList<>(List.of("symbolize", "--output-style=JSON", "--no-debuginfod"));
    for (String a : args) all.add(a.replace("@", DIR + "/"));
    CliRun r = CliRun.withEnv(Map.of(), ByteStrings.encode(stdin), all.toArray(String[]::new));
    assertThat(r.status()).as("gsymutil %s: %s", all, r.err()).isZero();
    assertThat(r.err()).as("stderr of %s", all).isEmpty();
    return answers(r.out());
  }

  private static String addresses() throws IOException {
    return Files.readString(DIR.resolve("addresses.txt"));
  }

  private static List<Answer> golden(String name) throws IOException {
    return answers(Files.readString(DIR.resolve("expected").resolve(name + ".json"), StandardCharsets.UTF_8));
  }

  /**
   * Compares every answer; an answer where llvm names nothing (no DWARF function and no symbol
   * covers the address) may name GSYM's function. Returns the addresses where that happened.
   */
  private static List<String> compare(String what, List<Answer> llvm, List<Answer> ours) {
    assertThat(ours).as(what).hasSameSizeAs(llvm);
    List<String> gsymOnly = new ArrayList<>();
    for (int i = 0; i < llvm.size(); i++) {
      Answer l = llvm.get(i);
      Answer o = ours.get(i);
      assertThat(o.address()).as(what).isEqualTo(l.address());
      if (l.frames().size() == 1 && l.frames().getFirst().function().isEmpty() && l.start().isEmpty()
          && !o.frames().getFirst().function().isEmpty()) {
        gsymOnly.add(l.address());
        continue;
      }
      assertThat(o.frames()).as("%s at %s", what, l.address()).isEqualTo(l.frames());
      assertThat(o.start()).as("%s: start address at %s", what, l.address()).isEqualTo(l.start());
    }
    return gsymOnly;
  }

  @Test
  void byPathTheBinarysSymbolTableNamesTheOutermostFrame() throws IOException {
    List<Answer> llvm = golden("path");
    List<Answer> ours = ours(addresses(), "--obj=@bin/libsymnames.so");
    assertThat(compare("--obj=bin/libsymnames.so", llvm, ours)).isEmpty();
    // what the goldens hold: the public names over the DWARF linkage names, the label after its place
    Map<String, String> names = new TreeMap<>();
    for (Answer a : ours) names.put(a.address(), a.frames().getLast().function());
    assertThat(names).containsEntry("0x1130", "work").containsEntry("0x1150", "start@@SYMNAMES_2")
        .containsEntry("0x1160", "compute").containsEntry("0x1170", "marked").containsEntry("0x1173", "marked_tail");
    assertThat(ours.get(2).frames().getFirst().file()).isEqualTo("crtstuff.c"); // deregister_tm_clones
    // inlined frames keep their own names
    Answer inlined = ours.stream().filter(a -> a.frames().size() == 2).findFirst().orElseThrow();
    assertThat(inlined.frames().getFirst().function()).isEqualTo("spread");
    assertThat(inlined.frames().getLast().function()).isEqualTo("work");
    assertThat(compare("--no-inlines", golden("path-no-inlines"), ours(addresses(), "--no-inlines",
        "--obj=@bin/libsymnames.so"))).isEmpty();
  }

  @Test
  void aStrippedBinaryIsNamedFromItsDynamicSymbols() throws IOException {
    List<String> gsymOnly = compare("stripped", golden("stripped"),
        ours(addresses(), "--debug-file-directory=@debug", "--obj=@bin/libsymnames-stripped.so"));
    // llvm names nothing in the startup code: no DWARF, and .dynsym does not cover it; GSYM (made
    // from the debug file's .symtab) does
    assertThat(gsymOnly).containsExactly("0x1000", "0x1001", "0x1060", "0x1061", "0x1090", "0x1091", "0x10d0",
        "0x10d1", "0x1110", "0x1111", "0x11b0", "0x11b1");
  }

  @Test
  void aBuildIdIsNamedFromItsDebugFilesSymbolTable() throws IOException {
    String id;
    try (ElfFile elf = ElfFile.open(DIR.resolve("bin/libsymnames.so"))) {
      id = HexFormat.of().formatHex(elf.buildId());
    }
    String stdin = addresses().replaceAll("(?m)^(?=0x)", "BUILDID:" + id + " ");
    assertThat(compare("by build-id", golden("buildid"), ours(stdin, "--debug-file-directory=@debug"))).isEmpty();
  }

  @Test
  void aGsymFileKeepsItsNamesAsInLlvm() throws IOException {
    List<Answer> ours = ours(addresses(), "--gsym-file-directory=@gsym", "--obj=@bin/libsymnames.so");
    assertThat(compare("--gsym-file-directory", golden("path-gsym"), ours)).isEmpty();
    assertThat(ours.stream().map(a -> a.frames().getLast().function())).contains("__GI_work", "start_impl", "__compute");
  }

  /**
   * The system's libc.so.6 with its debug file (Debian: libc6-dbg), against llvm-symbolizer-22 live:
   * 300 fixed random addresses of its .text. Every answer llvm names must have the same outermost
   * name ({@code abort}, {@code __libc_start_main}, {@code strtof}, not {@code __GI_abort},
   * {@code __libc_start_main_impl}, {@code __GI_strtof}); llvm names nothing where only libc's
   * debug .symtab has a name (libgcc's {@code __subtf3}): GSYM's name stays there.
   */
  @Test
  void libcIsNamedAsLlvmNamesIt() throws Exception {
    Path llvm = Tools.require(Llvm.symbolizer(), "llvm-symbolizer-22");
    Path libc = null;
    for (String p : List.of("/lib/x86_64-linux-gnu/libc.so.6", "/lib/aarch64-linux-gnu/libc.so.6", "/lib64/libc.so.6")) {
      if (Files.isRegularFile(Path.of(p))) {
        libc = Path.of(p);
        break;
      }
    }
    Tools.check(libc != null, "libc.so.6");
    long start;
    long size;
    String id;
    try (ElfFile elf = ElfFile.open(libc)) {
      ElfFile.Section text = elf.section(".text");
      start = text.addr();
      size = text.size();
      id = HexFormat.of().formatHex(elf.buildId());
    }
    Tools.check(Files.isRegularFile(TestData.buildIdPath(Path.of("/usr/lib/debug"), id)),
        "libc's debug file /usr/lib/debug/.build-id/" + id.substring(0, 2) + "/" + id.substring(2) + ".debug (libc6-dbg)");
    Random random = new Random(31);
    StringBuilder in = new StringBuilder();
    for (int i = 0; i < 300; i++) in.append("0x").append(Long.toHexString(start + (long) (random.nextDouble() * size))).append('\n');
    Path input = Files.writeString(tmp.resolve("in.txt"), in);
    Process p = new ProcessBuilder(llvm.toString(), "--output-style=JSON", "--no-debuginfod", "--obj=" + libc)
        .redirectInput(input.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String theirs = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    List<Answer> l = answers(theirs);
    List<Answer> o = ours(in.toString(), "--store=" + tmp.resolve("store"), "--obj=" + libc);
    assertThat(o).hasSameSizeAs(l).hasSize(300);
    int named = 0;
    int gsymOnly = 0;
    for (int i = 0; i < l.size(); i++) {
      String theirName = l.get(i).frames().getLast().function();
      String ourName = o.get(i).frames().getLast().function();
      if (theirName.isEmpty()) {
        gsymOnly++;
        continue;
      }
      named++;
      assertThat(ourName).as("outermost name at %s", l.get(i).address()).isEqualTo(theirName);
    }
    assertThat(named).isGreaterThan(280);
    assertThat(gsymOnly).isLessThan(20);
  }
}
