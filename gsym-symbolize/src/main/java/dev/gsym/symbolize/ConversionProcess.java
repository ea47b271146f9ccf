package dev.gsym.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.convert.Converter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * A conversion run in a child JVM: the {@link ConverterAdapter} conversion of one input into one
 * existing output file, with JVM options of the caller's choice (a conversion wants other JIT
 * settings than a long-running server) and memory apart from the caller's heap.
 *
 * <p>One child is kept started ahead, waiting for its job on standard input, so that a conversion
 * does not wait for a JVM to boot (~0.3 s, most of what a cold module's answer would otherwise add
 * to the conversion itself); each child does one job, and the next spare starts when one is taken.
 *
 * <p>The job is one line on the child's standard input: {@code kind merged input output},
 * tab-separated, each field escaped. The child reports a failure as one line on its standard
 * error, after anything the JVM itself printed: {@code RESULT_MARK kind source offset detail}, so
 * that the parent throws the exception the conversion would have thrown in process.
 */
final class ConversionProcess implements AutoCloseable {
  /** Starts the line that carries a child's failure. */
  static final String RESULT_MARK = "gsym-conversion-failed";
  /** The most of a child's standard error kept (JVM warnings, the result line). */
  private static final int MAX_STDERR = 64 * 1024;

  private final List<String> command;
  /** The child started ahead, or null (taken, not started yet, or closed). */
  private final AtomicReference<Process> spare = new AtomicReference<>();
  private final AtomicBoolean starting = new AtomicBoolean();
  private volatile boolean closed;

  /** @param jvmOptions options for the child JVM, before its class path; starts the first spare child */
  ConversionProcess(List<String> jvmOptions) {
    this.command = command(jvmOptions);
    startSpare(0);
  }

  /**
   * Converts {@code in} into {@code out} (an existing, empty file) in a child JVM and waits for it.
   * Throws what {@link ConverterAdapter#convertObject} or {@link ConverterAdapter#convertBreakpad}
   * would have thrown; an {@link IOException} if the child could not run or died without a result.
   * An interrupt kills the child.
   */
  void convert(Path in, ConverterAdapter.Kind kind, boolean mergedFunctions, Path out) throws IOException, InterruptedException {
    if (kind != ConverterAdapter.Kind.OBJECT && kind != ConverterAdapter.Kind.BREAKPAD) throw new IllegalArgumentException(kind.name());
    if (closed) throw new IOException("the conversion processes are closed");
    // the child runs in this directory: its messages name the file as we do
    byte[] job = (kind.name() + "\t" + mergedFunctions + "\t" + escape(in.toString()) + "\t" + escape(out.toString()) + "\n")
        .getBytes(StandardCharsets.UTF_8);
    Process p = spare.getAndSet(null);
    if (p != null && !p.isAlive()) p = null;
    try {
      if (p == null || !send(p, job)) {
        // no spare, or it died before taking the job: a child of its own (whose start errors are its own)
        if (p != null) p.destroyForcibly();
        p = start();
        send(p, job);
      }
      // stderr is drained by a thread of its own, so that this one waits interruptibly
      Process child = p;
      java.util.concurrent.FutureTask<String> err = new java.util.concurrent.FutureTask<>(
          () -> readBounded(child.getErrorStream()));
      Thread.ofVirtual().name("gsym-conversion-stderr").start(err);
      int status = p.waitFor();
      if (status == 0) return;
      String said;
      try {
        said = err.get();
      } catch (java.util.concurrent.ExecutionException e) {
        said = Texts.message(e.getCause());
      }
      throwFailure(in, status, said);
    } finally {
      if (p != null && p.isAlive()) {
        p.destroyForcibly();
        p.waitFor();
      }
      startSpare(SPARE_DELAY_MILLIS);
    }
  }

  /**
   * How long after a conversion the next spare starts: not while the caller answers from the
   * conversion's output (the boot takes ~0.3 s of CPU).
   */
  private static final long SPARE_DELAY_MILLIS = 1000;

  /** Writes the job and closes the child's input; false if the child is gone. */
  private static boolean send(Process p, byte[] job) {
    try (OutputStream o = p.getOutputStream()) {
      o.write(job);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private Process start() throws IOException {
    return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.PIPE).start();
  }

  /** Starts the next spare child in the background, unless one is there or on its way. */
  private void startSpare(long delayMillis) {
    if (closed || spare.get() != null || !starting.compareAndSet(false, true)) return;
    Thread.ofVirtual().name("gsym-conversion-spare").start(() -> {
      try {
        if (delayMillis > 0) Thread.sleep(delayMillis);
        if (closed) return;
        Process p = start();
        if (!spare.compareAndSet(null, p)) p.destroyForcibly();
      } catch (IOException e) {
        // no spare: the next conversion starts its own child and reports why it cannot
      } catch (InterruptedException e) {
        return;
      } finally {
        starting.set(false);
      }
      if (closed) close();
    });
  }

  /** Stops the spare child. */
  @Override
  public void close() {
    closed = true;
    Process p = spare.getAndSet(null);
    if (p != null) p.destroyForcibly();
  }

  private static List<String> command(List<String> jvmOptions) {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.addAll(jvmOptions);
    String modulePath = System.getProperty("jdk.module.path");
    if (ConversionProcess.class.getModule().isNamed() && modulePath != null) {
      cmd.add("--module-path");
      cmd.add(modulePath);
      cmd.add("--module");
      cmd.add(ConversionProcess.class.getModule().getName() + "/" + ConversionProcess.class.getName());
    } else {
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(ConversionProcess.class.getName());
    }
    return List.copyOf(cmd);
  }

  /** Throws the exception of a child that ended with {@code status}: its result line's, if it wrote one. */
  private static void throwFailure(Path in, int status, String stderr) throws IOException {
    String[] lines = stderr.split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      if (!lines[i].startsWith(RESULT_MARK + "\t")) continue;
      String[] f = lines[i].split("\t", -1);
      if (f.length != 5) break;
      String source = unescape(f[2]);
      String detail = unescape(f[4]);
      switch (f[1]) {
        case "format" -> throw new GsymFormatException(source, Long.parseLong(f[3]), detail);
        case "output" -> throw new Converter.OutputFailed(new IOException(detail));
        default -> throw new IOException(detail);
      }
    }
    // the JVM's own words (it could not start, ran out of memory, was killed), bounded
    String said = stderr.lines().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.joining("; "));
    if (said.length() > 500) said = said.substring(0, 500) + "...";
    throw new IOException("the conversion process ended with status " + status + (said.isEmpty() ? "" : ": " + said));
  }

  private static String readBounded(InputStream s) throws IOException {
    byte[] keep = new byte[MAX_STDERR];
    int n = 0;
    byte[] buf = new byte[8192];
    for (int r; (r = s.read(buf)) > 0; ) {
      // keep the end: the result line is the last one
      if (r >= keep.length) {
        System.arraycopy(buf, r - keep.length, keep, 0, keep.length);
        n = keep.length;
      } else {
        int drop = Math.max(0, n + r - keep.length);
        if (drop > 0) {
          System.arraycopy(keep, drop, keep, 0, n - drop);
          n -= drop;
        }
        System.arraycopy(buf, 0, keep, n, r);
        n += r;
      }
    }
    return new String(keep, 0, n, StandardCharsets.UTF_8);
  }

  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  static String unescape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        b.append(c);
        continue;
      }
      char n = s.charAt(++i);
      b.append(switch (n) {
        case 't' -> '\t';
        case 'n' -> '\n';
        case 'r' -> '\r';
        default -> n;
      });
    }
    return b.toString();
  }

  /**
   * The child: reads one job line from standard input (see the class comment), converts, exits 0,
   * or 1 with a result line. Standard input closed without a job (the parent closed or died): exit 0.
   */
  public static void main(String[] args) throws IOException {
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    // a parent that dies (even by SIGKILL) never publishes this output: stop working for it
    ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
    String line = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    if (line.isEmpty()) System.exit(0);
    if (line.endsWith("\n")) line = line.substring(0, line.length() - 1);
    String[] f = line.split("\t", -1);
    if (args.length != 0 || f.length != 4) {
      err.println("usage: ConversionProcess < 'OBJECT|BREAKPAD<tab>MERGED<tab>INPUT<tab>OUTPUT'");
      System.exit(2);
    }
    Path in = Path.of(unescape(f[2]));
    String kind;
    String source = in.toString();
    long offset = -1;
    String detail;
    try (FileChannel out = FileChannel.open(Path.of(unescape(f[3])), StandardOpenOption.WRITE)) {
      ConverterAdapter.convert(ConverterAdapter.Kind.valueOf(f[0]), in, out, Boolean.parseBoolean(f[1]), 0, false, null);
      System.exit(0); // the parent forces the file before publishing it
      return;
    } catch (GsymFormatException e) {
      kind = "format";
      source = e.source();
      offset = e.offset();
      detail = e.detail();
    } catch (Converter.OutputFailed e) {
      kind = "output";
      detail = Texts.message(e.getCause());
    } catch (IOException | RuntimeException e) {
      kind = "io";
      detail = Texts.message(e);
    } catch (OutOfMemoryError e) {
      kind = "io";
      detail = "the conversion ran out of memory";
    }
    err.println(RESULT_MARK + "\t" + kind + "\t" + escape(source == null ? "" : source) + "\t" + offset + "\t" + escape(detail));
    System.exit(1);
  }
}
