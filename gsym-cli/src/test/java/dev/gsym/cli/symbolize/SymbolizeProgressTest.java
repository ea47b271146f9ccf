package dev.gsym.cli.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.cli.CliRun;
import dev.gsym.cli.CliTesting;
import dev.gsym.cli.Session;
import dev.gsym.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The progress line of a long {@code symbolize} batch on a terminal's stderr: redrawn as chunks of
 * answers are written, erased before an error line and at the end, and never in stdout (which
 * holds exactly what a run without it prints).
 */
class SymbolizeProgressTest {
  private static final String BIN = TestData.path("bin", "c-gcc-O2").toString();

  /** Runs symbolize in-process with a progress bar whose clock advances a second per reading. */
  private static CliRun run(String stdin, boolean bar) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, ByteStrings.CHARSET);
        PrintStream e = new PrintStream(err, true, ByteStrings.CHARSET)) {
      Session session = CliTesting.session(new ByteArrayInputStream(ByteStrings.encode(stdin)), o, e);
      long[] now = {0};
      SymbolizeCommand cmd = new SymbolizeCommand(session, Map.of(),
          s -> bar ? CliTesting.progressBar(s, "addresses", () -> now[0] += 1_000_000_000L) : dev.gsym.Progress.NONE);
      status = cmd.run(List.of("--threads", "2"));
      session.flush();
    }
    return new CliRun(status, ByteStrings.decode(out.toByteArray()), ByteStrings.decode(err.toByteArray()));
  }

  @Test
  void aLongBatchShowsCountsOnStderrAndErasesThem() {
    StringBuilder in = new StringBuilder();
    int n = 3 * SymbolizeBatches.CHUNK_SIZE + 5;
    for (int i = 0; i < n; i++) {
      in.append(BIN).append(" 0x").append(Integer.toHexString(0x1200 + (i % 64))).append('\n');
      if (i == SymbolizeBatches.CHUNK_SIZE + 7) in.append("/nonexistent/file 0x1200\n");
    }
    CliRun plain = run(in.toString(), false);
    CliRun shown = run(in.toString(), true);
    assertThat(shown.status()).isZero();
    assertThat(shown.out()).isEqualTo(plain.out()); // stdout untouched
    String err = shown.err();
    // one draw per chunk written: counts of answers so far, each line started with a carriage return
    assertThat(err).contains("\r[..............................] " + SymbolizeBatches.CHUNK_SIZE + " addresses")
        .contains("] " + (n + 1) + " addresses");
    // the error line starts on a clean line: the bar was erased (carriage return, blanks, carriage return) first
    String error = "gsymutil: error: '/nonexistent/file': No such file or directory\n";
    assertThat(plain.err()).isEqualTo(error);
    int at = err.indexOf(error);
    assertThat(at).isPositive();
    assertThat(err.substring(0, at)).endsWith("\r");
    assertThat(err.charAt(at - 2)).isEqualTo(' ');
    // and it is erased at the end: the last thing on stderr is the erasing carriage return
    assertThat(err).endsWith(" \r");
    // without the draws ("\r[...") and the erasures ("\r   \r"), stderr is exactly llvm's
    assertThat(err.replaceAll("\r\\[[^\r]*", "").replaceAll("\r *\r", "")).isEqualTo(error);
  }
}
