package dev.gsym.cli;

import dev.gsym.GsymFormatException;
import dev.gsym.io.AtomicFile;
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
 * {@code gsymutil symbolize --pprof IN -o OUT}: a profile symbolized by build-id with the
 * symbolizer {@code symbolize}'s options configure, written as a profile or as collapsed stacks
 * (docs/profiles.md). A bad input is one line naming it and the problem, exit status 1, and no
 * output file.
 */
final class ProfileCommand {
  private final Session session;
  private final PrintStream err;

  ProfileCommand(Session session) {
    this.session = session;
    this.err = session.err;
  }

  /** What to write. */
  enum Output { PPROF, COLLAPSED }

  int run(SymbolizeArgs a, Symbolizer.Builder builder, Output output) {
    String in = a.last(SymbolizeOpt.PPROF);
    String out = a.last(SymbolizeOpt.OUTPUT);
    if (out == null) {
      err.println("error: --pprof needs -o FILE (- for stdout)");
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
      PprofProfile profile = read(Path.of(in));
      if (sampleIndex >= profile.sampleTypeCount()) {
        err.println("error: --sample-index=" + sampleIndex + ": " + in + " has " + profile.sampleTypeCount()
            + " sample types");
        return 1;
      }
      ProfileSymbolizer.Result r;
      try (Symbolizer s = builder.build()) {
        r = ProfileSymbolizer.builder(s).debugDirectories(debugDirectories(a)).build().symbolize(profile);
      }
      int index = sampleIndex;
      AtomicFile.Content<Void> content = ch -> {
        OutputStream os = Channels.newOutputStream(ch);
        if (output == Output.PPROF) {
          r.profile().writeTo(os, true);
        } else {
          Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8);
          Stacks.of(r.profile(), index).writeCollapsed(w);
        }
        os.flush();
        return null;
      };
      if (out.equals("-")) AtomicFile.write(session.stdoutForData(), content);
      else AtomicFile.write(Path.of(out), content);
      err.println(in + ": " + r.summary().line());
      for (String p : r.summary().problems()) err.println("  " + p);
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

  static PprofProfile read(Path in) throws IOException {
    try (InputStream s = Files.newInputStream(in)) {
      return PprofProfile.read(s, in.toString(), PprofProfile.DEFAULT_MAX_BYTES);
    }
  }

  /** The debug directories symbolize searches, where module files are also looked for. */
  static List<Path> debugDirectories(SymbolizeArgs a) {
    List<Path> dirs = new ArrayList<>();
    for (String d : a.all(SymbolizeOpt.DEBUG_FILE_DIRECTORY)) dirs.add(Path.of(d));
    if (dirs.isEmpty()) dirs.add(Source.DebugDirectories.DEFAULT_DIRECTORY);
    String fallback = a.last(SymbolizeOpt.FALLBACK_DEBUG_PATH);
    if (fallback != null) dirs.add(Path.of(fallback));
    return dirs;
  }
}
