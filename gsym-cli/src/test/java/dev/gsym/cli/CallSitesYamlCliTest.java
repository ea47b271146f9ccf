package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --convert BIN --callsites-yaml-file Y}: the GSYM bytes equal llvm-gsymutil-22's (checked
 * in under src-test-data/callsites/expected, and live when llvm is installed), also with
 * {@code --merged-functions} and {@code --dwarf-callsites}; bad files fail with llvm's messages and
 * exit status, writing nothing.
 */
@NeedsLlvm
class CallSitesYamlCliTest {
  private static final String MERGED = "--merged-functions";
  private static final String DWARF_CS = "--dwarf-callsites";

  static Stream<Arguments> goldens() {
    return Stream.of(
        Arguments.of("icf-clang-O2-gold", "icf.yaml", List.of(), "icf-clang-O2-gold.gsym"),
        Arguments.of("icf-clang-O2-gold", "icf.yaml", List.of(MERGED), "icf-clang-O2-gold.merged.gsym"),
        Arguments.of("icf-clang-O2-gold", "icf.yaml", List.of(MERGED, DWARF_CS), "icf-clang-O2-gold.merged-dwarf.gsym"),
        Arguments.of("cpp-gcc-O2", "cpp.yaml", List.of(), "cpp-gcc-O2.gsym"));
  }

  @ParameterizedTest
  @MethodSource("goldens")
  void sameBytesAsLlvm(String bin, String yaml, List<String> flags, String expected, @TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("out.gsym");
    List<String> args = new ArrayList<>(List.of("--convert", TestData.path("bin", bin).toString(), "--callsites-yaml-file",
        TestData.path("callsites", yaml).toString(), "-o", out.toString()));
    args.addAll(flags);
    CliRun r = CliRun.run(args.toArray(String[]::new));
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(TestData.path("callsites", "expected", expected)));
  }

  @Test
  void dumpShowsTheCallSites(@TempDir Path tmp) {
    Path out = tmp.resolve("o.gsym");
    CliRun r = CliRun.run("--convert", TestData.path("bin", "icf-clang-O2-gold").toString(), MERGED,
        "--callsites-yaml-file", TestData.path("callsites", "icf.yaml").toString(), "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    CliRun d = CliRun.run(out.toString());
    assertThat(d.out()).contains("""
        ++ Merged FunctionInfos[0]:
            [0x00000000000006c0 - 0x00000000000006cd) "twice_b"
            LineTable:
              0x00000000000006c0 /gsym-test/src/icf.c:5
              0x00000000000006c4 /gsym-test/src/icf.c:6
            CallSites (by relative return offset):
              0x0004 Flags[InternalCall] MatchRegex[child]
        """);
    assertThat(d.out()).contains("  0x0030 Flags[InternalCall | ExternalCall] MatchRegex[extra$;twice_a]\n");
  }

  /** Error fixture, expected stderr (the file name is "@F"). Captured from llvm-gsymutil-22. */
  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of("unknown-function.yaml",
            "DWARF conversion failed: : Can't find function 'no_such_function' specified in callsite YAML\n\n"),
        Arguments.of("bad-flag.yaml", "DWARF conversion failed: : Unknown flag in callsite YAML: TailCall\n\n"),
        Arguments.of("missing-key.yaml", """
            @F:4:9: error: missing required key 'match_regex'
                  - return_offset: 1
                    ^
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("unknown-key.yaml", """
            @F:3:5: error: unknown key 'callsite'
                callsite: []
                ^~~~~~~~
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("bad-offset.yaml", """
            @F:4:24: error: invalid hex64 number
                  - return_offset: 0x10000000000000000
                                   ^~~~~~~~~~~~~~~~~~~
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("not-a-sequence.yaml", """
            @F:5:22: error: not a sequence
                    match_regex: foo
                                 ^~~
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("unclosed-flow.yaml", """
            @F:1:25: error: Could not find closing ]!
            functions: [{name: main}
                                    ^
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("unclosed-quote.yaml", """
            @F:2:16: error: Expected quote at end of scalar
              - name: "main
                           ^
            @F:2:5: error: Map value must not be empty
              - name: "main
                ^~~~
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("bad-indent.yaml", """
            @F:3:3: error: Unexpected token. Expected Block Entry or Block End.
              name: dup
              ^
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("duplicate-key.yaml", """
            @F:3:5: error: duplicated mapping key 'name'
                name: _start
                ^~~~
            DWARF conversion failed: : Error parsing YAML file: @F

            """),
        Arguments.of("empty.yaml", "DWARF conversion failed: : Error parsing YAML file: @F\n\n"),
        Arguments.of("missing.yaml", "DWARF conversion failed: : No such file or directory\n"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void errorsAsLlvm(String fixture, String expectedErr, @TempDir Path tmp) {
    Path out = tmp.resolve("o.gsym");
    String yaml = TestData.path("callsites", "errors", fixture).toString();
    CliRun r = CliRun.run("--convert", TestData.path("bin", "cpp-gcc-O2").toString(), "--num-threads=1",
        "--callsites-yaml-file", yaml, "-o", out.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(expectedErr.replace("@F", yaml));
    assertThat(r.out()).endsWith("Loaded 22 functions from symbol table.\n"); // the log up to the failure
    assertThat(out).doesNotExist();
  }

  @Test
  void optionChecks(@TempDir Path tmp) {
    CliRun a = CliRun.run("--convert", TestData.path("bin", "cpp-gcc-O2").toString(), "--callsites-yaml-file=",
        "-o", tmp.resolve("o.gsym").toString());
    assertThat(a.status()).isEqualTo(1);
    assertThat(a.err()).isEqualTo("gsymutil: --callsites-yaml-file option requires a non-empty argument.\n");
    CliRun b = CliRun.run("--breakpad", "x.sym", "--callsites-yaml-file", "y.yaml");
    assertThat(b.status()).isEqualTo(1);
    assertThat(b.err()).contains("only apply to --dwarf");
    CliRun c = CliRun.run("--convert", TestData.path("bin", "cpp-gcc-O2").toString(), "--callsites-yaml-file",
        tmp.toString(), "-o", tmp.resolve("o.gsym").toString());
    assertThat(c.err()).isEqualTo("DWARF conversion failed: : Is a directory\n");
  }

  // ------------------------------------------------------------------ live comparison

  static Stream<Arguments> liveCases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (String yaml : List.of("icf.yaml", "cpp.yaml")) {
      String bin = yaml.equals("icf.yaml") ? "icf-clang-O2-gold" : "cpp-gcc-O2";
      out.add(Arguments.of(bin, "callsites/" + yaml, List.of()));
      out.add(Arguments.of(bin, "callsites/" + yaml, List.of(MERGED)));
      out.add(Arguments.of(bin, "callsites/" + yaml, List.of(MERGED, DWARF_CS)));
      out.add(Arguments.of(bin, "callsites/" + yaml, List.of(DWARF_CS)));
    }
    try (Stream<Path> s = Files.list(TestData.path("callsites", "errors"))) {
      for (Path p : s.sorted().toList()) {
        out.add(Arguments.of("cpp-gcc-O2", "callsites/errors/" + p.getFileName(), List.of()));
      }
    }
    // YAML syntax and YAMLIO corner cases (quoting, folding, nulls, radixes, bad indentation, ...)
    try (Stream<Path> s = Files.list(TestData.path("callsites", "more"))) {
      for (Path p : s.sorted().toList()) {
        out.add(Arguments.of("icf-clang-O2-gold", "callsites/more/" + p.getFileName(), List.of()));
      }
    }
    return out.stream();
  }

  /** Ours and llvm-gsymutil-22 on the same command line: exit status, stderr, log tail and bytes. */
  @ParameterizedTest
  @MethodSource("liveCases")
  void liveSameAsLlvm(String bin, String yaml, List<String> flags, @TempDir Path tmp) throws Exception {
    Path llvm = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Path root = TestData.path(".");
    List<String> args = new ArrayList<>(List.of("--convert", "bin/" + bin, "--num-threads=1", "--callsites-yaml-file",
        yaml));
    args.addAll(flags);
    List<String> cmd = new ArrayList<>(List.of(llvm.toString()));
    cmd.addAll(args);
    cmd.addAll(List.of("-o", tmp.resolve("l.gsym").toString()));
    Process p = new ProcessBuilder(cmd).directory(root.toFile())
        .redirectOutput(tmp.resolve("l.out").toFile()).redirectError(tmp.resolve("l.err").toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String llvmErr = Files.readString(tmp.resolve("l.err"), StandardCharsets.UTF_8);
    String llvmOut = Files.readString(tmp.resolve("l.out"), StandardCharsets.UTF_8);

    // ours resolves the same relative paths against src-test-data/
    List<String> ours = new ArrayList<>();
    for (String a : args) ours.add(a.startsWith("bin/") || a.startsWith("callsites/") ? root.resolve(a).normalize().toString() : a);
    ours.addAll(List.of("-o", tmp.resolve("o.gsym").toString()));
    CliRun r = CliRun.run(ours.toArray(String[]::new));
    assertThat(r.status()).isEqualTo(p.exitValue());
    String rootPrefix = root.normalize() + "/";
    assertThat(r.err().replace(rootPrefix, "")).isEqualTo(llvmErr);
    assertThat(r.out().substring(r.out().indexOf("Loaded "))).isEqualTo(llvmOut.substring(llvmOut.indexOf("Loaded ")));
    if (p.exitValue() == 0) {
      assertThat(Files.readAllBytes(tmp.resolve("o.gsym"))).isEqualTo(Files.readAllBytes(tmp.resolve("l.gsym")));
    } else {
      assertThat(tmp.resolve("o.gsym")).doesNotExist();
      assertThat(tmp.resolve("l.gsym")).doesNotExist();
    }
  }
}
