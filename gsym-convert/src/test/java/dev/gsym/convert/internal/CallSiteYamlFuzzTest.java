package dev.gsym.convert.internal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.testing.Slow;
import org.junit.jupiter.api.Test;
import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.FunctionCallSites;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for call-site YAML ({@code --callsites-yaml-file}; docs/reliability.md):
 * the input is a YAML file, parsed, its flags resolved and its call sites loaded into the functions
 * of two converted binaries (cpp-gcc-O2; icf-clang-O2-gold with merged functions), as {@code
 * gsymutil --convert} does; the GSYM made must read back and dump. Only ParseException (llvm's
 * diagnostics), UnknownFlagException and the creator's IllegalArgumentException for an unknown
 * function name may escape; anything else, and an input taking longer than {@link #LIMIT}, is a
 * finding. Seeds: every YAML file in src-test-data/callsites.
 */
@Slow
class CallSiteYamlFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);
  private static List<GsymCreator> templates;

  static Stream<Arguments> seeds() {
    return Stream.of(FuzzSeeds.files("callsites", n -> n.endsWith(".yaml")), FuzzSeeds.files("callsites/errors", n -> n.endsWith(".yaml")),
        FuzzSeeds.files("callsites/more", n -> n.endsWith(".yaml"))).flatMap(s -> s);
  }

  private static synchronized List<GsymCreator> templates() {
    if (templates == null) {
      List<GsymCreator> out = new ArrayList<>();
      for (String bin : List.of("cpp-gcc-O2", "icf-clang-O2-gold")) {
        // the functions as they are when gsymutil loads the YAML: before the creator is finished
        GsymCreator template = new GsymCreator();
        DwarfConverter.Listener copy = new DwarfConverter.Listener() {
          @Override
          public void beforeFinish(GsymCreator creator) {
            template.addAll(creator);
          }
        };
        try {
          DwarfConverter.convert(TestData.path("bin", bin), new GsymCreator(), Diagnostics.silent(),
              DwarfConverter.Options.builder().threads(1).mergedFunctions(true).listener(copy).build());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        out.add(template);
      }
      templates = out;
    }
    return templates;
  }

  @MethodSource("seeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void yamlFile(byte[] input) {
    List<GsymCreator> targets = templates();
    FuzzLimits.within(LIMIT, "yaml", "loading a YAML file of " + input.length + " bytes", () -> {
      List<CallSiteYaml.Function> functions;
      try {
        functions = CallSiteYaml.parse(ByteStrings.decode(input), "fuzz.yaml");
      } catch (CallSiteYaml.ParseException expected) {
        return;
      }
      List<FunctionCallSites> resolved = new ArrayList<>();
      for (CallSiteYaml.Function f : functions) {
        try {
          resolved.add(f.resolve());
        } catch (CallSiteYaml.UnknownFlagException expected) {
          return;
        }
      }
      for (GsymCreator template : targets) {
        GsymCreator c = new GsymCreator();
        c.addAll(template);
        try {
          c.loadCallSites(resolved);
        } catch (IllegalArgumentException expected) {
          if (!expected.getMessage().startsWith("Can't find function '")) throw expected;
          continue;
        }
        c.finish(Diagnostics.silent());
        try (GsymReader r = GsymReader.of(c.encode(), "converted.gsym")) {
          r.dump(new StringBuilder());
        } catch (GsymFormatException e) {
          throw new AssertionError("the GSYM made with these call sites does not read back: " + e.getMessage(), e);
        }
      }
    });
  }

  /**
   * The seeds of callsites/more the parser refuses (CallSitesYamlCliTest holds each file to
   * llvm-gsymutil-22's exit status and message).
   */
  private static final String MALFORMED_MORE = """
      anchor badescape badindent big ck3 ck4 colon cslist dashnospace deeper deeper3
      dupfunctions dupkey emptyflowmap emptyflowmap2 emptyflowmap3 emptyoff
      flag-then-unknown-name flaglower flagscalar float flowseqitem funcmap funcscalar
      keyonly mapregex namemap neg nestedregex nofuncs nullitem nullname plusoff rootdeeper
      scalarregex spaceoff taberr2 topextra topscalar topseq unclosedbrace unclosedq
      underscore unknown-name-then-flag unknown-name-with-bad-flag utf2 word
      """;

  /**
   * The seeds of src-test-data/callsites and the valid ones of callsites/more parse and resolve,
   * those of callsites/errors (but one) and {@link #MALFORMED_MORE} are refused: the replay alone would pass
   * a parser that refused every input.
   */
  @Test
  void seedsAreAccepted() {
    java.util.Map<String, String> errors = new java.util.TreeMap<>();
    // (errors/unknown-function.yaml parses: the function it names is missing from the binary)
    FuzzSeeds.files("callsites/errors", n -> n.endsWith(".yaml") && !n.equals("unknown-function.yaml"))
        .forEach(a -> errors.put(((Arguments.ArgumentSet) a).getName(), ""));
    for (String n : MALFORMED_MORE.strip().split("\\s+")) errors.put("callsites/more/" + n + ".yaml", "");
    FuzzSeeds.assertRefused(seeds(), input -> {
      try {
        for (CallSiteYaml.Function f : CallSiteYaml.parse(ByteStrings.decode(input), "seed.yaml")) f.resolve();
      } catch (CallSiteYaml.ParseException | CallSiteYaml.UnknownFlagException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    }, errors);
  }

  /** No quadratic blow-up: a 1 MB YAML file of call sites parses in proportion to a 10 KB one. */
  @Test
  void scalesLinearly() {
    FuzzLimits.assertScalesLinearly("call-site YAML parse", size -> {
      StringBuilder sb = new StringBuilder("functions:\n");
      for (int i = 0; sb.length() < size; i++) {
        sb.append("  - name: function_").append(i).append("\n    callsites:\n      - return_offset: 0x").append(Integer.toHexString(i))
            .append("\n        match_regex: ['^callee_").append(i).append("$', \"other\"]\n        flags: [InternalCall]\n");
      }
      return sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }, input -> {
      try {
        for (CallSiteYaml.Function f : CallSiteYaml.parse(ByteStrings.decode(input), "big.yaml")) f.resolve();
      } catch (CallSiteYaml.ParseException | CallSiteYaml.UnknownFlagException e) {
        throw new AssertionError(e);
      }
    });
  }
}
