package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.breakpad.ResolverOracle.Frame;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A second opinion on our {@code .sym → GSYM} lookups: the npm package {@code @indutny/breakpad}
 * (a WebAssembly {@code .sym} parser, {@code symbolicateFrames}), independent of Breakpad's own
 * resolver ({@link BreakpadResolverTest}), on the {@code .sym} files dump_syms wrote for the real
 * binaries of {@code breakpad/elf}, at every address their resolver answers name. It answers the
 * outermost function's name with the innermost line record's file and line, which must be ours;
 * two rules of its own are allowed (docs/breakpad.md, "How lookups answer"): a line 0 is no line,
 * and a PUBLIC symbol reaches up to the next symbol where Breakpad's resolver (and we) stop it
 * ({@code PUBLIC_EXTENT}, counted). The package is found through {@code $INDUTNY_BREAKPAD}
 * ({@code .ci/run} installs it: src-test-data/breakpad-package.sh, {@code indutny_fetch}).
 */
@StartsProcesses
class IndutnyBreakpadTest {
  @TempDir
  static Path tmp;

  static Stream<Path> inputs() throws IOException {
    try (Stream<Path> s = Files.list(TestData.path("breakpad", "elf"))) {
      return s.filter(p -> p.toString().endsWith(".sym"))
          .filter(p -> Files.exists(p.resolveSibling(p.getFileName() + ".resolver.txt"))).sorted().toList().stream();
    }
  }

  static Path packageDir() {
    String env = System.getenv("INDUTNY_BREAKPAD");
    Path dir = env == null || env.isEmpty() ? null : Path.of(env);
    Tools.check(dir != null && Files.isRegularFile(dir.resolve("lib/breakpad.js")),
        "the npm package @indutny/breakpad@1.2.3 ($INDUTNY_BREAKPAD, installed by .ci/run)");
    return dir;
  }

  /** One line per address: {@code ADDRESS\t-} or {@code ADDRESS\tNAME\tSIZE\tFILE\tLINE} (empty for null). */
  static List<String[]> indutny(Path sym, List<Long> addresses) throws IOException, InterruptedException {
    Path node = Tools.require("node");
    Path script = tmp.resolve("symbolicate.mjs");
    Files.writeString(script, """
        import { createReadStream, readFileSync } from 'node:fs';
        import { pathToFileURL } from 'node:url';
        const [lib, sym, list] = process.argv.slice(2);
        const { symbolicateFrames } = await import(pathToFileURL(lib).href);
        const addrs = readFileSync(list, 'utf8').split('\\n').filter(a => a).map(a => Number(a));
        const answers = await symbolicateFrames(createReadStream(sym), addrs);
        const s = v => (v === null || v === undefined ? '' : String(v));
        process.stdout.write(answers.map((r, i) => '0x' + addrs[i].toString(16) + '\\t'
            + (r === null ? '-' : [r.name, s(r.size), s(r.file), s(r.line)].join('\\t'))).join('\\n') + '\\n');
        """);
    Path list = tmp.resolve(sym.getFileName() + ".addrs");
    StringBuilder sb = new StringBuilder();
    for (long a : addresses) sb.append("0x").append(Long.toHexString(a)).append('\n');
    Files.writeString(list, sb);
    Path out = tmp.resolve(sym.getFileName() + ".out");
    Process p = new ProcessBuilder(node.toString(), script.toString(), packageDir().resolve("lib/breakpad.js").toString(),
        sym.toString(), list.toString()).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("node finishes").isTrue();
    assertThat(p.exitValue()).as("node's exit status").isZero();
    List<String[]> rows = new ArrayList<>();
    for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) rows.add(line.split("\t", -1));
    return rows;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void answersAsOurLookups(Path sym) throws IOException, InterruptedException {
    packageDir();
    Map<Long, List<Frame>> resolver = ResolverOracle.parse(TestData.text(sym.resolveSibling(sym.getFileName() + ".resolver.txt")));
    List<Long> addresses = new ArrayList<>(resolver.keySet());
    List<String[]> theirs = indutny(sym, addresses);
    assertThat(theirs).hasSize(addresses.size());
    List<String> mismatches = new ArrayList<>();
    int agree = 0;
    int publicExtent = 0;
    try (GsymReader r = BreakpadResolverTest.convert(sym)) {
      for (int i = 0; i < addresses.size(); i++) {
        long a = addresses.get(i);
        String[] t = theirs.get(i);
        assertThat(Long.decode(t[0])).isEqualTo(a);
        List<Frame> ours = ResolverOracle.ours(r, a);
        boolean ok;
        if (ours.isEmpty()) {
          ok = t[1].equals("-");
          if (!ok && t.length == 5 && t[2].isEmpty() && t[3].isEmpty()) { // a PUBLIC (no size), not bounded
            publicExtent++;
            continue;
          }
        } else if (t[1].equals("-")) {
          ok = false;
        } else {
          Frame inner = ours.getFirst();
          String theirLine = t[4].equals("0") ? "" : t[4];
          String theirFile = theirLine.isEmpty() ? "" : t[3];
          String ourLine = inner.line() == 0 ? "" : Long.toString(inner.line());
          String ourFile = ourLine.isEmpty() ? "" : inner.file();
          ok = t[1].equals(ours.getLast().name()) && theirFile.equals(ourFile) && theirLine.equals(ourLine);
        }
        if (ok) {
          agree++;
        } else {
          mismatches.add("0x" + Long.toHexString(a) + ": @indutny/breakpad " + String.join(" | ", t) + ", ours " + ours);
        }
      }
    }
    assertThat(mismatches).as("answers that differ from ours").isEmpty();
    assertThat(agree).as("answers equal to ours").isGreaterThan(addresses.size() / 2);
    assertThat(publicExtent).as("PUBLIC symbols it reaches past their end").isLessThan(addresses.size() / 4);
  }
}
