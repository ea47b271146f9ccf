package dev.gsym.cli.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.cli.CliRun;
import dev.gsym.symbolize.Merged;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code gsymutil symbolize --stack} and {@code Symbolizer.symbolizeStacks} on the stacks of
 * {@code src-test-data/stack} (built by regenerate-stack.sh, lld's and gold's --icf=all: a folded callee
 * with its caller in the same executable, in another shared object, behind a trampoline in a
 * third module, a merged caller whose candidates' call sites differ, no call-site information):
 * every frame is llvm-gsymutil-22's answer for it ({@code expected/stacks.frames.txt}), and the merged
 * ones name what llvm's manual two-pass resolution names ({@code expected/stacks.llvm.txt}, and live
 * when the tool is installed).
 */
@NeedsLlvm
class SymbolizeStackTest {
  private static final Path DIR = TestData.path("stack");

  /** One frame of stacks.txt: the module path relative to {@link #DIR} and the address. */
  record Frame(String module, long address) {}

  static List<List<Frame>> stacks() throws IOException {
    List<List<Frame>> stacks = new ArrayList<>();
    List<Frame> stack = new ArrayList<>();
    for (String line : Files.readAllLines(DIR.resolve("stacks.txt"))) {
      if (line.startsWith("#")) continue;
      if (line.isBlank()) {
        if (!stack.isEmpty()) stacks.add(stack);
        stack = new ArrayList<>();
        continue;
      }
      String[] w = line.trim().split("\\s+");
      stack.add(new Frame(w[0], Long.decode(w[1])));
    }
    if (!stack.isEmpty()) stacks.add(stack);
    return stacks;
  }

  /** stacks.txt with every module made absolute (the CLI runs in this process's directory). */
  static String absoluteInput() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (String line : Files.readAllLines(DIR.resolve("stacks.txt"))) {
      sb.append(line.isBlank() || line.startsWith("#") ? line : DIR + "/" + line).append('\n');
    }
    return sb.toString();
  }

  /** "STACK FRAME" -> the names llvm's two-pass resolution leaves, for every merged frame. */
  static List<String> llvmExpected() throws IOException {
    return Files.readAllLines(DIR.resolve("expected/stacks.llvm.txt")).stream().filter(l -> !l.isBlank()).toList();
  }

  /** Our library's answers in the form of stacks.llvm.txt. */
  static List<String> ours() throws IOException {
    List<List<Frame>> stacks = stacks();
    List<List<Symbolizer.Request>> requests = new ArrayList<>();
    for (List<Frame> s : stacks) {
      requests.add(s.stream().map(f -> new Symbolizer.Request(ModuleRef.file(DIR.resolve(f.module)), f.address)).toList());
    }
    List<String> out = new ArrayList<>();
    try (Symbolizer sym = Symbolizer.builder().threads(2).build()) {
      List<List<Symbolized>> answers = sym.symbolizeStacks(requests);
      for (int k = 0; k < answers.size(); k++) {
        for (int i = 0; i < answers.get(k).size(); i++) {
          Symbolized s = answers.get(k).get(i);
          assertThat(s).as("stack %d frame %d", k, i).isInstanceOf(Symbolized.Found.class);
          Optional<Merged> m = ((Symbolized.Found) s).merged();
          if (m.isPresent()) out.add(k + " " + i + " " + String.join(",", m.get().chosen()));
        }
      }
    }
    return out;
  }

  /**
   * Every frame the CLI prints (text and JSON) names the function and file:line llvm-gsymutil-22
   * looks up for it, the merged ones as llvm's two-pass resolution chose (expected/stacks.frames.txt,
   * derived from llvm's answers by make-stacks.py).
   */
  @Test
  void everyFrameIsLlvmsAnswer() throws Exception {
    List<String> expected = Files.readAllLines(DIR.resolve("expected/stacks.frames.txt")).stream()
        .filter(l -> !l.isBlank()).toList();
    String in = absoluteInput();
    CliRun text = CliRun.stdin(in, "symbolize", "--stack");
    assertThat(text.err()).isEmpty();
    assertThat(text.status()).isZero();
    List<String> got = new ArrayList<>();
    int k = 0;
    for (String stack : text.out().split("\n\n\n")) {
      if (stack.isBlank()) continue;
      String[] frames = stack.strip().split("\n\n");
      for (int i = 0; i < frames.length; i++) {
        List<String> lines = frames[i].lines().filter(l -> !l.startsWith("  merged:")).toList();
        for (int j = 0; j + 1 < lines.size(); j += 2) {
          got.add(k + " " + i + " " + lines.get(j) + " " + lines.get(j + 1).replaceFirst(":0$", ""));
        }
      }
      k++;
    }
    assertThat(got).containsExactlyElementsOf(expected);

    CliRun json = CliRun.stdin(in, "symbolize", "--stack", "--output-style=JSON");
    assertThat(json.status()).isZero();
    List<String> fromJson = new ArrayList<>();
    Pattern sym = Pattern.compile("\\{\"Column\":\\d+,\"Discriminator\":\\d+,\"FileName\":\"([^\"]*)\",\"FunctionName\":\"([^\"]*)\",\"Line\":(\\d+)");
    k = 0;
    int i = 0;
    for (String line : json.out().split("\n", -1)) {
      if (line.isEmpty()) {
        if (i > 0) k++;
        i = 0;
        continue;
      }
      Matcher m = sym.matcher(line);
      while (m.find()) fromJson.add(k + " " + i + " " + m.group(2) + " " + m.group(1) + ":" + m.group(3));
      i++;
    }
    assertThat(fromJson).containsExactlyElementsOf(expected);
  }

  @Test
  void theCliNamesWhatLlvmsTwoPassResolutionNames() throws Exception {
    CliRun json = CliRun.stdin(absoluteInput(), "symbolize", "--stack", "--output-style=JSON");
    List<String> got = new ArrayList<>();
    int k = 0;
    int i = 0;
    Pattern chosen = Pattern.compile("\"Chosen\":\\[([^]]*)]");
    for (String line : json.out().split("\n", -1)) {
      if (line.isEmpty()) {
        if (i > 0) k++;
        i = 0;
        continue;
      }
      Matcher m = chosen.matcher(line);
      if (m.find()) got.add(k + " " + i + " " + m.group(1).replace("\"", ""));
      i++;
    }
    assertThat(got).isEqualTo(llvmExpected());
  }

  @Test
  void theLibraryNamesWhatLlvmsTwoPassResolutionNames() throws Exception {
    assertThat(ours()).isEqualTo(llvmExpected());
  }

  @Test
  void argumentsFormAndOptions() throws Exception {
    String m = DIR.resolve("gsym/stack-main.gsym").toString();
    List<List<Frame>> stacks = stacks();
    Frame leaf = stacks.get(7).get(0);   // (4): leaf_x, mid_x, top_x, main
    Frame mid = stacks.get(7).get(1);
    Frame top = stacks.get(7).get(2);
    CliRun r = CliRun.run("symbolize", "--stack", "--obj=" + m, "0x" + Long.toHexString(leaf.address),
        "0x" + Long.toHexString(mid.address), "0x" + Long.toHexString(top.address));
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("""
        leaf_x
        /gsym-test/src/stack_main.c:23:0
          merged: call_site from frame 1: leaf_x (2 candidates: leaf_x, leaf_y)

        mid_x
        /gsym-test/src/stack_main.c:25:0
          merged: call_site from frame 2: mid_x (2 candidates: mid_x, mid_y)

        top_x
        /gsym-test/src/stack_main.c:26:0

        """);
    // the arguments are one stack: alone, the leaf has no caller
    assertThat(CliRun.run("symbolize", "--stack", "--obj=" + m, "0x" + Long.toHexString(leaf.address)).out())
        .isEqualTo("leaf_x\n/gsym-test/src/stack_main.c:23:0\n  merged: ambiguous (2 candidates: leaf_x, leaf_y)\n\n");
    // without --stack: symbolize as before, no merged line
    assertThat(CliRun.run("symbolize", "--obj=" + m, "0x" + Long.toHexString(leaf.address)).out())
        .isEqualTo("leaf_x\n/gsym-test/src/stack_main.c:23:0\n\n");
    // a frame whose module cannot be opened keeps its number; the search passes over it
    String in = m + " 0x" + Long.toHexString(leaf.address) + "\n/nonexistent/lib.so 0x10\n" + m + " 0x"
        + Long.toHexString(mid.address) + "\n" + m + " 0x" + Long.toHexString(top.address) + "\n";
    CliRun gap = CliRun.stdin(in, "symbolize", "--stack");
    assertThat(gap.out()).startsWith("leaf_x\n/gsym-test/src/stack_main.c:23:0\n  merged: call_site from frame 2: leaf_x")
        .contains("mid_x\n/gsym-test/src/stack_main.c:25:0\n  merged: call_site from frame 3: mid_x");
    assertThat(gap.err()).contains("'/nonexistent/lib.so': No such file or directory");
    assertThat(CliRun.run("symbolize", "--help").out()).contains("--stack");
  }

  /** The second line ({@code FILE:LINE:0}) of symbolize's answer for one address. */
  static String line(String gsym, long address) throws Exception {
    return CliRun.run("symbolize", "--obj=" + gsym, "0x" + Long.toHexString(address)).out().split("\n")[1];
  }

  private static String second(String answer) {
    return answer.strip().split("\n")[1];
  }

  @Test
  void callersAreAnsweredAtTheirCall() throws Exception {
    // a return address whose own line differs from the byte before it (the call's)
    String g = TestData.path("gsym/c-clang-O2.gsym").toString();
    long ret = -1;
    for (long a = 0x1140; a < 0x1400 && ret < 0; a++) {
      String here = line(g, a);
      if (!here.startsWith("??") && !line(g, a - 1).startsWith("??") && !here.equals(line(g, a - 1))) ret = a;
    }
    assertThat(ret).as("a line boundary in the test binary").isPositive();
    String pc = "0x" + Long.toHexString(ret);
    String caller = pc;
    String[] dflt = CliRun.run("symbolize", "--stack", "--obj=" + g, pc, caller).out().split("\n\n");
    assertThat(second(dflt[0])).as("frame 0 as given").isEqualTo(line(g, ret));
    assertThat(second(dflt[1])).as("a caller at its call").isEqualTo(line(g, ret - 1));
    String[] none = CliRun.run("symbolize", "--stack", "--adjust-addresses=none", "--obj=" + g, pc, caller).out().split("\n\n");
    assertThat(second(none[1])).isEqualTo(line(g, ret));
    String[] all = CliRun.run("symbolize", "--stack", "--adjust-addresses=all", "--obj=" + g, pc, caller).out().split("\n\n");
    assertThat(second(all[0])).isEqualTo(line(g, ret - 1));
    // a first frame that cannot be answered still counts: the next one is a caller
    CliRun gap = CliRun.stdin("/nonexistent/lib.so 0x10\n" + g + " " + pc + "\n", "symbolize", "--stack");
    assertThat(second(gap.out().split("\n\n")[1])).isEqualTo(line(g, ret - 1));
    CliRun bad = CliRun.run("symbolize", "--stack", "--adjust-addresses=first", "--obj=" + g, pc);
    assertThat(bad.status()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("--adjust-addresses=: expected all_but_first, all or none, but got 'first'\n");
  }

  @Test
  void aStackLongerThanAChunkIsAnsweredWhole() throws Exception {
    // frames 0..2046 in one piece, the rest in another: every frame answered, in order
    Frame mid = stacks().get(7).get(1);
    Frame top = stacks().get(7).get(2);
    String m = DIR.resolve("gsym/stack-main.gsym").toString();
    StringBuilder in = new StringBuilder();
    int n = 3 * SymbolizeBatches.CHUNK_SIZE;
    for (int i = 0; i < n; i++) in.append(m).append(" 0x").append(Long.toHexString(i % 2 == 0 ? mid.address : top.address)).append('\n');
    in.append("\n# a comment, then a second stack\n").append(m).append(" 0x").append(Long.toHexString(mid.address)).append('\n');
    CliRun r = CliRun.stdin(in.toString(), "symbolize", "--stack");
    assertThat(r.err()).isEmpty();
    String[] answers = r.out().split("\n\n", -1);
    // n + 1 answers (the empty line between the stacks starts the last one), the trailing empty string
    assertThat(answers).hasSize(n + 2);
    // a mid frame whose caller is the top frame after it resolves; frame numbers go on across pieces
    assertThat(answers[0]).contains("merged: call_site from frame 1: mid_x");
    assertThat(answers[n - 2]).contains("merged: call_site from frame " + (n - 1) + ": mid_x");
    int cut = SymbolizeBatches.CHUNK_SIZE - 1; // frame 2046 is the last of the first piece
    assertThat(answers[cut - 1]).as("no caller in its piece").contains("merged: ambiguous");
    assertThat(answers[cut + 1]).contains("merged: call_site from frame " + (cut + 2) + ": mid_x");
    assertThat(answers[n]).startsWith("\nmid_x").contains("merged: ambiguous");
  }

  @Test
  void matchesLiveLlvmTwoPass() throws Exception {
    Path llvm = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    List<List<Frame>> stacks = stacks();
    List<String> expected = new ArrayList<>();
    for (int k = 0; k < stacks.size(); k++) {
      List<Frame> frames = stacks.get(k);
      List<List<String>> resolved = new ArrayList<>();
      for (int i = 0; i < frames.size(); i++) resolved.add(null);
      List<String> lines = new ArrayList<>();
      for (int i = frames.size() - 1; i >= 0; i--) {
        Frame f = frames.get(i);
        List<Result> results = lookup(llvm, f, List.of());
        List<String> names = distinct(results);
        resolved.set(i, names);
        if (results.size() < 2) continue;
        List<String> chosen = names;
        if (names.size() > 1) {
          for (int j = i + 1; j < frames.size() && j - i <= 4; j++) {
            List<String> callerNames = resolved.get(j);
            List<Result> caller = lookup(llvm, frames.get(j), List.of()).stream()
                .filter(r -> callerNames.contains(r.name)).toList();
            if (caller.isEmpty()) continue;
            LinkedHashSet<List<String>> regexes = new LinkedHashSet<>();
            for (Result r : caller) regexes.add(r.callSites);
            if (regexes.size() != 1) break;
            List<String> rx = regexes.iterator().next();
            if (rx.isEmpty()) continue;
            List<String> named = distinct(lookup(llvm, f, rx));
            if (!named.isEmpty()) {
              chosen = named;
              break;
            }
          }
        }
        resolved.set(i, chosen);
        lines.add(k + " " + i + " " + String.join(",", chosen));
      }
      expected.addAll(lines.reversed());
    }
    assertThat(expected).as("llvm live = checked in").isEqualTo(llvmExpected());
    assertThat(ours()).isEqualTo(expected);
  }

  /** One result of llvm-gsymutil-22 --merged-functions. */
  record Result(String name, List<String> callSites) {}

  static List<String> distinct(List<Result> results) {
    return List.copyOf(new LinkedHashSet<>(results.stream().map(Result::name).toList()));
  }

  private static final Pattern RESULT = Pattern.compile("^   0x[0-9a-f]+: (\\S+)");
  private static final Pattern CALL_SITES = Pattern.compile("^      CallSites: (.*)$");

  static List<Result> lookup(Path llvm, Frame f, List<String> filters) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(llvm.toString(), "--merged-functions"));
    for (String rx : filters) cmd.add("--merged-functions-filter=" + rx);
    cmd.addAll(List.of("--address", "0x" + Long.toHexString(f.address), DIR.resolve(f.module).toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    List<Result> results = new ArrayList<>();
    for (String line : out.split("\n")) {
      Matcher m = RESULT.matcher(line);
      if (m.find()) results.add(new Result(m.group(1), List.of()));
      m = CALL_SITES.matcher(line);
      if (m.find()) {
        Result last = results.removeLast();
        results.add(new Result(last.name, List.of(m.group(1).split(", "))));
      }
    }
    return results;
  }
}
