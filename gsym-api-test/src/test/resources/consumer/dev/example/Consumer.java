package dev.example;

import dev.gsym.breakpad.BreakpadWriter;
import dev.gsym.demangle.Demangler;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.minidump.Minidump;
import dev.gsym.serve.SymbolicationServer;
import dev.gsym.stackwalk.StackwalkPrinter;
import dev.gsym.stackwalk.Stackwalker;
import dev.gsym.symbolize.Frame;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * What another team's code does with the library, through exported packages only: convert an ELF
 * file, look an address up in the GSYM file, symbolize it by path, demangle a name, walk a minidump. Prints one
 * line per answer for the test to compare; then tries to reach an internal class reflectively.
 */
public final class Consumer {
  public static void main(String[] args) throws Exception {
    Path elf = Path.of(args[0]);
    Path gsym = Path.of(args[1]);
    GsymCreator creator = new GsymCreator();
    DwarfConverter.Summary summary = DwarfConverter.convert(elf, creator, Diagnostics.silent(),
        DwarfConverter.Options.builder().quiet(true).threads(2).build());
    creator.save(gsym, summary.byteOrder());
    System.out.println("converted " + summary.dwarfFunctions() + " " + summary.symbolFunctions());
    long address;
    try (GsymReader reader = GsymReader.open(gsym)) {
      FunctionInfo main = reader.functionInfos().filter(fi -> reader.string(fi.name()).equals("main")).findFirst().orElseThrow();
      address = main.startAddress() + main.range().size() / 2;
      LookupResult r = reader.lookup(address);
      System.out.println("lookup " + r.toString().strip());
    }
    try (Symbolizer s = Symbolizer.builder().build()) {
      if (s.symbolize(ModuleRef.file(elf), address) instanceof Symbolized.Found f) {
        for (Frame fr : f.frames()) System.out.println("frame " + fr.function() + " " + fr.location().path() + ":" + fr.location().line());
      } else {
        System.out.println("symbolize failed");
      }
      // the same address through the HTTP service on a loopback port
      try (SymbolicationServer server = SymbolicationServer.builder(s).listen("127.0.0.1", 0).build().start();
           HttpClient client = HttpClient.newHttpClient()) {
        String body = "{\"modules\": [{\"path\": \"" + elf.toAbsolutePath() + "\"}], \"stacks\": [{\"frames\":"
            + " [{\"module\": 0, \"address\": " + address + "}]}], \"options\": {\"demangle\": false}}";
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/symbolicate")).POST(HttpRequest.BodyPublishers.ofString(body))
            .build(), HttpResponse.BodyHandlers.ofString());
        System.out.println("served " + r.statusCode() + " " + r.body().contains("\"function\":\"main\""));
      }
    }
    System.out.println("demangled " + Demangler.llvm().demangle("_ZN2ns5outerEv"));
    try (Minidump dump = Minidump.open(Path.of(args[2]))) {
      System.out.print(StackwalkPrinter.brief(Stackwalker.builder().build().walk(dump)));
    }
    System.out.println("breakpad writer " + BreakpadWriter.class.getModule().getName());
    System.out.println("reader module " + GsymReader.class.getModule().getName());
    try {
      Class<?> internal = Class.forName("dev.gsym.read.internal.FunctionCache");
      internal.getDeclaredConstructors()[0].setAccessible(true);
      System.out.println("internal reachable");
    } catch (RuntimeException e) {
      System.out.println("internal " + e.getClass().getSimpleName());
    }
  }
}
