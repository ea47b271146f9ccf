package dev.gsym.cli.gsymutil;

import dev.gsym.GsymFormatException;
import dev.gsym.cli.Addresses;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;
import dev.gsym.read.GsymReader;
import java.util.ArrayList;
import java.util.List;

/** The dump and lookup modes shared by the llvm-style command line and the subcommands. */
final class Modes {
  private Modes() {}

  /** Parses address arguments; the first bad one ends the command with llvm's message. */
  static List<Long> parseAddresses(List<String> values, String optionName) {
    List<Long> out = new ArrayList<>(values.size());
    for (String s : values) {
      Long a = Addresses.parse(s);
      if (a == null) {
        throw CliException.tool("for the " + optionName + " option: '" + s
            + "' value invalid for uint argument!");
      }
      out.add(a);
    }
    return out;
  }

  /** llvm's checks of --merged-functions-filter. */
  static void checkFilters(Args a, boolean looksUp) {
    if (!a.has(Opt.MERGED_FILTER)) return;
    if (!looksUp) {
      throw CliException.tool(
          "--merged-functions-filter can only be used with --address/--addresses-from-stdin");
    }
    if (!a.flag(Opt.MERGED_FUNCTIONS)) {
      throw CliException.tool(
          "--merged-functions-filter requires --merged-functions");
    }
  }

  /** Dumps each file in turn; stops at the first file that cannot be read. */
  static int dump(Session s, List<String> files) {
    for (String path : files) {
      try (GsymReader gsym = s.open(path)) {
        gsym.dump(s.stdoutText()); // streamed in 64 KiB pieces
      } catch (GsymFormatException e) {
        s.sb.setLength(0);
        throw Session.fileError(path, e.detail(), e);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e); // stdoutText() reports write errors unchecked
      }
    }
    return 0;
  }

  /**
   * {@code --statistics[=FORMAT]}: llvm main's byte-size report of each file (FORMAT "" is text).
   */
  static int statistics(Session s, List<String> files, String format) {
    dev.gsym.read.GsymStatistics.Format f =
        format.isEmpty() ? dev.gsym.read.GsymStatistics.Format.TEXT : dev.gsym.read.GsymStatistics.Format.parse(format);
    if (f == null) {
      throw CliException.tool("for the --statistics option: '" + format
          + "' is invalid. Use 'text', 'json' or 'pretty-json'.");
    }
    for (String path : files) {
      try (GsymReader gsym = s.open(path)) {
        s.sb.append(dev.gsym.read.GsymStatistics.of(gsym, path).render(f));
        s.emit();
      } catch (GsymFormatException e) {
        s.sb.setLength(0);
        throw Session.fileError(path, e.detail(), e);
      }
    }
    return 0;
  }

  /**
   * Looks every address up in each file, under a "Looking up addresses in" header per file, on
   * {@code threads} workers (output in argument order).
   */
  static int lookup(Session s, List<String> files, List<Long> addrs, Symbolicator sym, int threads) {
    try (Batches batches = new Batches(s, sym, false, threads)) {
      for (String path : files) {
        GsymReader gsym = s.open(path);
        try {
          s.sb.append("Looking up addresses in \"").append(path).append("\":\n");
          s.emit();
          Batches.Chunk chunk = batches.chunk();
          for (long addr : addrs) {
            chunk.add(gsym, path, addr);
            if (chunk.isFull()) {
              batches.submit(chunk);
              chunk = batches.chunk();
            }
          }
          if (!chunk.isEmpty()) batches.submit(chunk);
          batches.drain(); // before the reader is closed
        } catch (RuntimeException | Error e) {
          batches.close(); // no worker may still use the reader
          throw e;
        } finally {
          gsym.close();
        }
      }
    }
    return 0;
  }
}
