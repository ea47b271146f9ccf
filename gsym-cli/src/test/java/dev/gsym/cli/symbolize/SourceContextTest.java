package dev.gsym.cli.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SourceContext}: llvm-symbolizer's --print-source-context-lines text. */
class SourceContextTest {
  @TempDir
  Path tmp;

  @Test
  void sourceContextLines() throws IOException {
    Path src = Files.writeString(tmp.resolve("f.c"), "one\ntwo\r\nthree\nfour\nfive\n");
    SourceContext c = new SourceContext(3);
    dev.gsym.TextBuffer out = new dev.gsym.TextBuffer(64);
    c.format(out, src.toString(), 3);
    assertThat(out.toString()).isEqualTo("2  : two\n3 >: three\n4  : four\n");
    out.clear();
    c.format(out, src.toString(), 5);
    assertThat(out.toString()).isEqualTo("4  : four\n5 >: five\n");
    out.clear();
    new SourceContext(3).format(out, tmp.resolve("missing.c").toString(), 2);
    assertThat(out.length()).isZero();
  }
}
