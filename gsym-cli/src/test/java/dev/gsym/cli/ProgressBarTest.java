package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
  private long now;

  private String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void silentDuringTheFirstSecond() {
    ProgressBar bar = new ProgressBar(err, "units", () -> now);
    now = 900_000_000L;
    bar.update(500, 1000);
    bar.close();
    assertThat(text()).isEmpty();
  }

  @Test
  void drawsRateAndEtaThenErasesItself() {
    ProgressBar bar = new ProgressBar(err, "units", () -> now);
    now = 900_000_000L; // the first unit is done after 0.9 s (e.g. decompression came first)
    bar.update(1, 1000);
    assertThat(text()).isEmpty();
    now = 1_000_000_000L; // no rate yet: measured from the first update, over 0.2 s at least
    bar.update(50, 1000);
    assertThat(text()).isEqualTo("\r[#.............................] 50/1000 units  5%");
    bytes.reset();
    now = 2_900_000_000L;
    bar.update(251, 1000);
    assertThat(text()).isEqualTo("\r[#######.......................] 251/1000 units  25%  125/s  ETA 0:06");
    int drawn = text().length() - 1;
    bytes.reset();
    now += 50_000_000L; // within 100 ms: no redraw
    bar.update(260, 1000);
    assertThat(text()).isEmpty();
    now += 100_000_000L;
    bar.update(1000, 1000);
    assertThat(text()).startsWith("\r[##############################] 1000/1000 units  100%").doesNotContain("ETA");
    bytes.reset();
    bar.close();
    assertThat(text()).isEqualTo("\r" + " ".repeat(drawn) + "\r");
  }

  @Test
  void onlyForATerminalAndNotQuiet() {
    String old = System.getProperty("gsym.stderr.tty");
    try {
      System.clearProperty("gsym.stderr.tty");
      assertThat(ProgressBar.forTerminal(err, "units", false)).isSameAs(Progress.NONE);
      System.setProperty("gsym.stderr.tty", "true");
      assertThat(ProgressBar.forTerminal(err, "units", true)).isSameAs(Progress.NONE);
      assertThat(ProgressBar.forTerminal(err, "units", false)).isInstanceOf(ProgressBar.class);
    } finally {
      if (old == null) System.clearProperty("gsym.stderr.tty");
      else System.setProperty("gsym.stderr.tty", old);
    }
  }
}
