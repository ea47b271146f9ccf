package dev.gsym.cli.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.cli.Session;
import dev.gsym.io.AtomicFile;
import dev.gsym.profile.FlameGraph;
import dev.gsym.profile.PerfScript;
import dev.gsym.profile.PprofProfile;
import dev.gsym.profile.ProfileSymbolizer;
import dev.gsym.profile.Stacks;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gsymutil symbolize --pprof IN -o OUT} and {@code gsymutil flamegraph IN -o OUT}: a profile
 * symbolized by build-id with the symbolizer {@code symbolize}'s options configure, written as a
 * profile, as collapsed stacks or as a flame graph (docs/profiles.md). A bad input is one line naming it and the problem, exit status 1, and no
 * output file.
 */
public final class ProfileCommand {
  private final Session session;
  private final PrintStream err;

  ProfileCommand(Session session) {
    this.session = session;
    this.err = session.err;
  }

  /** What to write. */
  enum Output { PPROF, COLLAPSED, HTML, SVG }

  int run(SymbolizeArgs a, Symbolizer.Builder builder, Output output) {
    boolean graph = output == Output.HTML || output == Output.SVG;
    String in = a.last(SymbolizeOpt.PPROF);
    boolean perf = false;
    if (in == null && a.has(SymbolizeOpt.PERF_SCRIPT)) {
      in = a.last(SymbolizeOpt.PERF_SCRIPT);
      perf = true;
    }
    if (in == null && graph) {
      if (a.inputs.size() != 1) {
        err.println("error: flamegraph: expected one input file (a pprof profile or collapsed stacks), got "
            + a.inputs.size());
        return 1;
      }
      in = a.inputs.getFirst();
    }
    String out = a.last(SymbolizeOpt.OUTPUT);
    if (out == null) {
      err.println("error: " + (graph ? "flamegraph" : perf ? "--perf-script" : "--pprof") + " needs -o FILE (- for stdout)");
      return 1;
    }
    int sampleIndex = -1;
    String si = a.last(SymbolizeOpt.SAMPLE_INDEX);
    if (si != null) {
      try {
        sampleIndex = Integer.parseInt(si);
        if (sampleIndex < 0) throw new NumberFormatException();
      } catch (NumberFormatException e) {
        err.println("error: --sample-index: expected a number from 0, but got '" + si + "'");
        return 1;
      }
    }
    try {
      Path inPath = Path.of(in);
      ProfileSymbolizer.Result r = null;
      Stacks stacks = null;
      if (!perf && graph && !looksLikePprof(inPath)) perf = looksLikePerf(inPath);
      if (!perf && graph && !looksLikePprof(inPath)) {
        try (var reader = Files.newBufferedReader(inPath, dev.gsym.ByteStrings.CHARSET)) {
          stacks = Stacks.readCollapsed(reader, in);
        }
      } else {
        PprofProfile profile;
        if (perf) {
          java.util.Map<String, String> ids = java.util.Map.of();
          String b = a.last(SymbolizeOpt.PERF_BUILDIDS);
          if (b != null) {
            try (var reader = Files.newBufferedReader(Path.of(b), dev.gsym.ByteStrings.CHARSET)) {
              ids = PerfScript.readBuildIds(reader, b);
            }
          }
          // perf prints paths as bytes: ByteStrings' charset keeps every byte
          try (var reader = Files.newBufferedReader(inPath, dev.gsym.ByteStrings.CHARSET)) {
            profile = PerfScript.read(reader, in, ids);
          }
        } else {
          profile = read(inPath);
        }
        if (sampleIndex >= profile.sampleTypeCount()) {
          err.println("error: --sample-index=" + sampleIndex + ": " + in + " has " + profile.sampleTypeCount()
              + " sample types");
          return 1;
        }
        try (Symbolizer s = builder.build()) {
          r = ProfileSymbolizer.builder(s).debugDirectories(debugDirectories(a)).symbolTableNames(llvmNames()).build()
              .symbolize(profile);
        }
        if (output != Output.PPROF) stacks = Stacks.of(r.profile(), sampleIndex);
      }
      ProfileSymbolizer.Result result = r;
      Stacks st = stacks;
      String title = inPath.getFileName() == null ? in : inPath.getFileName().toString();
      AtomicFile.Content<Void> content = ch -> {
        OutputStream os = Channels.newOutputStream(ch);
        Writer w = new java.io.BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16);
        switch (output) {
          case PPROF -> result.profile().writeTo(os, true);
          case COLLAPSED -> st.writeCollapsed(w);
          case HTML -> FlameGraph.of(st, title).writeHtml(w);
          case SVG -> FlameGraph.of(st, title).writeSvg(w, 1200);
        }
        w.flush();
        os.flush();
        return null;
      };
      if (out.equals("-")) AtomicFile.write(session.stdoutForData(), content);
      else AtomicFile.write(Path.of(out), content);
      if (r != null) {
        err.println(in + ": " + r.summary().line());
        for (String p : r.summary().problems()) err.println("  " + p);
      }
      return 0;
    } catch (GsymFormatException e) {
      err.println("error: " + e.getMessage());
      if (session.verbose) e.printStackTrace(err);
      return 1;
    } catch (NoSuchFileException e) {
      err.println("error: " + e.getFile() + ": No such file or directory");
      return 1;
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      if (session.verbose) e.printStackTrace(err);
      return 1;
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
  }

  /** perf script output, by its first 200 lines. */
  static boolean looksLikePerf(Path in) throws IOException {
    List<String> head = new ArrayList<>();
    try (var r = Files.newBufferedReader(in, dev.gsym.ByteStrings.CHARSET)) {
      String l;
      while (head.size() < 200 && (l = r.readLine()) != null) head.add(l);
    }
    return PerfScript.looksLike(head);
  }

  /** A pprof profile starts with gzip's magic or a protobuf tag; collapsed stacks are text. */
  static boolean looksLikePprof(Path in) throws IOException {
    byte[] head;
    try (InputStream s = Files.newInputStream(in)) {
      head = s.readNBytes(2);
    }
    if (head.length < 2) return false;
    int b = head[0] & 0xff;
    return (b == 0x1f && (head[1] & 0xff) == 0x8b) || b < 0x20 && b != '\n' && b != '\r' && b != '\t';
  }

  static PprofProfile read(Path in) throws IOException {
    try (InputStream s = Files.newInputStream(in)) {
      return PprofProfile.read(s, in.toString(), PprofProfile.DEFAULT_MAX_BYTES);
    }
  }

  /** The debug directories symbolize searches, where module files are also looked for. */
  /**
   * The outermost frames named from the symbol table, as llvm-symbolizer and {@code symbolize} name
   * them (each file's table read once per command or server).
   */
  public static ProfileSymbolizer.SymbolTableNames llvmNames() {
    var names = new java.util.concurrent.ConcurrentHashMap<Path, SymbolNames>();
    return (elf, address) -> {
      SymbolNames.Hit hit = names.computeIfAbsent(elf, SymbolNames::read).at(address);
      return hit == null ? null : hit.name();
    };
  }

  static List<Path> debugDirectories(SymbolizeArgs a) {
    List<Path> dirs = new ArrayList<>();
    for (String d : a.all(SymbolizeOpt.DEBUG_FILE_DIRECTORY)) dirs.add(Path.of(d));
    if (dirs.isEmpty()) dirs.add(Source.DebugDirectories.DEFAULT_DIRECTORY);
    String fallback = a.last(SymbolizeOpt.FALLBACK_DEBUG_PATH);
    if (fallback != null) dirs.add(Path.of(fallback));
    return dirs;
  }
}
