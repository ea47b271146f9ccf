package dev.gsym.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.Tools;
import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Collapsed stacks and flame graphs: the frames of a symbolized recording, inline frames marked, in
 * the folded format, an SVG picture and an HTML page that a real browser (headless Chromium) draws
 * with the expected frames.
 */
class FlameGraphTest {
  @TempDir Path tmp;

  private Stacks perfStacks() throws Exception {
    Path dir = ProfileData.file("perf");
    Map<String, String> ids;
    try (BufferedReader r = Files.newBufferedReader(dir.resolve("profdemo.buildids.txt"), ByteStrings.CHARSET)) {
      ids = PerfScript.readBuildIds(r, "buildids");
    }
    PprofProfile p;
    try (BufferedReader r = Files.newBufferedReader(dir.resolve("profdemo.perf.txt"), ByteStrings.CHARSET)) {
      p = PerfScript.read(r, "profdemo.perf.txt", ids);
    }
    Path dbg = ProfileData.debugDirectory(tmp);
    try (Symbolizer s = ProfileData.symbolizer(dbg)) {
      p = ProfileSymbolizer.builder(s).debugDirectories(List.of(dbg)).build().symbolize(p).profile();
    }
    return Stacks.of(p, 0);
  }

  @Test
  void inlineFramesAreMarkedRootFirst() throws Exception {
    Stacks stacks = perfStacks();
    boolean seen = false;
    for (Stacks.Stack s : stacks.stacks()) {
      List<Stacks.StackFrame> f = s.frames();
      for (int i = 0; i + 2 < f.size(); i++) {
        if (f.get(i).name().startsWith("profdemo::hash_block(")) {
          // hash_block, then round_trip and Mixer::step inlined into it (llvm-symbolizer's inline stack)
          assertFalse(f.get(i).inlined());
          assertEquals("profdemo::round_trip(profdemo::Mixer<unsigned long>&, unsigned long)", f.get(i + 1).name());
          assertTrue(f.get(i + 1).inlined());
          assertEquals("profdemo::Mixer<unsigned long>::step(unsigned long)", f.get(i + 2).name());
          assertTrue(f.get(i + 2).inlined());
          assertEquals("/gsym-test/profile/profdemo_lib.cpp", f.get(i + 2).file());
          seen = true;
        }
      }
    }
    assertTrue(seen);
  }

  @Test
  void collapsedRoundTrip() throws Exception {
    Stacks stacks = perfStacks();
    StringWriter w = new StringWriter();
    stacks.writeCollapsed(w);
    Stacks back = Stacks.readCollapsed(new BufferedReader(new StringReader(w.toString())), "folded");
    assertEquals(stacks.total(), back.total());
    StringWriter again = new StringWriter();
    back.writeCollapsed(again);
    assertEquals(w.toString(), again.toString());
    assertTrue(w.toString().contains("main;profdemo_work;profdemo::hash_block(unsigned long const*, unsigned long);"
        + "profdemo::round_trip(profdemo::Mixer<unsigned long>&, unsigned long);profdemo::Mixer<unsigned long>::step("
        + "unsigned long) "), w.toString());
    GsymFormatException e = assertThrows(GsymFormatException.class,
        () -> Stacks.readCollapsed(new BufferedReader(new StringReader("a;b 1\na;b;c\n")), "bad.folded"));
    assertTrue(e.getMessage().contains("bad.folded") && e.getMessage().contains("line 2"), e.getMessage());
  }

  @Test
  void svgHasEveryFrameWithItsDetails() throws Exception {
    StringWriter w = new StringWriter();
    FlameGraph.of(perfStacks(), "profdemo <perf>").writeSvg(w, 1200);
    String svg = w.toString();
    assertTrue(svg.startsWith("<?xml"), svg);
    assertTrue(svg.contains("profdemo &lt;perf&gt;"), "the title is escaped");
    assertTrue(svg.contains("<title>profdemo::Mixer&lt;unsigned long&gt;::step(unsigned long) (inlined)\n"
        + "/gsym-test/profile/profdemo_lib.cpp:"), svg);
    assertTrue(svg.contains("module: libprofdemo.so"), svg);
  }

  @Test
  void hostileNamesStayInsideTheScript() throws Exception {
    Stacks s = Stacks.of(List.of(new Stacks.Stack(List.of(new Stacks.StackFrame("</script><script>alert(1)</script>",
        "", 0, "", false, true)), 5)), "samples");
    StringWriter w = new StringWriter();
    FlameGraph.of(s, "<b>t</b>").writeHtml(w);
    String html = w.toString();
    assertFalse(html.contains("</script><script>alert(1)"), "a name closes no element");
    assertTrue(html.contains("\\u003c/script\\u003e"), html);
    assertTrue(html.contains("<title>&lt;b&gt;t&lt;/b&gt;</title>"), html);
  }

  private static final Pattern FRAME = Pattern.compile("<g class=\"frame[^\"]*\" data-i=\"\\d+\" data-name=\"([^\"]*)\"");

  @Test
  void chromiumDrawsTheFrames() throws Exception {
    Path chromium = Tools.require(Tools.find("chromium") != null ? Tools.find("chromium") : Tools.find("chromium-browser"),
        "chromium (headless)");
    Path html = tmp.resolve("profdemo.html");
    try (var w = Files.newBufferedWriter(html)) {
      FlameGraph.of(perfStacks(), "profdemo").writeHtml(w);
    }
    String url = html.toUri() + "#search=checksum";
    String dom = ProfileData.run(tmp, Map.of(), chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--window-size=1280,600", "--virtual-time-budget=5000", "--dump-dom", url);
    java.util.Set<String> names = new java.util.HashSet<>();
    Matcher m = FRAME.matcher(dom);
    while (m.find()) names.add(m.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"));
    for (String expected : List.of("all", "main", "profdemo_work", "profdemo::checksum(unsigned char const*, unsigned long)",
        "profdemo::hash_block(unsigned long const*, unsigned long)", "profdemo::Mixer<unsigned long>::step(unsigned long)",
        "(anonymous namespace)::multiply((anonymous namespace)::Matrix&, (anonymous namespace)::Matrix&, (anonymous"
            + " namespace)::Matrix&)")) {
      assertTrue(names.contains(expected), expected + " not drawn; drawn: " + names);
    }
    // the search of the address ran: the checksum frame is marked and its share shown
    assertTrue(dom.matches("(?s).*<g class=\"frame match\" data-i=\"\\d+\" data-name=\"profdemo::checksum.*"), "no match marked");
    assertTrue(dom.matches("(?s).*<span id=\"matched\">Matched: [1-9][0-9]?\\.[0-9]{2}%</span>.*"), "no matched share");
    // and a picture
    Path png = tmp.resolve("profdemo.png");
    ProfileData.run(tmp, Map.of(), chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--window-size=1280,400", "--screenshot=" + png, url);
    byte[] b = Files.readAllBytes(png);
    assertTrue(b.length > 5000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', "a PNG of " + b.length + " bytes");
  }
}
