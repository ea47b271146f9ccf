package dev.gsym.cli;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Usage help wrapped at spaces only. picocli wraps with {@link java.text.BreakIterator}, which also
 * breaks inside words after '.', ':' and '/' ({@code a.out} becomes {@code a.} / {@code out}). So
 * each command's sections are laid out by picocli on unlimited lines and wrapped here at the width
 * picocli chose ({@code usageHelpAutoWidth}: the terminal's, else 80 columns): continuation lines
 * of a synopsis line are indented under its first argument, those of an option, parameter or
 * command description under the description plus two columns (as picocli does), those of a
 * paragraph as the paragraph. A word longer than the width is never split.
 */
final class HelpText {
  /** picocli's line width while rendering: no section line comes close to it. */
  private static final int UNWRAPPED = 4096;

  private HelpText() {}

  /** Wraps the help of {@code cl} and of all its subcommands (for --help and {@code help CMD}). */
  static void install(CommandLine cl) {
    install(cl, new IdentityHashMap<>());
  }

  private static void install(CommandLine cl, Map<CommandLine, Boolean> done) {
    if (done.put(cl, Boolean.TRUE) != null) return; // aliases list a command twice
    UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
    int[] width = {0}; // chosen at the first rendering: finding the terminal's may start a process
    Map<String, IHelpSectionRenderer> sections = new LinkedHashMap<>();
    for (Map.Entry<String, IHelpSectionRenderer> e : cl.getHelpSectionMap().entrySet()) {
      String key = e.getKey();
      IHelpSectionRenderer section = e.getValue();
      sections.put(key, help -> {
        if (width[0] == 0) {
          width[0] = usage.width();
          usage.autoWidth(false);
          usage.width(UNWRAPPED);
        }
        String text = section.render(help);
        if (!key.equals(UsageMessageSpec.SECTION_KEY_SYNOPSIS)) return wrapSection(key, text, width[0]);
        // a heading such as "Usage: " shares the synopsis' first line
        int offset = help.synopsisHeadingLength();
        return wrapSection(key, " ".repeat(offset) + text, width[0]).substring(offset);
      });
    }
    cl.setHelpSectionMap(sections);
    for (CommandLine sub : cl.getSubcommands().values()) install(sub, done);
  }

  /** How the lines of a section continue when wrapped. */
  enum Style {
    /** Synopsis: under the first argument after {@code gsymutil}. */
    SYNOPSIS,
    /** Option, parameter and command lists: under the description, two columns further. */
    TABLE,
    /** Anything else: under the start of the line. */
    PARAGRAPH
  }

  static String wrapSection(String key, String text, int width) {
    Style style = switch (key) {
      case UsageMessageSpec.SECTION_KEY_SYNOPSIS -> Style.SYNOPSIS;
      case UsageMessageSpec.SECTION_KEY_OPTION_LIST, UsageMessageSpec.SECTION_KEY_PARAMETER_LIST,
          UsageMessageSpec.SECTION_KEY_COMMAND_LIST, UsageMessageSpec.SECTION_KEY_EXIT_CODE_LIST -> Style.TABLE;
      default -> Style.PARAGRAPH;
    };
    StringBuilder out = new StringBuilder(text.length() + 64);
    String[] lines = text.split("\n", -1); // the last element is what follows the final \n
    int column = style == Style.TABLE ? descriptionColumn(lines) : -1;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      boolean cr = line.endsWith("\r"); // picocli's line separator is the platform's
      if (cr) line = line.substring(0, line.length() - 1);
      String newline = cr ? "\r\n" : "\n";
      List<String> pieces = wrap(line, width, style, column);
      for (int j = 0; j < pieces.size(); j++) {
        out.append(pieces.get(j));
        if (j < pieces.size() - 1 || i < lines.length - 1) out.append(newline);
        else if (cr) out.append('\r');
      }
    }
    return out.toString();
  }

  /**
   * Where the descriptions of a table start: after the first gap of two spaces or more that follows
   * a name (picocli lays every row of a table out on the same columns); -1 if no row shows it.
   */
  static int descriptionColumn(String[] lines) {
    for (String line : lines) {
      int lead = leadingSpaces(line);
      int gap = line.indexOf("  ", lead);
      if (lead < line.length() && gap > lead) {
        int text = leadingSpaces(line, gap);
        if (text < line.length()) return text;
      }
    }
    return -1;
  }

  /** The pieces of one wrapped line, without line separators. */
  static List<String> wrap(String line, int width, Style style) {
    return wrap(line, width, style, -1);
  }

  /**
   * The pieces of one wrapped line; {@code column}: where a table's descriptions start (-1 if not
   * known), for a row whose name fills its column and is followed by one space only.
   */
  static List<String> wrap(String line, int width, Style style, int column) {
    List<String> pieces = new ArrayList<>();
    if (line.length() <= width) {
      pieces.add(line);
      return pieces;
    }
    String rest = line.stripTrailing();
    int lead = leadingSpaces(rest);
    int text = lead; // where the part that may be broken starts
    int hang;
    switch (style) {
      case SYNOPSIS -> {
        int firstSpace = rest.indexOf(' ', lead);
        text = firstSpace < 0 ? rest.length() : firstSpace;
        hang = firstSpace < 0 ? lead : firstSpace + 1;
      }
      case TABLE -> {
        int gap = rest.indexOf("  ", lead);
        text = gap < 0 ? lead : leadingSpaces(rest, gap);
        if (column > lead && (gap < 0 || gap >= column) && rest.length() > column && rest.charAt(column - 1) == ' '
            && rest.charAt(column - 2) != ' ' && rest.charAt(column) != ' ') {
          text = column; // "--idle-timeout=SECONDS Close a connection ...": one space before the description
        }
        hang = text + 2;
      }
      default -> hang = lead;
    }
    String indent = " ".repeat(hang);
    int minBreak = text;
    while (rest.length() > width) {
      int cut = rest.lastIndexOf(' ', width);
      if (cut <= minBreak) cut = rest.indexOf(' ', Math.max(width, minBreak + 1)); // an over-long word
      if (cut < 0 || cut <= minBreak) break;
      pieces.add(rest.substring(0, cut).stripTrailing());
      rest = indent + rest.substring(cut).stripLeading();
      minBreak = hang;
    }
    pieces.add(rest);
    return pieces;
  }

  private static int leadingSpaces(String s) {
    return leadingSpaces(s, 0);
  }

  private static int leadingSpaces(String s, int from) {
    int i = from;
    while (i < s.length() && s.charAt(i) == ' ') i++;
    return i;
  }
}
