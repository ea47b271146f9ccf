package dev.gsym.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.TextBuffer;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupFrames;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GSYM strings are bytes: names and paths that are not UTF-8, given to the creator as Strings with
 * escaped bytes (U+DC80 + byte), are written as those bytes, read back as the same Strings, and
 * printed as the same bytes; Strings with equal bytes are stored once.
 */
class NotUtf8StringsTest {
  private static final String LATIN1_NAME = "h\uDCE9lper";
  private static final String LATIN1_DIR = "/src/caf\uDCE9";
  private static final String TRUNCATED = "trunc\uDCE2\uDC82";

  private static byte[] latin1(String s) {
    byte[] b = new byte[s.length()];
    for (int i = 0; i < b.length; i++) b[i] = (byte) s.charAt(i);
    return b;
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int k = 0; k < needle.length; k++) if (hay[i + k] != needle[k]) continue outer;
      return true;
    }
    return false;
  }

  private static byte[] build() {
    GsymCreator c = new GsymCreator();
    int f = c.insertFile(LATIN1_DIR + "/caf\uDCE9.c");
    int name = c.insertString(LATIN1_NAME);
    int inl = c.insertString(TRUNCATED);
    // the escapes of C3 A9 are the bytes of U+00E9: one string-table entry
    int utf8 = c.insertString("caf\u00e9");
    assertThat(c.insertString("caf\uDCC3\uDCA9")).isEqualTo(utf8);
    assertThat(c.getString(utf8)).isEqualTo("caf\u00e9");
    InlineInfo tree = new InlineInfo(List.of(new AddressRange(0x1000, 0x1020)), name, 0, 0,
        List.of(new InlineInfo(List.of(new AddressRange(0x1008, 0x1010)), inl, f, 7, List.of())));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000, 0x1020), name,
        new LineTable(List.of(new LineEntry(0x1000, f, 1), new LineEntry(0x1008, f, 2))), tree, null, null));
    c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1020, 0x1030), utf8));
    c.finish(Diagnostics.silent());
    return c.encode();
  }

  @Test
  void stringTableHoldsTheBytes() {
    byte[] file = build();
    String hex = HexFormat.of().formatHex(file);
    assertThat(contains(file, latin1("\0h\u00e9lper\0"))).as(hex).isTrue();
    assertThat(contains(file, latin1("\0/src/caf\u00e9\0caf\u00e9.c\0"))).as(hex).isTrue();
    assertThat(contains(file, latin1("\0trunc\u00e2\u0082\0"))).as(hex).isTrue();
    assertThat(contains(file, "\0caf\u00e9\0".getBytes(java.nio.charset.StandardCharsets.UTF_8))).as(hex).isTrue();
    assertThat(contains(file, new byte[] {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD})).as("U+FFFD in " + hex).isFalse();
    assertThat(contains(file, latin1("caf\u00c3\u00a9\0caf"))).as("stored twice").isFalse();
  }

  @Test
  void readBackAsTheSameStringsAndPrintedAsTheBytes() throws Exception {
    try (GsymReader r = GsymReader.of(build(), "mem")) {
      LookupResult res = r.lookup(0x100a);
      assertThat(res.functionName()).isEqualTo(LATIN1_NAME);
      List<SourceLocation> locs = res.locations();
      assertThat(locs.get(0).name()).isEqualTo(TRUNCATED);
      assertThat(locs.get(0).dir()).isEqualTo(LATIN1_DIR);
      assertThat(locs.get(1).base()).isEqualTo("caf\uDCE9.c");
      // the String rendering and the byte rendering print the same bytes
      LookupFrames frames = new LookupFrames();
      r.lookup(0x100a, frames);
      TextBuffer t = frames.appendTo(new TextBuffer(64), false);
      byte[] printed = Arrays.copyOf(t.array(), t.length());
      assertThat(printed).isEqualTo(latin1("0x000000000000100a: trunc\u00e2\u0082 + 2 @ /src/caf\u00e9/caf\u00e9.c:2 [inlined]\n"
          + "                    h\u00e9lper + 10 @ /src/caf\u00e9/caf\u00e9.c:7\n"));
      assertThat(ByteStrings.encode(res.toString())).isEqualTo(printed);
      // the dump, through a TextBuffer as the CLI writes it
      StringBuilder sb = new StringBuilder();
      r.dump(sb);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      TextBuffer dump = new TextBuffer(16).append(sb);
      dump.writeTo(out);
      assertThat(contains(out.toByteArray(), latin1("0x00000001: \"/src/caf\u00e9\"\n"))).as(sb.toString()).isTrue();
      assertThat(contains(out.toByteArray(), latin1("\"h\u00e9lper\"\n"))).isTrue();
      // and a copy through the creator gives the same file
      GsymCreator copy = GsymCreator.from(r);
      copy.finish(Diagnostics.silent());
      assertThat(copy.encode()).isEqualTo(build());
    }
  }
}
