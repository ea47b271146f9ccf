package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.cli.HelpText.Style;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The usage help: {@code --help} and {@code help [COMMAND]} print the same text, which opens with a
 * one-line overview, fits 80 columns (no terminal here) and is wrapped at spaces only: every word
 * of every description appears whole.
 */
class HelpTest {
  private static final int WIDTH = 80;

  private static CommandSpec spec(String command) {
    CommandLine cl = GsymUtil.commandLine(new Session(System.in, new ByteArrayOutputStream(),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    return command.isEmpty() ? cl.getCommandSpec() : cl.getSubcommands().get(command).getCommandSpec();
  }

  private static String help(String... args) {
    CliRun r = CliRun.run(args);
    assertThat(r.status()).as("status of %s", List.of(args)).isZero();
    assertThat(r.err()).isEmpty();
    return r.out();
  }

  /** Every description text of a command: its description, header, options and parameters. */
  private static List<String> descriptions(CommandSpec spec) {
    List<String> texts = new ArrayList<>(Arrays.asList(spec.usageMessage().description()));
    texts.addAll(Arrays.asList(spec.usageMessage().header()));
    for (OptionSpec o : spec.options()) texts.addAll(Arrays.asList(o.description()));
    for (PositionalParamSpec p : spec.positionalParameters()) texts.addAll(Arrays.asList(p.description()));
    return texts;
  }

  private static String collapse(String text) {
    return text.strip().replaceAll("\\s+", " ");
  }

  @Test
  void helpOpensWithAOneLineOverview() {
    String text = help("--help");
    String first = text.lines().findFirst().orElseThrow();
    assertThat(first).startsWith("gsymutil - ").hasSizeLessThanOrEqualTo(WIDTH);
    assertThat(text.lines().skip(1).findFirst().orElseThrow()).isEmpty();
    assertThat(text).contains("\nUsage:\n  gsymutil [--dump] [--verbose] FILE...\n");
  }

  @Test
  void helpCommandPrintsTheSameAsDashDashHelp() {
    assertThat(help("help")).isEqualTo(help("--help")).isEqualTo(help("-h"));
    for (String command : List.of("dump", "lookup", "convert")) {
      assertThat(help("help", command)).as("help %s", command).isEqualTo(help(command, "--help"));
    }
    assertThat(help("--help")).contains("\n  help     ").contains("  gsymutil help [COMMAND]\n");
    CliRun unknown = CliRun.run("help", "nope");
    assertThat(unknown.status()).isEqualTo(1);
    assertThat(unknown.err()).contains("'nope'");
  }

  @Test
  void everyLineFitsAndNoWordIsBroken() {
    for (String command : List.of("", "dump", "lookup", "convert", "help")) {
      String text = command.isEmpty() ? help("--help") : help("help", command);
      for (String line : text.lines().toList()) {
        assertThat(line.length()).as("length of help line of '%s': %s", command, line).isLessThanOrEqualTo(WIDTH);
      }
      // wrapping only turns spaces into line breaks: with whitespace collapsed, each text is whole
      String shown = collapse(text);
      for (String description : descriptions(spec(command))) {
        assertThat(shown).as("help of '%s' shows whole", command)
            .contains(collapse(description.replace("%n", "\n")));
      }
    }
  }

  @Test
  void wrapsTablesUnderTheirDescriptionAndSynopsesUnderTheirFirstArgument() {
    String row = "      --to-breakpad=GSYM    Write the GSYM file as a Breakpad symbol file (default output: GSYM"
        + " with .sym in place of .gsym).";
    assertThat(HelpText.wrap(row, 60, Style.TABLE)).containsExactly(
        "      --to-breakpad=GSYM    Write the GSYM file as a",
        "                              Breakpad symbol file (default",
        "                              output: GSYM with .sym in",
        "                              place of .gsym).");
    assertThat(HelpText.wrap("  gsymutil --dwarf FILE [-o OUT] [--quiet] [--segment-size N]", 42, Style.SYNOPSIS))
        .containsExactly("  gsymutil --dwarf FILE [-o OUT] [--quiet]", "           [--segment-size N]");
    assertThat(HelpText.wrap("see a.out.gsym and src-test-data/callsites/cpp.yaml here", 20, Style.PARAGRAPH))
        .containsExactly("see a.out.gsym and", "src-test-data/callsites/cpp.yaml", "here");
    assertThat(HelpText.wrap("short", 20, Style.PARAGRAPH)).containsExactly("short");
  }

  /** Every command's help opens with its one-line overview, never with an empty line. */
  @Test
  void everyCommandsHelpOpensWithText() {
    for (String command : List.of("dump", "lookup", "convert", "embed", "serve")) {
      String first = help(command, "--help").lines().findFirst().orElseThrow();
      assertThat(first).as("first line of %s --help", command).isNotBlank();
    }
  }

  /**
   * An option whose name fills its column (picocli then leaves one space before the description)
   * continues its description under the description column, as every other option.
   */
  @Test
  void anOptionFillingItsColumnKeepsTheIndentation() {
    List<String> lines = help("--help").lines().toList();
    int at = -1;
    for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith("      --llvm-compat=VERSION With")) at = i;
    assertThat(at).as("the --llvm-compat row").isNotNegative();
    int column = lines.get(at).indexOf("With");
    assertThat(lines.get(at + 1)).startsWith(" ".repeat(column + 2)).doesNotStartWith(" ".repeat(column + 3));
    String row = "      --llvm-compat=VERSION With --dwarf: behave as llvm-gsymutil VERSION where LLVM releases differ.";
    String[] table = {"      --quiet               Fewer messages.", row};
    int col = HelpText.descriptionColumn(table);
    assertThat(col).isEqualTo(28);
    assertThat(HelpText.wrap(row, 60, Style.TABLE, col)).containsExactly(
        "      --llvm-compat=VERSION With --dwarf: behave as",
        "                              llvm-gsymutil VERSION where",
        "                              LLVM releases differ.");
  }

  /** --quiet says what it silences and that llvm's other DWARF warnings stay (llvm prints them too). */
  @Test
  void quietSaysWhatItSilences() {
    String text = collapse(help("convert", "--help"));
    assertThat(text).contains("--quiet Fewer conversion messages and no progress bar. With --dwarf, as llvm-gsymutil's"
        + " --quiet: no warnings about address ranges outside executable sections; the other DWARF warnings (such as"
        + " 'same address range contains different debug info') are still printed");
  }
}
