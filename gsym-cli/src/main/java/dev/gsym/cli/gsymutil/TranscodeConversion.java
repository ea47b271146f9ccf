package dev.gsym.cli.gsymutil;

import static dev.gsym.cli.OutputFiles.STDOUT;
import static dev.gsym.cli.OutputFiles.checkStdout;
import static dev.gsym.cli.OutputFiles.ioError;
import static dev.gsym.cli.OutputFiles.outputPath;
import static dev.gsym.cli.OutputFiles.refuseOverwriting;

import dev.gsym.GsymFormatException;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.OutputFiles;
import dev.gsym.cli.Session;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.util.List;

/**
 * {@code gsymutil convert --output-version N IN.gsym -o OUT}: rewrites a GSYM file (or the GSYM of
 * a binary's {@code .gsym} section) in GSYM version N, in the input's byte order. Every lookup
 * answers the same; version 1 to 2 and back gives the original bytes for files LLVM wrote.
 */
final class TranscodeConversion {
  private TranscodeConversion() {}

  static int run(Session s, Args o) {
    List<String> inputs = o.values(Opt.FILES);
    if (inputs.size() != 1) {
      throw CliException.tool("convert takes one GSYM file to rewrite (got "
          + inputs.size() + ")");
    }
    if (!o.has(Opt.OUTPUT_VERSION)) {
      throw CliException.tool("convert of a GSYM file needs --output-version N");
    }
    for (Opt other : List.of(Opt.SEGMENT_SIZE, Opt.LENIENT, Opt.LOAD_ADDRESS, Opt.MODULE_OS, Opt.MODULE_ARCH,
        Opt.MODULE_NAME, Opt.DWARF_CALLSITES, Opt.CALLSITES_YAML, Opt.SYMTAB_FILE, Opt.LLVM_COMPAT, Opt.VERIFY,
        Opt.NUM_THREADS, Opt.JSON_SUMMARY, Opt.EMBED, Opt.IN_PLACE, Opt.UNWIND, Opt.NO_CFI)) {
      if (o.has(other)) {
        throw CliException.tool("" + other.names.getLast()
            + " does not apply to rewriting a GSYM file");
      }
    }
    int version = Conversions.outputVersion(o);
    String in = inputs.getFirst();
    String out = o.value(Opt.OUT_FILE);
    if (out == null) throw CliException.tool("convert of a GSYM file needs -o OUT");
    boolean toStdout = out.equals(STDOUT);
    refuseOverwriting(out, false, "input file", in);
    OutputFiles.checkWritable(out, false, in);
    OutputStream data = toStdout ? s.stdoutForData() : null;
    GsymCreator creator;
    ByteOrder order;
    int from;
    int functions;
    try (GsymReader r = s.open(in)) {
      order = r.byteOrder();
      from = r.version();
      functions = r.numFunctions();
      creator = GsymCreator.from(r);
      creator.setOutputVersion(version);
      creator.finish(Diagnostics.silent());
    } catch (GsymFormatException e) {
      throw Session.fileError(in, e.detail(), e);
    }
    try {
      if (toStdout) {
        creator.save(data, order);
        checkStdout(data);
      } else {
        creator.save(outputPath(out), order);
      }
    } catch (GsymFormatException e) {
      throw CliException.tool("" + out + ": " + e.detail());
    } catch (IOException e) {
      throw ioError(out, e);
    }
    if (!o.flag(Opt.QUIET)) {
      s.sb.append("Input file: ").append(in).append(" (GSYM version ").append(from).append(")\n")
          .append("Output file: ").append(out).append(" (GSYM version ").append(version).append(")\n")
          .append("Rewrote ").append(functions).append(" function infos.\n");
      s.emit();
    }
    return 0;
  }
}
