package dev.gsym.convert.internal;

import dev.gsym.format.CallSiteInfo;
import dev.gsym.ByteStrings;
import dev.gsym.convert.internal.YamlTree.Alias;
import dev.gsym.convert.internal.YamlTree.Entry;
import dev.gsym.convert.internal.YamlTree.Map;
import dev.gsym.convert.internal.YamlTree.Node;
import dev.gsym.convert.internal.YamlTree.Null;
import dev.gsym.convert.internal.YamlTree.Scalar;
import dev.gsym.convert.internal.YamlTree.Seq;
import dev.gsym.write.FunctionCallSites;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The call-site YAML file of llvm-gsymutil's {@code --callsites-yaml-file}:
 *
 * <pre>
 * functions:
 *   - name: NAME                        # required
 *     callsites:                        # optional
 *       - return_offset: 0x10           # required; return address - function start
 *         match_regex: [ "^foo$", bar ] # required
 *         flags: [ InternalCall ]       # optional; InternalCall, ExternalCall
 * </pre>
 *
 * Read as LLVM's YAMLIO reads it: keys are looked up in schema order, unknown and duplicated keys
 * are errors, a null (empty, {@code ~}, {@code null}) sequence is empty, {@code return_offset}
 * takes LLVM's auto-radix integers (0x, 0b, 0o, leading 0 = octal, decimal). Errors carry LLVM's
 * diagnostics. Flag names become {@link CallSiteInfo} flags in {@link Function#resolve}; function
 * names are looked up by {@link GsymCreator#loadCallSites}.
 */
public final class CallSiteYaml {
  private CallSiteYaml() {}

  /** Largest file read (LLVM reads any size; this bounds memory on hostile input). */
  public static final long MAX_FILE_SIZE = 256L << 20;

  /** One call site as written in the file. */
  public record CallSite(long returnOffset, List<String> matchRegex, List<String> flags) {
    public CallSite {
      matchRegex = List.copyOf(matchRegex);
      flags = List.copyOf(flags);
    }
  }

  /** One {@code functions} entry. */
  public record Function(String name, List<CallSite> callSites) {
    public Function {
      callSites = List.copyOf(callSites);
    }

    /**
     * The entry as the creator takes it: flag names become flag bits, in file order (as llvm's
     * {@code CallSiteInfoLoader} reads them).
     *
     * @throws UnknownFlagException at the first name that is neither {@code InternalCall} nor
     *     {@code ExternalCall}
     */
    public FunctionCallSites resolve() throws UnknownFlagException {
      List<FunctionCallSites.CallSite> sites = new ArrayList<>(callSites.size());
      for (CallSite cs : callSites) {
        int flags = 0;
        for (String flag : cs.flags()) {
          flags |= switch (flag) {
            case "InternalCall" -> CallSiteInfo.INTERNAL_CALL;
            case "ExternalCall" -> CallSiteInfo.EXTERNAL_CALL;
            default -> throw new UnknownFlagException(flag);
          };
        }
        sites.add(new FunctionCallSites.CallSite(cs.returnOffset(), cs.matchRegex(), flags));
      }
      return new FunctionCallSites(name, sites);
    }
  }

  /** A flag name llvm does not know; the message is llvm's ("Unknown flag in callsite YAML: X"). */
  public static final class UnknownFlagException extends Exception {
    UnknownFlagException(String flag) {
      super("Unknown flag in callsite YAML: " + flag, null, false, false);
    }
  }

  /**
   * The file could not be parsed. {@link #diagnostics()} is what LLVM's YAML parser prints on
   * stderr (possibly empty), {@link #getMessage()} LLVM's error ("Error parsing YAML file: NAME").
   */
  public static final class ParseException extends Exception {
    private final String diagnostics;

    ParseException(String name, String diagnostics) {
      super("Error parsing YAML file: " + name + "\n", null, false, false);
      this.diagnostics = diagnostics;
    }

    public String diagnostics() {
      return diagnostics;
    }
  }

  /** Reads {@code file}; {@code name} is how diagnostics name it (llvm: the path as given). */
  public static List<Function> read(Path file, String name) throws IOException, ParseException {
    long size = Files.size(file);
    if (size > MAX_FILE_SIZE) {
      throw new ParseException(name, name + ": error: file is larger than " + MAX_FILE_SIZE + " bytes\n");
    }
    return parse(ByteStrings.decode(Files.readAllBytes(file)), name);
  }

  /** Parses the text of a call-site file named {@code name}. */
  public static List<Function> parse(String text, String name) throws ParseException {
    Node root;
    try {
      root = YamlTree.parse(text, name);
    } catch (YamlTree.SyntaxError e) {
      throw new ParseException(name, e.diagnostics);
    }
    if (root == null) throw new ParseException(name, ""); // an empty document: no message, as llvm
    Reader r = new Reader(text, name);
    r.check(root);
    List<Function> out = r.top(root);
    if (r.diags.length() > 0) throw new ParseException(name, r.diags.toString());
    return out;
  }

  /** YAMLIO's Input over the parsed tree: records errors and stops at the first node in error. */
  private static final class Reader {
    final String text;
    final String name;
    final StringBuilder diags = new StringBuilder();

    Reader(String text, String name) {
      this.text = text;
      this.name = name;
    }

    boolean failed() {
      return diags.length() > 0;
    }

    void error(Node at, String msg) {
      error(at.pos(), at.len(), msg);
    }

    void error(int pos, int len, String msg) {
      diags.append(YamlTree.diag(text, name, pos, len, msg));
    }

    /** What YAMLIO checks while building its node tree: aliases and duplicated keys. */
    void check(Node root) throws ParseException {
      ArrayList<Node> work = new ArrayList<>();
      work.add(root);
      while (!work.isEmpty() && !failed()) {
        Node x = work.removeLast();
        switch (x) {
          case Alias a -> error(a, "unknown node kind");
          case Seq q -> work.addAll(q.items().reversed());
          case Map m -> {
            Set<String> seen = new HashSet<>();
            for (Entry e : m.entries()) {
              if (!seen.add(e.key().value())) {
                error(e.key(), "duplicated mapping key '" + e.key().value() + "'");
                break;
              }
            }
            for (Entry e : m.entries().reversed()) work.add(e.value());
          }
          default -> {}
        }
      }
      if (failed()) throw new ParseException(name, diags.toString());
    }

    List<Function> top(Node root) {
      List<Function> funcs = new ArrayList<>();
      Node list = required(root, "functions");
      if (list == null) return funcs;
      for (Node f : sequence(list)) {
        if (failed()) break;
        Function fn = function(f);
        if (fn != null) funcs.add(fn);
      }
      if (!failed()) unknownKeys(root, Set.of("functions"));
      return funcs;
    }

    Function function(Node n) {
      Node nameNode = required(n, "name");
      if (nameNode == null) return null;
      String fname = string(nameNode);
      if (failed()) return null;
      List<CallSite> sites = new ArrayList<>();
      Node cs = optional(n, "callsites");
      if (cs != null) {
        for (Node c : sequence(cs)) {
          if (failed()) return null;
          CallSite site = callSite(c);
          if (site != null) sites.add(site);
        }
      }
      if (failed()) return null;
      unknownKeys(n, Set.of("name", "callsites"));
      return new Function(fname, sites);
    }

    CallSite callSite(Node n) {
      Node off = required(n, "return_offset");
      if (off == null) return null;
      long offset = hex64(off);
      if (failed()) return null;
      Node re = required(n, "match_regex");
      if (re == null) return null;
      List<String> regex = strings(re);
      if (failed()) return null;
      List<String> flags = List.of();
      Node fl = optional(n, "flags");
      if (fl != null) flags = strings(fl);
      if (failed()) return null;
      unknownKeys(n, Set.of("return_offset", "match_regex", "flags"));
      return new CallSite(offset, regex, flags);
    }

    /** mapRequired: the value of {@code key} in mapping {@code n}, or null after an error. */
    Node required(Node n, String key) {
      if (failed()) return null;
      if (!(n instanceof Map m)) {
        error(n, "not a mapping");
        return null;
      }
      Node v = lookup(m, key);
      if (v == null) error(m, "missing required key '" + key + "'");
      return v;
    }

    /** mapOptional: null when absent (or {@code n} is an empty value). */
    Node optional(Node n, String key) {
      if (failed()) return null;
      if (n instanceof Null) return null;
      if (!(n instanceof Map m)) {
        error(n, "not a mapping");
        return null;
      }
      return lookup(m, key);
    }

    static Node lookup(Map m, String key) {
      for (Entry e : m.entries()) if (e.key().value().equals(key)) return e.value();
      return null;
    }

    void unknownKeys(Node n, Set<String> valid) {
      if (failed() || !(n instanceof Map m)) return;
      for (Entry e : m.entries()) {
        if (!valid.contains(e.key().value())) {
          error(e.key(), "unknown key '" + e.key().value() + "'");
          return;
        }
      }
    }

    /** beginSequence: a sequence's items; a null value is empty; anything else is an error. */
    List<Node> sequence(Node n) {
      if (n instanceof Seq q) return q.items();
      if (n instanceof Null) return List.of();
      if (n instanceof Scalar sc && isNull(sc.value())) return List.of();
      error(n, "not a sequence");
      return List.of();
    }

    static boolean isNull(String v) {
      return v.equals("null") || v.equals("Null") || v.equals("NULL") || v.equals("~");
    }

    List<String> strings(Node n) {
      List<String> out = new ArrayList<>();
      for (Node x : sequence(n)) {
        if (failed()) break;
        out.add(string(x));
      }
      return out;
    }

    /** scalarString: a non-scalar reports "unexpected scalar" and reads as "". */
    String string(Node n) {
      if (n instanceof Scalar sc) return sc.value();
      error(n, "unexpected scalar");
      return "";
    }

    long hex64(Node n) {
      String v = string(n);
      Long x = parseUnsigned(v);
      if (x == null) {
        error(n, "invalid hex64 number");
        return 0;
      }
      return x;
    }
  }

  /**
   * LLVM's {@code getAsUnsignedInteger(s, 0, v)}: radix from the prefix (0x/0X hex, 0b/0B
   * binary, 0o octal, 0 followed by a digit octal, else decimal), all characters consumed, no
   * overflow past 64 bits; null on failure.
   */
  static Long parseUnsigned(String str) {
    int radix = 10;
    int i = 0;
    if (str.length() >= 2 && str.charAt(0) == '0' && (str.charAt(1) == 'x' || str.charAt(1) == 'X')) {
      radix = 16;
      i = 2;
    } else if (str.length() >= 2 && str.charAt(0) == '0' && (str.charAt(1) == 'b' || str.charAt(1) == 'B')) {
      radix = 2;
      i = 2;
    } else if (str.startsWith("0o")) {
      radix = 8;
      i = 2;
    } else if (str.length() > 1 && str.charAt(0) == '0' && Character.isDigit(str.charAt(1))) {
      radix = 8;
      i = 1;
    }
    if (i >= str.length()) return null;
    long v = 0;
    for (; i < str.length(); i++) {
      char c = str.charAt(i);
      int d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'a' && c <= 'z') d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'Z') d = c - 'A' + 10;
      else return null;
      if (d >= radix) return null;
      long hi = Math.multiplyHigh(v, radix) + ((v >> 63) & radix); // unsigned high word of v * radix
      long lo = v * radix;
      if (hi != 0) return null;
      long sum = lo + d;
      if (Long.compareUnsigned(sum, lo) < 0) return null;
      v = sum;
    }
    return v;
  }
}
