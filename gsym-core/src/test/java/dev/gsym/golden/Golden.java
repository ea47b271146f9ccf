package dev.gsym.golden;

import dev.gsym.format.Hex;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.testing.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The golden data written by src-test-data/regenerate.sh: expected/manifest.tsv lists every
 * llvm-gsymutil-22 run (kind, working dir, file, address list, output file, exit code, command),
 * and this class renders our reader's answers in llvm-gsymutil's text format.
 */
final class Golden {
  private Golden() {}

  /** One manifest row. Paths are relative to src-test-data/ except addrs (relative to dir). */
  record Entry(String kind, String dir, String file, String addrs, String output, int exit,
      String command) {
    Path gsym() {
      return TestData.path(dir).resolve(file);
    }

    Path expected() {
      return TestData.path(output);
    }

    String expectedText() {
      return read(expected());
    }

    List<Long> addresses() {
      List<Long> out = new ArrayList<>();
      for (String line : read(TestData.path(dir).resolve(addrs).normalize()).split("\n")) {
        if (line.isEmpty()) continue;
        out.add(Long.parseUnsignedLong(line.substring(2), 16));
      }
      return out;
    }

    @Override
    public String toString() {
      return dir + "/" + file;
    }
  }

  /** The file's bytes, compared exactly ({@link TestData#text}). */
  static String read(Path p) {
    return TestData.text(p);
  }

  static List<Entry> manifest() {
    List<Entry> out = new ArrayList<>();
    for (String line : read(TestData.path("expected", "manifest.tsv")).split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) continue;
      String[] f = line.split("\t", -1);
      out.add(new Entry(f[0], f[1], f[2], f[3], f[4], Integer.parseInt(f[5]), f[6]));
    }
    return out;
  }

  static List<Entry> manifest(String kind) {
    return manifest().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  /** Every .gsym written by llvm (one dump entry per file). */
  static List<Entry> gsymFiles() {
    return manifest("dump");
  }

  static String dump(GsymReader r) {
    StringBuilder sb = new StringBuilder();
    r.dump(sb);
    return sb.toString();
  }

  static void header(StringBuilder sb, String name) {
    sb.append("Looking up addresses in \"").append(name).append("\":\n");
  }

  static void error(StringBuilder sb, long addr, String message) {
    Hex.append(sb, addr, 16).append(": error: ").append(message).append('\n');
  }

  /** {@code llvm-gsymutil --address A... FILE} (plain mode: no call-site regexes). */
  static String lookupText(GsymReader r, String name, List<Long> addrs) {
    StringBuilder sb = new StringBuilder();
    header(sb, name);
    for (long a : addrs) {
      try {
        r.lookup(a).withoutCallSites().appendTo(sb);
      } catch (LookupException | dev.gsym.GsymFormatException e) {
        error(sb, a, dev.gsym.testing.LookupErrors.llvm(e));
      }
    }
    return sb.toString();
  }

  /** {@code llvm-gsymutil --merged-functions --address A... FILE} (docs §7.3). */
  static String mergedText(GsymReader r, String name, List<Long> addrs) {
    StringBuilder sb = new StringBuilder();
    header(sb, name);
    for (long a : addrs) {
      List<LookupResult> all;
      try {
        all = r.lookupAll(a);
      } catch (LookupException | dev.gsym.GsymFormatException e) {
        continue; // merged mode prints nothing for failed lookups
      }
      sb.append("Found ").append(all.size()).append(all.size() == 1 ? " function" : " functions")
          .append(" at address ");
      Hex.append(sb, a, 16).append(":\n");
      for (int i = 0; i < all.size(); i++) {
        if (i > 0) sb.append('\n');
        sb.append("   ");
        all.get(i).appendTo(sb);
      }
    }
    return sb.toString();
  }

  /** {@code llvm-gsymutil --verbose --address A... FILE} (docs §7.2). */
  static String verboseText(GsymReader r, String name, List<Long> addrs) {
    StringBuilder sb = new StringBuilder();
    header(sb, name);
    for (long a : addrs) {
      LookupResult res;
      try {
        res = r.lookup(a).withoutCallSites();
      } catch (LookupException | dev.gsym.GsymFormatException e) {
        sb.append("\nLookupResult for ");
        Hex.append(sb, a, 16).append(":\n");
        error(sb, a, dev.gsym.testing.LookupErrors.llvm(e));
        sb.append('\n');
        continue;
      }
      StringBuilder fi = new StringBuilder();
      try {
        r.dump(fi, r.functionInfo(a), 0);
      } catch (RuntimeException e) {
        res.appendTo(sb); // record not fully decodable: only the plain result line
        continue;
      }
      sb.append("FunctionInfo for ");
      Hex.append(sb, a, 16).append(":\n").append(fi).append("\nLookupResult for ");
      Hex.append(sb, a, 16).append(":\n");
      res.appendTo(sb).append('\n');
    }
    return sb.toString();
  }
}
