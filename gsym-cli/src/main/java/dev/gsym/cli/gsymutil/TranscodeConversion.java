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
import dev.gsym.convert.ConvertOptions;
import dev.gsym.convert.Converter;
import dev.gsym.convert.Input;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * {@code gsymutil convert --output-version N IN.gsym -o OUT}: rewrites a GSYM file (or the GSYM of
 * a binary's {@code .gsym} section) in GSYM version N, in the input's byte order. Every lookup
 * answers the same; version 1 to 2 and back gives the original bytes for files LLVM wrote.
 */
final class TranscodeConversion {
  private TranscodeConversion() {}

  /** Writes the rewritten GSYM to {@code out} (or {@code data}, standard output); its failures name {@code out}. */
  private static void save(Converter.Converted gsym, String out, OutputStream data) {
    try {
      if (data != null) {
        gsym.creator().save(data, gsym.byteOrder());
        checkStdout(data);
      } else {
        gsym.creator().save(outputPath(out), gsym.byteOrder());
      }
    } catch (GsymFormatException e) {
      throw CliException.tool("" + out + ": " + e.detail());
    } catch (IOException e) {
      throw ioError(out, e);
    }
  }

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
    int from;
    int functions;
    try (GsymReader r = s.open(in)) {
      from = r.version();
      functions = r.numFunctions();
      Converter.convert(new Input.OpenGsym(r, in), ConvertOptions.builder().outputVersion(version).build(),
          Diagnostics.silent(), gsym -> save(gsym, out, data));
    } catch (GsymFormatException e) {
      throw Session.fileError(in, e.detail(), e);
    } catch (IOException e) {
      throw ioError(in, e);
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
