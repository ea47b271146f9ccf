package dev.gsym.cli.symbolize;

import dev.gsym.cli.EditDistance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code gsymutil symbolize} command line parsed as llvm-symbolizer-22 parses its own (llvm's
 * {@code OptTable::parseArgs} with grouped short options): options from {@link SymbolizeOpt#TABLE}
 * in any order among the positional addresses, the longest matching spelling first, a one-letter
 * flag taking the rest of its argument as further short options ({@code -Cfi}), unknown options
 * collected with llvm's "did you mean" suggestion, {@code @FILE} arguments replaced by the options
 * in FILE (GNU quoting), and the options in {@code LLVM_SYMBOLIZER_OPTS} read first. Empty
 * arguments are ignored, {@code -} is an address and {@code --} is an unknown option, as in llvm.
 */
final class SymbolizeArgs {
  /** One option given: which, as spelled, with its value (null for a flag). */
  record Arg(SymbolizeOpt opt, String spelling, String value) {}

  /** The options given, in order. */
  final List<Arg> options = new ArrayList<>();
  /** The positional arguments (addresses or input lines). */
  final List<String> inputs = new ArrayList<>();
  /** llvm's parse errors ({@code unknown argument '--x'}, {@code --obj: missing argument}), in its order. */
  final List<String> errors = new ArrayList<>();

  /** Nesting limit of {@code @FILE} arguments (llvm's response files may include each other). */
  private static final int MAX_RESPONSE_DEPTH = 20;

  private SymbolizeArgs() {}

  /**
   * Parses {@code args} after the options of {@code envOptions} (the value of
   * LLVM_SYMBOLIZER_OPTS, or null).
   */
  static SymbolizeArgs parse(List<String> args, String envOptions) {
    List<String> all = new ArrayList<>();
    if (envOptions != null) all.addAll(tokenize(envOptions));
    SymbolizeArgs result = new SymbolizeArgs();
    try {
      expand(args, all, 0);
    } catch (IllegalArgumentException e) {
      result.errors.add(e.getMessage());
      return result;
    }
    result.parseAll(all);
    return result;
  }

  /** The last value of {@code opt}, or null. */
  String last(SymbolizeOpt opt) {
    for (int i = options.size() - 1; i >= 0; i--) if (options.get(i).opt == opt) return options.get(i).value;
    return null;
  }

  /** The last of {@code opts} given, or null. */
  Arg lastOf(SymbolizeOpt... opts) {
    for (int i = options.size() - 1; i >= 0; i--) {
      for (SymbolizeOpt o : opts) if (options.get(i).opt == o) return options.get(i);
    }
    return null;
  }

  boolean has(SymbolizeOpt opt) {
    return lastOf(opt) != null;
  }

  /** Every value of {@code opt}, in order. */
  List<String> all(SymbolizeOpt opt) {
    List<String> v = new ArrayList<>();
    for (Arg a : options) if (a.opt == opt) v.add(a.value);
    return v;
  }

  /** llvm's {@code hasFlag(pos, neg, default)}: the last of the two wins. */
  boolean flag(SymbolizeOpt positive, SymbolizeOpt negative, boolean dflt) {
    Arg a = lastOf(positive, negative);
    return a == null ? dflt : a.opt == positive;
  }

  private void parseAll(List<String> args) {
    String[] argv = args.toArray(String[]::new);
    List<String> unknown = new ArrayList<>();
    int i = 0;
    while (i < argv.length) {
      String s = argv[i];
      if (s.isEmpty()) {
        i++;
        continue;
      }
      if (s.equals("-") || s.charAt(0) != '-') {
        inputs.add(s);
        i++;
        continue;
      }
      SymbolizeOpt.Entry fallback = null;
      boolean matched = false;
      for (SymbolizeOpt.Entry e : SymbolizeOpt.TABLE) {
        SymbolizeOpt.Spelling sp = e.spelling();
        String text = sp.text();
        if (!s.startsWith(text)) continue;
        boolean exact = s.length() == text.length();
        switch (sp.kind()) {
          case FLAG -> {
            if (exact) {
              options.add(new Arg(e.opt(), text, null));
              i++;
              matched = true;
            } else if (text.length() == 2) {
              fallback = e;
            }
          }
          case JOINED -> {
            options.add(new Arg(e.opt(), text, s.substring(text.length())));
            i++;
            matched = true;
          }
          case SEPARATE, JOINED_OR_SEPARATE -> {
            if (!exact) {
              if (sp.kind() == SymbolizeOpt.Kind.SEPARATE) continue;
              options.add(new Arg(e.opt(), text, s.substring(text.length())));
              i++;
              matched = true;
            } else if (i + 1 >= argv.length) {
              // llvm stops parsing here and reports it before the unknown options
              errors.add(text + ": missing argument");
              addUnknown(unknown);
              return;
            } else {
              options.add(new Arg(e.opt(), text, argv[i + 1]));
              i += 2;
              matched = true;
            }
          }
        }
        if (matched) break;
      }
      if (matched) continue;
      if (fallback != null) {
        if (s.charAt(2) == '=') {
          unknown.add(s);
          i++;
        } else {
          // a one-letter flag: the rest of the argument is read again as short options
          options.add(new Arg(fallback.opt(), fallback.spelling().text(), null));
          argv[i] = "-" + s.substring(2);
        }
        continue;
      }
      if (s.charAt(1) != '-') {
        unknown.add(s.substring(0, 2));
        argv[i] = "-" + s.substring(2);
        continue;
      }
      unknown.add(s);
      i++;
    }
    addUnknown(unknown);
  }

  private void addUnknown(List<String> unknown) {
    for (String u : unknown) {
      String nearest = nearest(u);
      errors.add(nearest == null ? "unknown argument '" + u + "'"
          : "unknown argument '" + u + "', did you mean '" + nearest + "'?");
    }
  }

  /** llvm's {@code OptTable::findNearest}: a spelling at edit distance 1 at most, or null. */
  static String nearest(String option) {
    int best = Integer.MAX_VALUE;
    String nearest = null;
    for (SymbolizeOpt.Entry e : SymbolizeOpt.TABLE) {
      SymbolizeOpt.Spelling sp = e.spelling();
      String name = sp.name();
      if (name.length() < 4) continue;
      char last = name.charAt(name.length() - 1);
      boolean delimited = last == '=' || last == ':';
      String normalized = option;
      String rhs = "";
      if (delimited) {
        int at = option.indexOf(last);
        if (at >= 0) {
          normalized = option.substring(0, at + 1);
          rhs = option.substring(at + 1);
        }
      }
      String candidate = sp.text();
      if (Math.abs(candidate.length() - normalized.length()) > best) continue;
      int d = EditDistance.between(candidate, normalized);
      if (rhs.isEmpty() && delimited) d++;
      if (d < best) {
        best = d;
        nearest = candidate + rhs;
      }
    }
    return best > 1 ? null : nearest;
  }

  /** Appends {@code args} to {@code out}, replacing each {@code @FILE} by the arguments in FILE. */
  private static void expand(List<String> args, List<String> out, int depth) {
    for (String a : args) {
      if (a.length() < 2 || a.charAt(0) != '@') {
        out.add(a);
        continue;
      }
      Path p;
      try {
        p = Path.of(a.substring(1));
      } catch (InvalidPathException e) {
        out.add(a);
        continue;
      }
      if (!Files.isRegularFile(p)) {
        out.add(a); // llvm leaves an @argument it cannot read as it is
        continue;
      }
      if (depth >= MAX_RESPONSE_DEPTH) throw new IllegalArgumentException("recursive expansion of: '" + p + "'");
      String text;
      try {
        text = new String(Files.readAllBytes(p), dev.gsym.ByteStrings.CHARSET);
      } catch (IOException e) {
        out.add(a);
        continue;
      }
      expand(tokenize(text), out, depth + 1);
    }
  }

  /**
   * llvm's {@code cl::TokenizeGNUCommandLine}: words separated by whitespace; single quotes keep
   * everything, double quotes keep everything but a backslash escapes the next character, and
   * outside quotes a backslash escapes the next character.
   */
  static List<String> tokenize(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder tok = new StringBuilder();
    boolean inToken = false;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (!inToken && Character.isWhitespace(c)) continue;
      if (Character.isWhitespace(c)) {
        out.add(tok.toString());
        tok.setLength(0);
        inToken = false;
        continue;
      }
      inToken = true;
      if (c == '\\' && i + 1 < n) {
        tok.append(s.charAt(++i));
      } else if (c == '\'' || c == '"') {
        char q = c;
        i++;
        while (i < n && s.charAt(i) != q) {
          if (q == '"' && s.charAt(i) == '\\' && i + 1 < n) i++;
          tok.append(s.charAt(i++));
        }
      } else {
        tok.append(c);
      }
    }
    if (inToken) out.add(tok.toString());
    return out;
  }
}
