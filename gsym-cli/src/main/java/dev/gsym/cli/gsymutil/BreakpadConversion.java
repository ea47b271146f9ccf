package dev.gsym.cli.gsymutil;

import static dev.gsym.cli.gsymutil.Conversions.loadAddress;
import static dev.gsym.cli.gsymutil.Conversions.segmentSize;
import static dev.gsym.cli.OutputFiles.STDOUT;
import static dev.gsym.cli.OutputFiles.checkStdout;
import static dev.gsym.cli.OutputFiles.defaultOutput;
import static dev.gsym.cli.OutputFiles.inputPath;
import static dev.gsym.cli.OutputFiles.ioError;
import static dev.gsym.cli.OutputFiles.notToStdout;
import static dev.gsym.cli.OutputFiles.outputPath;
import static dev.gsym.cli.OutputFiles.refuseOverwriting;

import dev.gsym.breakpad.BreakpadTransformer;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.OutputFiles;
import dev.gsym.cli.ProgressBar;
import dev.gsym.cli.Session;
import dev.gsym.convert.ConvertOptions;
import dev.gsym.convert.Converter;
import dev.gsym.convert.Input;
import dev.gsym.GsymFormatException;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/** {@code --breakpad SYM}: a Breakpad symbol file (or stdin) → GSYM. */
final class BreakpadConversion {
  private BreakpadConversion() {}

  /** Runs the mode: "Input file", "Output file", the counts of what was read, the save. */
  static int run(Session s, Args o) {
    long segment = segmentSize(o);
    long load = loadAddress(o);
    String in = o.value(Opt.BREAKPAD);
    boolean stdin = in.equals("-");
    if (stdin && o.value(Opt.OUT_FILE) == null) {
      throw CliException.tool("--breakpad - (stdin) needs -o OUT");
    }
    String out = o.value(Opt.OUT_FILE) != null ? o.value(Opt.OUT_FILE) : defaultOutput(in, ".sym", ".gsym");
    boolean toStdout = out.equals(STDOUT);
    if (toStdout && segment > 0) throw notToStdout("--segment-size (it writes several files)");
    refuseOverwriting(out, segment > 0, "input file", in);
    OutputFiles.checkWritable(out, segment > 0, in);
    OutputStream data = toStdout ? s.stdoutForData() : null;
    StringBuilder sb = s.sb;
    // nothing reaches stdout before the input proved usable: a bad input gives only the error
    Path inPath = stdin ? null : inputPath(in);
    sb.append("Input file: ").append(in).append('\n').append("Output file: ").append(out).append('\n');
    Diagnostics diag = o.flag(Opt.QUIET) ? Diagnostics.silent() : new Diagnostics(sb);
    Input input = stdin ? new Input.BreakpadStream(s.in, "-") : new Input.BreakpadFile(inPath);
    ProgressBar[] bar = {null};
    int[] before = {0};
    ConvertOptions options = ConvertOptions.builder().outputVersion(Conversions.outputVersion(o))
        .lenient(o.flag(Opt.LENIENT)).loadAddress(load).unwind(o.flag(Opt.UNWIND)).listener(new Converter.Listener() {
          @Override
          public void objectStarted(Converter.Unit unit) {
            if (!stdin && ProgressBar.forTerminal(s.err, "MiB", o.flag(Opt.QUIET)) instanceof ProgressBar b) bar[0] = b;
          }

          @Override
          public void progress(long done, long total) {
            if (bar[0] != null) bar[0].update(done, total);
          }

          @Override
          public void breakpadRead(BreakpadTransformer.Result r, GsymCreator creator) {
            closeBar(bar);
            if (creator.numFunctionInfos() == 0) {
              sb.setLength(0);
              throw CliException.stderr(in + ": no FUNC or PUBLIC records: nothing to convert");
            }
            log(sb, r, o.flag(Opt.LENIENT));
            s.emit();
            before[0] = creator.numFunctionInfos();
          }
        }).build();
    try {
      Converter.convert(input, options, diag, gsym -> save(s, o, gsym, before[0], in, out, data, segment));
    } catch (IOException e) {
      sb.setLength(0);
      throw ioError(in, e);
    } catch (GsymFormatException e) {
      sb.setLength(0);
      throw new CliException(e.getMessage(), 1, false, e);
    } finally {
      closeBar(bar);
    }
    if (!o.flag(Opt.QUIET)) sb.append(diag.summary());
    s.emit();
    return 0;
  }

  private static void closeBar(ProgressBar[] bar) {
    if (bar[0] != null) bar[0].close();
    bar[0] = null;
  }

  /** The counts of what was read, before the creator is finished (its log follows). */
  private static void log(StringBuilder sb, BreakpadTransformer.Result r, boolean lenient) {
    sb.append("Loaded ").append(r.functions()).append(" functions from Breakpad.\n");
    sb.append("Loaded ").append(r.publics()).append(" public symbols from Breakpad");
    if (r.publicsInsideFunctions() > 0) {
      sb.append(" (").append(r.publicsInsideFunctions()).append(" more are covered by FUNC records");
      if (r.publicTails() > 0) sb.append("; ").append(r.publicTails()).append(" of them also the bytes after the FUNC");
      sb.append(')');
    }
    sb.append(".\n");
    if (r.linesOutsideFunctions() > 0) {
      sb.append("Dropped ").append(r.linesOutsideFunctions()).append(" line records outside their FUNC.\n");
    }
    if (r.ignoredRecords() > 0) {
      sb.append("Ignored ").append(r.ignoredRecords())
          .append(" records as Breakpad's processor does (overlapping or empty FUNC and line records, see docs/breakpad.md).\n");
    }
    if (r.unwind() != null) {
      sb.append("Loaded ").append(r.unwind().entries().size()).append(" unwind tables from ").append(r.stackRecords())
          .append(" STACK records");
      if (r.unwind().skipped() > 0) sb.append(" (").append(r.unwind().skipped()).append(" records or rules left out, see docs/unwind.md)");
      sb.append(".\n");
    } else if (r.stackRecords() > 0) {
      sb.append("Skipped ").append(r.stackRecords()).append(" STACK records (--unwind keeps them).\n");
    }
    if (lenient) {
      sb.append("Skipped ").append(r.badRecords()).append(" bad records");
      if (r.orphanRecords() > 0) {
        sb.append(" and ").append(r.orphanRecords()).append(" line/INLINE records of bad FUNC records");
      }
      sb.append(".\n");
    }
  }

  /** The finished GSYM: the --quiet count of what finishing pruned, then the save. */
  private static void save(Session s, Args o, Converter.Converted gsym, int before, String in, String out,
      OutputStream data, long segment) {
    StringBuilder sb = s.sb;
    GsymCreator creator = gsym.creator();
    if (o.flag(Opt.QUIET)) {
      int after = creator.numFunctionInfos();
      sb.append("Pruned ").append(before - after).append(" functions, ended with ").append(after).append(" total\n");
    }
    s.emit();
    try {
      if (segment > 0) {
        List<Path> written = creator.saveSegments(outputPath(out), ByteOrder.LITTLE_ENDIAN, segment);
        for (Path p : written) sb.append("Wrote segment ").append(p).append('\n');
      } else if (data != null) {
        creator.save(data, ByteOrder.LITTLE_ENDIAN);
        checkStdout(data);
      } else {
        creator.save(outputPath(out), ByteOrder.LITTLE_ENDIAN);
      }
    } catch (IOException e) {
      throw ioError(out, e);
    } catch (IllegalArgumentException e) {
      throw CliException.stderr(in + ": " + e.getMessage());
    }
  }
}
