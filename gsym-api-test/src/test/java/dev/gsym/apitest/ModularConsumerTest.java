package dev.gsym.apitest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.demangle.Demangler;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.format.FunctionInfo;
import dev.gsym.read.GsymReader;
import dev.gsym.symbolize.Frame;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The library as a consumer on the module path sees it: a module that requires the library's
 * modules compiles against their exported packages and runs (conversion, lookup, symbolization,
 * demangling), and the packages that are not API neither compile nor open to reflection.
 */
@StartsProcesses
class ModularConsumerTest {
  /** Library modules and their third-party requirements, as jars or class directories. */
  private static final Pattern MODULE_PATH_ENTRY = Pattern.compile(
      ".*/gsym-(core|object|dwarf|breakpad|convert|demangle|symbolize|serve|stackwalk|profile)(/target/classes|-[^/]*(?<!-tests)\\.jar)"
          + "|.*/(aircompressor-v3|xz|jetty-(server|http|io|util|http2-server|http2-common|http2-hpack)|jackson-core|slf4j-api|prometheus-metrics-[a-z-]+|protobuf-java)-[^/]*\\.jar");

  private static String modulePath;

  /** A committed minidump the consumer walks. */
  private static final Path DUMP = TestData.repoRoot().resolve("src-test-data/minidump/dumps/x86_64-fp-lib.dmp");

  @TempDir static Path tmp;

  @BeforeAll
  static void modulePath() {
    List<String> entries = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (MODULE_PATH_ENTRY.matcher(e.replace('\\', '/')).matches()) entries.add(e);
    }
    // eight library modules, aircompressor, xz, and gsym-serve's: Jetty (4), Jackson core, slf4j, Prometheus client
    assertThat(entries).as("module path from %s", System.getProperty("java.class.path")).hasSizeGreaterThanOrEqualTo(17);
    modulePath = String.join(File.pathSeparator, entries);
  }

  @Test
  void aConsumerModuleCompilesAndRunsOnTheExportedApi() throws Exception {
    Path src = copyConsumer(tmp.resolve("ok"), null);
    Path classes = tmp.resolve("ok-classes");
    assertThat(compile(src, classes)).isEmpty();

    Path elf = TestData.path("bin", "cpp-clang-O2");
    Path gsym = tmp.resolve("cpp.gsym");
    List<String> out = run(classes, elf, gsym);

    // the same calls on the class path give the expected lines
    GsymCreator creator = new GsymCreator();
    DwarfConverter.Summary summary = DwarfConverter.convert(elf, creator, Diagnostics.silent(),
        DwarfConverter.Options.builder().quiet(true).threads(2).build());
    Path expectedGsym = tmp.resolve("expected.gsym");
    creator.save(expectedGsym, summary.byteOrder());
    assertThat(Files.readAllBytes(gsym)).isEqualTo(Files.readAllBytes(expectedGsym));
    List<String> expected = new ArrayList<>();
    expected.add("converted " + summary.dwarfFunctions() + " " + summary.symbolFunctions());
    long address;
    try (GsymReader reader = GsymReader.open(expectedGsym)) {
      FunctionInfo main = reader.functionInfos().filter(fi -> reader.string(fi.name()).equals("main")).findFirst().orElseThrow();
      address = main.startAddress() + main.range().size() / 2;
      expected.addAll(("lookup " + reader.lookup(address).toString().strip()).lines().toList());
    }
    try (Symbolizer s = Symbolizer.builder().build()) {
      Symbolized.Found f = (Symbolized.Found) s.symbolize(ModuleRef.file(elf), address);
      for (Frame fr : f.frames()) expected.add("frame " + fr.function() + " " + fr.location().path() + ":" + fr.location().line());
    }
    expected.add("served 200 true");
    expected.add("demangled " + Demangler.llvm().demangle("_ZN2ns5outerEv"));
    // minidump_stackwalk -b of a committed dump, without symbols
    try (dev.gsym.minidump.Minidump dump = dev.gsym.minidump.Minidump.open(DUMP)) {
      expected.addAll(dev.gsym.stackwalk.StackwalkPrinter.brief(dev.gsym.stackwalk.Stackwalker.builder().build().walk(dump)).lines().toList());
    }
    expected.add("breakpad writer dev.gsym.breakpad");
    expected.add("reader module dev.gsym.core");
    expected.add("internal InaccessibleObjectException");
    assertThat(out).containsExactlyElementsOf(expected);
    assertThat(String.join("\n", expected)).contains(" main + ").contains("cpp_main.cpp:"); // real answers, with lines
  }

  @ParameterizedTest(name = "{0} is not visible")
  @CsvSource({
      "dev.gsym.read.internal.FunctionCache, dev.gsym.read.internal, dev.gsym.core",
      "dev.gsym.io.Cursor, dev.gsym.io, dev.gsym.core",
      "dev.gsym.internal.concurrent.OrderedPipeline, dev.gsym.internal.concurrent, dev.gsym.core",
      "dev.gsym.dwarf.read.DwarfFile, dev.gsym.dwarf.read, dev.gsym.dwarf",
      "dev.gsym.dwarf.transform.DwarfTransformer, dev.gsym.dwarf.transform, dev.gsym.dwarf",
      "dev.gsym.object.internal.MappedFiles, dev.gsym.object.internal, dev.gsym.object"})
  void internalsDoNotCompile(String type, String pkg, String module) throws IOException {
    String name = type.substring(type.lastIndexOf('.') + 1);
    Path src = copyConsumer(tmp.resolve("bad-" + name), "import " + type + ";\n");
    String errors = compile(src, tmp.resolve("bad-" + name + "-classes"));
    assertThat(errors).contains("package " + pkg + " is not visible")
        .contains("package " + pkg + " is declared in module " + module + ", which does not export it");
  }

  /** The consumer's sources under {@code dir}, with {@code extraImport} added to Consumer.java. */
  private static Path copyConsumer(Path dir, String extraImport) throws IOException {
    Path java = dir.resolve("dev/example/Consumer.java");
    Files.createDirectories(java.getParent());
    Files.writeString(dir.resolve("module-info.java"), resource("consumer/module-info.java"));
    String consumer = resource("consumer/dev/example/Consumer.java");
    if (extraImport != null) consumer = consumer.replaceFirst("\nimport ", "\n" + extraImport + "import ");
    Files.writeString(java, consumer);
    return dir;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ModularConsumerTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Compiles the consumer module in {@code src} into {@code out}; returns javac's diagnostics. */
  private static String compile(Path src, Path out) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    // an empty class path: javac's default is this JVM's, where the library's jars are plain jars
    Path noClassPath = Files.createDirectories(tmp.resolve("empty"));
    List<String> args = new ArrayList<>(List.of("--module-path", modulePath, "--class-path", noClassPath.toString(),
        "-d", out.toString(), "-Xlint:all"));
    try (var files = Files.walk(src)) {
      files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
    String text = diagnostics.toString(StandardCharsets.UTF_8).strip();
    return rc == 0 ? text : "rc=" + rc + "\n" + text;
  }

  private static List<String> run(Path classes, Path elf, Path gsym) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "--module-path", classes + File.pathSeparator + modulePath,
        "--enable-native-access=dev.gsym.object,dev.gsym.demangle",
        // the consumer brings no slf4j provider (gsym-serve logs through slf4j): no warning about it
        "-Dslf4j.internal.verbosity=ERROR",
        "-m", "dev.example.consumer/dev.example.Consumer", elf.toString(), gsym.toString(), DUMP.toString())
        .redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    return output.lines().toList();
  }
}
