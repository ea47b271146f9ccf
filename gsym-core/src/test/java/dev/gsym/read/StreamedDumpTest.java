package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * dump(Appendable) hands the text of dump(StringBuilder) to any Appendable, in pieces of about
 * 64 KiB that end at line ends.
 */
class StreamedDumpTest {
  /** Records each piece it is given. */
  private static final class Pieces implements Appendable {
    final List<String> pieces = new ArrayList<>();

    @Override
    public Appendable append(CharSequence csq) {
      pieces.add(csq.toString());
      return this;
    }

    @Override
    public Appendable append(CharSequence csq, int start, int end) {
      return append(csq.subSequence(start, end));
    }

    @Override
    public Appendable append(char c) {
      return append(String.valueOf(c));
    }
  }

  private static void check(GsymReader r, int minPieces) throws Exception {
    StringBuilder whole = new StringBuilder();
    r.dump(whole);
    Pieces p = new Pieces();
    r.dump(p);
    assertThat(String.join("", p.pieces)).isEqualTo(whole.toString());
    assertThat(p.pieces.size()).isGreaterThanOrEqualTo(minPieces);
    for (String piece : p.pieces) assertThat(piece).endsWith("\n");
    for (int i = 0; i + 1 < p.pieces.size(); i++) assertThat(p.pieces.get(i).length()).isGreaterThanOrEqualTo(1 << 16);
  }

  @Test
  void piecesMakeTheWholeDump() throws Exception {
    for (String v : new String[] {"t1.gsym", "t3gmc.gsym", "G.gsym"}) {
      try (GsymReader r = GsymReader.open(TestData.path("vectors", v))) {
        check(r, 1);
      }
    }
  }

  @Test
  void largeDumpsComeInPieces() throws Exception {
    GsymCreator c = new GsymCreator();
    int file = c.insertFile("/src/many.c");
    for (int i = 0; i < 4000; i++) {
      long start = 0x10000 + 0x40L * i;
      List<LineEntry> rows = List.of(new LineEntry(start, file, i + 1), new LineEntry(start + 8, file, i + 2));
      c.addFunctionInfo(new FunctionInfo(new AddressRange(start, start + 0x40), c.insertString("f" + i),
          new LineTable(rows), null, null, null));
    }
    c.finish(Diagnostics.silent());
    try (GsymReader r = GsymReader.of(c.encode(), "many")) {
      check(r, 3);
    }
  }
}
