package dev.gsym.breakpad;

import dev.gsym.ByteStrings;
import dev.gsym.demangle.Demangler;
import dev.gsym.format.Hex;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: in-memory conversions and llvm-style lookup rendering. */
final class Conv {
  private Conv() {}

  static GsymReader gsymFromSym(String text) throws IOException {
    return gsymFromSym(text, false);
  }

  static GsymReader gsymFromSym(String text, boolean lenient) throws IOException {
    return GsymReader.of(gsymBytesFromSym(text, lenient), "test.gsym");
  }

  static byte[] gsymBytesFromSym(String text, boolean lenient) throws IOException {
    GsymCreator c = new GsymCreator();
    new BreakpadTransformer(c, lenient, Diagnostics.silent())
        .convert(new BreakpadParser(new StringReader(text), "test.sym"));
    c.finish(Diagnostics.silent());
    return c.encode();
  }

  /** The .sym of {@code r} with its names as they are (no demangling: a lossless round trip). */
  static String symFromGsym(GsymReader r) throws IOException {
    return symFromGsym(r, BreakpadWriter.Options.defaults("test").withDemangle(false));
  }

  static String symFromGsym(GsymReader r, BreakpadWriter.Options options) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new BreakpadWriter(r, options).write(out);
    return ByteStrings.decode(out.toByteArray()); // exact: names and paths need not be UTF-8
  }

  static String read(Path p) throws IOException {
    return Files.readString(p);
  }

  /** {@link #lookup} with every function name as {@link Demangler#llvm()} prints it. */
  static String demangledLookup(GsymReader r, long addr) {
    LookupResult res;
    try {
      res = r.lookup(addr).withoutCallSites();
    } catch (LookupException | dev.gsym.GsymFormatException e) {
      return lookup(r, addr);
    }
    Demangler d = Demangler.llvm();
    List<SourceLocation> locs = new ArrayList<>();
    for (SourceLocation l : res.locations()) {
      locs.add(new SourceLocation(d.demangle(l.name()), l.dir(), l.base(), l.line(), l.offset()));
    }
    return new LookupResult(res.lookupAddress(), res.functionRange(), d.demangle(res.functionName()), locs, List.of())
        .toString();
  }

  /** llvm-gsymutil's --address output line(s) for addr, call-site regexes left out. */
  static String lookup(GsymReader r, long addr) {
    try {
      return r.lookup(addr).withoutCallSites().toString();
    } catch (LookupException | dev.gsym.GsymFormatException e) {
      return Hex.append(new StringBuilder(), addr, 16).append(": error: ").append(dev.gsym.testing.LookupErrors.llvm(e)).append('\n')
          .toString();
    }
  }
}
