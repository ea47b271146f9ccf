package dev.gsym.profile;

import dev.gsym.profile.Stacks.Stack;
import dev.gsym.profile.Stacks.StackFrame;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A flame graph of {@link Stacks}: the stacks merged into a tree of frames (a frame's children are
 * the functions it called, or inlined), each frame's width its share of the samples. Written as a
 * self-contained interactive HTML page ({@link #writeHtml}: zoom, search, hover details, no network)
 * or a static SVG picture ({@link #writeSvg}). Frames whose value is under a fraction of the total
 * ({@link #DEFAULT_MIN_FRACTION}) are merged into their callers, so that a profile of millions of
 * samples stays a page a browser draws in well under a second.
 */
public final class FlameGraph {
  /** Frames under this share of the total are merged into their callers: 1/50,000 (1 pixel at 40x zoom). */
  public static final double DEFAULT_MIN_FRACTION = 1.0 / 50_000;

  /** Frames of a stack drawn at most, from the root: deeper ones are left out (no real stack is that deep). */
  public static final int MAX_DEPTH = 2048;
  private static final class Node {
    final StackFrame frame;
    long value;
    /** line -> value, for the tooltip */
    final Map<Long, long[]> lines = new HashMap<>(4);
    final Map<List<Object>, Node> children = new LinkedHashMap<>();

    Node(StackFrame frame) {
      this.frame = frame;
    }
  }

  private final Node root = new Node(new StackFrame("all", "", 0, "", false, true));
  private final String title;
  private final String unit;
  private final int stacks;
  private final long minValue;
  private final double minFraction;

  private FlameGraph(Stacks s, String title, double minFraction) {
    this.title = title;
    this.unit = s.valueType();
    this.stacks = s.stacks().size();
    this.minFraction = minFraction;
    for (Stack st : s.stacks()) {
      if (st.value() <= 0) continue;
      Node n = root;
      n.value += st.value();
      int level = 0;
      for (StackFrame f : st.frames()) {
        if (++level > MAX_DEPTH) break;
        List<Object> key = List.of(f.name(), f.module(), f.inlined(), f.symbolized());
        Node c = n.children.get(key);
        if (c == null) {
          c = new Node(f);
          n.children.put(key, c);
        }
        c.value += st.value();
        c.lines.computeIfAbsent(f.line(), x -> new long[1])[0] += st.value();
        n = c;
      }
    }
    this.minValue = Math.max(1, (long) Math.ceil(root.value * minFraction));
  }

  /** The flame graph of {@code stacks}, titled {@code title}, with the default pruning. */
  public static FlameGraph of(Stacks stacks, String title) {
    return of(stacks, title, DEFAULT_MIN_FRACTION);
  }

  /** As {@link #of(Stacks, String)}, merging frames under {@code minFraction} of the total into their callers. */
  public static FlameGraph of(Stacks stacks, String title, double minFraction) {
    if (!(minFraction >= 0 && minFraction < 1)) throw new IllegalArgumentException("minFraction must be in [0, 1)");
    return new FlameGraph(stacks, title, minFraction);
  }

  /** The total value (the root frame's). */
  public long total() {
    return root.value;
  }

  /** Writes the interactive HTML page. */
  public void writeHtml(Writer out) throws IOException {
    String template;
    try (InputStream in = FlameGraph.class.getResourceAsStream("flamegraph.html")) {
      if (in == null) throw new IllegalStateException("flamegraph.html is missing from the jar");
      template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int d = template.indexOf("@DATA@");
    int t = template.indexOf("@TITLE@");
    out.write(template, 0, t);
    out.write(html(title));
    out.write(template, t + 7, d - t - 7);
    writeData(out);
    out.write(template, d + 6, template.length() - d - 6);
    out.flush();
  }

  /** The tree as JSON for the page: strings, then the nodes in preorder as one flat array. */
  private void writeData(Writer out) throws IOException {
    Map<String, Integer> strings = new LinkedHashMap<>();
    strings.put("", 0);
    StringBuilder nodes = new StringBuilder(1 << 16);
    int[] count = {0};
    emit(root, strings, nodes, count, out);
    out.write("{\"title\":");
    json(out, title);
    out.write(",\"unit\":");
    json(out, unit);
    out.write(",\"stacks\":" + stacks + ",\"count\":" + count[0]);
    out.write(",\"pruned\":");
    json(out, minFraction > 0 ? new java.math.BigDecimal(100 * minFraction).round(new java.math.MathContext(3))
        .stripTrailingZeros().toPlainString() + "%" : "");
    out.write(",\"strings\":[");
    boolean first = true;
    for (String s : strings.keySet()) {
      if (!first) out.write(',');
      first = false;
      json(out, s);
    }
    out.write("],\"nodes\":[");
    out.append(nodes);
    out.write("]}");
  }

  private void emit(Node n, Map<String, Integer> strings, StringBuilder nodes, int[] count, Writer out) {
    List<Node> kids = new ArrayList<>();
    for (Node c : n.children.values()) if (c.value >= minValue) kids.add(c);
    kids.sort(Comparator.comparing((Node c) -> c.frame.name()).thenComparing(c -> c.frame.module()));
    List<Map.Entry<Long, long[]>> ls = new ArrayList<>(n.lines.entrySet());
    ls.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
    if (ls.size() > 8) ls = ls.subList(0, 8);
    if (count[0] > 0) nodes.append(',');
    StackFrame f = n.frame;
    nodes.append(intern(strings, f.name())).append(',').append(intern(strings, f.module())).append(',')
        .append(intern(strings, f.file())).append(',').append((f.inlined() ? 1 : 0) | (f.symbolized() ? 0 : 2)).append(',')
        .append(n.value).append(',').append(kids.size()).append(',').append(ls.size());
    for (Map.Entry<Long, long[]> e : ls) nodes.append(',').append(e.getKey()).append(',').append(e.getValue()[0]);
    count[0]++;
    for (Node c : kids) emit(c, strings, nodes, count, out);
  }

  private static int intern(Map<String, Integer> strings, String s) {
    Integer i = strings.get(s);
    if (i == null) {
      i = strings.size();
      strings.put(s, i);
    }
    return i;
  }

  /** JSON string, safe inside a script element ({@code <} escaped). */
  private static void json(Writer out, String s) throws IOException {
    out.write('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.write("\\\"");
        case '\\' -> out.write("\\\\");
        case '<' -> out.write("\\u003c");
        case '>' -> out.write("\\u003e");
        case '&' -> out.write("\\u0026");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c) && !validSurrogate(s, i)) {
            out.write(String.format("\\u%04x", (int) (Character.isSurrogate(c) ? 0xfffd : c)));
          } else {
            out.write(c);
          }
        }
      }
    }
    out.write('"');
  }

  private static boolean validSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  /** Text for HTML or XML element content and attributes. */
  static String html(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        default -> {
          if (c < 0x20 && c != '\t' && c != '\n' || Character.isSurrogate(c) && !validSurrogate(s, i) || c == 0xfffe || c == 0xffff) {
            sb.append('\ufffd');
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.toString();
  }

  /** Writes a static SVG picture, {@code width} pixels wide: each frame a rectangle with its details as a tooltip. */
  public void writeSvg(Writer out, int width) throws IOException {
    int depth = depth(root, 0);
    int row = 17;
    int top = 30;
    int height = top + (depth + 1) * row + 8;
    out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height + "\" viewBox=\"0 0 "
        + width + " " + height + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\n");
    out.write("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    out.write("<text x=\"" + width / 2 + "\" y=\"20\" text-anchor=\"middle\" font-size=\"15\">" + html(title) + "</text>\n");
    double scale = root.value == 0 ? 0 : (width - 20) / (double) root.value;
    svg(out, root, 0, 10, scale, height - 8, row);
    out.write("</svg>\n");
    out.flush();
  }

  private void svg(Writer out, Node n, int level, double x, double scale, int bottom, int row) throws IOException {
    double w = n.value * scale;
    if (w < 0.4 || n.value < minValue) return;
    int y = bottom - (level + 1) * row;
    StackFrame f = n.frame;
    String tip = f.name() + (f.inlined() ? " (inlined)" : "") + (f.file().isEmpty() ? "" : "\n" + f.file() + topLine(n))
        + (f.module().isEmpty() ? "" : "\nmodule: " + f.module()) + "\n" + n.value + " " + unit + " ("
        + String.format(java.util.Locale.ROOT, "%.2f%%", 100.0 * n.value / root.value) + ")";
    out.write("<g><title>" + html(tip) + "</title><rect x=\"" + fmt(x) + "\" y=\"" + y + "\" width=\"" + fmt(Math.max(w - 0.5, 0.3))
        + "\" height=\"" + (row - 1) + "\" rx=\"2\" fill=\"" + color(f) + "\"/>");
    if (w > 30) {
      int fit = (int) ((w - 6) / 6.2);
      String label = f.name().length() <= fit ? f.name() : f.name().substring(0, Math.max(fit - 2, 0)) + "..";
      out.write("<text x=\"" + fmt(x + 3) + "\" y=\"" + (y + 12) + "\">" + html(label) + "</text>");
    }
    out.write("</g>\n");
    List<Node> kids = new ArrayList<>(n.children.values());
    kids.sort(Comparator.comparing((Node c) -> c.frame.name()).thenComparing(c -> c.frame.module()));
    double cx = x;
    for (Node c : kids) {
      svg(out, c, level + 1, cx, scale, bottom, row);
      cx += c.value * scale;
    }
  }

  private static String topLine(Node n) {
    long best = -1;
    long bestValue = -1;
    for (Map.Entry<Long, long[]> e : n.lines.entrySet()) {
      if (e.getValue()[0] > bestValue) {
        best = e.getKey();
        bestValue = e.getValue()[0];
      }
    }
    return best > 0 ? ":" + best : "";
  }

  private static String fmt(double v) {
    return String.format(java.util.Locale.ROOT, "%.2f", v);
  }

  private static String color(StackFrame f) {
    if (!f.symbolized()) return "rgb(190,190,190)";
    int h = 0;
    String s = f.name();
    for (int k = 0; k < s.length() && k < 40; k++) h = h * 31 + s.charAt(k);
    double v = Integer.toUnsignedLong(h) % 1000 / 1000.0;
    if (f.inlined()) return "rgb(" + Math.round(80 + 60 * v) + "," + Math.round(150 + 50 * v) + ",235)";
    return "rgb(" + Math.round(205 + 50 * v) + "," + Math.round(60 + 130 * (1 - v)) + "," + Math.round(40 + 30 * v) + ")";
  }

  private int depth(Node n, int level) {
    int d = level;
    for (Node c : n.children.values()) if (c.value >= minValue) d = Math.max(d, depth(c, level + 1));
    return d;
  }
}
