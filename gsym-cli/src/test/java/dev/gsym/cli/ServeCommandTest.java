package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code gsymutil serve}'s command line, in process: its help (the usage line names every option of
 * its option table, descriptions keep their column), {@code --version}, and an address it cannot
 * listen on.
 */
class ServeCommandTest {
  @TempDir Path tmp;

  private static CommandSpec serveSpec() {
    CommandLine cl = GsymUtil.commandLine(new Session(System.in, new ByteArrayOutputStream(),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    return cl.getSubcommands().get("serve").getCommandSpec();
  }

  private static String help() {
    CliRun r = CliRun.run("serve", "--help");
    assertThat(r.status()).isZero();
    assertThat(r.err()).isEmpty();
    return r.out();
  }

  /** The usage line of the help, unwrapped. */
  private static String usage(String help) {
    int start = help.indexOf("Usage:\n") + "Usage:\n".length();
    return help.substring(start, help.indexOf("\n\n", start)).replaceAll("\\s+", " ").strip();
  }

  /**
   * Every option of serve's table is in the usage line, with its value label, except the two that
   * only print (help, version); it left out --merged-functions, --convert-in-process and
   * --no-warm-up. The same holds for the synopsis in docs/serve.md.
   */
  @Test
  void usageLineNamesEveryOption() throws Exception {
    String usage = usage(help());
    assertThat(usage).startsWith("gsymutil serve --store DIR ");
    String docs = Files.readString(dev.gsym.testing.TestData.repoRoot().resolve("docs/serve.md"));
    int options = docs.indexOf("\n## Options\n");
    int fence = docs.indexOf("```\n", options) + 4;
    String docsSynopsis = docs.substring(fence, docs.indexOf("\n```", fence)).replaceAll("\\s+", " ");
    List<String> expected = new ArrayList<>();
    for (OptionSpec o : serveSpec().options()) {
      if (o.usageHelp() || o.versionHelp()) continue;
      String name = o.longestName();
      String form = o.arity().max() == 0 ? name : name + " " + o.paramLabel() + (o.isMultiValue() ? "..." : "");
      expected.add(form);
      assertThat(usage).as("usage line of serve --help").contains(form.equals("--store DIR") ? form : "[" + form + "]");
      assertThat(docsSynopsis).as("synopsis in docs/serve.md").contains(form);
    }
    assertThat(expected).contains("--merged-functions", "--convert-in-process", "--no-warm-up", "--idle-timeout SECONDS",
        "--breakpad-symbols DIR|URL...");
  }

  /**
   * An option whose name fills the option column is followed by one space only; its description's
   * next lines are indented as every other's (they started in column 8 under --idle-timeout).
   */
  @Test
  void descriptionsKeepTheirColumn() {
    String help = help();
    List<String> lines = help.substring(help.indexOf("Options:\n")).lines().skip(1).toList();
    int column = lines.getFirst().indexOf("Print this help");
    assertThat(column).isGreaterThan(10);
    String option = null;
    for (String line : lines) {
      if (line.isBlank()) break;
      assertThat(line.length()).as(line).isLessThanOrEqualTo(80);
      String trimmed = line.stripLeading();
      int indent = line.length() - trimmed.length();
      if (trimmed.startsWith("-")) {
        option = trimmed; // its description starts in the column on this line, or alone on the next
      } else if (indent == column) {
        assertThat(option).as("a description on the line after its option").isNotNull();
      } else {
        assertThat(indent).as("continuation of the description of %s: %s", option, line).isEqualTo(column + 2);
      }
    }
    assertThat(help).contains("      --idle-timeout=SECONDS Close a connection silent this long, also in the\n"
        + " ".repeat(column + 2) + "middle of a request body (default 30).\n");
  }

  @Test
  void versionPrintsTheVersion() {
    CliRun r = CliRun.run("serve", "--version");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo(String.join("\n", Version.lines()) + "\n").isEqualTo(CliRun.run("--version").out());
    assertThat(help()).contains("-v, --version");
  }

  /**
   * A port in use is said so, in one line (Jetty's own words were "Failed to bind to
   * /127.0.0.1:PORT"), and so is an address that is not this host's.
   */
  @Test
  void aPortInUseIsSaidSo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      CliRun r = CliRun.run("serve", "--store", tmp.resolve("store").toString(), "--listen",
          "127.0.0.1:" + taken.getLocalPort(), "--no-warm-up", "--no-debuginfod");
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).isEqualTo("gsymutil serve: cannot listen on 127.0.0.1:" + taken.getLocalPort()
          + ": address already in use\n");
    }
    // an address of no interface here (TEST-NET-1, RFC 5737)
    CliRun r = CliRun.run("serve", "--store", tmp.resolve("store").toString(), "--listen", "192.0.2.1:8080", "--no-warm-up",
        "--no-debuginfod");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("gsymutil serve: cannot listen on 192.0.2.1:8080: cannot assign requested address\n");
  }
}
