package dev.gsym.demangle;

import dev.gsym.ByteStrings;
import dev.gsym.read.GsymReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Demangling throughput, run by bench/demangle.sh (not a test):
 * {@code DemangleBench ENGINE NAMES [PASSES]}. ENGINE is {@code llvm} (the pure-Java port),
 * {@code gnu} ({@link Demangler#gnu()}: the port, then __cxa_demangle) or {@code cxa} (bare
 * __cxa_demangle through FFM on the Itanium names, no bound: the raw native cost). NAMES is a
 * {@code .gsym} file (its functions' names, once each: what a symbolizer demangles) or a file of
 * names, one per line. Prints the time of each pass over all names; the first pass of a fresh JVM
 * is the cold figure, the best later pass the warm one.
 */
public final class DemangleBench {
  private DemangleBench() {}

  public static void main(String[] args) throws Exception {
    String engine = args[0];
    Path source = Path.of(args[1]);
    int passes = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    List<String> names = names(source);
    List<byte[]> bytes = new ArrayList<>();
    for (String n : names) bytes.add(ByteStrings.encode(n));
    Demangler d = switch (engine) {
      case "llvm", "cxa" -> Demangler.llvm();
      case "gnu" -> Demangler.gnu().orElseThrow(() -> new IllegalStateException("no libstdc++ or native access"));
      default -> throw new IllegalArgumentException("engine: llvm, gnu or cxa");
    };
    if (engine.equals("cxa") && !CxaDemangle.available()) throw new IllegalStateException("no libstdc++ or native access");
    for (int p = 0; p < passes; p++) {
      long t0 = System.nanoTime();
      int changed = 0;
      if (engine.equals("cxa")) {
        for (byte[] b : bytes) {
          if (b.length > 1 && b[0] == '_' && b[1] == 'Z' && CxaDemangle.demangle(b, 0, b.length) != null) changed++;
        }
      } else {
        for (String n : names) {
          if (d.demangle(n) != n) changed++;
        }
      }
      long t1 = System.nanoTime();
      double s = (t1 - t0) / 1e9;
      System.out.printf("pass %d: %d names, %d demangled, %.3f s, %.0f names/s%n", p + 1, names.size(), changed, s, names.size() / s);
    }
  }

  private static List<String> names(Path source) throws Exception {
    Set<String> names = new LinkedHashSet<>();
    if (source.toString().endsWith(".gsym")) {
      try (GsymReader r = GsymReader.open(source)) {
        for (int i = 0; i < r.numFunctions(); i++) names.add(r.string(r.functionInfoAtIndex(i).name()));
      }
    } else {
      for (byte[] line : LlvmCxxfilt.lines(Files.readAllBytes(source))) names.add(ByteStrings.decode(line));
    }
    return new ArrayList<>(names);
  }
}
