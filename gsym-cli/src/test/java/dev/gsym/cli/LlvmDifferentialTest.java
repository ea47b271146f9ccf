package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.gsym.ByteStrings;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs llvm-gsymutil-22 and our gsymutil on every GSYM file under src-test-data (found
 * recursively, so files added later are covered) and requires identical stdout and exit status
 * (and stderr, once llvm's argv[0] is replaced by our name). Skipped when llvm-gsymutil-22 is not
 * on PATH (or -Dgsym.llvm.gsymutil=none).
 */
@NeedsLlvm
class LlvmDifferentialTest {
  private static final String LLVM = Llvm.GSYMUTIL;

  @TempDir
  Path tmp;

  /**
   * llvm-gsymutil-22 (see {@link Llvm}: -Dgsym.llvm.gsymutil=PATH|none overrides); the calling test
   * is skipped without it (failed under -Dgsym.requireTools=true).
   */
  static Path llvmExecutable() {
    return Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
  }

  /** Every file named *.gsym or *.gsym-0x<hex> (segments) below src-test-data. */
  static List<Path> gsymFiles() throws IOException {
    Path root = TestData.repoRoot().resolve("src-test-data");
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().matches(".*\\.gsym(-0x[0-9a-f]+)?"))
          .sorted().toList();
    }
  }

  /**
   * Addresses worth looking up: each function's start, middle, last byte and one past its end,
   * around size-0 functions, below the first and far above the last function, and the extremes.
   * Every file below src-test-data opens and decodes: one that did not would fail here rather than
   * be compared at fewer addresses.
   */
  static List<Long> interestingAddresses(Path file) throws IOException {
    TreeSet<Long> set = new TreeSet<>(Long::compareUnsigned);
    try (GsymReader r = GsymReader.open(file)) {
      int n = r.numFunctions();
      long lastEnd = 0;
      for (int i = 0; i < n; i++) {
        long start = r.functionAddress(i);
        long size = r.functionInfoAtIndex(i).range().size();
        set.add(start);
        set.add(start + 1);
        if (size > 0) {
          set.add(start + size / 2);
          set.add(start + size - 1);
          set.add(start + size);
        } else {
          set.add(start + 16);
        }
        if (i == 0) {
          if (start != 0) set.add(start - 1);
          set.add(0L);
        }
        lastEnd = Math.max(lastEnd, start + Math.max(size, 1));
      }
      set.add(lastEnd + 0x10000);
      set.add(-1L);
    }
    return new ArrayList<>(set);
  }

  record Outcome(int status, String out, String err) {}

  private Outcome llvm(Path exe, String stdin, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(exe.toString());
    cmd.addAll(args);
    Path in = Files.write(tmp.resolve("in.txt"), ByteStrings.encode(stdin));
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process p = new ProcessBuilder(cmd).redirectInput(in.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile()).start();
    int status = p.waitFor();
    String errText = TestData.text(err).replace(exe + ": ", CliException.TOOL_NAME + ": ");
    return new Outcome(status, TestData.text(out), errText);
  }

  private void compare(Path exe, String stdin, List<String> args) throws Exception {
    Outcome expected = llvm(exe, stdin, args);
    CliRun ours = CliRun.stdin(stdin, args.toArray(String[]::new));
    String what = String.join(" ", args);
    assertThat(ours.out()).as("stdout of gsymutil %s", what).isEqualTo(expected.out());
    assertThat(ours.status()).as("exit status of gsymutil %s", what).isEqualTo(expected.status());
    assertThat(ours.err()).as("stderr of gsymutil %s", what).isEqualTo(expected.err());
  }

  private static List<String> args(List<String> head, List<Long> addrs, String file) {
    List<String> a = new ArrayList<>(head);
    for (long addr : addrs) {
      a.add("--address");
      a.add("0x" + Long.toHexString(addr).toLowerCase(Locale.ROOT));
    }
    a.add(file);
    return a;
  }

  @TestFactory
  Stream<DynamicTest> sameOutputAsLlvm() throws IOException {
    Path exe = Llvm.gsymutil();
    if (exe == null) {
      // one visibly skipped (or, under -Dgsym.requireTools=true, failed) test rather than an empty factory
      return Stream.of(dynamicTest("compare with " + LLVM, () -> Tools.require(exe, LLVM)));
    }
    List<Path> files = gsymFiles();
    assertThat(files).isNotEmpty();
    List<DynamicTest> tests = new ArrayList<>();
    StringBuilder allStdin = new StringBuilder();
    for (Path file : files) {
      String f = file.toString();
      String name = TestData.repoRoot().relativize(file).toString();
      List<Long> addrs = interestingAddresses(file);
      StringBuilder stdin = new StringBuilder();
      for (long a : addrs) {
        String line = "0x" + Long.toHexString(a) + " " + f + "\n";
        stdin.append(line);
        allStdin.append(line);
      }
      tests.add(dynamicTest(name + ": dump", () -> compare(exe, "", List.of(f))));
      tests.add(dynamicTest(name + ": --verbose dump", () -> compare(exe, "", List.of("--verbose", f))));
      tests.add(dynamicTest(name + ": lookups", () -> compare(exe, "", args(List.of(), addrs, f))));
      tests.add(dynamicTest(name + ": --verbose lookups",
          () -> compare(exe, "", args(List.of("--verbose"), addrs, f))));
      tests.add(dynamicTest(name + ": --merged-functions lookups",
          () -> compare(exe, "", args(List.of("--merged-functions"), addrs, f))));
      tests.add(dynamicTest(name + ": --merged-functions-filter lookups",
          () -> compare(exe, "", args(List.of("--merged-functions", "--merged-functions-filter=a",
              "--merged-functions-filter=_b$"), addrs, f))));
      tests.add(dynamicTest(name + ": --addresses-from-stdin",
          () -> compare(exe, stdin.toString(), List.of("--addresses-from-stdin"))));
      tests.add(dynamicTest(name + ": --verbose --merged-functions --addresses-from-stdin",
          () -> compare(exe, stdin.toString(),
              List.of("--verbose", "--merged-functions", "--addresses-from-stdin"))));
    }
    // every file in one stream, alternating files line by line
    StringBuilder mixed = new StringBuilder();
    String[] lines = allStdin.toString().split("\n");
    for (int i = 0; i < lines.length; i++) {
      mixed.append(lines[(i * 7919) % lines.length]).append('\n');
    }
    tests.add(dynamicTest("all files: --addresses-from-stdin interleaved",
        () -> compare(exe, mixed.toString(), List.of("--addresses-from-stdin"))));
    // filter expressions (POSIX ERE as llvm::Regex reads them, invalid ones match nothing), each
    // over every file in one run
    List<Long> union = new ArrayList<>();
    for (Path file : files) union.addAll(interestingAddresses(file));
    for (String re : new String[] {"_b$", "^.wice", "[[:digit:]]", "\\w", "a{x", "[]a]", "(w)\\1",
        "", "[", "*a", "a||b", "o{1,2}", "^(top|merged_.*)$", "[^a-m]", ".", "\\.", "[a-]", "[-_]",
        "[[:upper:]]", "^_+[a-z]"}) {
      List<String> head = new ArrayList<>(List.of("--merged-functions", "--merged-functions-filter=" + re));
      List<Long> addrs = union.stream().distinct().toList();
      List<String> a = args(head, addrs, files.getFirst().toString());
      for (Path file : files.subList(1, files.size())) a.add(file.toString());
      tests.add(dynamicTest("all files: --merged-functions-filter=" + re, () -> compare(exe, "", a)));
    }
    tests.add(dynamicTest("all files: dumped in one run",
        () -> compare(exe, "", files.stream().map(Path::toString).toList())));
    return tests.stream();
  }
}
