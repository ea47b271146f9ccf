package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BreakpadParserTest {
  static List<BreakpadRecord> parse(String text) throws IOException {
    List<BreakpadRecord> out = new ArrayList<>();
    try (BreakpadParser p = new BreakpadParser(new StringReader(text), "t.sym")) {
      for (BreakpadRecord r; (r = p.next()) != null; ) out.add(r);
    }
    return out;
  }

  @Test
  void everyRecordType() throws IOException {
    String text = """
        MODULE windows x86 5F3E2A1B000000000000000000000000a my lib.dll
        INFO CODE_ID 5F3E2A1B3000 my lib.dll
        FILE 0 c:\\src\\a b.cpp
        INLINE_ORIGIN 7 ns::f(int, char const*) const
        FUNC m c184 30 8 nsQueryInterfaceWithError::operator()(nsID const&, void**) const
        INLINE 0 10 0 7 c190 2a c1c0 b
        c184 7 59 0
        PUBLIC m 2160 4 Public2_1 with space
        PUBLIC 2170 0 m
        STACK WIN 4 2170 14 1 0 0 0 0 0 1 $eip 4 + ^ =
        STACK CFI INIT 804c4b0 40 .cfa: $esp 4 + $eip: .cfa 4 - ^
        FUNC 10 0 0 m
        """;
    assertThat(parse(text)).containsExactly(
        new BreakpadRecord.Module("windows", "x86", "5F3E2A1B000000000000000000000000a", "my lib.dll"),
        new BreakpadRecord.Info("CODE_ID", "5F3E2A1B3000 my lib.dll"),
        new BreakpadRecord.File(0, "c:\\src\\a b.cpp"),
        new BreakpadRecord.InlineOrigin(7, "ns::f(int, char const*) const"),
        new BreakpadRecord.Func(true, 0xc184, 0x30, 8, "nsQueryInterfaceWithError::operator()(nsID const&, void**) const"),
        new BreakpadRecord.Inline(0, 10, 0, 7, List.of(new AddressRange(0xc190, 0xc1ba), new AddressRange(0xc1c0, 0xc1cb))),
        new BreakpadRecord.Line(0xc184, 7, 59, 0),
        new BreakpadRecord.Public(true, 0x2160, 4, "Public2_1 with space"),
        new BreakpadRecord.Public(false, 0x2170, 0, "m"),
        new BreakpadRecord.Stack("WIN", "4 2170 14 1 0 0 0 0 0 1 $eip 4 + ^ ="),
        new BreakpadRecord.Stack("CFI", "INIT 804c4b0 40 .cfa: $esp 4 + $eip: .cfa 4 - ^"),
        new BreakpadRecord.Func(false, 0x10, 0, 0, "m"));
  }

  @Test
  void lineEndingsAndBlankLinesAndLineNumbers() throws IOException {
    String text = "FILE 1 a.c\r\n\r\nFILE 2 b.c\rFILE 3 c.c\n\nFILE 4 d.c";
    try (BreakpadParser p = new BreakpadParser(new StringReader(text), "t.sym")) {
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(1, "a.c"));
      assertThat(p.lineNumber()).isEqualTo(1);
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(2, "b.c"));
      assertThat(p.lineNumber()).isEqualTo(3);
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(3, "c.c"));
      assertThat(p.lineNumber()).isEqualTo(4);
      assertThat(p.next()).isEqualTo(new BreakpadRecord.File(4, "d.c"));
      assertThat(p.lineNumber()).isEqualTo(6);
      assertThat(p.next()).isNull();
    }
  }

  /** A large generated file streams through in constant memory (no String of the whole input). */
  @Test
  void streamsAGeneratedFile() throws IOException {
    int funcs = 200_000;
    Reader gen = new Reader() {
      int i = -1;
      String cur = "FILE 1 /src/generated.c\n";
      int pos;

      @Override
      public int read(char[] buf, int off, int len) {
        int n = 0;
        while (n < len) {
          if (pos == cur.length()) {
            if (++i >= funcs) break;
            long a = 0x1000L + 0x40L * i;
            cur = "FUNC " + Long.toHexString(a) + " 40 0 f" + i + "\n" + Long.toHexString(a) + " 20 " + (i + 1)
                + " 1\n" + Long.toHexString(a + 0x20) + " 20 " + (i + 2) + " 1\n";
            pos = 0;
          }
          buf[off + n++] = cur.charAt(pos++);
        }
        return n == 0 ? -1 : n;
      }

      @Override
      public void close() {}
    };
    dev.gsym.write.GsymCreator c = new dev.gsym.write.GsymCreator();
    BreakpadTransformer.Result r = new BreakpadTransformer(c, false, dev.gsym.write.Diagnostics.silent())
        .convert(new BreakpadParser(gen, "gen.sym"));
    assertThat(r.functions()).isEqualTo(funcs);
    assertThat(r.lineRecords()).isEqualTo(2L * funcs);
    c.finalize(dev.gsym.write.Diagnostics.silent());
    try (var g = dev.gsym.read.GsymReader.of(c.encode(), "gen.gsym")) {
      assertThat(Conv.lookup(g, 0x1000L + 0x40L * 123_456 + 0x21))
          .isEqualTo("0x000000000078a021: f123456 + 33 @ /src/generated.c:123458\n");
    }
  }
}
